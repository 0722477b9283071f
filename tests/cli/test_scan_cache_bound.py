"""`scan --cache-dir`, and the cache directory's size bound: the least recently used entries go, nothing else does."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

import hostcompat.cli._scan_cache as scan_cache
import hostcompat.engine.scan.widget as widget
from hostcompat.cli import main
from hostcompat.cli._scan_cache import ENTRY_NAME, MIB, DiskScanCache
from hostcompat.cli.command_line import build_parser
from hostcompat.engine.scan.widget import scan_widget_source
from hostcompat.widget_scans import content_key, scan_content
from testkit.snapshots import make_snapshot, widget_tool

PAGE = "<script>window.openai.callTool('x', {}); window.openai.sendFollowUpMessage({prompt: 'a'})</script>"
SCAN_KEY = content_key({"text": PAGE}) or ""
ENTRY = 2048
"""The size of the entries the bound tests make."""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def no_scans(*args: object, **kwargs: object) -> object:
    raise AssertionError("scanned although the cache holds it")


# ---- scan --cache-dir ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_scan_with_a_cache_dir_prints_the_same_and_reuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    page = tmp_path / "widget.html"
    page.write_text(PAGE, "utf-8")
    cache = tmp_path / "cache"
    plain = run("scan", str(page), "--format", fmt)
    first = run("scan", str(page), "--format", fmt, "--cache-dir", str(cache))
    assert first == plain and plain[0] == 0
    assert [path.name for path in cache.iterdir()] == [f"{SCAN_KEY}.scan.json"]
    monkeypatch.setattr(widget, "scan_widget_source", no_scans)
    assert run("scan", str(page), "--format", fmt, "--cache-dir", str(cache)) == plain


def test_scan_and_check_share_a_directory_without_taking_each_others_entries(tmp_path: Path) -> None:
    cache = DiskScanCache(tmp_path)
    item = {"text": PAGE}
    assert cache.write(SCAN_KEY, scan_content(item)) and cache.write_scan(SCAN_KEY, scan_widget_source(PAGE))
    assert cache.read(SCAN_KEY) == scan_content(item)
    assert cache.read_scan(SCAN_KEY) == scan_widget_source(PAGE)
    assert sorted(path.name for path in tmp_path.iterdir()) == [f"{SCAN_KEY}.json", f"{SCAN_KEY}.scan.json"]


@pytest.mark.parametrize(
    "content", [b"", b"{", b'{"format": "hostcompat.scan-cache/1", "scanner": "x", "key": "y", "scan": {}}']
)
def test_a_corrupt_or_foreign_scan_entry_is_a_miss_and_is_written_anew(tmp_path: Path, content: bytes) -> None:
    page = tmp_path / "widget.html"
    page.write_text(PAGE, "utf-8")
    cache = tmp_path / "cache"
    cache.mkdir()
    entry = cache / f"{SCAN_KEY}.scan.json"
    entry.write_bytes(content)
    code, out, err = run("scan", str(page), "--format", "json", "--cache-dir", str(cache))
    assert code == 0 and "Traceback" not in err
    assert json.loads(out) == scan_widget_source(PAGE).to_dict()
    assert DiskScanCache(cache).read_scan(SCAN_KEY) == scan_widget_source(PAGE)


def test_a_linked_scan_entry_is_neither_followed_nor_replaced(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.json"
    DiskScanCache(tmp_path / "kept").write_scan(SCAN_KEY, scan_widget_source(PAGE))
    (tmp_path / "kept" / f"{SCAN_KEY}.scan.json").rename(elsewhere)
    cache = DiskScanCache(tmp_path / "cache")
    (tmp_path / "cache" / f"{SCAN_KEY}.scan.json").symlink_to(elsewhere)
    assert cache.read_scan(SCAN_KEY) is None
    assert not cache.write_scan(SCAN_KEY, scan_widget_source(PAGE))
    assert (tmp_path / "cache" / f"{SCAN_KEY}.scan.json").is_symlink()


def test_scan_and_check_take_the_cache_options(tmp_path: Path) -> None:
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for command in ("scan", "check"):
        text = " ".join(commands.choices[command].format_help().split())
        assert "--cache-dir DIR" in text and "--cache-max-mib MIB" in text and "(default 256; 0: no bound)" in text
    page = tmp_path / "widget.html"
    page.write_text(PAGE, "utf-8")
    code, _, err = run("scan", str(page), "--cache-dir", str(tmp_path / "c"), "--cache-max-mib", "-1")
    assert code == 2 and "--cache-max-mib" in err and "Traceback" not in err


# ---- the bound ----------------------------------------------------------------------------------------------------


def entry_name(number: int, suffix: str = ".json") -> str:
    return f"{number:064x}{suffix}"


def make_entries(directory: Path, count: int) -> list[Path]:
    """`count` entries of `ENTRY` bytes, the first the least recently used."""
    paths = []
    for number in range(count):
        path = directory / entry_name(number, ".scan.json" if number % 2 else ".json")
        path.write_bytes(b" " * ENTRY)
        os.utime(path, ns=(1_000_000_000 * (number + 1),) * 2)
        paths.append(path)
    return paths


def test_the_least_recently_used_entries_go_until_the_rest_fit(tmp_path: Path) -> None:
    paths = make_entries(tmp_path, 6)
    cache = DiskScanCache(tmp_path, max_bytes=4 * ENTRY)
    assert cache.sweep() == 2
    assert [path.exists() for path in paths] == [False, False, True, True, True, True]
    assert cache.sweep() == 0  # within the bound: nothing more goes


def test_a_hit_makes_an_entry_recently_used(tmp_path: Path) -> None:
    cache = DiskScanCache(tmp_path, max_bytes=10 * MIB)
    needs = scan_content({"text": PAGE})
    assert cache.write(SCAN_KEY, needs)
    kept = tmp_path / f"{SCAN_KEY}.json"
    os.utime(kept, ns=(1_000_000_000, 1_000_000_000))  # long unused
    others = make_entries(tmp_path, 3)  # used later than it
    assert cache.read(SCAN_KEY) == needs
    assert kept.stat().st_mtime_ns > others[-1].stat().st_mtime_ns
    DiskScanCache(tmp_path, max_bytes=kept.stat().st_size).sweep()
    assert kept.exists() and not any(path.exists() for path in others)


def test_only_regular_files_named_as_entries_are_counted_or_removed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / entry_name(99)
    target.write_bytes(b" " * ENTRY)
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / entry_name(1)).symlink_to(target)  # a link named as an entry
    (cache_dir / entry_name(2)).mkdir()  # a directory named as an entry
    os.mkfifo(cache_dir / entry_name(3))  # a FIFO named as an entry
    strays = ["notes.txt", "abc.json", f"{'A' * 64}.json", f".{entry_name(4)}.x1y2.tmp", f"{entry_name(5)}.bak"]
    for name in strays:
        (cache_dir / name).write_bytes(b" " * ENTRY)
    real = make_entries(cache_dir, 2)
    assert DiskScanCache(cache_dir, max_bytes=1).sweep() == 2
    assert not any(path.exists() for path in real)
    assert target.exists() and (cache_dir / entry_name(1)).is_symlink() and (cache_dir / entry_name(2)).is_dir()
    assert (cache_dir / entry_name(3)).exists() and all((cache_dir / name).exists() for name in strays)
    assert all(not ENTRY_NAME.fullmatch(name) for name in strays)


def test_no_bound_removes_nothing(tmp_path: Path) -> None:
    paths = make_entries(tmp_path, 3)
    cache = DiskScanCache(tmp_path, max_bytes=0)
    assert cache.sweep() == 0 and all(path.exists() for path in paths)


def test_an_entry_used_replaced_or_removed_since_it_was_listed_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    used, replaced, gone, old = make_entries(tmp_path, 4)
    listed = scan_cache._entries(str(tmp_path))
    os.utime(used, ns=(10**18, 10**18))  # another process hit it
    replaced.unlink()
    replaced.write_bytes(b" " * ENTRY)  # another process wrote it anew
    gone.unlink()  # another process removed it
    monkeypatch.setattr(scan_cache, "_entries", lambda directory: listed)
    assert DiskScanCache(tmp_path, max_bytes=ENTRY).sweep() == 1
    assert used.exists() and replaced.exists() and not old.exists()


def test_a_run_that_writes_keeps_the_directory_within_its_bound(tmp_path: Path) -> None:
    old = make_entries(tmp_path, 4)
    cache = DiskScanCache(tmp_path, max_bytes=2 * ENTRY)
    assert cache.write_scan(SCAN_KEY, scan_widget_source(PAGE))
    cache.close()
    assert (tmp_path / f"{SCAN_KEY}.scan.json").exists()  # the newest stays
    assert sum(path.stat().st_size for path in tmp_path.iterdir()) <= 2 * ENTRY
    assert not old[0].exists()


def test_two_processes_sweeping_one_directory_leave_it_within_the_bound(tmp_path: Path) -> None:
    make_entries(tmp_path, 200)
    code = (
        "import sys\nfrom hostcompat.cli._scan_cache import DiskScanCache\n"
        f"DiskScanCache(sys.argv[1], max_bytes={10 * ENTRY}).sweep()\n"
    )
    sweepers = [subprocess.Popen([sys.executable, "-c", code, str(tmp_path)]) for _ in range(2)]
    assert [sweeper.wait(timeout=60) for sweeper in sweepers] == [0, 0]
    newest = sorted(entry_name(n, ".scan.json" if n % 2 else ".json") for n in range(190, 200))
    assert sorted(path.name for path in tmp_path.iterdir()) == newest


def test_a_check_run_keeps_its_cache_dir_within_the_bound(tmp_path: Path) -> None:
    uri = "ui://a/view.html"
    item = {"uri": uri, "mimeType": "text/html;profile=mcp-app", "text": PAGE}
    snapshot = tmp_path / "snap.json"
    snapshot.write_text(json.dumps(make_snapshot([widget_tool("show", uri)], {uri: item}).to_dict()), "utf-8")
    cache = tmp_path / "cache"
    cache.mkdir()
    old = make_entries(cache, 600)  # 1.2 MiB of entries older than the run's
    code, _, err = run("check", str(snapshot), "--fail-on", "never", "--cache-dir", str(cache), "--cache-max-mib", "1")
    assert code == 0, err
    assert (cache / f"{content_key(item)}.json").exists()  # the run's own entry is the most recent: it stays
    assert sum(path.stat().st_size for path in cache.iterdir()) <= MIB
    assert not old[0].exists() and old[-1].exists()
