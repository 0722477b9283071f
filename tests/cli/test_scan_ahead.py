"""The widget scans a one-snapshot `check` starts in a forked child (`cli._scan_ahead`): which items it picks, that
its results are the in-process scan's, and that any failure of the child falls back to scanning in process.

Forking is tested in a child Python of its own: the test runner has threads (a fork there is what `can_fork`
refuses), and a script with none is what `hostcompat check` is.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hostcompat.cli._scan_ahead import AheadScans, can_fork, items_to_scan_ahead
from hostcompat.probe.snapshot import UIResourceCapture, write_snapshot
from hostcompat.widget_scans import needs_to_json, scan_content
from testkit.snapshots import corpus_path, corpus_snapshot, make_snapshot, widget_tool

REPO = Path(__file__).resolve().parents[2]

OPENAI_PAGE = "<script>window.openai.callTool('x', {}); window.openai.sendFollowUpMessage({prompt: 'p'})</script>"
APPS_PAGE = (
    "<script>const app = new App(); app.callServerTool({name: 'x'});"
    " if (app.getHostCapabilities()?.openLinks) { app.openLink({url: 'https://e.example'}) }</script>"
)


def _snapshot() -> object:
    tools = [widget_tool("a", "ui://w/a.html"), widget_tool("b", "ui://w/b.html")]
    return make_snapshot(tools, {"ui://w/a.html": OPENAI_PAGE, "ui://w/b.html": APPS_PAGE})


def test_items_are_the_tools_widgets_in_order_within_the_characters() -> None:
    snapshot = make_snapshot(
        [widget_tool("a", "ui://w/a.html"), widget_tool("b", "ui://w/b.html")],
        {"ui://w/a.html": OPENAI_PAGE, "ui://w/b.html": APPS_PAGE, "ui://w/listed.html": OPENAI_PAGE},
    )
    captures = dict(snapshot.ui_resources)
    listed = captures["ui://w/listed.html"]
    captures["ui://w/listed.html"] = UIResourceCapture(
        uri=listed.uri, contents=listed.contents, referenced_by=("resources/list",)
    )
    captures["ui://w/cut.html"] = UIResourceCapture(uri="ui://w/cut.html", contents=listed.contents, truncated=True)
    captures["ui://w/failed.html"] = UIResourceCapture(uri="ui://w/failed.html", error={"message": "no"})
    snapshot = dataclasses.replace(snapshot, ui_resources=captures)

    picked = items_to_scan_ahead(snapshot, 10_000)
    assert [item["uri"] for item in picked] == ["ui://w/a.html", "ui://w/b.html"]
    assert [item["uri"] for item in items_to_scan_ahead(snapshot, len(OPENAI_PAGE) + 1)] == ["ui://w/a.html"]
    assert items_to_scan_ahead(snapshot, 1) == []


def test_no_fork_while_another_thread_runs() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not can_fork()
        assert AheadScans.start([{"uri": "ui://w", "text": OPENAI_PAGE}], None) is None
    finally:
        stop.set()
        other.join()


_CHILD_SCRIPT = r"""
import json, os, signal, sys, time
from hostcompat.cli._scan_ahead import AheadScans
from hostcompat.errors import ScanTimedOut
from hostcompat.widget_scans import needs_to_json

items = json.load(open(sys.argv[1]))
out = {}
ahead = AheadScans.start(items, 60)
out["started"] = ahead is not None
out["results"] = [needs_to_json(ahead.content_needs(dict(item), None)) for item in items]  # copies: found by text
out["foreign"] = ahead.content_needs({"uri": "ui://other", "text": "<p>other</p>"}, None)
pid = ahead._pid
ahead.close()
try:
    os.waitpid(pid, os.WNOHANG)
    out["reaped"] = False
except ChildProcessError:
    out["reaped"] = True

killed = AheadScans.start(items, 60)
os.kill(killed._pid, signal.SIGKILL)
out["after_kill"] = killed.content_needs(items[-1], time.monotonic() + 60)
killed.close()

slow = AheadScans.start(items, 60)
try:
    slow.content_needs(items[-1], time.monotonic() - 1)
    out["past_deadline"] = "returned"
except ScanTimedOut:
    out["past_deadline"] = "ScanTimedOut"
slow.close()
json.dump(out, sys.stdout)
"""


def _run_child(tmp_path: Path, items: list[dict[str, object]]) -> dict[str, object]:
    (tmp_path / "items.json").write_text(json.dumps(items), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", _CHILD_SCRIPT, str(tmp_path / "items.json")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(not sys.platform.startswith("linux") or (os.cpu_count() or 1) < 2, reason="forks on Linux only")
def test_the_childs_results_are_the_in_process_scans(tmp_path: Path) -> None:
    items: list[dict[str, object]] = [
        {"uri": "ui://w/a.html", "mimeType": "text/html;profile=mcp-app", "text": OPENAI_PAGE},
        {"uri": "ui://w/b.html", "mimeType": "text/html;profile=mcp-app", "text": APPS_PAGE},
    ]
    if corpus_path("server-pdf").is_file():  # a real 4 MB bundle, as the offline check of its snapshot scans it
        (pdf,) = items_to_scan_ahead(corpus_snapshot("server-pdf"), 1 << 30)
        items.append(dict(pdf))
    out = _run_child(tmp_path, items)

    assert out["started"] is True
    assert out["results"] == [needs_to_json(scan_content(item)) for item in items]
    assert any(result["uses"] for result in out["results"])
    assert out["foreign"] is None  # not given to the child: scanned in process
    assert out["reaped"] is True
    assert out["after_kill"] is None  # a dead child: scanned in process
    assert out["past_deadline"] == "ScanTimedOut"


_CHECK_SCRIPT = r"""
import sys
import hostcompat.cli._scan_ahead as ahead

taken = []
asked = ahead.AheadScans.content_needs
def counted(self, item, deadline):
    needs = asked(self, item, deadline)
    taken.append(needs is not None)
    return needs
ahead.AheadScans.content_needs = counted
from hostcompat.cli import main
code = main(sys.argv[1:])
sys.stderr.write(f"taken from the child: {taken}\n")
sys.exit(code)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or (os.cpu_count() or 1) < 2, reason="forks on Linux only")
def test_check_of_one_snapshot_takes_the_childs_scans_and_reports_the_same(tmp_path: Path) -> None:
    path = write_snapshot(_snapshot(), tmp_path / "two-widgets.json")  # type: ignore[arg-type]
    forked = subprocess.run(
        [sys.executable, "-c", _CHECK_SCRIPT, "check", str(path), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=REPO,
    )
    in_process = subprocess.run(  # with a scan cache: no child, every scan in process
        [sys.executable, "-m", "hostcompat", "check", str(path), "--format", "json", "--cache-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=REPO,
    )
    assert "taken from the child: [True, True]" in forked.stderr
    assert forked.returncode == in_process.returncode
    assert json.loads(forked.stdout) == json.loads(in_process.stdout)
