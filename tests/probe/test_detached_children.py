"""A server's children in sessions of their own (`setsid`, Node's `detached`) stop with it, and only they do."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hostcompat.probe import capture
from hostcompat.process_tree import Stopped, TrackedProcess, detached_descendants, signal_alive, still_alive
from tests.probe._support import TIGHT, hostile, process_gone

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process trees are read from /proc (Linux)")


def running(pid: int) -> bool:
    """Whether `pid` runs (a zombie does not: it waits for its parent, which may be init, to reap it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in (b"Z", b"X")


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return not running(pid)


@linux
@pytest.mark.anyio
@pytest.mark.xdist_group("timing")
@pytest.mark.parametrize("stubborn", [False, True], ids=["leaves-it", "ignores-sigterm"])
async def test_a_child_the_server_moved_to_its_own_session_is_stopped_with_the_server(
    tmp_path: Path, stubborn: bool
) -> None:
    pid_file = tmp_path / "child.pid"
    target = hostile("detached_child", str(pid_file), *(["--stubborn"] if stubborn else []))
    try:
        snapshot = await capture(target, limits=TIGHT)
        child = int(pid_file.read_text(encoding="utf-8"))
        assert [tool["name"] for tool in snapshot.tools] == ["leaves-a-child"]
        assert snapshot.process is not None and process_gone(snapshot.process["pid"])
        assert gone_within(child, 2.0), "the detached child outlived the probe"
        (event,) = snapshot.events_with("PROBE-DETACHED-STOPPED")
        assert event.step == "shutdown" and f"pid {child}" in event.message
        assert ("ignored SIGTERM and were killed" in event.message) is stubborn
    finally:
        if pid_file.exists():
            with_pid = int(pid_file.read_text(encoding="utf-8"))
            if running(with_pid):
                os.kill(with_pid, signal.SIGKILL)


@linux
@pytest.mark.anyio
async def test_a_server_that_leaves_nothing_behind_gets_no_event() -> None:
    snapshot = await capture(hostile("ignore_sigterm"), limits=TIGHT)
    assert snapshot.events_with("PROBE-DETACHED-STOPPED") == ()


@linux
def test_only_descendants_outside_the_leaders_group_are_listed() -> None:
    script = (
        "import subprocess, sys, time\n"
        "opts = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n"
        "sleep = [sys.executable, '-c', 'import time; time.sleep(60)']\n"
        "same = subprocess.Popen(sleep, **opts)\n"
        "own = subprocess.Popen(sleep, start_new_session=True, **opts)\n"
        "print(same.pid, own.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    leader = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, start_new_session=True)
    own = 0
    try:
        assert leader.stdout is not None
        same, own = (int(pid) for pid in leader.stdout.readline().split())
        found = detached_descendants(leader.pid)
        assert [process.pid for process in found] == [own]
        assert still_alive(found) == found
        assert signal_alive(found, signal.SIGKILL) == 1
        assert gone_within(own, 2.0) and running(same)
        assert still_alive(found) == ()
        assert signal_alive(found, signal.SIGKILL) == 0  # gone: nothing is signalled
    finally:
        os.killpg(leader.pid, signal.SIGKILL)
        leader.wait()
        if leader.stdout is not None:
            leader.stdout.close()
        if own and running(own):
            os.kill(own, signal.SIGKILL)


def _stat_line(pid: int, parent: int, group: int, start: int, state: str = "S", name: str = "a) (b") -> str:
    fields = [state, str(parent), str(group), *["0"] * 16, str(start)]
    return f"{pid} ({name}) {' '.join(fields)}\n"


def _fake_proc(root: Path, rows: list[tuple[int, int, int, int, str]]) -> str:
    for pid, parent, group, start, state in rows:
        (root / str(pid)).mkdir()
        (root / str(pid) / "stat").write_text(_stat_line(pid, parent, group, start, state), encoding="utf-8")
    (root / "self").mkdir()  # not a pid: skipped
    return str(root)


@linux
def test_a_reused_pid_or_a_zombie_is_never_taken_for_the_process_remembered(tmp_path: Path) -> None:
    proc = _fake_proc(
        tmp_path,
        [
            (100, 1, 100, 10, "S"),  # the server, leading group 100
            (101, 100, 100, 11, "S"),  # in its group: the group signal reaches it
            (102, 100, 102, 12, "S"),  # its own session
            (103, 102, 102, 13, "S"),  # a child of that one, in that group
            (104, 101, 104, 14, "Z"),  # own session, exited, not reaped
            (200, 1, 200, 20, "S"),  # unrelated
        ],
    )
    found = detached_descendants(100, proc=proc)
    assert sorted(process.pid for process in found) == [102, 103, 104]
    remembered = (TrackedProcess(102, 12), TrackedProcess(103, 99), TrackedProcess(104, 14), TrackedProcess(105, 15))
    assert still_alive(remembered, proc=proc) == (TrackedProcess(102, 12),)  # 103 reused, 104 a zombie, 105 gone


def test_the_pids_left_are_told_up_to_a_bound() -> None:
    few = Stopped(tuple(TrackedProcess(pid, 1) for pid in (11, 12)), killed=0)
    many = Stopped(tuple(TrackedProcess(pid, 1) for pid in range(100, 125)), killed=3)
    assert few.pids() == "11, 12"
    assert many.pids() == ", ".join(str(pid) for pid in range(100, 110)) + ", ..."
    assert many.pids(at_most=2) == "100, 101, ..."
