"""The upstream leg to a server run as a subprocess: newline-delimited JSON-RPC over its stdin and stdout.

Unlike the SDK's `stdio_client`, this leg keeps hold of the process, so when the server dies the client can be told
its exit code and last stderr line; and it bounds the size of each message the server sends.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import BinaryIO

import anyio
from anyio.abc import ByteReceiveStream, Process
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage

from hostcompat.clients.proxy.config import EXIT_GRACE, StdioUpstream
from hostcompat.clients.proxy.failures import UpstreamEnd, oversized, process_ended
from hostcompat.clients.proxy.lines import LineBuffer, Oversized
from hostcompat.clients.proxy.links import UpstreamLink
from hostcompat.clients.proxy.processes import end_detached, end_group, limit_memory
from hostcompat.clients.proxy.session.wire import encode, stream_item
from hostcompat.clients.proxy.stderr_tail import StderrTail
from hostcompat.process_tree import detached_descendants

READ_CHUNK = 65_536
WRITE_BATCH = 64
"""The most queued messages written to the server in one system call (and the queue's length)."""


async def _read_messages(
    stdout: ByteReceiveStream, sink: MemoryObjectSendStream[SessionMessage | Exception], max_bytes: int
) -> UpstreamEnd | None:
    """Pump stdout into `sink`; the end to report instead of the exit status (a message too large), or None."""
    lines = LineBuffer(max_bytes)
    async with sink:
        try:
            async for chunk in stdout:
                for line in lines.feed(chunk):
                    if isinstance(line, Oversized):
                        return oversized(max_bytes)
                    if line.strip():
                        await sink.send(stream_item(line))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass
    return None


async def _write_messages(stdin: anyio.abc.ByteSendStream, source: MemoryObjectReceiveStream[SessionMessage]) -> None:
    async with source:
        try:
            async for item in source:
                batch = [encode(item.message)]
                with suppress(anyio.WouldBlock, anyio.EndOfStream):
                    while len(batch) < WRITE_BATCH:  # what is already queued goes out in the same write
                        batch.append(encode(source.receive_nowait().message))
                await stdin.send(b"".join(batch))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream, OSError):
            pass  # the server is gone; its stdout ends too, and the relay reports why


async def _wait_exit(process: Process, seconds: float) -> int | None:
    with anyio.move_on_after(seconds):
        return await process.wait()
    return process.returncode


async def _stop(process: Process, *, hurry: bool) -> None:
    """Close stdin and give the server a moment (none when `hurry`), then end whatever is left of its group, and
    what it moved to sessions of its own.
    """
    detached = detached_descendants(process.pid)  # before they are orphans
    if process.stdin is not None:
        with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await process.stdin.aclose()
    if not hurry:
        await _wait_exit(process, EXIT_GRACE)
    if sys.platform == "win32":  # pragma: no cover - the proxy is exercised on POSIX
        if process.returncode is None:
            process.kill()
    else:
        await end_group(process.pid, EXIT_GRACE, lambda: process.returncode)
        await end_detached(detached, EXIT_GRACE)
    await _wait_exit(process, EXIT_GRACE)


@asynccontextmanager
async def open_stdio_upstream(
    target: StdioUpstream,
    max_bytes: int,
    *,
    stderr: BinaryIO | None = None,
    hurry: anyio.Event | None = None,
    max_memory: int | None = None,
) -> AsyncIterator[UpstreamLink]:
    """Start the server and yield its link; on exit, stop it (stdin closed, then SIGTERM, then SIGKILL to its
    process group). Once `hurry` is set (the proxy was told to stop), the server gets no time to exit on its own.

    The server inherits this process's environment (plus `target.env`), as it would if the host ran it directly;
    `max_memory` caps its data segment and that of what it starts (`limit_memory`). Its stderr is copied to
    `stderr` (None: dropped) and its tail quoted when it dies.

    Raises:
        OSError: the command cannot be started.
    """
    process = await anyio.open_process(
        [target.command, *target.args],
        env={**os.environ, **target.env},
        cwd=target.cwd,
        start_new_session=sys.platform != "win32",
    )
    limit_memory(process.pid, max_memory)
    stdin, stdout, stderr_pipe = process.stdin, process.stdout, process.stderr
    assert stdin is not None and stdout is not None and stderr_pipe is not None  # open_process pipes all three
    to_relay, from_server = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    to_server, from_relay = anyio.create_memory_object_stream[SessionMessage](WRITE_BATCH)
    tail = StderrTail(stderr)
    verdict: list[UpstreamEnd | None] = []
    reading_done = anyio.Event()

    async def read() -> None:
        try:
            verdict.append(await _read_messages(stdout, to_relay, max_bytes))
        finally:
            reading_done.set()

    async def ended() -> UpstreamEnd:
        await reading_done.wait()
        if verdict and verdict[0] is not None:
            return verdict[0]
        returncode = await _wait_exit(process, EXIT_GRACE)
        with anyio.move_on_after(EXIT_GRACE):
            await tail.done.wait()
        return process_ended(target, returncode, tail.text())

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(read)
            group.start_soon(_write_messages, stdin, from_relay)
            group.start_soon(tail.pump, stderr_pipe)
            try:
                yield UpstreamLink(from_server, to_server, ended, stamps_protocol_version=False)
            finally:
                with anyio.CancelScope(shield=True):
                    to_server.close()
                    from_server.close()
                    await _stop(process, hurry=hurry is not None and hurry.is_set())
                group.cancel_scope.cancel()
                to_relay.close()
                from_relay.close()
    finally:
        with anyio.CancelScope(shield=True), suppress(OSError):
            await process.aclose()


__all__ = ["open_stdio_upstream"]
