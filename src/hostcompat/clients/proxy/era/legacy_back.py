"""A 2026-07-28 client in front of a legacy server: discovery, identities and the server's requests, translated.

- `server/discover` is answered from the server's `initialize` result (its serverInfo moves to `_meta`).
- Each client identity (the `clientInfo` name and version in a request's `_meta`) gets its own upstream session,
  started and initialized with that client's info and capabilities on its first request; the envelope keys are
  taken out of `_meta` before a request goes on, the client's other `_meta` keys (a progress token) stay.
- A request the server answers by asking the client (sampling, elicitation, roots, during a `tools/call`, say) gets
  an `input_required` result carrying those requests and a `requestState` of the gateway's; the retry's
  `inputResponses` answer the server's requests, and the retry gets the final result (or the next questions).
- `subscriptions/listen` becomes `resources/subscribe` for each URI, acknowledged with what the server can honour;
  cancelling the listen unsubscribes. `ping` from the server is answered here.
- Results get `resultType: complete`; resource-not-found -32002 becomes -32602.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Mapping
from dataclasses import field

import anyio
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse
from mcp_types.jsonrpc import INVALID_PARAMS, METHOD_NOT_FOUND
from mcp_types.version import LATEST_MODERN_VERSION

from hostcompat._dataclass import dataclass
from hostcompat.clients.proxy.era.channel import (
    Channel,
    PeerError,
    error_message,
    error_object,
    notification_message,
    result_message,
)
from hostcompat.clients.proxy.era.gateway import Back, Gateway, hold_back
from hostcompat.clients.proxy.era.translate import (
    ACKNOWLEDGED,
    DISCOVER,
    INITIALIZE,
    INITIALIZED,
    LISTEN,
    PING,
    SUBSCRIBE,
    UNSUBSCRIBE,
    Envelope,
    acknowledged_filter,
    complete,
    discover_result_from_initialize,
    envelope_of,
    handshake_version,
    initialize_params,
    input_required_result,
    modern_error,
    retry_of,
    strip_retry,
    without_envelope,
)
from hostcompat.clients.proxy.failures import UpstreamEnd
from hostcompat.clients.proxy.tracker import CANCELLED_METHOD, RequestId
from hostcompat.wire_json import WireJSON, WireValue

logger = logging.getLogger(__name__)

MAX_IDENTITIES = 16
"""The most client identities (hence upstream sessions) one front session may use."""

MAX_ASKS = 32
"""The most server-to-client requests one call may have waiting for the client."""

SUBSCRIPTION_ID_META_KEY = "io.modelcontextprotocol/subscriptionId"

STATE_PREFIX = "hostcompat-era-state-"
"""How the `requestState` values the gateway hands out start."""

_OVER = (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError)


@dataclass
class Call:
    """A client request the server is working on: its outcome once known, and the questions it asked meanwhile."""

    method: str
    done: anyio.Event = field(default_factory=anyio.Event)
    outcome: JSONRPCMessage | None = None
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    asks: list[tuple[RequestId, str, WireValue]] = field(default_factory=list)
    asked: anyio.Event = field(default_factory=anyio.Event)
    waiting: dict[str, RequestId] = field(default_factory=dict)
    """Keys of the questions sent to the client -> the server's request ids."""


@dataclass
class Session:
    """One upstream session, for one client identity."""

    back: Back
    channel: Channel
    initialized: WireJSON = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)


class LegacyBack:
    """Relay a 2026-07-28 client to a legacy server; `run(first)` returns when either side is done."""

    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.sessions: dict[tuple[str, str], Session] = {}
        self.states: dict[str, Call] = {}
        self.listens: dict[RequestId, tuple[Session, list[str]]] = {}
        self.by_front_id: dict[RequestId, Call] = {}
        self._tokens = itertools.count(1)
        self.primary: Session | None = None
        self.handshake = False
        """Set when the client sent `initialize` after all (a client whose `server/discover` probe timed out falls
        back to the handshake): from then on the primary session is relayed as is, in both directions."""

    async def run(self, first: JSONRPCRequest) -> None:
        """Relay the client's requests, the first one included, until the primary upstream session ends."""
        async with anyio.create_task_group() as group:
            self.group = group
            envelope = envelope_of(first.params) or Envelope(LATEST_MODERN_VERSION)
            primary = self._session(self.gateway.back, primary=True)
            try:
                await self._initialize(primary, envelope)
            except PeerError as error:  # no session to relay to: the server is stopped, and every request said so
                await self.gateway.to_front(error_message(first.id, error.error))
                self.gateway.end = UpstreamEnd(f"the server did not complete initialize ({error.message[:200]})")
                self.gateway.back.stop.set()
                return
            self.sessions[envelope.identity()] = primary
            self.primary = primary
            await self._client_request(first)
            for early in self.gateway.early_front:
                await self._from_client(early.message)
            async for item in self.gateway.front_in:
                await self._from_client(item.message)
            group.cancel_scope.cancel()

    def _session(self, back: Back, *, primary: bool) -> Session:
        async def send(message: JSONRPCMessage) -> None:
            try:
                await back.link.write.send(SessionMessage(message))
            except _OVER:
                logger.debug("the server stopped taking messages")

        session = Session(back, Channel(send, "hostcompat-era-", self.gateway.config.max_pending))
        self.group.start_soon(self._from_server, session, primary)
        return session

    async def _initialize(self, session: Session, envelope: Envelope) -> None:
        timeout = self.gateway.config.request_timeout
        session.initialized = await session.channel.request(INITIALIZE, initialize_params(envelope), timeout=timeout)
        await session.back.link.write.send(SessionMessage(notification_message(INITIALIZED, None)))

    async def _session_for(self, envelope: Envelope) -> Session:
        """The upstream session of the request's client identity, started and initialized on first use.

        Raises:
            PeerError: too many identities, or the new session could not be started or initialized.
        """
        identity = envelope.identity()
        found = self.sessions.get(identity)
        if found is not None:
            return found
        if len(self.sessions) >= MAX_IDENTITIES:
            raise PeerError(
                error_object(INVALID_PARAMS, f"hostcompat proxy: at most {MAX_IDENTITIES} client identities")
            )
        try:
            back = await self.group.start(hold_back, self.gateway.opener)
        except Exception as error:  # the server could not start again: the client is told, the relay goes on
            raise PeerError(error_object(-32000, f"hostcompat proxy: could not start the server: {error}")) from error
        session = self._session(back, primary=False)
        self.sessions[identity] = session
        await self._initialize(session, envelope)
        return session

    # -- client to server ------------------------------------------------------------------------------------

    async def _from_client(self, message: JSONRPCMessage) -> None:
        if self.handshake and self.primary is not None:
            if not (isinstance(message, JSONRPCNotification) and message.method == INITIALIZED):
                await self.primary.back.link.write.send(SessionMessage(message))
            return
        if isinstance(message, JSONRPCRequest):
            await self._client_request(message)
        elif isinstance(message, JSONRPCNotification) and message.method == CANCELLED_METHOD:
            cancelled = (message.params or {}).get("requestId")
            if isinstance(cancelled, (int, str)):
                await self._cancel(cancelled)
        else:
            logger.debug("dropped a client message the handshake-era server has no use for")

    async def _cancel(self, request_id: RequestId) -> None:
        call = self.by_front_id.pop(request_id, None)
        if call is not None:
            call.scope.cancel()
        listen = self.listens.pop(request_id, None)
        if listen is not None:
            session, uris = listen
            for uri in uris:
                self.group.start_soon(self._quietly, session, UNSUBSCRIBE, uri)

    async def _quietly(self, session: Session, method: str, uri: str) -> None:
        try:
            await session.channel.request(method, {"uri": uri}, timeout=self.gateway.config.request_timeout)
        except PeerError as error:
            logger.info("%s %s failed: %s", method, uri, error.error.get("message"))

    async def _client_request(self, request: JSONRPCRequest) -> None:
        envelope = envelope_of(request.params) or Envelope(LATEST_MODERN_VERSION)
        try:
            session = await self._session_for(envelope)
        except PeerError as error:
            await self.gateway.to_front(error_message(request.id, error.error))
            return
        if request.method == INITIALIZE and session is self.primary:
            await self._fall_back(session, request)
        elif request.method == DISCOVER:
            await self.gateway.to_front(
                result_message(request.id, discover_result_from_initialize(session.initialized))
            )
        elif request.method == LISTEN:
            self.group.start_soon(self._listen, session, request)
        else:
            state, responses = retry_of(request.params)
            call = self.states.pop(state, None) if isinstance(state, str) else None
            if call is not None:
                await self._resume(session, call, responses)
            elif isinstance(state, str) and state.startswith(STATE_PREFIX):
                unknown = error_object(INVALID_PARAMS, "hostcompat proxy: unknown or expired requestState")
                await self.gateway.to_front(error_message(request.id, unknown))
                return
            else:
                call = Call(request.method)
                session.calls.append(call)
                self.group.start_soon(self._call, session, call, request)
            self.by_front_id[request.id] = call
            self.group.start_soon(self._settle, call, request.id)

    async def _fall_back(self, session: Session, request: JSONRPCRequest) -> None:
        """The client speaks the handshake after all: answer its `initialize` from the server's, then relay as is."""
        result = dict(session.initialized)
        result["protocolVersion"] = handshake_version((request.params or {}).get("protocolVersion"))
        self.handshake = True
        logger.info("the client fell back to the initialize handshake: relaying as is from now on")
        await self.gateway.to_front(result_message(request.id, result))

    async def _call(self, session: Session, call: Call, request: JSONRPCRequest) -> None:
        params = strip_retry(without_envelope(request.params))
        with call.scope:
            try:
                result = await session.channel.request(request.method, params)
                call.outcome = result_message(request.id, complete(request.method, result))
            except PeerError as error:
                call.outcome = error_message(request.id, modern_error(request.method, error.error))
        if call in session.calls:
            session.calls.remove(call)
        call.done.set()

    async def _resume(self, session: Session, call: Call, responses: WireJSON) -> None:
        """The client answered the questions of a call: the answers go to the server's requests."""
        for key, response in responses.items():
            server_id = call.waiting.pop(key, None)
            if server_id is not None and isinstance(response, Mapping):
                await session.back.link.write.send(SessionMessage(result_message(server_id, response)))

    async def _settle(self, call: Call, front_id: RequestId) -> None:
        """Answer the client's request: with the call's outcome, or with the questions the server asked first."""
        async with anyio.create_task_group() as race:

            async def wait(event: anyio.Event) -> None:
                await event.wait()
                race.cancel_scope.cancel()

            race.start_soon(wait, call.done)
            race.start_soon(wait, call.asked)
        if self.by_front_id.get(front_id) is call:
            del self.by_front_id[front_id]
        if call.done.is_set() and call.outcome is not None:
            outcome = call.outcome
            if isinstance(outcome, (JSONRPCResponse, JSONRPCError)):
                outcome = outcome.model_copy(update={"id": front_id})
            await self.gateway.to_front(outcome)
            return
        asks, call.asks, call.asked = call.asks, [], anyio.Event()
        requests: dict[str, tuple[str, WireValue]] = {}
        for server_id, method, params in asks:
            key = f"q{server_id}"
            call.waiting[key] = server_id
            requests[key] = (method, params)
        token = f"{STATE_PREFIX}{next(self._tokens)}"
        if len(self.states) < self.gateway.config.max_pending:
            self.states[token] = call
            self.group.start_soon(self._expire, token, call)
        await self.gateway.to_front(result_message(front_id, input_required_result(requests, token)))

    async def _expire(self, token: str, call: Call) -> None:
        """A client that never retries: after the request timeout the call is given up (and cancelled upstream)."""
        await anyio.sleep(self.gateway.config.request_timeout)
        if self.states.get(token) is call:
            del self.states[token]
            call.scope.cancel()

    async def _listen(self, session: Session, request: JSONRPCRequest) -> None:
        capabilities = session.initialized.get("capabilities")
        honoured = acknowledged_filter(request.params, capabilities if isinstance(capabilities, Mapping) else {})
        uris = list(honoured.get("resourceSubscriptions", []))
        self.listens[request.id] = (session, uris)
        for uri in uris:
            await self._quietly(session, SUBSCRIBE, uri)
        params = {"_meta": {SUBSCRIPTION_ID_META_KEY: request.id}, "notifications": honoured}
        await self.gateway.to_front(notification_message(ACKNOWLEDGED, params))

    # -- server to client ------------------------------------------------------------------------------------

    async def _from_server(self, session: Session, primary: bool) -> None:
        items: list[SessionMessage | Exception] = list(self.gateway.early_back) if primary else []
        for item in items:
            await self._server_item(session, item)
        while True:
            try:
                item = await session.back.link.read.receive()
            except _OVER:
                break
            await self._server_item(session, item)
        session.channel.close("the server ended")
        if primary:
            self.gateway.front_out.close()
            self.group.cancel_scope.cancel()

    async def _server_item(self, session: Session, item: SessionMessage | Exception) -> None:
        if isinstance(item, Exception):
            logger.warning("unreadable message from the upstream server: %s", self.gateway.config.redacted(item))
            return
        message = item.message
        if self.handshake and session is self.primary and not session.channel.answer(message):
            await self.gateway.to_front(message)
        elif isinstance(message, (JSONRPCResponse, JSONRPCError)):
            if not session.channel.answer(message):
                logger.debug("dropped an upstream answer for id %r, which is not in flight", message.id)
        elif isinstance(message, JSONRPCRequest):
            await self._server_request(session, message)
        else:
            await self.gateway.to_front(message)

    async def _server_request(self, session: Session, request: JSONRPCRequest) -> None:
        """A legacy server's request to the client: carried by the oldest call in flight, as its question."""
        reply: JSONRPCMessage | None = None
        if request.method == PING:
            reply = result_message(request.id, {})
        else:
            call = next((call for call in session.calls if not call.done.is_set()), None)
            if call is None or len(call.asks) >= MAX_ASKS:
                text = (
                    f"hostcompat proxy: no client request in flight can carry {request.method} to a 2026-07-28 client"
                )
                reply = error_message(request.id, error_object(METHOD_NOT_FOUND, text))
            else:
                call.asks.append((request.id, request.method, request.params or {}))
                call.asked.set()
        if reply is not None:
            await session.back.link.write.send(SessionMessage(reply))


__all__ = ["Call", "LegacyBack", "MAX_ASKS", "MAX_IDENTITIES", "Session"]
