"""`hostcompat check` on hostile servers and snapshots: the report always comes out, bounded (issue 12, 3-5).

Real processes throughout: the servers are the hostile fixtures of `tests/probe/servers`, and the memory bounds are
the peak RSS a `check` child process reports of itself (`VmHWM`), never a timing.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Mapping
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from hostcompat.cli import main
from tests.probe._support import REPO

MB = 1_000_000
PEAK_RUNNER = (
    "import sys\n"
    "from hostcompat.cli import main\n"
    "try:\n"
    "    code = main(sys.argv[1:])\n"
    "finally:\n"
    "    peak = [line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:')]\n"
    "    sys.stderr.write(f'\\nPEAK-RSS-KB {peak[0]}\\n')\n"
    "sys.exit(code)\n"
)
"""Runs `hostcompat` and reports the peak RSS of that process alone: `VmHWM`, the high-water mark of its own memory
(`ru_maxrss` would also count the parent's memory it was forked from, and a server it starts is not counted)."""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def fixture(name: str, *args: str) -> list[str]:
    return [sys.executable, "-m", f"tests.probe.servers.{name}", *args]


def check_in_child(*argv: str, timeout: float = 110) -> tuple[int, dict[str, Any], float]:
    """(exit code, the JSON report, peak RSS in MB) of `hostcompat check ARGV --format json` in its own process."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK_RUNNER, "check", "--format", "json", "--fail-on", "never", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    peaks = [line for line in done.stderr.splitlines() if line.startswith("PEAK-RSS-KB ")]
    assert peaks, done.stderr[-3000:]
    return done.returncode, json.loads(done.stdout), int(peaks[-1].split()[1]) * 1024 / MB


def hygiene(server: Mapping[str, Any], rule_id: str) -> list[dict[str, Any]]:
    return [finding for finding in server["hygiene"] if finding["ruleId"] == rule_id]


# --- 3. oversized values are cut and become findings ---------------------------------------------------------------


def test_names_and_uris_of_thousands_of_characters_are_cut_and_named(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    servers = {"long": fixture("long_values"), "small": fixture("many_tools", "--count", "3")}
    entries = {name: {"command": argv[0], "args": argv[1:], "cwd": str(REPO)} for name, argv in servers.items()}
    config.write_text(json.dumps({"mcpServers": entries}), "utf-8")
    code, out, err = run("check", "--config", str(config), "--format", "json", "--fail-on", "never")
    assert code == 0, err  # was 2: "Evidence.source is longer than 4000 characters", and no report at all
    long, small = json.loads(out)["servers"]
    assert small["server"]["name"] == "many-tools" and small["hosts"]  # the other server keeps its report
    assert long["hosts"] and not [e for e in long["events"] if e["code"] == "CHECK-FAILED"]
    named = hygiene(long, "CHECK-LONG-001")
    cut_name = next(f for f in named if "name is 5,000 characters" in f["detail"])
    assert len(cut_name["tools"][0]) == 1024 and cut_name["tools"][0].endswith("…")
    assert any("_meta.ui.resourceUri is 5,010 characters" in f["detail"] for f in named)
    resource = hygiene(long, "CHECK-LONG-002")[0]
    assert "mimeType is" in resource["detail"] and len(resource["resources"][0]) == 1024
    longest = max(len(text) for text in json.dumps(long).split('"'))
    assert longest < 1100  # no value of the server is carried whole into the report
    for fmt in ("text", "markdown", "sarif"):
        assert run("check", "--config", str(config), "--format", fmt, "--fail-on", "never")[0] == 0


def test_a_check_that_still_fails_on_a_servers_data_gives_that_server_an_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hostcompat.pipeline
    from hostcompat.errors import InvalidInput

    def broken(*args: object, **kwargs: object) -> None:
        raise InvalidInput("a value the engine refuses")

    monkeypatch.setattr(hostcompat.pipeline, "evaluate_all_hosts", broken)
    config = tmp_path / "mcp.json"
    argv = fixture("many_tools", "--count", "3")
    config.write_text(json.dumps({"mcpServers": {"a": {"command": argv[0], "args": argv[1:], "cwd": str(REPO)}}}))
    code, out, _ = run("check", "--config", str(config), "--format", "json")
    (server,) = json.loads(out)["servers"]
    assert code == 1  # a server that could not be checked fails the run, with its reason in the report
    assert server["events"] == [
        {
            "code": "CHECK-FAILED",
            "message": "the check of this server failed on its data: a value the engine refuses",
            "severity": "error",
        }
    ]


# --- 4. --timeout and a byte budget bound the widget analysis ------------------------------------------------------


def bomb_snapshot(path: Path, widgets: int, calls: int) -> Path:
    """A snapshot of `widgets` distinct widgets of `calls` unguarded `window.openai.callTool` calls each."""
    tools, captures = [], {}
    for n in range(widgets):
        uri = f"ui://bomb/{n}.html"
        html = f"<!DOCTYPE html><html><body><script>/* {n} */" + 'window.openai.callTool("x");\n' * calls
        tools.append({"name": f"bomb_{n}", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": uri}}})
        item = {"uri": uri, "mimeType": "text/html;profile=mcp-app", "text": html + "</script></body></html>"}
        captures[uri] = {"contents": [item], "referencedBy": [f"tool:bomb_{n}"]}
    dimensions = ("tools", "resources", "resourceTemplates", "prompts", "uiResources")
    path.write_text(
        json.dumps(
            {
                "schemaVersion": "hostcompat.snapshot/1",
                "capturedAt": "2026-01-01T00:00:00Z",
                "target": {"kind": "stdio"},
                "client": {},
                "connection": {"era": "handshake", "protocolVersion": "2025-11-25"},
                "initialize": {"serverInfo": {"name": "bomb"}, "capabilities": {"tools": {}}},
                "limits": {},
                "coverage": dict.fromkeys(dimensions, "complete"),
                "tools": tools,
                "uiResources": captures,
            }
        ),
        "utf-8",
    )
    return path


def test_a_call_bomb_widget_is_analysed_within_bounds_and_says_it_was_cut(tmp_path: Path) -> None:
    snapshot = bomb_snapshot(tmp_path / "bomb.json", widgets=1, calls=150_000)  # 4.4 MB
    code, report, peak = check_in_child(str(snapshot))
    (server,) = report["servers"]
    assert code == 0 and server["hosts"]
    partial = hygiene(server, "CHECK-SCAN-002")
    assert partial and partial[0]["tools"] == ["bomb_0"]
    assert not server["requirements"]["unknownDimensions"]  # the needs it found are used
    size = snapshot.stat().st_size / MB
    assert peak <= 3 * size + 100, f"peak {peak:.0f} MB for a {size:.1f} MB snapshot"  # was 250 MB: 55x its size


def test_widgets_over_the_time_or_size_budget_are_named_not_silently_passed(tmp_path: Path) -> None:
    from hostcompat.engine.catalog.load import load_catalog
    from hostcompat.pipeline import WidgetBudget, check_snapshot
    from hostcompat.probe.snapshot import read_snapshot

    snapshot = read_snapshot(bomb_snapshot(tmp_path / "bombs.json", widgets=4, calls=2_000))
    size = len(snapshot.ui_resources["ui://bomb/0.html"].contents[0]["text"])
    entry = check_snapshot(snapshot, load_catalog(), widget_budget=WidgetBudget(seconds=None, max_chars=2 * size + 10))
    left_out = hygiene(entry, "CHECK-SCAN-001")
    assert [f["resources"] for f in left_out] == [["ui://bomb/2.html"], ["ui://bomb/3.html"]]
    assert "over the" in left_out[0]["detail"] and left_out[0]["tools"] == ["bomb_2"]
    requirements = entry["requirements"]
    assert requirements is not None and requirements["unknownDimensions"]  # unknown usage: no host is called fine
    out_of_time = check_snapshot(snapshot, load_catalog(), widget_budget=WidgetBudget(seconds=1e-9))
    assert len(hygiene(out_of_time, "CHECK-SCAN-001")) == 4
    notes = [e["message"] for e in out_of_time["events"] if e["code"] == "CHECK-WIDGET-NOT-ANALYSED"]
    assert len(notes) == 4 and "s for widgets" in notes[0]


def test_timeout_bounds_the_widget_analysis_of_a_check(tmp_path: Path) -> None:
    snapshot = bomb_snapshot(tmp_path / "bombs.json", widgets=30, calls=20_000)  # 30 distinct 0.6 MB widgets
    code, out, err = run("check", str(snapshot), "--timeout", "0.05", "--format", "json", "--fail-on", "never")
    assert code == 0, err
    (server,) = json.loads(out)["servers"]
    left_out = hygiene(server, "CHECK-SCAN-001")
    assert left_out and all("s for widgets" in finding["detail"] for finding in left_out)


# --- 5. memory: bounded by the input, not by what it parses to -----------------------------------------------------


def test_a_million_tool_list_is_read_in_bounded_memory() -> None:
    code, report, peak = check_in_child("--", *fixture("million_tools"))
    (server,) = report["servers"]
    assert code == 0
    assert any(e["code"] == "PROBE-ITEM-CAP" for e in server["events"])
    assert "tools" in " ".join(server["requirements"]["unknownDimensions"])
    assert peak <= 3 * 32 + 100, f"peak {peak:.0f} MB for a 32 MB message"  # was 1.5 GB


def test_a_large_snapshot_is_checked_in_memory_bounded_by_its_size(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    tools = [
        {
            "name": f"tool_{n:05d}",
            "description": "A tool. " * 60,
            "inputSchema": {
                "type": "object",
                "properties": {f"f{k}": {"type": "string", "description": "d" * 60} for k in range(34)},
            },
        }
        for n in range(12_000)
    ]
    bomb_snapshot(path, widgets=0, calls=0)
    data = json.loads(path.read_text("utf-8"))
    data["tools"] = tools
    path.write_text(json.dumps(data), "utf-8")
    del tools, data
    code, report, peak = check_in_child(str(path))
    size = path.stat().st_size / MB
    assert code == 0 and len(report["servers"][0]["hosts"]) > 1
    assert peak <= 3 * size + 100, f"peak {peak:.0f} MB for a {size:.0f} MB snapshot"  # was 5.7x its size
