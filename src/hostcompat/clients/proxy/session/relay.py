"""Relay one front session to its own upstream session, message by message, rewriting only what the rules say.

Requests, responses, notifications (progress, cancellation, `list_changed`, logs) and server-to-client requests
(sampling, elicitation, roots) are passed on as the peer sent them; a `SessionTracker` rewrites the results of the
client's requests and the params of its tools/call. A request the upstream leaves unanswered, because it died or
stalled, gets a JSON-RPC error naming what happened, never silence.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import BinaryIO

import anyio
from anyio.abc import TaskGroup
from mcp.shared.message import MessageMetadata, ServerMessageMetadata
from mcp_types import JSONRPCError, JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

from hostcompat.clients.proxy.batches import BATCH_ERROR
from hostcompat.clients.proxy.config import STARTUP_FAILURE_WAIT, ProxyConfig
from hostcompat.clients.proxy.failures import (
    UpstreamEnd,
    cancel_params,
    describe_failure,
    ended_error,
    overloaded_error,
    timeout_error,
    undrained_error,
    unreadable_error,
    unreadable_reply_error,
)
from hostcompat.clients.proxy.links import FrontLink, UpstreamLink, UpstreamOpener
from hostcompat.clients.proxy.session.upstream import open_upstream
from hostcompat.clients.proxy.session.wire import error_message, notification, to_client, to_server
from hostcompat.clients.proxy.tracker import (
    CANCELLED_METHOD,
    INITIALIZE_METHOD,
    PROGRESS_METHOD,
    RequestId,
    SessionTracker,
)
from hostcompat.clients.proxy.unreadable import UnreadableMessage, UnreadableReply

logger = logging.getLogger(__name__)

_STREAM_OVER = (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError)


class ProxySession:
    """One front session relayed to its own upstream session; `run()` returns when either side is done.

    `stderr` receives a stdio upstream's stderr (None: dropped); `upstream` replaces the session the config
    describes (an in-process server, say). After `run()`, `tracker` still holds the client's identity and the
    count of rewrites applied.
    """

    def __init__(
        self,
        config: ProxyConfig,
        front: FrontLink,
        *,
        stderr: BinaryIO | None = None,
        upstream: UpstreamOpener | None = None,
    ) -> None:
        self.config = config
        self.front = front
        self._open_upstream = upstream or (lambda: open_upstream(config, stderr=stderr))
        self.tracker = SessionTracker(config.rules, max_pending=config.max_pending)
        self._timers: dict[RequestId, anyio.CancelScope] = {}
        self._unanswered: dict[RequestId, Callable[[], Awaitable[None]]] = {}
        self._client_gone = False
        self._front_open = True
        self._drained = anyio.Event()

    # -- lifecycle -------------------------------------------------------------------------------------------

    async def run(self) -> UpstreamEnd | None:
        """Relay until the client leaves (returns None) or the upstream ends (returns how; requests in flight
        have then been answered with an error).
        """
        end: UpstreamEnd | None = None
        opened = False
        try:
            async with self._open_upstream() as link:
                opened = True
                end = await self._relay(link)
        except Exception as error:
            logger.debug("upstream session failed", exc_info=True)
            end = describe_failure(self.config, error, started=opened)
        if end is None:
            return None
        logger.warning("%s", end.summary)
        for request_id, pending in self.tracker.drain():
            await self._answer_unanswered(request_id, error_message(request_id, ended_error(pending.method, end)))
        if not opened:  # the client has not even been told yet: answer its first request
            with anyio.move_on_after(STARTUP_FAILURE_WAIT):
                await self.answer_until_closed(end, first_only=True)
        return end

    async def answer_until_closed(self, end: UpstreamEnd, *, first_only: bool = False) -> None:
        """After the upstream ended: answer every further client request (or only the first) with the same error,
        until the client leaves (the caller bounds how long).
        """
        while True:
            try:
                item = await self.front.read.receive()
            except _STREAM_OVER:
                return
            if not isinstance(item, Exception) and isinstance(item.message, JSONRPCRequest):
                request = item.message
                await self._to_client(error_message(request.id, ended_error(request.method, end)))
                if first_only:
                    return

    async def _relay(self, link: UpstreamLink) -> UpstreamEnd | None:
        outcome: list[UpstreamEnd | None] = []
        async with anyio.create_task_group() as group:

            async def from_client() -> None:
                await self._pump_client(link, group)
                self._client_gone = True
                if self.front.drains_on_close and self.tracker.pending():
                    await self._drain()
                outcome.append(None)
                group.cancel_scope.cancel()

            async def from_server() -> None:
                await self._pump_server(link)
                outcome.append(await link.ended())
                group.cancel_scope.cancel()

            group.start_soon(from_client)
            group.start_soon(from_server)
        return outcome[0] if outcome else None

    async def _drain(self) -> None:
        """The client closed its input: wait (briefly) for the answers in flight, then answer the rest with an error."""
        seconds = self.config.drain_timeout
        with anyio.move_on_after(seconds):
            await self._drained.wait()
        for request_id, pending in self.tracker.drain():
            error = undrained_error(pending.method, seconds)
            await self._answer_unanswered(request_id, error_message(request_id, error))

    # -- client to server ------------------------------------------------------------------------------------

    async def _pump_client(self, link: UpstreamLink, group: TaskGroup) -> None:
        while True:
            try:
                item = await self.front.read.receive()
            except _STREAM_OVER:
                return
            if isinstance(item, Exception):
                await self._client_unreadable(item)
                continue
            message = item.message
            if isinstance(message, JSONRPCRequest):
                await self._client_request(link, group, message, item.metadata)
            elif isinstance(message, JSONRPCNotification):
                cancelled = self.tracker.client_notification(message.method, message.params)
                await self._to_server(link, message)
                if cancelled is not None:
                    unanswered = self._unanswered.pop(cancelled, None)
                    self._settle(cancelled)
                    if unanswered is not None:
                        await unanswered()  # the HTTP front ends that request's stream
            else:
                await self._to_server(link, message)  # the client's answer to a server request

    async def _client_request(
        self, link: UpstreamLink, group: TaskGroup, message: JSONRPCRequest, metadata: MessageMetadata
    ) -> None:
        if self.tracker.is_full():
            await self._to_client(error_message(message.id, overloaded_error(message.method, self.config.max_pending)))
            return
        params = self.tracker.client_request(message.id, message.method, message.params)
        if isinstance(metadata, ServerMessageMetadata) and metadata.on_request_unanswered is not None:
            self._unanswered[message.id] = metadata.on_request_unanswered
        timer = anyio.CancelScope(deadline=anyio.current_time() + self.config.request_timeout)
        self._timers[message.id] = timer
        group.start_soon(self._watch, link, message.id, message.method, timer)
        if params is not message.params:
            message = message.model_copy(update={"params": dict(params) if isinstance(params, Mapping) else params})
        await self._to_server(link, message)

    async def _client_unreadable(self, error: Exception) -> None:
        logger.warning("unreadable message from the client: %s", error)
        if not self.front.answers_unreadable:
            return
        if isinstance(error, UnreadableMessage) and error.batch:  # each request of a batch gets its own answer
            for request_id in error.batch:
                await self._to_client(error_message(request_id, BATCH_ERROR))
            return
        await self._to_client(error_message(None, unreadable_error(f"could not read a client message: {error}")))

    async def _watch(self, link: UpstreamLink, request_id: RequestId, method: str, timer: anyio.CancelScope) -> None:
        with timer:
            await anyio.sleep_forever()
        if self._timers.get(request_id) is not timer:
            return  # answered, cancelled, or the id was reused by a newer request
        del self._timers[request_id]
        if self.tracker.forget(request_id) is None:
            return
        seconds = self.config.request_timeout
        logger.warning("the upstream server did not answer %s (id %r) within %g s", method, request_id, seconds)
        await self._answer_unanswered(request_id, error_message(request_id, timeout_error(method, seconds)))
        if method != INITIALIZE_METHOD:  # initialize must never be cancelled
            reason = f"no answer within {seconds:g} s"
            await self._to_server(link, notification(CANCELLED_METHOD, cancel_params(request_id, reason)))
        self._check_drained()

    # -- server to client ------------------------------------------------------------------------------------

    async def _pump_server(self, link: UpstreamLink) -> None:
        while True:
            try:
                item = await link.read.receive()
            except _STREAM_OVER:
                return
            if isinstance(item, Exception):
                logger.warning("unreadable message from the upstream server: %s", self.config.redacted(item))
                if isinstance(item, UnreadableMessage) and item.reply is not None:
                    await self._unreadable_reply(item.reply)
                continue
            await self._server_message(item.message)

    async def _unreadable_reply(self, reply: UnreadableReply) -> None:
        """The answer to a request in flight could not be read: answer that request with an error now."""
        pending = self.tracker.server_error(reply.id)
        if pending is None:
            return
        await self._to_client(error_message(reply.id, unreadable_reply_error(pending.method, reply.problem)))
        self._settle(reply.id)

    async def _server_message(self, message: JSONRPCMessage) -> None:
        if isinstance(message, JSONRPCResponse):
            answer = self.tracker.server_result(message.id, message.result)
            if answer is None:
                logger.debug("dropped an upstream result for id %r, which is not in flight", message.id)
                return
            if answer.applied:
                logger.debug("rewrote %s for %s: %s", answer.pending.method, self.tracker.identity, answer.applied)
            request_id = message.id
            if answer.result is not message.result:
                result = answer.result
                message = message.model_copy(update={"result": dict(result) if isinstance(result, Mapping) else result})
            await self._to_client(message)
            self._settle(request_id)
        elif isinstance(message, JSONRPCError):
            if message.id is not None and self.tracker.server_error(message.id) is None:
                logger.debug("dropped an upstream error for id %r, which is not in flight", message.id)
                return
            await self._to_client(message)
            if message.id is not None:
                self._settle(message.id)
        else:
            related = self.tracker.related_request(
                message.method, message.params, standalone_stream=self.front.standalone_stream()
            )
            if isinstance(message, JSONRPCNotification) and message.method == PROGRESS_METHOD and related is not None:
                timer = self._timers.get(related)
                if timer is not None:
                    timer.deadline = anyio.current_time() + self.config.request_timeout
            await self._to_client(message, related)

    # -- plumbing --------------------------------------------------------------------------------------------

    def _settle(self, request_id: RequestId) -> None:
        """Stop watching a request that has its answer."""
        timer = self._timers.pop(request_id, None)
        if timer is not None:
            timer.cancel()
        self._unanswered.pop(request_id, None)
        self._check_drained()

    def _check_drained(self) -> None:
        if self._client_gone and not self.tracker.pending():
            self._drained.set()

    async def _answer_unanswered(self, request_id: RequestId, error: JSONRPCError) -> None:
        self._unanswered.pop(request_id, None)
        timer = self._timers.pop(request_id, None)
        if timer is not None:
            timer.cancel()
        await self._to_client(error)

    async def _to_client(self, message: JSONRPCMessage, related: RequestId | None = None) -> None:
        if not self._front_open:
            return
        try:
            await self.front.write.send(to_client(message, related))
        except _STREAM_OVER:
            self._front_open = False

    async def _to_server(self, link: UpstreamLink, message: JSONRPCMessage) -> None:
        try:
            await link.write.send(to_server(message, self.tracker.protocol_version, link.stamps_protocol_version))
        except _STREAM_OVER:
            logger.debug("the upstream stopped taking messages; its end is reported when its output ends")


__all__ = ["ProxySession"]
