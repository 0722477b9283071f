"""A legacy client in front of a 2026-07-28 server: the handshake, the envelope and the server's requests, translated.

- `initialize` is answered from the server's `server/discover` (its capabilities, instructions and the serverInfo
  it stamps); `notifications/initialized` stops here.
- Every request gets the client's version, info, capabilities (and the log level it set) in its `_meta`.
- An `input_required` result becomes the legacy server-to-client requests it embeds (sampling, elicitation, roots),
  sent to the client one by one; their answers go back in the retried request with the echoed `requestState`,
  until the server gives a final result.
- `resources/subscribe` and `unsubscribe` become one `subscriptions/listen` stream (opened again with the new
  filter on each change); the list-changed notifications the server declares are asked for at once, as a legacy
  client gets them without asking.
- `ping` and `logging/setLevel` are answered here; resource-not-found (-32602 with a `uri`) becomes -32002.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace

import anyio
from anyio.abc import TaskGroup
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse
from mcp_types.jsonrpc import INVALID_REQUEST
from mcp_types.version import LATEST_MODERN_VERSION

from hostcompat.clients.proxy.era.channel import (
    Channel,
    PeerError,
    error_message,
    error_object,
    result_message,
)
from hostcompat.clients.proxy.era.gateway import Gateway
from hostcompat.clients.proxy.era.translate import (
    ACKNOWLEDGED,
    DISCOVER,
    INITIALIZE,
    INITIALIZED,
    LISTEN,
    PING,
    SET_LEVEL,
    SUBSCRIBE,
    UNSUBSCRIBE,
    Envelope,
    envelope_from_initialize,
    initialize_result_from_discover,
    input_requests,
    is_input_required,
    legacy_error,
    listen_filter,
    modern_version,
    retry_params,
    with_envelope,
)
from hostcompat.clients.proxy.tracker import CANCELLED_METHOD, RequestId
from hostcompat.wire_json import WireJSON

logger = logging.getLogger(__name__)

MAX_ROUNDS = 16
"""The most `input_required` rounds one client request may take before the gateway gives up on it."""

MAX_SUBSCRIPTIONS = 1000
"""The most resource URIs one client may subscribe to through the gateway."""

ROOTS_CHANGED = "notifications/roots/list_changed"

_OVER = (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError)


class ModernBack:
    """Relay a legacy client to a 2026-07-28 server; `run(initialize)` returns when either side is done."""

    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        limit = gateway.config.max_pending
        self.server = Channel(self._to_server, "hostcompat-era-", limit)
        self.client = Channel(gateway.to_front, "hostcompat-era-", limit)
        self.envelope = Envelope(LATEST_MODERN_VERSION)
        self.capabilities: WireJSON = {}
        self.subscriptions: list[str] = []
        self._calls: dict[RequestId, anyio.CancelScope] = {}
        self._listen: anyio.CancelScope | None = None

    async def _to_server(self, message: JSONRPCMessage) -> None:
        try:
            await self.gateway.back.link.write.send(SessionMessage(message))
        except _OVER:
            logger.debug("the server stopped taking messages")

    async def run(self, first: JSONRPCRequest) -> None:
        """Serve the client's `initialize` from the server's `server/discover`, then relay."""
        async with anyio.create_task_group() as group:
            group.start_soon(self._from_server, group)
            if first.method == INITIALIZE:
                await self._initialize(first, group)
            else:
                group.start_soon(self._call, first)
            for early in self.gateway.early_front:
                await self._from_client(early.message, group)
            async for item in self.gateway.front_in:
                await self._from_client(item.message, group)
            group.cancel_scope.cancel()

    async def _initialize(self, request: JSONRPCRequest, group: TaskGroup) -> None:
        params = request.params or {}
        try:
            discover = await self.server.request(
                DISCOVER,
                with_envelope({}, envelope_from_initialize(params, LATEST_MODERN_VERSION)),
                timeout=self.gateway.config.request_timeout,
            )
        except PeerError as error:
            await self.gateway.to_front(error_message(request.id, error.error))
            return
        version = modern_version(discover) or LATEST_MODERN_VERSION
        self.envelope = envelope_from_initialize(params, version)
        capabilities = discover.get("capabilities")
        self.capabilities = capabilities if isinstance(capabilities, Mapping) else {}
        result = initialize_result_from_discover(discover, params.get("protocolVersion"))
        await self.gateway.to_front(result_message(request.id, result))
        self._relisten(group)

    # -- client to server ------------------------------------------------------------------------------------

    async def _from_client(self, message: JSONRPCMessage, group: TaskGroup) -> None:
        if isinstance(message, JSONRPCRequest):
            await self._client_request(message, group)
        elif isinstance(message, JSONRPCNotification):
            if message.method == CANCELLED_METHOD:
                cancelled = (message.params or {}).get("requestId")
                scope = self._calls.pop(cancelled, None) if isinstance(cancelled, (int, str)) else None
                if scope is not None:
                    scope.cancel()  # the call's own request to the server is cancelled there
            elif message.method not in (INITIALIZED, ROOTS_CHANGED):
                await self._to_server(message)
        elif not self.client.answer(message):
            await self._to_server(message)  # the client's answer to a request the server itself sent

    async def _client_request(self, request: JSONRPCRequest, group: TaskGroup) -> None:
        method, params = request.method, request.params or {}
        if method == PING:
            await self.gateway.to_front(result_message(request.id, {}))
        elif method == INITIALIZE:
            error = error_object(INVALID_REQUEST, "hostcompat proxy: the session is already initialized")
            await self.gateway.to_front(error_message(request.id, error))
        elif method == SET_LEVEL:
            level = params.get("level")
            self.envelope = replace(self.envelope, log_level=level if isinstance(level, str) else None)
            await self.gateway.to_front(result_message(request.id, {}))
        elif method in (SUBSCRIBE, UNSUBSCRIBE):
            await self._subscribe(request, group)
        else:
            group.start_soon(self._call, request)

    async def _subscribe(self, request: JSONRPCRequest, group: TaskGroup) -> None:
        uri = (request.params or {}).get("uri")
        if not isinstance(uri, str):
            error = error_object(-32602, "hostcompat proxy: resources/subscribe needs a uri")
            await self.gateway.to_front(error_message(request.id, error))
            return
        if request.method == SUBSCRIBE and uri not in self.subscriptions:
            if len(self.subscriptions) >= MAX_SUBSCRIPTIONS:
                error = error_object(-32602, f"hostcompat proxy: at most {MAX_SUBSCRIPTIONS} subscriptions")
                await self.gateway.to_front(error_message(request.id, error))
                return
            self.subscriptions.append(uri)
        elif request.method == UNSUBSCRIBE and uri in self.subscriptions:
            self.subscriptions.remove(uri)
        self._relisten(group)
        await self.gateway.to_front(result_message(request.id, {}))

    def _relisten(self, group: TaskGroup) -> None:
        """Close the listen stream in use and open one with the current filter (none when there is nothing to ask)."""
        if self._listen is not None:
            self._listen.cancel()
            self._listen = None
        notifications = listen_filter(self.capabilities, self.subscriptions)
        if notifications:
            self._listen = anyio.CancelScope()
            group.start_soon(self._listen_on, self._listen, notifications)

    async def _listen_on(self, scope: anyio.CancelScope, notifications: WireJSON) -> None:
        with scope:
            try:
                await self.server.request(LISTEN, with_envelope({"notifications": dict(notifications)}, self.envelope))
            except PeerError as error:
                logger.info("the server closed or refused subscriptions/listen: %s", error.error.get("message"))

    async def _call(self, request: JSONRPCRequest) -> None:
        """One client request, through as many `input_required` rounds as the server asks for."""
        scope = self._calls[request.id] = anyio.CancelScope()
        with scope:
            await self.gateway.to_front(await self._answer(request))
        if self._calls.get(request.id) is scope:
            del self._calls[request.id]

    async def _answer(self, request: JSONRPCRequest) -> JSONRPCMessage:
        try:
            return result_message(request.id, await self._rounds(request))
        except PeerError as failure:
            return error_message(request.id, legacy_error(request.method, failure.error))

    async def _rounds(self, request: JSONRPCRequest) -> WireJSON:
        """The final result of a client request (raises `PeerError` with the error to answer with)."""
        params = with_envelope(request.params, self.envelope)
        timeout = self.gateway.config.request_timeout
        for _ in range(MAX_ROUNDS):
            result = await self.server.request(request.method, params)
            if not is_input_required(result):
                return result
            responses = {
                asked.key: await self.client.request(asked.method, asked.params, timeout=timeout)
                for asked in input_requests(result)
            }
            params = retry_params(with_envelope(request.params, self.envelope), responses, result.get("requestState"))
        raise PeerError(
            error_object(-32603, f"hostcompat proxy: the server asked for input more than {MAX_ROUNDS} times")
        )

    # -- server to client ------------------------------------------------------------------------------------

    async def _from_server(self, group: TaskGroup) -> None:
        for early in self.gateway.early_back:
            await self._server_item(early)
        while True:
            try:
                item = await self.gateway.back.link.read.receive()
            except _OVER:
                break
            await self._server_item(item)
        self.server.close("the server ended")
        self.client.close("the server ended")
        self.gateway.front_out.close()
        group.cancel_scope.cancel()

    async def _server_item(self, item: SessionMessage | Exception) -> None:
        if isinstance(item, Exception):
            logger.warning("unreadable message from the upstream server: %s", self.gateway.config.redacted(item))
            return
        message = item.message
        if isinstance(message, (JSONRPCResponse, JSONRPCError)):
            if not self.server.answer(message):
                logger.debug("dropped an upstream answer for id %r, which is not in flight", message.id)
        elif isinstance(message, JSONRPCNotification) and message.method == ACKNOWLEDGED:
            return
        else:
            await self.gateway.to_front(message)


__all__ = ["MAX_ROUNDS", "MAX_SUBSCRIPTIONS", "ModernBack"]
