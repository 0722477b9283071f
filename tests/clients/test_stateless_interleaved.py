"""Detection per request on a stateless HTTP server: Codex and Claude Code calls interleaved, each gets its own rules.

The official SDK's streamable HTTP app in stateless mode, on a real loopback socket, with the SDK's own client in the
2026-07-28 era (the client's identity rides each request's `_meta`). A thousand calls alternate between a Codex
client and a Claude Code client, several in flight at once: every Codex result is rewritten (an integer priority,
the resource link as text), no Claude Code result is, and every result is the answer to its own call.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
import uvicorn
from mcp.client import Client
from mcp.server import MCPServer

from hostcompat.clients.detect import CLIENT_INFO_META_KEY
from hostcompat.clients.middleware import install
from tests.clients._wire import call, priorities, raw

pytestmark = pytest.mark.anyio

CODEX = types.Implementation(name="codex-mcp-client", version="0.150.0")
CLAUDE_CODE = types.Implementation(name="claude-code", version="2.1.226")
MODERN = "2026-07-28"
CALLS = 1000
IN_FLIGHT = 8


def read_file(n: int) -> list[types.ContentBlock]:
    """A result Codex cannot take as it is: a fractional priority and a resource link."""
    return [
        types.TextContent(type="text", text=f"call {n}", annotations=types.Annotations(priority=0.5)),
        types.ResourceLink(type="resource_link", uri=f"file:///notes/{n}.md", name=f"notes {n}"),
    ]


@asynccontextmanager
async def serving(*, middleware: bool = True) -> AsyncIterator[str]:
    """The SDK's stateless streamable HTTP app (with the middleware unless told otherwise), behind a loopback
    socket; yields its URL.
    """
    server = MCPServer("stateless")
    server.add_tool(read_file, name="read_file")
    if middleware:
        install(server, environ={})
    app = server.streamable_http_app(stateless_http=True, json_response=True)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    port = sock.getsockname()[1]
    http = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    async with anyio.create_task_group() as group:
        group.start_soon(http.serve, [sock])
        while not http.started:
            await anyio.sleep(0.02)
        try:
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            http.should_exit = True


def _check(client: str, n: int, result: dict[str, Any]) -> None:
    """A Codex result is rewritten, a Claude Code result is exactly as the server made it; both answer call `n`."""
    blocks = result["content"]
    assert blocks[0]["text"] == f"call {n}", (client, n, result)
    if client == CODEX.name:
        assert priorities(result) == [1] and type(priorities(result)[0]) is int, result
        assert [block["type"] for block in blocks] == ["text", "text"], result
        assert f"file:///notes/{n}.md" in blocks[1]["text"]
    else:
        assert priorities(result) == [0.5], result
        assert [block["type"] for block in blocks] == ["text", "resource_link"], result


async def _interleave(send: Any) -> dict[str, int]:
    """Run `CALLS` calls alternating Codex and Claude Code, `IN_FLIGHT` at a time; counts checked results."""
    checked = {CODEX.name: 0, CLAUDE_CODE.name: 0}
    queue = iter(range(CALLS))
    lock = anyio.Lock()

    async def worker() -> None:
        while True:
            async with lock:
                n = next(queue, None)
            if n is None:
                return
            client = CODEX.name if n % 2 == 0 else CLAUDE_CODE.name
            _check(client, n, await send(client, n))
            checked[client] += 1

    async with anyio.create_task_group() as group:
        for _ in range(IN_FLIGHT):
            group.start_soon(worker)
    return checked


@pytest.mark.timeout(300)
async def test_sdk_clients_in_the_2026_era_each_get_their_own_rules_across_a_thousand_interleaved_calls() -> None:
    async with (
        serving() as url,
        Client(url, client_info=CODEX, mode=MODERN) as codex,
        Client(url, client_info=CLAUDE_CODE, mode=MODERN) as claude,
    ):
        clients = {CODEX.name: codex, CLAUDE_CODE.name: claude}

        async def send(client: str, n: int) -> dict[str, Any]:
            return await raw(clients[client], call("read_file", {"n": n}))

        checked = await _interleave(send)
    assert checked == {CODEX.name: CALLS // 2, CLAUDE_CODE.name: CALLS // 2}


@pytest.mark.timeout(300)
async def test_handshake_era_requests_that_name_their_client_in_meta_are_told_apart_across_a_thousand_calls() -> None:
    """A stateless server keeps no `initialize`: a 2025-11-25 request that carries its client info is still known."""
    headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25"}
    infos = {CODEX.name: CODEX, CLAUDE_CODE.name: CLAUDE_CODE}
    async with serving() as url, httpx2.AsyncClient() as http:

        async def send(client: str, n: int) -> dict[str, Any]:
            info = infos[client]
            meta = {CLIENT_INFO_META_KEY: {"name": info.name, "version": info.version}}
            params = {"name": "read_file", "arguments": {"n": n}, "_meta": meta}
            body = {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params}
            response = await http.post(url, json=body, headers=headers)
            assert response.status_code == 200, response.text
            reply: dict[str, Any] = response.json()
            assert reply["id"] == n
            result: dict[str, Any] = reply["result"]
            return result

        checked = await _interleave(send)
    assert checked == {CODEX.name: CALLS // 2, CLAUDE_CODE.name: CALLS // 2}
