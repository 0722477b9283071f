"""Two clients at once on the proxy's HTTP front, one server answering both with the same shared objects."""

import copy
from typing import Any

import anyio
import pytest
from mcp.client.streamable_http import streamable_http_client

from hostcompat.clients.proxy.serve import http_proxy
from tests.clients.proxy._support import CLAUDE_CODE, CODEX, RawPeer, SharedServer, proxy_config

pytestmark = pytest.mark.anyio

TINY_PNG = "iVBORw0KGgo="
SHARED: dict[str, Any] = {
    "initialize": {
        "protocolVersion": "2025-11-25",
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "shared", "version": "1"},
    },
    "tools/list": {
        "tools": [
            {"name": "get.weather", "inputSchema": {"type": "object", "properties": {"city": {}}}, "_meta": {"k": 1}},
            {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
        ]
    },
    "tools/call": {
        "content": [
            {"type": "text", "text": "sunny", "annotations": {"priority": 0.3}},
            {"type": "image", "data": TINY_PNG, "mimeType": "image/png", "annotations": {"priority": 0.75}},
        ],
        "structuredContent": {"forecast": "sunny"},
        "x-unknown": True,
    },
    "resources/list": {"resources": [{"uri": "file:///a", "name": "a", "annotations": {"priority": 0.5}}]},
}


async def session(url: str, client: dict[str, Any], rounds: int, seen: dict[str, list[dict[str, Any]]]) -> None:
    async with streamable_http_client(url) as (read, write):
        peer = RawPeer(read, write)
        await peer.initialize(client)
        for _ in range(rounds):
            listing, resources = await peer.call("tools/list"), await peer.call("resources/list")
            called = await peer.call("tools/call", {"name": listing["result"]["tools"][0]["name"], "arguments": {}})
            await anyio.lowlevel.checkpoint()  # let the other client's requests interleave with ours
            seen.setdefault("tools/list", []).append(listing["result"])
            seen.setdefault("resources/list", []).append(resources["result"])
            seen.setdefault("tools/call", []).append(called["result"])


async def test_codex_and_claude_code_at_once_see_their_own_rewrites_and_nothing_of_the_other() -> None:
    server = SharedServer(SHARED)
    before = copy.deepcopy(SHARED)
    codex: dict[str, list[dict[str, Any]]] = {}
    claude: dict[str, list[dict[str, Any]]] = {}
    async with http_proxy(proxy_config(), upstream=server.open) as proxy, anyio.create_task_group() as group:
        group.start_soon(session, proxy.url, CODEX, 15, codex)
        group.start_soon(session, proxy.url, CLAUDE_CODE, 15, claude)
    assert before == SHARED  # the server's shared objects were never touched
    for result in codex["tools/call"]:
        assert [block["annotations"]["priority"] for block in result["content"]] == [0, 1]
        assert result["structuredContent"] == {"forecast": "sunny"}
    for result in claude["tools/call"]:
        assert [block["annotations"]["priority"] for block in result["content"]] == [0.3, 0.75]
        assert "structuredContent" not in result
        assert result["x-unknown"] is True
    for result in codex["resources/list"]:
        assert result["resources"][0]["annotations"]["priority"] == 1
    for result in claude["resources/list"]:
        assert result == SHARED["resources/list"]
    codex_tool = codex["tools/list"][0]["tools"][0]
    claude_tool = claude["tools/list"][0]["tools"][0]
    assert codex_tool["name"] == claude_tool["name"] == "get_weather"
    assert codex_tool["inputSchema"]["properties"]["city"] == {"type": "string"}
    assert claude_tool["inputSchema"]["properties"]["city"] == {}
    assert codex_tool["_meta"] == claude_tool["_meta"] == {"k": 1}
    assert len(server.calls) == 30
    assert {call["name"] for call in server.calls} == {"get.weather"}
