"""Shared test helpers: a raw JSON-RPC peer, an in-process proxy session, and the misbehaving fake server."""

from __future__ import annotations

import itertools
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCRequest, JSONRPCResponse, jsonrpc_message_adapter

from hostcompat.clients.proxy.config import ProxyConfig, StdioUpstream, stdio_upstream
from hostcompat.clients.proxy.failures import UpstreamEnd
from hostcompat.clients.proxy.links import FrontLink, Receiver, Sender, UpstreamLink, UpstreamOpener
from hostcompat.clients.proxy.session.relay import ProxySession
from hostcompat.clients.rules import load_bundled_rules

FAKE_SERVER = Path(__file__).with_name("fake_server.py")
BUNDLED = load_bundled_rules()
CODEX = {"name": "codex-mcp-client", "version": "0.148.0-alpha.9"}
CLAUDE_CODE = {"name": "claude-code", "version": "2.1.220"}
NOBODY = {"name": "some-client-no-rule-names", "version": "1.0.0"}

SAMPLED: dict[str, Any] = {
    "role": "assistant",
    "content": {"type": "text", "text": "sampled words"},
    "model": "test-model",
    "stopReason": "endTurn",
}
ELICITED: dict[str, Any] = {
    "action": "accept",
    "content": {"name": "Ada Lovelace", "check": True, "email": "ada@example.com"},
}
ROOTS: dict[str, Any] = {"roots": [{"uri": "file:///tmp/hostcompat-test-root", "name": "test root"}]}


def fake_upstream() -> StdioUpstream:
    """The fake server, run by this Python."""
    return stdio_upstream([sys.executable, str(FAKE_SERVER)])


def proxy_config(upstream: StdioUpstream | None = None, **limits: Any) -> ProxyConfig:
    """A proxy config with the bundled rules, in front of the fake server unless told otherwise."""
    return ProxyConfig(upstream or fake_upstream(), rules=BUNDLED, **limits)


def initialize_params(client: dict[str, Any], **capabilities: Any) -> dict[str, Any]:
    """`initialize` params for a client that offers sampling, elicitation and roots."""
    caps = {"sampling": {}, "elicitation": {}, "roots": {"listChanged": True}, **capabilities}
    return {"protocolVersion": "2025-11-25", "capabilities": caps, "clientInfo": client}


def as_dict(item: SessionMessage | Exception) -> dict[str, Any]:
    """A received message as plain JSON (what was on the wire)."""
    if isinstance(item, Exception):
        raise item
    dumped: dict[str, Any] = item.message.model_dump(by_alias=True, mode="json", exclude_unset=True)
    return dumped


def default_answer(request: dict[str, Any]) -> dict[str, Any]:
    """What the test client answers to a server-to-client request."""
    method = request["method"]
    if method == "sampling/createMessage":
        return {"result": SAMPLED}
    if method == "elicitation/create":
        return {"result": ELICITED}
    if method == "roots/list":
        return {"result": ROOTS}
    if method == "ping":
        return {"result": {}}
    return {"error": {"code": -32601, "message": f"test client has no {method}"}}


@dataclass
class RawPeer:
    """A client that speaks raw JSON-RPC over a pair of SDK message streams and records all it receives."""

    read: Receiver[SessionMessage | Exception]
    write: Sender[SessionMessage]
    received: list[dict[str, Any]] = field(default_factory=list)
    unclaimed: dict[Any, dict[str, Any]] = field(default_factory=dict)
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def send(self, message: dict[str, Any]) -> None:
        await self.write.send(SessionMessage(jsonrpc_message_adapter.validate_python(message)))

    async def next(self) -> dict[str, Any]:
        message = as_dict(await self.read.receive())
        self.received.append(message)
        return message

    async def answer(self, request: dict[str, Any]) -> None:
        await self.send({"jsonrpc": "2.0", "id": request["id"], **default_answer(request)})

    async def request(self, method: str, params: dict[str, Any] | None = None, *, request_id: Any = None) -> Any:
        """Send a request; returns its id."""
        request_id = next(self.ids) if request_id is None else request_id
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        await self.send(message)
        return request_id

    async def response(self, request_id: Any) -> dict[str, Any]:
        """Wait for the response to `request_id` (or take it if it came already), answering server requests."""
        while request_id not in self.unclaimed:
            message = await self.next()
            if "method" in message and "id" in message:
                await self.answer(message)
            elif "method" not in message:
                self.unclaimed[message.get("id")] = message
        return self.unclaimed.pop(request_id)

    async def call(
        self, method: str, params: dict[str, Any] | None = None, *, request_id: Any = None
    ) -> dict[str, Any]:
        return await self.response(await self.request(method, params, request_id=request_id))

    async def initialize(self, client: dict[str, Any]) -> dict[str, Any]:
        response = await self.call("initialize", initialize_params(client))
        await self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return response

    def notifications(self, method: str) -> list[dict[str, Any]]:
        return [message for message in self.received if message.get("method") == method and "id" not in message]


@dataclass
class Proxied:
    """An in-process proxy session with a raw client on its front."""

    peer: RawPeer
    session: ProxySession
    ends: list[UpstreamEnd | None]


@asynccontextmanager
async def proxied(
    config: ProxyConfig, *, upstream: UpstreamOpener | None = None, drains_on_close: bool = False
) -> AsyncIterator[Proxied]:
    """Run a proxy session in this event loop with a raw client on its front; closed and cancelled on exit."""
    to_proxy, proxy_reads = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    proxy_writes, from_proxy = anyio.create_memory_object_stream[SessionMessage](0)
    front = FrontLink(proxy_reads, proxy_writes, drains_on_close=drains_on_close)
    session = ProxySession(config, front, upstream=upstream)
    ends: list[UpstreamEnd | None] = []

    async def run() -> None:
        ends.append(await session.run())

    async with anyio.create_task_group() as group:
        group.start_soon(run)
        try:
            yield Proxied(RawPeer(from_proxy, to_proxy), session, ends)
        finally:
            to_proxy.close()
            group.cancel_scope.cancel()
    for stream in (proxy_reads, proxy_writes, from_proxy):
        stream.close()


@dataclass
class SharedServer:
    """An in-process server that answers every session with the very same result objects (never copies)."""

    answers: dict[str, Any]
    calls: list[dict[str, Any]] = field(default_factory=list)

    async def _serve(
        self,
        requests: MemoryObjectReceiveStream[SessionMessage],
        replies: MemoryObjectSendStream[SessionMessage | Exception],
    ) -> None:
        async with requests, replies:
            async for item in requests:
                message = item.message
                if not isinstance(message, JSONRPCRequest):
                    continue
                if message.method == "tools/call":
                    self.calls.append(dict(message.params or {}))
                result = self.answers.get(message.method, {})
                await replies.send(
                    SessionMessage(JSONRPCResponse.model_construct(jsonrpc="2.0", id=message.id, result=result))
                )

    @asynccontextmanager
    async def open(self) -> AsyncIterator[UpstreamLink]:
        """One upstream session on this server (an `UpstreamOpener`)."""
        to_server, requests = anyio.create_memory_object_stream[SessionMessage](0)
        replies, from_server = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def ended() -> UpstreamEnd:
            return UpstreamEnd("the in-process server stopped")

        async with anyio.create_task_group() as group:
            group.start_soon(self._serve, requests, replies)
            try:
                yield UpstreamLink(from_server, to_server, ended)
            finally:
                to_server.close()
                from_server.close()
                group.cancel_scope.cancel()
