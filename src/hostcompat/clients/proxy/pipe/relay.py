"""The fast relay for a stdio client in front of a stdio server: line by line, pipe to pipe, in loop callbacks.

Each line is decoded once, to learn its id and method and let the rules look at it; a message no rule patches is
forwarded as the very bytes the peer sent (unknown fields, `_meta`, number spellings and all). The guarantees are
those of `ProxySession`: bounded messages and backlogs, a JSON-RPC error for every request the server leaves
unanswered (it died, stalled, or sent too much), and no hang. When the eras are detected, it yields to the era
gateway on a 2026-07-28 client or a server that refuses the handshake.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
from collections.abc import Callable
from functools import partial
from typing import BinaryIO

import anyio

from hostcompat.clients.proxy.config import EXIT_GRACE, FLUSH_TIMEOUT, STARTUP_FAILURE_WAIT, ProxyConfig, StdioUpstream
from hostcompat.clients.proxy.era.detect import front_era, refuses_handshake
from hostcompat.clients.proxy.failures import (
    UpstreamEnd,
    cancel_params,
    describe_failure,
    ended_error,
    overloaded_error,
    oversized,
    process_ended,
    timeout_error,
    undrained_error,
    unreadable_reply_error,
)
from hostcompat.clients.proxy.lines import LineBuffer, Oversized
from hostcompat.clients.proxy.pipe.deadlines import Deadlines
from hostcompat.clients.proxy.pipe.frames import (
    ERROR,
    NOTIFICATION,
    REQUEST,
    RESULT,
    Frame,
    dump_line,
    error_line,
    notification_line,
    read_frame,
    unreadable_client_lines,
    with_member,
)
from hostcompat.clients.proxy.pipe.pipes import Outbox, start_server, stop_server, wait_exit
from hostcompat.clients.proxy.stderr_tail import StderrTail
from hostcompat.clients.proxy.tracker import (
    CANCELLED_METHOD,
    INITIALIZE_METHOD,
    PROGRESS_METHOD,
    RequestId,
    SessionTracker,
)
from hostcompat.clients.proxy.unreadable import unreadable_reply
from hostcompat.errors import HostCompatError, InvalidInput, InvalidMessage

logger = logging.getLogger(__name__)

READ_CHUNK = 65_536
_NEWLINE = b"\n"


class PipeProxy:
    """One stdio client (on the `stdin`/`stdout` descriptors, pipes) relayed to its own stdio server.

    `run()` returns when either side is done: None when the client left (after the answers in flight reached it),
    else how the server ended (requests in flight have then been answered with an error). `tracker` holds the
    client's identity and the count of rewrites applied. Runs on the asyncio event loop only.
    """

    def __init__(
        self,
        config: ProxyConfig,
        *,
        stdin: int = 0,
        stdout: int = 1,
        stderr: BinaryIO | None = None,
        hurry: anyio.Event | None = None,
        yield_to_modern: bool = False,
        yield_on_refusal: bool = False,
    ) -> None:
        if not isinstance(config.upstream, StdioUpstream):
            raise InvalidInput("the pipe relay needs a server run as a command", value=config.upstream.describe())
        self.config = config
        self.upstream: StdioUpstream = config.upstream
        self.tracker = SessionTracker(config.rules, max_pending=config.max_pending)
        self._stdin, self._stdout, self._stderr = stdin, stdout, stderr
        self._deadlines = Deadlines(config.request_timeout, self._expire)
        self._drain_timer: asyncio.TimerHandle | None = None
        self._hurry = hurry
        self._to_client: list[bytes] = []
        self._to_server: list[bytes] = []
        self._client_gone = False
        self._client_full = self._server_full = False  # a backlog past its high water: the client is not read
        self._failed: UpstreamEnd | None = None
        self._stopped: asyncio.Future[str] | None = None
        self._reading: dict[int, Callable[[], None]] = {}
        self._server_fd = self._stderr_fd = -1
        self._yield_to_modern = yield_to_modern
        self._yield_on_refusal = yield_on_refusal
        self._first_request = True
        self._initialize: tuple[RequestId, bytes] | None = None
        self.yielded: str | None = None
        """Why `run()` returned early for the era gateway to take over: `modern` (with `yield_to_modern`, the
        client's first request is a 2026-07-28 one) or `refused` (with `yield_on_refusal`, the server refused the
        client's `initialize` as a 2026-07-28-only server does; the refusal was kept from the client)."""
        self.replay = b""
        """What the client sent that the gateway must read first (the first request, or the refused `initialize`)."""

    # -- lifecycle -------------------------------------------------------------------------------------------

    async def run(self) -> UpstreamEnd | None:
        """Relay until the client leaves (None) or the server ends (how)."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._stopped = loop.create_future()
        full, drained = partial(self._client_backlog, True), partial(self._client_backlog, False)
        self._client = Outbox(loop, self._stdout, on_full=full, on_drained=drained)
        self._client_lines = LineBuffer(self.config.max_message_bytes)
        process: subprocess.Popen[bytes] | None = None
        try:
            try:
                process = start_server(self.upstream, self.config.upstream_memory)
            except OSError as error:
                return await self._refuse(describe_failure(self.config, error))
            return await self._relay(process)
        finally:
            with anyio.CancelScope(shield=True):
                await self._close(process)

    async def _relay(self, process: subprocess.Popen[bytes]) -> UpstreamEnd | None:
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        self._process = process
        full, drained = partial(self._server_backlog, True), partial(self._server_backlog, False)
        self._server = Outbox(self._loop, process.stdin.fileno(), on_full=full, on_drained=drained)
        self._server_lines = LineBuffer(self.config.max_message_bytes)
        self._tail = StderrTail(self._stderr)
        self._server_fd, self._stderr_fd = process.stdout.fileno(), process.stderr.fileno()
        self._watch_reads(self._stdin, self._client_readable)
        self._watch_reads(self._server_fd, self._server_readable)
        self._watch_reads(self._stderr_fd, self._stderr_readable)
        assert self._stopped is not None
        if await self._stopped == "client":
            return None
        if self.yielded is not None:
            self.replay += self._client_lines.flush()
            return None
        end = self._failed or await self._server_end(process)
        logger.warning("%s", end.summary)
        for request_id, pending in self.tracker.drain():
            self._to_client.append(error_line(request_id, ended_error(pending.method, end)))
        self._deadlines.clear()
        self._flush()
        return end

    async def _server_end(self, process: subprocess.Popen[bytes]) -> UpstreamEnd:
        returncode = await wait_exit(process, EXIT_GRACE)
        with anyio.move_on_after(EXIT_GRACE):
            await self._tail.done.wait()
        return process_ended(self.upstream, returncode, self._tail.text())

    async def _refuse(self, end: UpstreamEnd) -> UpstreamEnd:
        """The server could not start: answer the client's first request with why, then end."""
        logger.warning("%s", end.summary)
        self._failed = end
        self._watch_reads(self._stdin, self._client_readable)
        assert self._stopped is not None
        with anyio.move_on_after(STARTUP_FAILURE_WAIT):
            await self._stopped
        return end

    async def _close(self, process: subprocess.Popen[bytes] | None) -> None:
        for fd in list(self._reading):
            self._unwatch_reads(fd)
        self._deadlines.cancel()
        if self._drain_timer is not None:
            self._drain_timer.cancel()
        hurry = self._hurry is not None and self._hurry.is_set()
        self._flush()
        await self._client.flush(0 if hurry else FLUSH_TIMEOUT)
        self._client.close()
        if process is not None:
            self._server.close()
            await stop_server(process, EXIT_GRACE, hurry=hurry)

    def _stop(self, why: str) -> None:
        if self._stopped is not None and not self._stopped.done():
            self._stopped.set_result(why)

    # -- reading ---------------------------------------------------------------------------------------------

    def _watch_reads(self, fd: int, callback: Callable[[], None]) -> None:
        self._reading[fd] = callback
        self._loop.add_reader(fd, callback)

    def _unwatch_reads(self, fd: int) -> None:
        if self._reading.pop(fd, None) is not None:
            self._loop.remove_reader(fd)

    def _client_backlog(self, full: bool) -> None:
        """The client stopped reading (`full`) or reads again: while it does not, neither the server's messages nor
        the client's own lines are read (the proxy may answer those itself: an unreadable line, a request too many).
        """
        self._client_full = full
        if self._server_fd in self._reading and full:
            self._loop.remove_reader(self._server_fd)
        elif self._server_fd in self._reading:
            self._loop.add_reader(self._server_fd, self._server_readable)
        self._watch_client()

    def _server_backlog(self, full: bool) -> None:  # the server stopped reading, or reads again
        self._server_full = full
        self._watch_client()

    def _watch_client(self) -> None:
        """Read the client while neither side's backlog is full."""
        if self._stdin not in self._reading:
            return
        if self._client_full or self._server_full:
            self._loop.remove_reader(self._stdin)
        else:
            self._loop.add_reader(self._stdin, self._client_readable)

    def _flush(self) -> None:
        if self._to_client:
            data = b"".join(self._to_client)
            self._to_client.clear()
            self._client.send(data)
        if self._to_server:
            data = b"".join(self._to_server)
            self._to_server.clear()
            self._server.send(data)

    def _client_readable(self) -> None:
        try:  # this runs for every message: no helper call
            data = os.read(self._stdin, READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if self._client_lines.whole_line(data):  # the common case: relayed without a copy
            if not data.isspace():
                self._from_client(data, eager=True)
            if self._to_client or self._to_server:
                self._flush()
            return
        self._feed_client(data)
        if not data:
            self._unwatch_reads(self._stdin)
            self._client_gone = True
            self._check_drained()
            if self._stopped is not None and not self._stopped.done():
                self._drain_timer = self._loop.call_later(self.config.drain_timeout, self._give_up)
        self._flush()

    def _feed_client(self, data: bytes) -> None:
        """Relay the whole lines in `data` (b"": the client's end of input, flushing its last line)."""
        lines = self._client_lines.feed(data) if data else [self._client_lines.flush()]
        for line in lines:
            if isinstance(line, Oversized):
                self._unreadable(InvalidMessage(f"a message is over {self._client_lines.max_bytes} bytes"))
            elif line and not line.isspace():
                self._from_client(line + _NEWLINE, eager=False)

    def _server_readable(self) -> None:
        try:
            data = os.read(self._server_fd, READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if self._server_lines.whole_line(data):
            if not data.isspace():
                self._from_server(data, eager=True)
            if self._to_client or self._to_server:
                self._flush()
            return
        lines = self._server_lines.feed(data) if data else [self._server_lines.flush()]
        for line in lines:
            if isinstance(line, Oversized):
                self._failed = oversized(self._server_lines.max_bytes)
                data = b""
                break
            if line and not line.isspace():
                self._from_server(line + _NEWLINE, eager=False)
        self._flush()
        if not data:
            self._unwatch_reads(self._server_fd)
            self._stop("server")

    def _stderr_readable(self) -> None:
        try:
            data = os.read(self._stderr_fd, READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if data:
            self._tail.keep(data)
        else:
            self._unwatch_reads(self._stderr_fd)
            self._tail.done.set()

    # -- client to server ------------------------------------------------------------------------------------

    def _unreadable(self, error: InvalidMessage, line: bytes = b"") -> None:
        logger.warning("unreadable message from the client: %s", error)
        self._to_client += unreadable_client_lines(error, line)

    def _from_client(self, line: bytes, *, eager: bool) -> None:
        """Relay one line (newline included) from the client; `eager`: write it out as soon as it is decided."""
        if self.yielded is not None:  # the era gateway reads it
            self.replay += line
            return
        try:
            frame = read_frame(line)
        except InvalidMessage as error:
            self._unreadable(error, line)
            return
        if frame.kind == REQUEST and self._first_request and self._yields(frame, line):
            return
        if self._failed is not None:  # the server never started, or is gone: say so
            if frame.kind == REQUEST:
                self._to_client.append(error_line(frame.id, ended_error(frame.method, self._failed)))
                self._stop("client")
            return
        if frame.kind == REQUEST:
            self._client_request(line, frame, eager)
            return
        self._to_server.append(line)
        if eager:
            self._flush()
        if frame.kind == NOTIFICATION:
            cancelled = self.tracker.client_notification(frame.method, frame.body.get("params"))
            if cancelled is not None:
                self._deadlines.settle(cancelled)
                self._check_drained()

    def _yields(self, frame: Frame, line: bytes) -> bool:
        """On the client's first request: whether the relay yields to the era gateway (a 2026-07-28 client)."""
        self._first_request = False
        params = frame.body.get("params")
        if self._yield_to_modern and front_era(frame.method, params if isinstance(params, dict) else None) == "modern":
            self.yielded, self.replay = "modern", line
            self._stop("era")
            return True
        if frame.method == INITIALIZE_METHOD and frame.id is not None:
            self._initialize = (frame.id, line)
        return False

    def _client_request(self, line: bytes, frame: Frame, eager: bool) -> None:
        request_id = frame.id
        assert request_id is not None  # a request has an id
        tracker = self.tracker
        if tracker.is_full():
            error = overloaded_error(frame.method, self.config.max_pending)
            self._to_client.append(error_line(request_id, error))
            return
        params = frame.body.get("params")
        forwarded = tracker.request_params(frame.method, params)
        if forwarded is not params:
            line = self._patched(line, frame, "params", forwarded)
        if eager and not self._to_server:  # the server starts on it while the request is recorded
            self._server.send(line)
        else:
            self._to_server.append(line)
        tracker.record_request(request_id, frame.method, params)
        self._deadlines.start(self._loop, request_id)

    @staticmethod
    def _patched(line: bytes, frame: Frame, key: str, value: object) -> bytes:
        try:
            return dump_line(with_member(frame, key, value))
        except HostCompatError as error:
            logger.warning("forwarded a message unpatched: %s", error)
            return line

    # -- server to client ------------------------------------------------------------------------------------

    def _from_server(self, line: bytes, *, eager: bool) -> None:
        """Relay one line (newline included) from the server; `eager`: write it out as soon as it is decided."""
        try:
            frame = read_frame(line)
        except InvalidMessage as error:
            logger.warning("unreadable message from the upstream server: %s", self.config.redacted(error))
            self._answer_unreadable(line, error.message.split(":", 1)[0])  # the reason, without the line itself
            return
        kind = frame.kind
        if kind == RESULT:
            result = frame.body["result"]
            answer = self.tracker.server_result(frame.id, result, line)
            if answer is None:
                logger.debug("dropped an upstream result for id %r, which is not in flight", frame.id)
                return
            patched = answer.result
            if patched is not result:
                line = self._patched(line, frame, "result", patched)
            if eager and not self._to_client:  # the client gets it while the request is settled
                self._client.send(line)
            else:
                self._to_client.append(line)
            if answer.applied:
                logger.debug("rewrote %s for %s: %s", answer.pending.method, self.tracker.identity, answer.applied)
            self._deadlines.settle(frame.id)  # as _settle, without its call
            if self._client_gone:
                self._check_drained()
        elif kind == ERROR:
            if self._refused(frame):
                return
            if frame.id is not None and self.tracker.server_error(frame.id) is None:
                logger.debug("dropped an upstream error for id %r, which is not in flight", frame.id)
                return
            self._to_client.append(line)
            if eager:
                self._flush()
            self._settle(frame.id)
        else:
            self._to_client.append(line)
            if eager:
                self._flush()
            if frame.method == PROGRESS_METHOD and kind == NOTIFICATION:
                self._renew(frame)

    def _refused(self, frame: Frame) -> bool:
        """Whether this error refuses the client's `initialize` as a 2026-07-28-only server does, and the relay
        yields to the era gateway (the error is kept from the client).
        """
        error = frame.body.get("error")
        if not self._yield_on_refusal or self._initialize is None or frame.id != self._initialize[0]:
            return False
        if not isinstance(error, dict) or not refuses_handshake(error):
            return False
        self.tracker.server_error(frame.id)
        self.yielded, self.replay = "refused", self._initialize[1]
        self._stop("era")
        return True

    def _answer_unreadable(self, line: bytes, problem: str) -> None:
        """An unreadable line that answers a request in flight: answer that request with an error now."""
        reply = unreadable_reply(line, problem)
        pending = None if reply is None else self.tracker.server_error(reply.id)
        if reply is None or pending is None:
            return
        self._to_client.append(error_line(reply.id, unreadable_reply_error(pending.method, reply.problem)))
        self._settle(reply.id)

    def _renew(self, progress: Frame) -> None:
        related = self.tracker.related_request(PROGRESS_METHOD, progress.body.get("params"), standalone_stream=True)
        if related is not None:
            self._deadlines.renew(self._loop, related)

    def _settle(self, request_id: RequestId | None) -> None:
        self._deadlines.settle(request_id)
        if self._client_gone:
            self._check_drained()

    def _check_drained(self) -> None:
        if self._client_gone and not self._deadlines and not self.tracker.pending():
            self._stop("client")

    # -- timeouts --------------------------------------------------------------------------------------------

    def _give_up(self) -> None:
        """The client closed its input a while ago: answer what is still in flight with an error, and end."""
        self._drain_timer = None
        seconds = self.config.drain_timeout
        for request_id, pending in self.tracker.drain():
            self._to_client.append(error_line(request_id, undrained_error(pending.method, seconds)))
        self._deadlines.clear()
        self._flush()
        self._stop("client")

    def _expire(self) -> None:
        """Answer every request past its deadline with a timeout (and cancel it upstream)."""
        seconds = self.config.request_timeout
        for request_id in self._deadlines.due(self._loop):
            pending = self.tracker.forget(request_id)
            if pending is None:
                continue
            method = pending.method
            logger.warning("the upstream server did not answer %s (id %r) within %g s", method, request_id, seconds)
            self._to_client.append(error_line(request_id, timeout_error(method, seconds)))
            if method != INITIALIZE_METHOD:  # initialize must never be cancelled
                params = cancel_params(request_id, f"no answer within {seconds:g} s")
                self._to_server.append(notification_line(CANCELLED_METHOD, params))
        self._flush()
        self._check_drained()


__all__ = ["PipeProxy", "READ_CHUNK"]
