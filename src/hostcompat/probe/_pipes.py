"""A stdio server started with `subprocess.Popen`, driven from the event loop as anyio drives its own processes.

`hostcompat check` starts a stdio server before it imports what the check needs and before the event loop runs
(`_early.start_now`), so the server's start-up (a Node server's takes about 0.2 s) overlaps all of that. anyio
cannot adopt a process it did not start, so `PipeProcess` gives `_stdio` the part of anyio's `Process` it uses over
the child's non-blocking pipes: `stdout` and `stderr` byte streams, `stdin` for writing, `returncode`, `wait` and
`aclose`. Waiting for the exit uses a pidfd where the platform has one (no polling), else a short poll. POSIX only:
on Windows the probe starts its servers with `anyio.open_process` as before.
"""

from __future__ import annotations

import os
import signal
import subprocess
from contextlib import suppress
from typing import Any, Final

import anyio
from anyio.abc import ByteReceiveStream, ByteSendStream, Process

_CHUNK: Final = 65536
_POLL_SECONDS: Final = 0.005


class _Reader(ByteReceiveStream):
    """The read end of a pipe, non-blocking."""

    def __init__(self, pipe: Any) -> None:
        self._pipe = pipe
        self._fd: int = pipe.fileno()
        self._closed = False
        os.set_blocking(self._fd, False)

    async def receive(self, max_bytes: int = _CHUNK) -> bytes:
        while True:
            if self._closed:
                raise anyio.ClosedResourceError
            try:
                data = os.read(self._fd, max_bytes)
            except BlockingIOError:
                await anyio.wait_readable(self._fd)
                continue
            except OSError as error:
                raise anyio.BrokenResourceError from error
            if not data:
                raise anyio.EndOfStream
            return data

    async def aclose(self) -> None:
        if not self._closed:
            self._closed = True
            anyio.notify_closing(self._fd)
            self._pipe.close()


class _Writer(ByteSendStream):
    """The write end of a pipe, non-blocking."""

    def __init__(self, pipe: Any) -> None:
        self._pipe = pipe
        self._fd: int = pipe.fileno()
        self._closed = False
        os.set_blocking(self._fd, False)

    async def send(self, item: bytes) -> None:
        view = memoryview(item)
        while view:
            if self._closed:
                raise anyio.ClosedResourceError
            try:
                written = os.write(self._fd, view)
            except BlockingIOError:
                await anyio.wait_writable(self._fd)
                continue
            except OSError as error:  # the server closed its stdin (EPIPE), or exited
                raise anyio.BrokenResourceError from error
            view = view[written:]

    async def aclose(self) -> None:
        if not self._closed:
            self._closed = True
            anyio.notify_closing(self._fd)
            with suppress(OSError):
                self._pipe.close()


class PipeProcess(Process):
    """A started `Popen` with its three pipes, as an `anyio.abc.Process`."""

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        assert popen.stdin is not None and popen.stdout is not None and popen.stderr is not None
        self._popen = popen
        self._stdin = _Writer(popen.stdin)
        self._stdout = _Reader(popen.stdout)
        self._stderr = _Reader(popen.stderr)

    @property
    def stdin(self) -> ByteSendStream:
        """The child's stdin."""
        return self._stdin

    @property
    def stdout(self) -> ByteReceiveStream:
        """The child's stdout."""
        return self._stdout

    @property
    def stderr(self) -> ByteReceiveStream:
        """The child's stderr."""
        return self._stderr

    @property
    def pid(self) -> int:
        """The child's process id (its process group's too: it leads a session of its own)."""
        return self._popen.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the child has exited (negative: the signal that ended it), else None."""
        return self._popen.poll()

    async def wait(self) -> int:
        """Wait for the child to exit; its exit status."""
        code = self._popen.poll()
        if code is not None:
            return code
        pidfd = _pidfd(self._popen.pid)
        try:
            while (code := self._popen.poll()) is None:
                if pidfd is None:
                    await anyio.sleep(_POLL_SECONDS)
                else:
                    await anyio.wait_readable(pidfd)  # readable once the child has exited
        finally:
            if pidfd is not None:
                anyio.notify_closing(pidfd)
                os.close(pidfd)
        return code

    def send_signal(self, signal: signal.Signals) -> None:
        """Send `signal` to the child (not its group)."""
        with suppress(ProcessLookupError):
            self._popen.send_signal(signal)

    def terminate(self) -> None:
        """SIGTERM the child."""
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL the child."""
        self.send_signal(signal.SIGKILL)

    async def aclose(self) -> None:
        """Close the pipes and wait for the child to exit (killing it if the wait is cancelled), as anyio's does."""
        with anyio.CancelScope(shield=True):
            for stream in (self.stdin, self.stdout, self.stderr):
                await stream.aclose()
        try:
            await self.wait()
        except BaseException:
            self.kill()
            with anyio.CancelScope(shield=True):
                await self.wait()
            raise


def _pidfd(pid: int) -> int | None:
    opener = getattr(os, "pidfd_open", None)
    if opener is None:  # pragma: no cover - not Linux
        return None
    try:
        fd: int = opener(pid)
    except OSError:  # pragma: no cover - an old kernel, or the child is gone and reaped
        return None
    return fd


__all__ = ["PipeProcess"]
