"""The gateway's own requests to one peer (the server behind, or the client in front), matched with their answers.

The gateway asks questions the proxied peers never asked (`server/discover` for a legacy client, `initialize` for a
modern one, the sampling request hidden in an `input_required` result). Each gets an id of the gateway's own, so its
answer is told apart from the peer's traffic; a request that is cancelled (its caller gave up, or timed out) is
cancelled on the peer too. At most `limit` requests wait at once.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from dataclasses import field

import anyio
from mcp_types import (
    ErrorData,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
)

from hostcompat._dataclass import dataclass
from hostcompat.clients.proxy.failures import CONNECTION_CLOSED, PROXY_OVERLOADED, REQUEST_TIMEOUT, cancel_params
from hostcompat.clients.proxy.tracker import CANCELLED_METHOD
from hostcompat.errors import HostCompatError
from hostcompat.wire_json import WireJSON, WireObject

Send = Callable[[JSONRPCMessage], Awaitable[None]]
"""Writes one message to the peer."""


class PeerError(HostCompatError):
    """The peer answered one of the gateway's requests with a JSON-RPC error (or never answered): `error` is the
    error object to pass on.
    """

    def __init__(self, error: WireJSON) -> None:
        super().__init__(str(error.get("message", "error")))
        self.error: WireObject = dict(error)


@dataclass
class _Slot:
    done: anyio.Event = field(default_factory=anyio.Event)
    result: WireJSON | None = None
    error: WireJSON | None = None


def error_object(code: int, message: str, data: object = None) -> WireObject:
    """A JSON-RPC error object."""
    out: WireObject = {"code": code, "message": message}
    if data is not None:
        out["data"] = data
    return out


def error_message(request_id: int | str, error: WireJSON) -> JSONRPCError:
    """A JSON-RPC error response carrying the raw error object `error`."""
    fields = {key: error[key] for key in ("code", "message", "data") if key in error}
    fields.setdefault("code", -32603)
    fields.setdefault("message", "error")
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(**fields))


def result_message(request_id: int | str, result: WireJSON) -> JSONRPCResponse:
    """A JSON-RPC result response carrying the raw result `result`."""
    return JSONRPCResponse(jsonrpc="2.0", id=request_id, result=dict(result))


def notification_message(method: str, params: WireJSON | None) -> JSONRPCNotification:
    """A JSON-RPC notification (without a `params` member when `params` is None: some SDKs reject `null`)."""
    if params is None:
        return JSONRPCNotification(jsonrpc="2.0", method=method)
    return JSONRPCNotification(jsonrpc="2.0", method=method, params=dict(params))


class Channel:
    """The gateway's requests to one peer, with ids `<prefix><n>`."""

    def __init__(self, send: Send, prefix: str, limit: int) -> None:
        self._send = send
        self._prefix = prefix
        self._limit = limit
        self._ids = itertools.count(1)
        self._waiting: dict[str, _Slot] = {}
        self._closed: WireJSON | None = None

    def next_id(self) -> str:
        """A fresh id of this channel's own."""
        return f"{self._prefix}{next(self._ids)}"

    async def request(
        self, method: str, params: WireJSON | None, *, timeout: float | None = None, request_id: str | None = None
    ) -> WireJSON:
        """Send a request and wait for its result.

        Raises:
            PeerError: the peer answered with an error, did not answer within `timeout`, or is gone.
        """
        if self._closed is not None:
            raise PeerError(self._closed)
        if len(self._waiting) >= self._limit:
            raise PeerError(error_object(PROXY_OVERLOADED, f"too many requests in flight ({self._limit})"))
        request_id = request_id or self.next_id()
        slot = self._waiting[request_id] = _Slot()
        answered = False
        try:
            if params is None:
                await self._send(JSONRPCRequest(jsonrpc="2.0", id=request_id, method=method))
            else:
                await self._send(JSONRPCRequest(jsonrpc="2.0", id=request_id, method=method, params=dict(params)))
            with anyio.move_on_after(float("inf") if timeout is None else timeout):
                await slot.done.wait()
            answered = slot.done.is_set()
        finally:
            self._waiting.pop(request_id, None)
            if not answered and self._closed is None:
                with anyio.CancelScope(shield=True), anyio.move_on_after(1):
                    reason = "no longer needed" if timeout is None else f"no answer within {timeout:g} s"
                    await self._send(notification_message(CANCELLED_METHOD, cancel_params(request_id, reason)))
        if not answered:
            raise PeerError(
                error_object(REQUEST_TIMEOUT, f"hostcompat proxy: no answer to {method} within {timeout:g} s")
            )
        if slot.error is not None:
            raise PeerError(slot.error)
        return slot.result or {}

    def answer(self, message: JSONRPCMessage) -> bool:
        """Take the peer's answer if it is to one of this channel's requests; False when it is not."""
        if not isinstance(message, (JSONRPCResponse, JSONRPCError)) or not isinstance(message.id, str):
            return False
        slot = self._waiting.get(message.id)
        if slot is None:
            return message.id.startswith(self._prefix)  # a late answer to a request given up on: dropped
        if isinstance(message, JSONRPCResponse):
            slot.result = message.result
        else:
            slot.error = message.error.model_dump(mode="json", exclude_none=True)
        slot.done.set()
        return True

    def close(self, why: str) -> None:
        """The peer is gone: every waiting request fails with `why`, and so does every later one."""
        self._closed = error_object(CONNECTION_CLOSED, f"hostcompat proxy: {why}")
        for slot in self._waiting.values():
            slot.error = self._closed
            slot.done.set()


__all__ = ["Channel", "PeerError", "Send", "error_message", "error_object", "notification_message", "result_message"]
