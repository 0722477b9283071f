"""The probe's own JSON-RPC client over stdio: what the official `mcp` client does on the wire for the probe, and
what it accepts, without importing it (its import costs a live stdio `check` more than the exchange itself).

The same requests go out, byte for byte, with the same ids, the same `_meta` stamps and the same courtesy
`notifications/cancelled` for an abandoned request; requests from the server get the official client's answers
(`ping` an empty result, sampling, elicitation and roots its refusals, anything else "method not found", invalid
params "invalid request parameters"); notifications need no answer and get none. Every result is checked with the
SDK's own validators (`_sdk_schemas`), so a result its client rejects is rejected here, with its errors. The
handshake (`_negotiate`) follows the SDK's client too. `tests/probe/test_raw_session.py` holds both to the same
wire bytes and the same snapshots.

It runs over the probe's hardened stdio transport (`_stdio`), with `RawCodec` for its messages; the SDK's client
still speaks for HTTP and SSE targets, the transport seam and `open_client` (`_sdk_session`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager, suppress
from typing import Any, Final

import anyio
import anyio.lowlevel
import pydantic_core
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from hostcompat._dataclass import dataclass
from hostcompat.probe._rpc import (
    CONNECTION_CLOSED,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    REQUEST_TIMEOUT,
    RequestId,
    RpcError,
)
from hostcompat.probe._sdk_schemas import SdkValidators
from hostcompat.probe._wire import PROTOCOL_VERSION_META_KEY, Wire
from hostcompat.probe.events import REQUEST_FLOOD

CLIENT_INFO_META_KEY: Final = "io.modelcontextprotocol/clientInfo"
CLIENT_CAPABILITIES_META_KEY: Final = "io.modelcontextprotocol/clientCapabilities"
FALLBACK_VERSION: Final = "2025-11-25"
"""The version the SDK's client checks results and requests against before a version is negotiated."""
MAX_ANSWERS_IN_FLIGHT: Final = 256
"""The most server-to-client requests answered at once; past it (a server that sends and never reads) the rest
are left unanswered, so a flood cannot grow the probe's memory."""
_ABANDON_WRITE_SECONDS: Final = 5.0
_SHUTDOWN_WRITE_SECONDS: Final = 1.0
_REFUSALS: Final = {
    "sampling/createMessage": "Sampling not supported",
    "elicitation/create": "Elicitation not supported",
    "roots/list": "List roots not supported",
}
"""The official client's answers to the server requests it has no callback for (the probe gives it none)."""


@dataclass(frozen=True)
class Inbound:
    """One message from the server: `kind` is the SDK's class name for it (`JSONRPCRequest`,
    `JSONRPCNotification`, `JSONRPCResponse`, `JSONRPCError`); `error` is (code, message, data).
    """

    kind: str
    id: RequestId | None = None
    method: str | None = None
    params: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    error: tuple[int, str, Any] | None = None


class RawCodec:
    """Lines to and from `Inbound` messages and outbound JSON-RPC objects, as the SDK's transports do it."""

    def __init__(self, validators: SdkValidators) -> None:
        self._validators = validators

    def parse(self, text: str) -> Inbound:
        """One line as a message, parsed by the SDK's own envelope validator (`ValueError` for anything else)."""
        message = self._validators.message(text)
        fields = vars(message)
        error = fields.get("error")
        return Inbound(
            kind=type(message).__name__,
            id=fields.get("id"),
            method=fields.get("method"),
            params=fields.get("params"),
            result=fields.get("result"),
            error=None if error is None else (error.code, error.message, error.data),
        )

    def dropped(self, request_id: RequestId, code: int, why: str) -> Inbound:
        """The error answer that stands for a reply the transport dropped."""
        return Inbound("JSONRPCError", request_id, error=(code, why, None))

    def dump(self, message: Mapping[str, Any]) -> bytes:
        """An outbound message as the SDK writes its models (`model_dump_json`: compact, non-finite numbers as null)."""
        return pydantic_core.to_json(message, inf_nan_mode="null") + b"\n"


def _coerced(request_id: RequestId) -> RequestId:
    """A request id as the SDK's dispatcher correlates it: "7" and 7 are one (the wire keeps the verbatim id)."""
    if isinstance(request_id, str):
        try:
            return int(request_id)
        except ValueError:
            pass
    return request_id


class RawSession:
    """A JSON-RPC client session over a stream pair of `RawCodec` messages, answering as the official client."""

    def __init__(
        self,
        read_stream: MemoryObjectReceiveStream[Inbound],
        write_stream: MemoryObjectSendStream[dict[str, Any]],
        wire: Wire,
        validators: SdkValidators,
        *,
        client_info: Mapping[str, str],
        extensions: Mapping[str, Any] | None,
    ) -> None:
        self._read = read_stream
        self._write = write_stream
        self.wire = wire
        self.validators = validators
        self.client_info = dict(client_info)
        self.extensions = None if extensions is None else dict(extensions)
        self.negotiated: str | None = None
        self.modern = False
        self._next_id = 0
        self._pending: dict[RequestId, MemoryObjectSendStream[dict[str, Any] | tuple[int, str, Any]]] = {}
        self._in_flight: dict[RequestId, anyio.Event] = {}
        self._answering = 0
        """Answers to the server's requests started and not yet written (a server that does not read holds them)."""
        self._flooded = 0
        self._closed = False
        self._group: TaskGroup | None = None

    @property
    def protocol_version(self) -> str | None:
        """The negotiated protocol version."""
        return self.negotiated

    @property
    def modern_versions(self) -> tuple[str, ...]:
        """The SDK's modern protocol versions."""
        return self.validators.modern_versions

    def capabilities(self) -> dict[str, Any]:
        """The `ClientCapabilities` the official client advertises: the extensions, and nothing else it does."""
        return {} if self.extensions is None else {"extensions": self.extensions}

    # --- outbound ------------------------------------------------------------------------------------------------

    async def _send(self, message: dict[str, Any]) -> None:
        await self._write.send(message)

    async def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Send a notification; dropped once the connection is closed, as the SDK does."""
        if self._closed:
            return
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = dict(params)
        with suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
            await self._send(message)

    async def send_raw(
        self, method: str, params: Mapping[str, Any] | None, *, timeout: float | None = None, cancel: bool = True
    ) -> dict[str, Any]:
        """Send a request and wait for its result, as the SDK's `JSONRPCDispatcher.send_raw_request`: the time
        limit counts from the write; an abandoned request gets a courtesy `notifications/cancelled` when `cancel`.

        Raises:
            RpcError: an error answer, `REQUEST_TIMEOUT` after `timeout`, `CONNECTION_CLOSED` once closed.
        """
        if self._closed:
            raise RpcError(CONNECTION_CLOSED, "Connection closed")
        self._next_id += 1
        while self._next_id in self._pending:  # pragma: no cover - ids are only ever minted here
            self._next_id += 1
        request_id = self._next_id
        out_params = dict(params) if params is not None else {}
        meta = dict(out_params.get("_meta") or {})
        if meta:
            out_params["_meta"] = meta
        else:
            out_params.pop("_meta", None)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if out_params:
            message["params"] = out_params
        send, receive = anyio.create_memory_object_stream[dict[str, Any] | tuple[int, str, Any]](1)
        self._pending[request_id] = send
        started = False
        try:
            await anyio.lowlevel.checkpoint_if_cancelled()
            started = True
            with anyio.CancelScope() as clock:
                self.wire.sent(request_id, method, message.get("params"))
                try:
                    await self._send(message)
                except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                    raise RpcError(CONNECTION_CLOSED, "Connection closed") from None
                if timeout is not None:
                    clock.deadline = anyio.current_time() + timeout
                outcome = await receive.receive()
            if clock.cancelled_caught:
                if cancel:
                    with anyio.move_on_after(_ABANDON_WRITE_SECONDS):
                        await self._cancel_outbound(request_id, f"timed out after {timeout}s")
                raise RpcError(REQUEST_TIMEOUT, f"Request {method!r} timed out")
        except anyio.get_cancelled_exc_class():
            if cancel and started:
                with anyio.move_on_after(_ABANDON_WRITE_SECONDS, shield=True):
                    await self._cancel_outbound(request_id, "caller cancelled")
            raise
        finally:
            self._pending.pop(request_id, None)
            send.close()
            receive.close()
        if isinstance(outcome, tuple):
            raise RpcError(*outcome)
        return outcome

    async def _cancel_outbound(self, request_id: RequestId, reason: str) -> None:
        await self.notify("notifications/cancelled", {"requestId": request_id, "reason": reason})

    def stamp(self, method: str, params: dict[str, Any] | None) -> dict[str, Any] | None:
        """A request's params as the official client stamps them once it speaks a 2026 (modern) version."""
        if not self.modern:
            return params
        stamped = {} if params is None else dict(params)
        meta = stamped.setdefault("_meta", {})
        meta[PROTOCOL_VERSION_META_KEY] = self.negotiated
        meta[CLIENT_INFO_META_KEY] = self.client_info
        meta[CLIENT_CAPABILITIES_META_KEY] = self.capabilities()
        return stamped

    async def request(self, method: str, params: dict[str, Any] | None = None) -> None:
        """One of the probe's requests, and its result checked as the SDK's `ClientSession.send_request` checks it
        (see `ProbeSession.request`).
        """
        cancel = method not in ("initialize", "server/discover")
        raw = await self.send_raw(method, self.stamp(method, params), cancel=cancel)
        self.check_result(method, raw)

    def check_result(self, method: str, raw: dict[str, Any]) -> None:
        """The SDK's check of a result: a negative `ttlMs` floored first (on the client's copy, not the `Wire`'s)."""
        ttl = raw.get("ttlMs")
        if isinstance(ttl, int | float) and not isinstance(ttl, bool) and ttl < 0:
            raw["ttlMs"] = 0
        with suppress(KeyError):  # no model for the method at this version: the SDK checks nothing
            self.validators.result(method, self.negotiated or FALLBACK_VERSION, raw)

    async def discover(self, version: str) -> dict[str, Any]:
        """One `server/discover` stamped with `version` (see `ProbeSession.discover`)."""
        from hostcompat.probe._negotiate import send_discover

        return await send_discover(self, version)

    def adopt_discover(self, raw: dict[str, Any]) -> None:
        """Validate and adopt a `server/discover` result (see `ProbeSession.adopt_discover`)."""
        from hostcompat.probe._negotiate import adopt_discover

        adopt_discover(self, self.validators.whole("DiscoverResult", raw))

    # --- inbound -------------------------------------------------------------------------------------------------

    async def run(self) -> None:
        """Read and dispatch the server's messages until its stdout ends; then fail every request still waiting."""
        try:
            async for message in self._read:
                self._dispatch(message)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass
        self.wire.mark_closed()
        self._close()

    def _close(self) -> None:
        self._closed = True
        for pending in self._pending.values():
            with suppress(anyio.WouldBlock, anyio.BrokenResourceError, anyio.ClosedResourceError):
                pending.send_nowait((CONNECTION_CLOSED, "Connection closed", None))
        self._pending.clear()

    def _dispatch(self, message: Inbound) -> None:
        if message.kind == "JSONRPCResponse" and message.id is not None and message.result is not None:
            self.wire.answered(message.id, message.result)
            self._resolve(message.id, message.result)
        elif message.kind == "JSONRPCError" and message.error is not None:
            self.wire.refused(message.id)
            if message.id is not None:
                self._resolve(message.id, message.error)
        elif message.kind == "JSONRPCRequest" and message.id is not None and message.method is not None:
            if self._answering >= MAX_ANSWERS_IN_FLIGHT:  # it sends and does not read: answering costs memory
                self._flooded += 1
                if self._flooded == 1:
                    said = f"the server sent over {MAX_ANSWERS_IN_FLIGHT} requests whose answers it did not read"
                    self.wire.event(REQUEST_FLOOD, "warning", f"{said}; the rest were left unanswered")
                return
            answered = self._in_flight[_coerced(message.id)] = anyio.Event()
            assert self._group is not None
            self._answering += 1
            self._group.start_soon(self._answer, message.id, message.method, message.params, answered)
        elif message.kind == "JSONRPCNotification" and message.method == "notifications/cancelled":
            params = message.params or {}
            cancelled = params.get("requestId")
            if isinstance(cancelled, int | str) and not isinstance(cancelled, bool):
                event = self._in_flight.get(_coerced(cancelled))
                if event is not None:
                    event.set()  # the peer stopped waiting: the answer is not sent

    def _resolve(self, request_id: RequestId, outcome: dict[str, Any] | tuple[int, str, Any]) -> None:
        pending = self._pending.get(_coerced(request_id))
        if pending is not None:
            with suppress(anyio.WouldBlock, anyio.BrokenResourceError, anyio.ClosedResourceError):
                pending.send_nowait(outcome)

    def _answer_to(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        """The official client's answer to a request from the server: `{"result": …}` or `{"error": …}`."""
        from pydantic_core import ValidationError

        try:
            self.validators.server_request(method, self.negotiated or FALLBACK_VERSION, params)
        except KeyError:
            return {"error": {"code": METHOD_NOT_FOUND, "message": "Method not found", "data": method}}
        except ValidationError:
            return {"error": {"code": INVALID_PARAMS, "message": "Invalid request parameters", "data": ""}}
        if method == "ping":
            return {"result": {}}
        return {"error": {"code": INVALID_REQUEST, "message": _REFUSALS[method]}}

    async def _answer(
        self, request_id: RequestId, method: str, params: dict[str, Any] | None, cancelled: anyio.Event
    ) -> None:
        key = _coerced(request_id)
        written = False
        try:
            answer = self._answer_to(method, params)
            if self._in_flight.get(key) is cancelled:
                del self._in_flight[key]
            if not cancelled.is_set():
                written = True
                await self._send_answer({"jsonrpc": "2.0", "id": request_id, **answer})
        except anyio.get_cancelled_exc_class():
            if not written and not cancelled.is_set():
                closed = {"code": CONNECTION_CLOSED, "message": "Connection closed"}
                with anyio.move_on_after(_SHUTDOWN_WRITE_SECONDS, shield=True):
                    await self._send_answer({"jsonrpc": "2.0", "id": request_id, "error": closed})
            raise
        finally:
            self._answering -= 1

    async def _send_answer(self, message: dict[str, Any]) -> None:
        with suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
            await self._send(message)


@asynccontextmanager
async def raw_session(
    read_stream: MemoryObjectReceiveStream[Inbound],
    write_stream: MemoryObjectSendStream[dict[str, Any]],
    wire: Wire,
    validators: SdkValidators,
    *,
    client_info: Mapping[str, str],
    extensions: Mapping[str, Any] | None,
) -> AsyncIterator[RawSession]:
    """A running `RawSession` (its read loop in a task); on exit the loop stops and waiting requests fail."""
    session = RawSession(read_stream, write_stream, wire, validators, client_info=client_info, extensions=extensions)
    async with anyio.create_task_group() as group:
        session._group = group
        group.start_soon(session.run)
        try:
            yield session
        finally:
            group.cancel_scope.cancel()
            session._close()


__all__ = ["Inbound", "RawCodec", "RawSession", "raw_session"]
