"""The stdio front: the client (the host that started the proxy) speaks newline-delimited JSON-RPC on our stdin
and stdout.

Reads wait for the descriptor to be readable instead of blocking a worker thread, so the proxy can exit as soon as
its upstream dies even while the host keeps stdin open; each message is bounded in size. Writes to a pipe go out
non-blocking from the event loop, several queued messages per system call.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage

from hostcompat.clients.proxy.config import FLUSH_TIMEOUT
from hostcompat.clients.proxy.lines import LineBuffer, Oversized
from hostcompat.clients.proxy.links import FrontLink
from hostcompat.clients.proxy.session.wire import encode, stream_item
from hostcompat.errors import InvalidMessage

if sys.platform != "win32":
    import fcntl

READ_CHUNK = 65_536
WRITE_BATCH = 64
"""The most queued messages written to the client in one system call."""
QUEUE = 64
"""Messages that may wait for the client's pipe before the relay itself waits."""


class _Reader:
    """Reads a descriptor without tying up a thread when it is a pipe or a terminal (files fall back to one)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._pollable = True

    async def read(self) -> bytes:
        if self._pollable:
            try:
                await anyio.wait_readable(self._fd)
            except OSError:  # a regular file cannot be polled; reading it never blocks for long
                self._pollable = False
            else:
                return os.read(self._fd, READ_CHUNK)
        return await anyio.to_thread.run_sync(os.read, self._fd, READ_CHUNK)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _write_some(fd: int, data: memoryview) -> int:
    """Bytes written without blocking (0 when the pipe is full)."""
    try:
        return os.write(fd, data)
    except BlockingIOError:
        return 0


class _Writer:
    """Writes a descriptor: a pipe or socket non-blocking from the event loop, anything else from a worker thread.

    The descriptor's original blocking mode is restored by `close()`.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._restore: int | None = None
        try:
            mode = os.fstat(fd).st_mode
            if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
                flags = fcntl.fcntl(fd, fcntl.F_GETFL)
                fcntl.fcntl(fd, fcntl.F_SETFL, flags | os.O_NONBLOCK)
                self._restore = flags
        except (OSError, NameError):  # NameError: no fcntl (Windows); threads then
            self._restore = None

    async def write(self, data: bytes) -> None:
        if self._restore is None:
            await anyio.to_thread.run_sync(_write_all, self._fd, data, abandon_on_cancel=True)
            return
        view = memoryview(data)
        while view:
            written = _write_some(self._fd, view)
            if written:
                view = view[written:]
            else:
                await anyio.wait_writable(self._fd)

    def close(self) -> None:
        if self._restore is not None:
            with contextlib.suppress(OSError):
                fcntl.fcntl(self._fd, fcntl.F_SETFL, self._restore)
            self._restore = None


async def _read_client(
    fd: int, sink: MemoryObjectSendStream[SessionMessage | Exception], max_bytes: int, prefix: bytes = b""
) -> None:
    reader, lines = _Reader(fd), LineBuffer(max_bytes)
    async with sink:
        try:
            chunk = prefix
            while chunk or (chunk := await reader.read()):
                for line in lines.feed(chunk):
                    if isinstance(line, Oversized):
                        await sink.send(InvalidMessage(f"a message is over {max_bytes} bytes", value=line.size))
                    elif line.strip():
                        await sink.send(stream_item(line))
                chunk = b""
            rest = lines.flush()
            if rest.strip():
                await sink.send(stream_item(rest))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass


async def _write_client(fd: int, source: MemoryObjectReceiveStream[SessionMessage], done: anyio.Event) -> None:
    writer = _Writer(fd)
    try:
        async with source:
            async for item in source:
                batch = [encode(item.message)]
                with contextlib.suppress(anyio.WouldBlock, anyio.EndOfStream):
                    while len(batch) < WRITE_BATCH:  # whatever else is already queued goes out in the same write
                        batch.append(encode(source.receive_nowait().message))
                await writer.write(b"".join(batch))
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream, OSError):
        pass  # the client closed its end
    finally:
        writer.close()
        done.set()


@asynccontextmanager
async def open_stdio_front(
    max_bytes: int, *, stdin: int = 0, stdout: int = 1, prefix: bytes = b""
) -> AsyncIterator[FrontLink]:
    """Serve the client on the `stdin`/`stdout` descriptors; on exit, finish writing (briefly) and stop reading.

    `prefix`: bytes the client sent that were already read from `stdin` (they are read first).
    """
    to_relay, from_client = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    to_client, from_relay = anyio.create_memory_object_stream[SessionMessage](QUEUE)
    written = anyio.Event()
    async with anyio.create_task_group() as group:
        group.start_soon(_read_client, stdin, to_relay, max_bytes, prefix)
        group.start_soon(_write_client, stdout, from_relay, written)
        try:
            yield FrontLink(from_client, to_client)
        finally:
            to_client.close()
            with anyio.move_on_after(FLUSH_TIMEOUT, shield=True):
                await written.wait()
            group.cancel_scope.cancel()
            for stream in (to_relay, from_client, from_relay):
                stream.close()


__all__ = ["open_stdio_front"]
