"""The upstream server as a process group: a memory limit when it starts, bounded escalation when it stops.

The server leads a session of its own, so its pid is the id of a process group that also holds whatever it starts
(`npx` runs `node`, a shell runs the real server). Stopping the leader is not enough: a child it left behind would
outlive the proxy. So the whole group is signalled, SIGTERM first and SIGKILL after a bounded wait, even once the
leader has exited on its own. A child the server moved to a session of its own has left the group: those are
listed before the server is told to stop (`hostcompat.process_tree`) and stopped after it.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import Callable
from contextlib import suppress

import anyio

from hostcompat.process_tree import TrackedProcess, stop_detached

logger = logging.getLogger(__name__)

GROUP_POLL = 0.02
"""Seconds between checks on a process group that was told to stop."""


def group_alive(pgid: int) -> bool:
    """Whether any process is left in group `pgid` (only "no such process" proves it is gone)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a member we may not signal, or an unreaped zombie: still there
        return True
    return True


def signal_group(pgid: int, signum: int) -> None:
    """Send `signum` to every process of group `pgid`; a group already gone is no error."""
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


async def _wait_gone(pgid: int, seconds: float, reap: Callable[[], object]) -> bool:
    with anyio.move_on_after(seconds):
        while True:
            reap()  # a leader that exited stays a zombie, and in the group, until it is reaped
            if not group_alive(pgid):
                return True
            await anyio.sleep(GROUP_POLL)
    return False


async def end_detached(detached: tuple[TrackedProcess, ...], grace: float) -> None:
    """Stop what the server had moved to sessions of its own (listed by `detached_descendants` before it was told
    to stop) and is still running: SIGTERM, up to `grace` seconds, SIGKILL.
    """
    if detached:
        stopped = await stop_detached(detached, grace, anyio.sleep)
        if stopped.left:
            count, pids = len(stopped.left), stopped.pids()
            logger.info("stopped %d process(es) the server left in sessions of their own (pid %s)", count, pids)


async def end_group(pgid: int, grace: float, reap: Callable[[], object]) -> None:
    """Stop every process left in group `pgid`: SIGTERM, up to `grace` seconds, then SIGKILL (and up to `grace`).

    `reap` collects the leader's exit status when it has exited (it is our child; the others are not). Returns at
    once when the group is already empty, so a server that exited cleanly with nothing left behind costs nothing.
    """
    if sys.platform == "win32":  # pragma: no cover - no process groups; the proxy is exercised on POSIX
        return
    reap()
    if not group_alive(pgid):
        return
    signal_group(pgid, signal.SIGTERM)
    if await _wait_gone(pgid, grace, reap):
        return
    signal_group(pgid, signal.SIGKILL)
    await _wait_gone(pgid, grace, reap)


def limit_memory(pid: int, max_bytes: int | None) -> bool:
    """Cap the data segment (heap and private memory) of process `pid`, and of what it starts, at `max_bytes`.

    A server past the limit sees its allocations fail (most exit). Linux only (`prlimit`); elsewhere, or with no
    limit, nothing happens. Returns whether the limit is in place.
    """
    if max_bytes is None or sys.platform != "linux":
        return False
    import resource

    try:
        _, hard = resource.prlimit(pid, resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            max_bytes = min(max_bytes, hard)
        resource.prlimit(pid, resource.RLIMIT_DATA, (max_bytes, max_bytes))
    except (OSError, ValueError):  # the process is gone already, or the limit may not be set
        return False
    return True


__all__ = ["GROUP_POLL", "end_detached", "end_group", "group_alive", "limit_memory", "signal_group"]
