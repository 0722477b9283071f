"""Pipes driven straight from the asyncio event loop: non-blocking writes with a bounded backlog, and the server
subprocess with its three pipes.

The pipe relay reads and writes in loop callbacks, with no task switch and no thread between a readable pipe and
the write that forwards its bytes; this module holds the plumbing that makes that safe (partial writes, a peer that
stops reading, a server that will not exit).
"""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess
from collections.abc import Callable
from contextlib import suppress

import anyio

from hostcompat.clients.proxy.config import StdioUpstream
from hostcompat.clients.proxy.processes import end_detached, end_group, limit_memory
from hostcompat.process_tree import detached_descendants

HIGH_WATER = 1 << 20
"""Bytes waiting for a slow reader past which the relay stops reading the side that feeds it."""
REAP_POLL = 0.02
"""Seconds between checks on a process group that was told to stop."""


def is_pipe(fd: int) -> bool:
    """Whether `fd` is a pipe or a socket (which the event loop can poll and write without blocking)."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class Outbox:
    """Writes bytes to a non-blocking descriptor as far as it takes them, keeping the rest until it is writable.

    `on_full` runs when the backlog passes `HIGH_WATER` (stop reading what feeds it), `on_drained` when the backlog
    is empty again. After a write fails (the reader is gone) everything sent is dropped and `broken` is true. The
    descriptor's blocking mode is restored by `close()`.
    """

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        fd: int,
        *,
        on_full: Callable[[], None],
        on_drained: Callable[[], None],
    ) -> None:
        self._loop = loop
        self._fd = fd
        self._on_full = on_full
        self._on_drained = on_drained
        self._backlog = bytearray()
        self._watching = False
        self.broken = False
        self._restore = os.get_blocking(fd)
        os.set_blocking(fd, False)

    @property
    def waiting(self) -> int:
        """Bytes accepted but not yet written."""
        return len(self._backlog)

    def send(self, data: bytes) -> None:
        """Write `data` (after anything still waiting); never blocks."""
        if self.broken or not data:
            return
        if self._backlog:
            self._backlog += data
        else:
            try:  # as _write, without its call: this runs for every message
                written = os.write(self._fd, data)
            except (BlockingIOError, InterruptedError):
                written = 0
            except OSError:
                self._break()
                return
            if written == len(data):
                return
            self._backlog += memoryview(data)[written:]
            self._loop.add_writer(self._fd, self._writable)
            self._watching = True
        if len(self._backlog) > HIGH_WATER:
            self._on_full()

    def _write(self, data: bytes | bytearray) -> int:
        try:
            return os.write(self._fd, data)
        except (BlockingIOError, InterruptedError):
            return 0
        except OSError:
            self._break()
            return 0

    def _writable(self) -> None:
        written = self._write(self._backlog)
        if self.broken:
            return
        del self._backlog[:written]
        if not self._backlog:
            self._stop_watching()
            self._on_drained()

    def _break(self) -> None:
        self.broken = True
        self._backlog.clear()
        self._stop_watching()
        self._on_drained()

    def _stop_watching(self) -> None:
        if self._watching:
            self._loop.remove_writer(self._fd)
            self._watching = False

    async def flush(self, seconds: float) -> None:
        """Wait (at most `seconds`) until everything accepted has been written or the reader is gone."""
        with anyio.move_on_after(seconds):
            while self._backlog:  # the loop writes it whenever the descriptor takes more
                await anyio.sleep(REAP_POLL)

    def close(self) -> None:
        """Stop writing (whatever still waits is dropped) and put the descriptor back in its blocking mode."""
        self._stop_watching()
        self._backlog.clear()
        with suppress(OSError):
            os.set_blocking(self._fd, self._restore)


def start_server(target: StdioUpstream, max_memory: int | None = None) -> subprocess.Popen[bytes]:
    """Start the upstream server in a session of its own, with its stdin, stdout and stderr piped to us.

    The server inherits this process's environment (plus `target.env`), as it would if the host ran it directly;
    `max_memory` caps its data segment and that of what it starts (`limit_memory`).

    Raises:
        OSError: the command cannot be started.
    """
    process = subprocess.Popen(
        [target.command, *target.args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **target.env},
        cwd=target.cwd,
        start_new_session=True,
        bufsize=0,
    )
    limit_memory(process.pid, max_memory)
    for pipe in (process.stdout, process.stderr):
        assert pipe is not None  # all three are piped
        os.set_blocking(pipe.fileno(), False)
    return process


async def wait_exit(process: subprocess.Popen[bytes], seconds: float) -> int | None:
    """The exit status of `process` once it has exited, or None if it is still running after `seconds`."""
    with anyio.move_on_after(seconds):
        while process.poll() is None:
            await anyio.sleep(REAP_POLL)
    return process.poll()


async def stop_server(process: subprocess.Popen[bytes], grace: float, *, hurry: bool = False) -> None:
    """Close the server's stdin and give it `grace` seconds to exit (no wait when `hurry`), then end whatever is
    left of its process group, and what it moved to sessions of its own: SIGTERM, at most `grace` seconds, SIGKILL.
    """
    detached = detached_descendants(process.pid)  # before they are orphans
    if process.stdin is not None:
        with suppress(OSError):
            process.stdin.close()
    if not hurry:
        await wait_exit(process, grace)
    await end_group(process.pid, grace, process.poll)  # the server leads its own session: its pid is the group's id
    await end_detached(detached, grace)
    for pipe in (process.stdout, process.stderr):
        if pipe is not None:
            with suppress(OSError):
                pipe.close()


__all__ = ["HIGH_WATER", "Outbox", "REAP_POLL", "is_pipe", "start_server", "stop_server", "wait_exit"]
