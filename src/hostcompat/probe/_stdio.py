"""A hardened stdio transport for the official client: bounded lines, bounded stderr, a child that always stops.

The SDK's `stdio_client` buffers a line of any length, ends the session on the first byte that is not UTF-8, sends
stderr to a file, and logs a traceback per garbage line. A probe of an untrusted server needs more: a line over
`max_message_bytes` is dropped while it streams (the request waiting for it fails at once), bad UTF-8 is replaced
and reported, garbage is counted, stderr keeps only its tail, and shutdown escalates from closing stdin to
SIGTERM to SIGKILL of the whole process group, each stage bounded by `shutdown_grace`.

It serves whichever client speaks for the probe: a `Codec` turns lines into that client's messages and back (the
official client's, `_sdk_wire.SdkStdioCodec`; the probe's own session's, `_session`).
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any, Final, Protocol

import anyio
from anyio.abc import ByteReceiveStream, Process
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from hostcompat.probe._json_stream import load_json_capped
from hostcompat.probe._pipes import PipeProcess
from hostcompat.probe._rpc import RequestId
from hostcompat.probe._spawn import inherited_environment, start, take
from hostcompat.probe._wire import Wire, sample
from hostcompat.probe.events import (
    DETACHED_STOPPED,
    GARBAGE_OUTPUT,
    INVALID_UTF8,
    MESSAGE_TOO_LARGE,
    NESTING_TOO_DEEP,
    SHUTDOWN_ABANDONED,
    SHUTDOWN_KILLED,
    SHUTDOWN_TERMINATED,
    STDERR_TRUNCATED,
)
from hostcompat.probe.target import StdioTarget
from hostcompat.process_tree import TrackedProcess, detached_descendants, stop_detached

DROPPED_MESSAGE_CODE: Final = -32099
"""The JSON-RPC error code the probe answers a request with when the server's reply was too large to read."""

_HEAD_BYTES: Final = 4096
_POLL_SECONDS: Final = 0.01
_REAP_SECONDS: Final = 1.0
_DRAIN_SECONDS: Final = 0.5
_CUT_OVER_CHARS: Final = 1 << 20
"""Messages longer than this are parsed item by item first, and their lists cut to `max_items` (see `_cut_lists`)."""
_ID_PATTERN: Final = re.compile(rb'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')


class Codec(Protocol):
    """Lines to and from one client's messages."""

    def parse(self, text: str) -> Any:
        """One line as a message; `ValueError` for anything that is not a JSON-RPC message (its text says
        "recursion limit" when the line is nested too deeply to parse).
        """
        ...

    def dropped(self, request_id: RequestId, code: int, why: str) -> Any:
        """The error answer that stands for a reply the transport dropped."""
        ...

    def dump(self, message: Any) -> bytes:
        """A message as the line (newline included) written to the server."""
        ...


class _StdoutDecoder:
    """Splits the server's stdout into bounded lines and turns each into a message, a finding or nothing."""

    def __init__(self, wire: Wire, deliver: MemoryObjectSendStream[Any], codec: Codec) -> None:
        self._wire = wire
        self._deliver = deliver
        self._codec = codec
        self._limit = wire.limits.max_message_bytes
        self._buffer = bytearray()
        self._discarding = False
        self._discarded = 0
        self._garbage = 0
        self._garbage_sample = ""
        self._bad_utf8 = 0
        self._client_gone = False
        self._dropped_during = wire.step

    async def _send(self, item: Any) -> None:
        if self._client_gone:
            return
        try:
            await self._deliver.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._client_gone = True  # keep draining stdout so a stopping server is never stuck writing

    async def feed(self, chunk: bytes) -> None:
        start = 0
        while start <= len(chunk):
            newline = chunk.find(b"\n", start)
            end = len(chunk) if newline < 0 else newline
            await self._append(chunk[start:end])
            if newline < 0:
                return
            await self._end_line()
            start = newline + 1

    async def _append(self, piece: bytes) -> None:
        if self._discarding:
            self._discarded += len(piece)
            return
        self._buffer += piece
        if len(self._buffer) > self._limit:
            self._discarding = True
            self._dropped_during = self._wire.step
            self._discarded = len(self._buffer)
            head = bytes(self._buffer[:_HEAD_BYTES])
            self._buffer = bytearray()
            await self._fail_waiting_request(head)

    async def _fail_waiting_request(self, head: bytes, *, too_deep: bool = False) -> None:
        if b'"method"' in head and b'"result"' not in head and b'"error"' not in head:
            return  # an oversized notification or request: nobody waits for it
        pending = self._wire.pending_ids()
        found = _ID_PATTERN.search(head)
        if found is not None:
            matching = [request_id for request_id in pending if str(request_id).encode() == found.group(1).strip(b'"')]
            pending = matching or pending
        why = "reply nested too deeply to read" if too_deep else f"reply over the {self._limit}-byte limit dropped"
        for request_id in pending:
            (self._wire.too_deep if too_deep else self._wire.dropped).add(request_id)
            await self._send(self._codec.dropped(request_id, DROPPED_MESSAGE_CODE, why))

    async def _end_line(self) -> None:
        if self._discarding:
            self._wire.event(
                MESSAGE_TOO_LARGE,
                "error",
                f"the server sent a {self._discarded}-byte message, over the {self._limit}-byte limit; it was dropped",
                {"bytes": self._discarded, "limit": self._limit},
                step=self._dropped_during,
            )
            self._discarding = False
            self._discarded = 0
            return
        line = bytes(self._buffer)
        self._buffer = bytearray()
        await self._line(line)

    async def _line(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as error:
            if self._bad_utf8 == 0:
                self._wire.event(
                    INVALID_UTF8,
                    "warning",
                    f"the server wrote bytes that are not UTF-8 ({error.reason} at byte {error.start}); "
                    "they were replaced with U+FFFD",
                    {"sample": sample(line[max(0, error.start - 40) : error.start + 40])},
                )
            self._bad_utf8 += 1
            text = line.decode("utf-8", "replace")
        if len(text) > _CUT_OVER_CHARS:
            text = self._cut_lists(text)
        try:
            message = self._codec.parse(text)
        except ValueError as error:
            if "recursion limit" in str(error):  # JSON, and maybe the very answer a request waits for
                self._wire.event(
                    NESTING_TOO_DEEP,
                    "error",
                    "the server sent a message whose nesting is too deep to read (past the JSON parser's recursion "
                    "limit); it was dropped and the request waiting for it failed",
                    {"sample": sample(line[:_HEAD_BYTES])},
                )
                await self._fail_waiting_request(line[:_HEAD_BYTES], too_deep=True)
                return
            self._garbage += 1
            if not self._garbage_sample:
                self._garbage_sample = sample(line)
            return
        await self._send(message)

    def _cut_lists(self, text: str) -> str:
        """A large message with every list in its `result` (or `params`) cut to `max_items` + 1 items (one more, so
        the listing sees it was cut), parsed one item at a time: a million tools never become a million objects.
        """
        try:
            message, dropped = load_json_capped(text, depth=2, max_items=self._wire.limits.max_items + 1)
        except (ValueError, RecursionError):
            return text  # not JSON: the garbage count below says so
        if not dropped:
            return text
        request_id = message.get("id") if isinstance(message, dict) else None
        if isinstance(request_id, (int, str)) and not isinstance(request_id, bool):
            self._wire.cut.add(request_id)
        return json.dumps(message, ensure_ascii=False)

    def finish(self) -> None:
        """Report a message still being dropped and the garbage seen; an unfinished last line is ignored."""
        if self._discarding:
            self._wire.event(
                MESSAGE_TOO_LARGE,
                "error",
                f"the server sent at least {self._discarded} bytes of one message, over the {self._limit}-byte limit",
                {"bytes": self._discarded, "limit": self._limit},
                step=self._dropped_during,
            )
            self._discarding = False
        if self._garbage:
            self._wire.event(
                GARBAGE_OUTPUT,
                "warning",
                f"the server wrote {self._garbage} line(s) on stdout that are not JSON-RPC messages",
                {"lines": self._garbage, "firstLine": self._garbage_sample},
                step="probe",
            )


async def _read_stdout(
    process: Process, wire: Wire, deliver: MemoryObjectSendStream[Any], done: anyio.Event, codec: Codec
) -> None:
    assert process.stdout is not None
    decoder = _StdoutDecoder(wire, deliver, codec)
    try:
        async with deliver:
            with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                async for chunk in process.stdout:
                    wire.count(len(chunk))
                    await decoder.feed(chunk)
            wire.mark_closed()
    finally:
        decoder.finish()  # even when cancelled: what was seen is still reported
        done.set()


async def _watch_exit(process: Process, stdout_done: anyio.Event) -> None:
    """When the server exits but its output stays open (a process it started holds it), end the output as if it
    had closed, once what was in the pipe is read: its requests then fail as for any server that exits.
    """
    await process.wait()
    with anyio.move_on_after(_DRAIN_SECONDS):
        await stdout_done.wait()
    if not stdout_done.is_set() and process.stdout is not None:
        with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await process.stdout.aclose()


async def _write_stdin(process: Process, wire: Wire, outbound: MemoryObjectReceiveStream[Any], codec: Codec) -> None:
    assert process.stdin is not None
    async with outbound:
        try:
            async for message in outbound:
                await process.stdin.send(codec.dump(message))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            wire.mark_closed()


class _StderrTail:
    """The last `limit` bytes the server wrote to stderr, and how many it wrote in all."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.tail = bytearray()
        self.total = 0
        self.done = anyio.Event()

    async def drain(self, stream: ByteReceiveStream) -> None:
        try:
            with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                async for chunk in stream:
                    self.total += len(chunk)
                    self.tail += chunk
                    if len(self.tail) > self.limit:
                        del self.tail[: len(self.tail) - self.limit]
        finally:
            self.done.set()


def _redacted_tail(stderr: _StderrTail, wire: Wire) -> str:
    """The stderr tail without the target's secrets (the server may echo its key); a cut start may hold the end of
    one.
    """
    text = bytes(stderr.tail).decode("utf-8", "replace")
    return wire.redactor.tail(text) if stderr.total > stderr.limit else wire.redactor.text(text)


def _signal_group(process: Process, signum: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        if sys.platform == "win32":  # pragma: no cover - no process groups
            if signum == signal.SIGTERM:
                process.terminate()
            else:
                process.kill()
        else:
            os.killpg(process.pid, signum)


async def _exited_within(process: Process, seconds: float) -> bool:
    with anyio.move_on_after(seconds):
        if isinstance(process, PipeProcess):
            await process.wait()  # told the moment it exits
        while process.returncode is None:
            await anyio.sleep(_POLL_SECONDS)
    return process.returncode is not None


async def _stop(process: Process, wire: Wire) -> str:
    """Close stdin, then SIGTERM, then SIGKILL the group, each after `shutdown_grace`; say how it ended."""
    grace = wire.limits.shutdown_grace
    went_away = wire.closed or process.returncode is not None  # stdout ended before the probe stopped it
    detached = detached_descendants(process.pid)  # before they are orphans
    if process.stdin is not None:
        with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await process.stdin.aclose()
    if await _exited_within(process, grace):
        ended = "exited" if went_away else "stdin-closed"
    else:
        _signal_group(process, signal.SIGTERM)
        if await _exited_within(process, grace):
            ended = "sigterm"
            wire.event(
                SHUTDOWN_TERMINATED,
                "info",
                "the server kept running after stdin closed; SIGTERM stopped it",
                step="shutdown",
            )
        else:
            _signal_group(process, signal.SIGKILL)
            ended = "sigkill" if await _exited_within(process, _REAP_SECONDS) else "abandoned"
            if ended == "sigkill":
                message = "the server ignored stdin closing and SIGTERM; it was killed"
                wire.event(SHUTDOWN_KILLED, "warning", message, step="shutdown")
            else:
                wire.event(SHUTDOWN_ABANDONED, "error", f"process {process.pid} survived SIGKILL", step="shutdown")
    _signal_group(process, signal.SIGKILL)  # anything the server left behind in its group
    if detached:
        await _stop_detached(detached, wire, grace)
    return ended


async def _stop_detached(detached: tuple[TrackedProcess, ...], wire: Wire, grace: float) -> None:
    """Stop what the server started in sessions of its own and left running, and say so."""
    stopped = await stop_detached(detached, grace, anyio.sleep)
    if not stopped.left:
        return
    left = stopped.left
    how = f"{stopped.killed} of them ignored SIGTERM and were killed" if stopped.killed else "SIGTERM stopped them"
    message = (
        f"the server left {len(left)} process(es) running in sessions of their own, outside its process group"
        f" (pid {stopped.pids()}); {how}"
    )
    wire.event(DETACHED_STOPPED, "warning", message, step="shutdown")


def _exit_status(returncode: int | None) -> dict[str, Any]:
    if returncode is None or returncode >= 0:
        return {"exitCode": returncode, "signal": None}
    with suppress(ValueError):
        return {"exitCode": returncode, "signal": signal.Signals(-returncode).name}
    return {"exitCode": returncode, "signal": None}


@asynccontextmanager
async def open_stdio(target: StdioTarget, wire: Wire, codec: Codec) -> AsyncIterator[tuple[Any, Any]]:
    """Start `target` and yield the stream pair of `codec`'s messages; on exit, always stop the child and record its
    fate.

    Raises:
        OSError: the command could not be started.
    """
    wire.counts_bytes = True
    early = take(target)  # started before the SDK was imported (`_spawn.started_early`), or not
    if isinstance(early, OSError):
        raise early
    process = early or await start(target, inherited_environment())
    wire.process = {"pid": process.pid}
    stderr = _StderrTail(wire.limits.max_stderr_bytes)
    to_client, read_stream = anyio.create_memory_object_stream[Any](0)
    write_stream, from_client = anyio.create_memory_object_stream[Any](0)
    ended = "unknown"
    stdout_done = anyio.Event()
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(_read_stdout, process, wire, to_client, stdout_done, codec)
            group.start_soon(_write_stdin, process, wire, from_client, codec)
            group.start_soon(_watch_exit, process, stdout_done)
            if process.stderr is not None:
                group.start_soon(stderr.drain, process.stderr)
            else:  # pragma: no cover - spawned with a pipe
                stderr.done.set()
            try:
                yield read_stream, write_stream
            finally:
                read_stream.close()  # the reader keeps draining stdout without delivering
                with anyio.CancelScope(shield=True):
                    ended = await _stop(process, wire)
                    with anyio.move_on_after(_DRAIN_SECONDS):  # the last output of a dead server is still in the pipes
                        await stdout_done.wait()
                        await stderr.done.wait()
                    with anyio.move_on_after(_REAP_SECONDS):
                        await process.aclose()
                group.cancel_scope.cancel()
    finally:
        for stream in (read_stream, write_stream, to_client, from_client):
            stream.close()
        wire.process = {
            "pid": process.pid,
            **_exit_status(process.returncode),
            "ended": ended,
            "stderrBytes": stderr.total,
            "stderrTail": _redacted_tail(stderr, wire),
        }
        if stderr.total > stderr.limit:
            wire.event(
                STDERR_TRUNCATED,
                "info",
                f"the server wrote {stderr.total} bytes to stderr; the last {stderr.limit} are kept",
                step="shutdown",
            )


__all__ = ["DROPPED_MESSAGE_CODE", "Codec", "open_stdio"]
