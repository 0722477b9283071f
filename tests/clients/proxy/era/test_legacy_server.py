"""A 2026-07-28 client (the SDK's) uses handshake-era servers through the proxy: `server/discover` is answered from
`initialize`, a server that exits on the discover probe is started again, each client identity gets its own
upstream session, and a server's sampling request travels as an `input_required` result.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from mcp_types import (
    CLIENT_CAPABILITIES_META_KEY,
    CLIENT_INFO_META_KEY,
    PROTOCOL_VERSION_META_KEY,
    SERVER_INFO_META_KEY,
    DiscoverResult,
    JSONRPCRequest,
    JSONRPCResponse,
    TextContent,
)

from hostcompat.clients.proxy.config import ProxyConfig, stdio_upstream
from hostcompat.clients.proxy.era.gateway import open_era_link
from hostcompat.clients.proxy.links import UpstreamLink
from hostcompat.clients.proxy.session.upstream import open_upstream
from tests.clients.proxy._interop import everything_server
from tests.clients.proxy.era._clients import connect, through_proxy

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(180)]

LEGACY = [sys.executable, str(Path(__file__).with_name("legacy_server.py"))]
CRASHES_ON_DISCOVER = [*LEGACY, "--exit-on-discover"]
MODERN = "2026-07-28"


def text(result: object) -> str:
    content = getattr(result, "content", [])
    return "".join(block.text for block in content if isinstance(block, TextContent))


async def test_the_crashing_server_really_exits_on_discover() -> None:
    probe = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}
    done = await anyio.run_process(CRASHES_ON_DISCOVER, input=json.dumps(probe).encode() + b"\n", check=False)
    assert done.returncode == 101 and not done.stdout.startswith(b"{")


@pytest.mark.parametrize("server", [LEGACY, CRASHES_ON_DISCOVER], ids=["legacy", "exits-on-discover"])
async def test_a_modern_client_uses_a_legacy_server_through_the_gateway(server: list[str]) -> None:
    async with connect(through_proxy(server), MODERN) as client:
        assert client.protocol_version == MODERN
        assert {tool.name for tool in (await client.list_tools()).tools} >= {"echo", "whoami", "ask_model"}
        assert text(await client.call_tool("echo", {"text": "hi"})) == "echo: hi"
        assert text(await client.call_tool("whoami", {})) == "codex-mcp-client"
        # the server's sampling/createMessage request -> input_required -> the retry answers it
        assert text(await client.call_tool("ask_model", {"prompt": "6 x 7?"})) == "model said: 42"
        read = await client.read_resource("test://legacy")
        assert getattr(read.contents[0], "text", None) == "hello from a legacy server"
        with pytest.raises(MCPError) as missing:
            await client.read_resource("test://nope")
        assert missing.value.error.code == -32602


async def test_a_legacy_client_still_passes_straight_through() -> None:
    async with connect(through_proxy(LEGACY), "legacy") as client:
        assert client.protocol_version == "2025-11-25"
        assert text(await client.call_tool("ask_model", {"prompt": "?"})) == "model said: 42"


def _request(request_id: int, method: str, params: dict[str, Any], name: str) -> SessionMessage:
    meta = {
        PROTOCOL_VERSION_META_KEY: MODERN,
        CLIENT_INFO_META_KEY: {"name": name, "version": "1"},
        CLIENT_CAPABILITIES_META_KEY: {},
    }
    return SessionMessage(JSONRPCRequest(jsonrpc="2.0", id=request_id, method=method, params={**params, "_meta": meta}))


async def _answer(link: UpstreamLink, request_id: int) -> dict[str, Any]:
    with anyio.fail_after(60):
        while True:
            item = await link.read.receive()
            assert not isinstance(item, Exception)
            if isinstance(item.message, JSONRPCResponse) and item.message.id == request_id:
                return item.message.result


async def test_each_client_identity_gets_its_own_upstream_session() -> None:
    config = ProxyConfig(stdio_upstream(LEGACY))
    opened: list[int] = []

    def opener() -> Any:
        opened.append(1)
        return open_upstream(config)

    async with open_era_link(config, opener, "modern", None) as link:
        await link.write.send(_request(0, "server/discover", {}, "first-client"))
        discovered = DiscoverResult.model_validate(await _answer(link, 0))
        assert discovered.supported_versions == [MODERN]
        assert discovered.instructions == "a 2025-era test server"
        assert (discovered.meta or {})[SERVER_INFO_META_KEY]["name"] == "legacy-only"
        whoami = {"name": "whoami", "arguments": {}}
        await link.write.send(_request(1, "tools/call", whoami, "first-client"))
        assert (await _answer(link, 1))["content"][0]["text"] == "first-client"
        await link.write.send(_request(2, "tools/call", whoami, "second-client"))
        assert (await _answer(link, 2))["content"][0]["text"] == "second-client"
        await link.write.send(_request(3, "tools/call", whoami, "first-client"))
        assert (await _answer(link, 3))["content"][0]["text"] == "first-client"
    assert len(opened) == 2  # the probe found a legacy server that stayed up: one session per identity


@pytest.mark.interop
async def test_a_modern_client_uses_server_everything_through_the_gateway() -> None:
    async with connect(through_proxy(everything_server()), MODERN) as client:
        assert text(await client.call_tool("echo", {"message": "hi"})) == "Echo: hi"
        sampled = await client.call_tool("trigger-sampling-request", {"prompt": "?", "maxTokens": 5})
        assert '"text": "42"' in text(sampled)
        elicited = await client.call_tool("trigger-elicitation-request", {})
        assert "Ada" in text(elicited)
        assert (await client.list_prompts()).prompts
        assert (await client.list_resources()).resources


REFUSES_INITIALIZE = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    if message.get("method") == "server/discover":
        error = {"code": -32601, "message": "Method not found"}
    else:
        error = {"code": -32603, "message": "not today"}
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": error}), flush=True)
"""


async def test_a_legacy_server_that_fails_initialize_ends_the_proxy_at_once() -> None:
    meta = {
        PROTOCOL_VERSION_META_KEY: MODERN,
        CLIENT_INFO_META_KEY: {"name": "c", "version": "1"},
        CLIENT_CAPABILITIES_META_KEY: {},
    }
    first = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}
    later = [{"jsonrpc": "2.0", "id": 2 + n, "method": "tools/list", "params": {"_meta": meta}} for n in range(100)]
    proxy = [sys.executable, "-m", "hostcompat.cli.proxy", "--timeout", "30", "--", sys.executable, "-c"]
    lines = "".join(json.dumps(message) + "\n" for message in [first, *later]).encode()
    with anyio.fail_after(25):  # before the fix: every later request waited out --timeout, and the proxy never ended
        done = await anyio.run_process([*proxy, REFUSES_INITIALIZE], input=lines, check=False)
    answers = {json.loads(line)["id"]: json.loads(line) for line in done.stdout.splitlines()}
    assert answers[1]["error"]["message"].endswith("not today")
    assert all("error" in answer for answer in answers.values())  # the session is over: what was read, refused
    assert done.returncode == 1  # ended as when any server ends, with nothing left waiting out --timeout
    assert done.stderr.count(b"the server did not complete initialize (not today)") == 1  # said once, not twice
