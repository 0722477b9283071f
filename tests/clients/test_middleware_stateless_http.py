"""The middleware on real loopback HTTP servers in the 2026-07-28 stateless mode (no initialize, no session).

Every request stands alone there: it may reach another replica of the server, or a process that has forgotten the
client. The client's identity comes with each request, and so must everything the rewrite needs to route a call.
(The last test counts listings on the SDK's in-memory pair, where a middleware can be slipped in to count.)
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
from fastmcp import FastMCP
from mcp.client import Client
from mcp.server import MCPServer, ServerRequestContext
from mcp.server.context import CallNext, HandlerResult

from hostcompat.clients.detect import CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY
from hostcompat.clients.fastmcp import install_fastmcp
from hostcompat.clients.middleware import MAX_STATELESS_CLIENTS, install
from tests.clients._wire import call, priorities, raw

pytestmark = pytest.mark.anyio

CODEX = types.Implementation(name="codex-mcp-client", version="0.148.0")
MODERN = "2026-07-28"
KINDS = ["mcp", "fastmcp"]


def read_file(path: str = "/") -> list[types.ContentBlock]:
    return [types.TextContent(type="text", text=f"read {path}", annotations=types.Annotations(priority=0.5))]


def build(kind: str) -> Any:
    """A server with a tool Codex cannot call by its own name (a dot) and an annotated result."""
    if kind == "mcp":
        server = MCPServer("replica")
        server.add_tool(read_file, name="files.read")
        install(server, environ={})
        return server.streamable_http_app(stateless_http=True, json_response=True)
    fast: FastMCP[Any] = FastMCP("replica")
    fast.tool(read_file, name="files.read")
    install_fastmcp(fast, environ={})
    return fast.http_app(stateless_http=True, json_response=True)


@asynccontextmanager
async def serving(kind: str) -> AsyncIterator[str]:
    """A fresh server process state behind a loopback socket; yields its URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(build(kind), log_level="warning", lifespan="on"))
    async with anyio.create_task_group() as group:
        group.start_soon(server.serve, [sock])
        while not server.started:
            await anyio.sleep(0.02)
        try:
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            server.should_exit = True


async def listed_names(url: str) -> list[str]:
    async with Client(url, client_info=CODEX, mode=MODERN) as client:
        return [tool.name for tool in (await client.list_tools()).tools]


async def called(url: str, name: str) -> dict[str, Any]:
    """A tools/call without arguments (with some, the SDK may list the tools itself first, to check headers)."""
    async with Client(url, client_info=CODEX, mode=MODERN) as client:
        return await raw(client, call(name))


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
async def test_a_call_by_the_renamed_name_works_on_a_replica_that_never_listed_the_tools(kind: str) -> None:
    async with serving(kind) as first, serving(kind) as second:
        names = await listed_names(first)
        results = [await called(second, names[0]) for _ in range(3)]
    assert names == ["files_read"]
    for result in results:
        assert not result.get("isError"), result
        assert priorities(result) == [1] and type(priorities(result)[0]) is int


async def _list_as(http: httpx2.AsyncClient, url: str, client: dict[str, str]) -> None:
    """One raw 2026-07-28 tools/list request from `client`."""
    meta = {PROTOCOL_VERSION_META_KEY: MODERN, CLIENT_INFO_META_KEY: client, CLIENT_CAPABILITIES_META_KEY: {}}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}
    headers = {
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/list",
    }
    response = await http.post(url, json=body, headers=headers)
    assert response.status_code == 200, response.text


@pytest.mark.timeout(120)
async def test_a_call_by_the_renamed_name_works_after_many_other_clients_came_and_went() -> None:
    async with serving("mcp") as url, httpx2.AsyncClient() as http:
        names = await listed_names(url)
        for index in range(MAX_STATELESS_CLIENTS + 10):
            await _list_as(http, url, {"name": f"another-client-{index}", "version": "1.0.0"})
        result = await called(url, names[0])
    assert not result.get("isError"), result
    assert priorities(result) == [1]


@pytest.mark.timeout(60)
async def test_a_handshake_era_request_that_names_its_client_in_meta_is_rewritten_on_a_stateless_server() -> None:
    """A legacy stateless server has no session to remember `initialize` by; a client info in `_meta` still counts."""
    async with serving("mcp") as url, httpx2.AsyncClient() as http:
        meta = {CLIENT_INFO_META_KEY: {"name": CODEX.name, "version": CODEX.version}}
        body = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "files.read", "_meta": meta}}
        headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25"}
        response = await http.post(url, json=body, headers=headers)
    assert priorities(response.json()["result"]) == [1]


@pytest.mark.timeout(60)
async def test_calls_to_a_tool_no_listing_names_list_the_tools_at_most_once_per_interval() -> None:
    server = MCPServer("counting")
    server.add_tool(read_file, name="files.read")
    install(server, environ={})
    listings: list[str] = []

    async def count(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "tools/list":
            listings.append(ctx.method)
        return await call_next(ctx)

    server.middleware.append(count)  # inside the compatibility middleware: it sees the listings it makes
    async with Client(server, client_info=CODEX, mode=MODERN) as client:
        missing = [await raw(client, call("no_such_tool")) for _ in range(10)]
        found = await raw(client, call("files_read"))
    assert all(result.get("isError") for result in missing)
    assert len(listings) == 1
    assert priorities(found) == [1]  # routed with the map that one listing built
