"""The processes a server started in sessions of their own, found before it is stopped, so they stop with it.

A server is started as the leader of its own process group, and stopping it signals the whole group. A child that
the server moved to a new session (`setsid`, Node's `spawn(..., {detached: true})` as Playwright launches its
browser, Python's `start_new_session=True`) has left that group: the group signal misses it, and once the server
has exited it is an orphan that outlives the check or the proxy. So, just before a server is told to stop, its
descendants outside its group are listed from `/proc` (Linux; elsewhere the list is empty), and whatever of them is
still alive once the server is gone is signalled too.

Each process is remembered with its start time, so a pid the system has reused since is never signalled. A process
that double-forked away before the listing (a classic daemon) is no longer a descendant and is not found.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import suppress

from hostcompat._dataclass import dataclass

__all__ = [
    "MAX_TRACKED",
    "Stopped",
    "TrackedProcess",
    "detached_descendants",
    "signal_alive",
    "still_alive",
    "stop_detached",
]

MAX_TRACKED = 1024
"""At most this many detached descendants are remembered (a server that forks without bound gets the first)."""

_PROC = "/proc"


@dataclass(frozen=True, slots=True)
class TrackedProcess:
    """One process by pid and start time (clock ticks after boot): together they name it even once the pid is
    reused.
    """

    pid: int
    start: int


def _stat(pid: int | str, proc: str) -> tuple[bytes, int, int, int] | None:
    """(state, parent pid, process group, start time) of `pid` from `/proc/PID/stat`; None when it is gone or
    unreadable.
    """
    try:
        with open(f"{proc}/{pid}/stat", "rb") as file:
            data = file.read(4096)
    except OSError:
        return None
    fields = data[data.rfind(b")") + 2 :].split()  # the command name may hold spaces and parentheses
    try:
        return fields[0], int(fields[1]), int(fields[2]), int(fields[19])
    except (IndexError, ValueError):
        return None


def _table(proc: str) -> Iterator[tuple[int, int, int, int]]:
    """(pid, parent pid, process group, start time) of every process `/proc` shows."""
    try:
        names = os.listdir(proc)
    except OSError:
        return
    for name in names:
        if name.isdigit() and (fields := _stat(name, proc)) is not None:
            yield int(name), *fields[1:]


def detached_descendants(pid: int, *, proc: str = _PROC) -> tuple[TrackedProcess, ...]:
    """The descendants of `pid` that are outside its process group (the group `pid` leads), found in `/proc`;
    empty off Linux, or when `/proc` cannot be read. Costs one read of `/proc/*/stat` (about 1 ms per 65 processes).
    """
    if not sys.platform.startswith("linux"):
        return ()
    children: dict[int, list[tuple[int, int, int]]] = {}
    for child, parent, group, start in _table(proc):
        children.setdefault(parent, []).append((child, group, start))
    found: list[TrackedProcess] = []
    seen = {pid}
    pending = [pid]
    while pending and len(found) < MAX_TRACKED:
        for child, group, start in children.get(pending.pop(), ()):
            if child in seen:
                continue
            seen.add(child)
            pending.append(child)
            if group != pid:
                found.append(TrackedProcess(child, start))
    return tuple(found[:MAX_TRACKED])


def still_alive(processes: Iterable[TrackedProcess], *, proc: str = _PROC) -> tuple[TrackedProcess, ...]:
    """Those of `processes` that still run as the same process (a zombie counts as gone: it runs no code)."""
    alive = []
    for process in processes:
        fields = _stat(process.pid, proc)
        if fields is not None and fields[3] == process.start and fields[0] not in _GONE:
            alive.append(process)
    return tuple(alive)


_GONE = (b"Z", b"X")
"""Process states of a process that has exited: zombie (waiting to be reaped), dead."""


def signal_alive(processes: Sequence[TrackedProcess], signum: int = signal.SIGKILL, *, proc: str = _PROC) -> int:
    """Send `signum` to each of `processes` that is still the same process; how many were signalled."""
    sent = 0
    for process in still_alive(processes, proc=proc):
        with suppress(ProcessLookupError, PermissionError):
            os.kill(process.pid, signum)
            sent += 1
    return sent


@dataclass(frozen=True, slots=True)
class Stopped:
    """What `stop_detached` found still running (`left`), and how many of those needed SIGKILL."""

    left: tuple[TrackedProcess, ...]
    killed: int

    def pids(self, at_most: int = 10) -> str:
        """The pids of the processes left, the first `at_most` of them, for a message."""
        shown = ", ".join(str(process.pid) for process in self.left[:at_most])
        return shown + (", ..." if len(self.left) > at_most else "")


_POLL_SECONDS = 0.02


async def stop_detached(
    detached: Sequence[TrackedProcess],
    grace: float,
    sleep: Callable[[float], Awaitable[object]],
    *,
    proc: str = _PROC,
) -> Stopped:
    """Stop those of `detached` still running: SIGTERM, up to `grace` seconds for them to go (waiting with the
    caller's `sleep`, such as `anyio.sleep`), then SIGKILL for the rest. Returns at once when none is left.
    """
    left = still_alive(detached, proc=proc)
    if not left:
        return Stopped((), 0)
    signal_alive(left, signal.SIGTERM, proc=proc)
    remaining, deadline = left, time.monotonic() + grace
    while (remaining := still_alive(remaining, proc=proc)) and time.monotonic() < deadline:
        await sleep(_POLL_SECONDS)
    return Stopped(left, signal_alive(remaining, signal.SIGKILL, proc=proc))
