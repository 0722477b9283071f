"""`check --cache-dir` and the run's widget scans: kept on disk by content and scanner version, done ahead in worker
processes; a cache entry is untrusted input, and a failing pool changes nothing but where the scan runs.
"""

from __future__ import annotations

import concurrent.futures
import io
import json
import os
from concurrent.futures import Future
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

import hostcompat.cli._scans as run_scans
import hostcompat.engine.scan.version as scanner_version
import hostcompat.widget_scans as widget_scans
from hostcompat.cli import main
from hostcompat.cli._scan_cache import MAX_ENTRY_BYTES, DiskScanCache
from hostcompat.cli._scans import RunScans
from hostcompat.errors import InvalidInput
from hostcompat.pipeline import WidgetBudget
from hostcompat.widget_scans import ContentNeeds, content_key, scan_content
from hostcompat.wire_json import WireJSON
from testkit.snapshots import make_snapshot, widget_tool

PAGE = "<script>window.openai.callTool('x', {}); window.openai.sendFollowUpMessage({prompt: 'a'})</script>"
ITEM: dict[str, Any] = {"uri": "ui://a/view.html", "mimeType": "text/html;profile=mcp-app", "text": PAGE}
KEY = content_key(ITEM) or ""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def no_scans(item: WireJSON, deadline: float | None = None) -> ContentNeeds:
    raise AssertionError("scanned although the cache holds it")


def test_a_miss_then_a_hit(tmp_path: Path) -> None:
    cache = DiskScanCache(tmp_path / "new" / "cache")  # made when missing
    assert cache.read(KEY) is None
    needs = scan_content(ITEM)
    assert cache.write(KEY, needs)
    assert cache.read(KEY) == needs
    assert [path.name for path in (tmp_path / "new" / "cache").iterdir()] == [f"{KEY}.json"]


def test_a_new_scanner_version_misses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = DiskScanCache(tmp_path)
    cache.write(KEY, scan_content(ITEM))
    monkeypatch.setattr(scanner_version, "SCANNER_VERSION", "0.0.0+scan.999")
    assert cache.read(KEY) is None  # an entry read under its old key, written by the old scanner
    assert content_key(ITEM) != KEY  # and the new scanner asks under another key anyway


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json",
        b'{"format": "hostcompat.scan-cache/1"',
        b"[1, 2, 3]",
        b"\xff\xfe garbage",
        b"[" * 100_000,
    ],
)
def test_a_corrupt_entry_is_a_miss(tmp_path: Path, content: bytes) -> None:
    (tmp_path / f"{KEY}.json").write_bytes(content)
    assert DiskScanCache(tmp_path).read(KEY) is None


@pytest.mark.parametrize(
    "change",
    [
        lambda e: e.update(key="0" * 64),
        lambda e: e.update(scanner="another"),
        lambda e: e.update(format="hostcompat.scan-cache/9"),
        lambda e: e.update(extra=True),
        lambda e: e["needs"].update(uses=[["serverTools", "no"]]),
    ],
)
def test_a_foreign_entry_is_a_miss(tmp_path: Path, change: Any) -> None:
    cache = DiskScanCache(tmp_path)
    cache.write(KEY, scan_content(ITEM))
    path = tmp_path / f"{KEY}.json"
    entry = json.loads(path.read_text("utf-8"))
    change(entry)
    path.write_text(json.dumps(entry), "utf-8")
    assert cache.read(KEY) is None


def test_only_regular_files_of_bounded_size_are_read_or_written(tmp_path: Path) -> None:
    cache = DiskScanCache(tmp_path / "cache")
    needs = scan_content(ITEM)
    elsewhere = tmp_path / "elsewhere.json"
    cache.write(KEY, needs)
    (tmp_path / "cache" / f"{KEY}.json").rename(elsewhere)
    (tmp_path / "cache" / f"{KEY}.json").symlink_to(elsewhere)
    assert cache.read(KEY) is None  # a link is never followed
    assert not cache.write(KEY, needs)  # nor replaced
    fifo = "f" * 64
    os.mkfifo(tmp_path / "cache" / f"{fifo}.json")
    assert cache.read(fifo) is None  # and a FIFO neither blocks the reader nor takes the entry
    assert not cache.write(fifo, needs)
    (tmp_path / "cache" / f"{'d' * 64}.json").mkdir()
    assert cache.read("d" * 64) is None and not cache.write("d" * 64, needs)
    big = "b" * 64
    (tmp_path / "cache" / f"{big}.json").write_bytes(b" " * (MAX_ENTRY_BYTES + 1))
    assert cache.read(big) is None
    huge = ContentNeeds(wrapper_only=("x" * 1000,) * (MAX_ENTRY_BYTES // 1000))
    assert not cache.write("c" * 64, huge)
    assert not (tmp_path / "cache" / f"{'c' * 64}.json").exists()


def test_a_cache_dir_that_is_a_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", "utf-8")
    with pytest.raises(InvalidInput, match="--cache-dir"):
        DiskScanCache(tmp_path / "file")
    snapshot = tmp_path / "snap.json"
    snapshot.write_text(json.dumps(make_snapshot([], {}).to_dict()), "utf-8")
    code, _, err = run("check", str(snapshot), "--cache-dir", str(tmp_path / "file"))
    assert code == 2 and "--cache-dir" in err and "Traceback" not in err


@pytest.fixture
def two_servers(tmp_path: Path) -> list[Path]:
    """Two snapshot files whose servers serve the same widget under different URIs."""
    paths = []
    for name, uri in (("one", "ui://a/view.html"), ("two", "ui://b/page.html")):
        snapshot = make_snapshot([widget_tool(f"show_{name}", uri)], {uri: {**ITEM, "uri": uri}})
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(snapshot.to_dict()), "utf-8")
        paths.append(path)
    return paths


def test_check_with_a_cache_dir_reports_the_same_and_reuses_it(
    tmp_path: Path, two_servers: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["check", *map(str, two_servers), "--format", "json", "--fail-on", "never"]
    code, plain, _ = run(*argv)
    assert code == 0
    cache = tmp_path / "cache"
    first = run(*argv, "--cache-dir", str(cache))
    assert first[0] == 0 and json.loads(first[1])["servers"] == json.loads(plain)["servers"]
    assert [path.name for path in cache.iterdir()] == [f"{KEY}.json"]  # one widget, one entry
    monkeypatch.setattr(widget_scans, "scan_content", no_scans)
    monkeypatch.setattr(run_scans, "scan_content", no_scans)
    monkeypatch.setattr(run_scans, "_start_pool", lambda workers: None)  # every scan would run here: none does
    again = run(*argv, "--cache-dir", str(cache))
    assert again[0] == 0 and json.loads(again[1])["servers"] == json.loads(plain)["servers"]


def test_a_corrupt_cache_changes_nothing_and_prints_no_traceback(tmp_path: Path, two_servers: list[Path]) -> None:
    argv = ["check", *map(str, two_servers), "--format", "json", "--fail-on", "never"]
    plain = run(*argv)[1]
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / f"{KEY}.json").write_bytes(b'{"format": "hostcompat.scan-cache/1", "needs": {"uses": [[')
    code, out, err = run(*argv, "--cache-dir", str(cache))
    assert code == 0 and "Traceback" not in err
    assert json.loads(out)["servers"] == json.loads(plain)["servers"]
    assert DiskScanCache(cache).read(KEY) == scan_content(ITEM)  # the entry was written anew


def snapshot_with(item: dict[str, Any]) -> Any:
    return make_snapshot([widget_tool("show", str(item["uri"]))], {str(item["uri"]): item})


def test_a_pool_scans_ahead_what_the_check_then_reads() -> None:
    scans = RunScans(workers=1)
    try:
        scans.prescan(snapshot_with(ITEM), WidgetBudget())
        assert KEY in scans._pending
        assert scans.content_needs(ITEM, None) == scan_content(ITEM)
        assert not scans._pending and KEY in scans._done
    finally:
        scans.close()


class BrokenPool:
    """An executor whose every scan fails, as a dead worker's does."""

    def __init__(self) -> None:
        self.shut = False

    def submit(self, *args: object) -> Future[object]:
        future: Future[object] = Future()
        future.set_exception(RuntimeError("a worker died"))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shut = True


def test_a_failing_pool_falls_back_to_scanning_here(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = BrokenPool()
    monkeypatch.setattr(run_scans, "_start_pool", lambda workers: pool)
    scans = RunScans(workers=2)
    scans.prescan(snapshot_with(ITEM), WidgetBudget())
    assert scans.content_needs(ITEM, None) == scan_content(ITEM)
    assert pool.shut
    other = {**ITEM, "text": PAGE + " "}
    scans.prescan(snapshot_with(other), WidgetBudget())  # the pool is off: nothing is sent to it
    assert scans.content_needs(other, None) == scan_content(other)


def test_a_pool_that_cannot_start_or_take_work_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    class Refusing(BrokenPool):
        def submit(self, *args: object) -> Future[object]:
            raise RuntimeError("cannot schedule new futures after shutdown")

    start_pool = run_scans._start_pool
    monkeypatch.setattr(run_scans, "_start_pool", lambda workers: Refusing())
    scans = RunScans(workers=2)
    scans.prescan(snapshot_with(ITEM), WidgetBudget())
    assert scans.content_needs(ITEM, None) == scan_content(ITEM)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", None)  # not callable: the pool cannot start
    assert start_pool(2) is None


def test_a_scan_the_worker_stopped_early_runs_again_here(monkeypatch: pytest.MonkeyPatch) -> None:
    class Early(BrokenPool):
        def submit(self, *args: object) -> Future[object]:
            future: Future[object] = Future()
            future.set_result(None)  # the worker's deadline passed
            return future

    monkeypatch.setattr(run_scans, "_start_pool", lambda workers: Early())
    scans = RunScans(workers=1)
    scans.prescan(snapshot_with(ITEM), WidgetBudget())
    assert scans.content_needs(ITEM, None) == scan_content(ITEM)


def test_a_worker_scan_is_the_pure_scan_within_its_deadline() -> None:
    import time

    assert run_scans._scan_in_worker(ITEM, None) == scan_content(ITEM)
    assert run_scans._scan_in_worker({**ITEM, "text": PAGE * 2000}, time.time() - 1) is None
