"""A handshake-era client (the SDK's, offering 2025-11-25 as Codex does) uses a 2026-07-28-only server through the
proxy: tools, resources, prompts, and the sampling and elicitation the server asks for with `input_required`.
"""

from __future__ import annotations

import warnings

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types import TextContent, TextResourceContents

from hostcompat.clients.proxy.config import ProxyConfig, stdio_upstream
from hostcompat.clients.proxy.serve import http_proxy
from tests.clients.proxy._support import BUNDLED
from tests.clients.proxy.era._clients import CODEX, MODERN_SERVER, connect, sampling, through_proxy

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(120)]


def text(result: object) -> str:
    content = getattr(result, "content", [])
    return "".join(block.text for block in content if isinstance(block, TextContent))


async def test_the_legacy_client_cannot_use_the_modern_only_server_directly() -> None:
    with pytest.raises(Exception) as caught:  # the SDK wraps the -32022 refusal in an exception group
        async with connect(MODERN_SERVER, "legacy"):
            pass
    assert "2026-07-28 only" in repr(caught.value) or "2026-07-28 only" in str(caught.value.__cause__)


async def test_every_round_trip_works_through_the_gateway() -> None:
    async with connect(through_proxy(MODERN_SERVER), "legacy") as client:
        assert client.protocol_version == "2025-11-25"
        assert client.server_info is not None and client.server_info.name == "modern-only"
        assert client.instructions == "a 2026-07-28-only test server"
        assert client.server_capabilities.tools is not None
        tools = await client.list_tools()
        assert {tool.name for tool in tools.tools} >= {"echo", "whoami", "ask_model", "ask_user"}
        assert text(await client.call_tool("echo", {"text": "hi"})) == "echo: hi"
        # the client's info and capabilities reached the server in each request's envelope
        assert text(await client.call_tool("whoami", {})) == "codex-mcp-client 0.148.0 elicitation,sampling"
        # input_required -> sampling/createMessage to the client -> retried with inputResponses
        assert text(await client.call_tool("ask_model", {"prompt": "6 x 7?"})) == "model said: 42"
        assert text(await client.call_tool("ask_user", {})) == "user said: accept {'name': 'Ada'}"
        read = await client.read_resource("test://hello")
        assert isinstance(read.contents[0], TextResourceContents)
        assert read.contents[0].text == "hello from a modern server"
        prompt = await client.get_prompt("greet", {"name": "Bo"})
        assert isinstance(prompt.messages[0].content, TextContent)
        assert prompt.messages[0].content.text == "Say hello to Bo."
        assert (await client.list_prompts()).prompts[0].name == "greet"
        with warnings.catch_warnings():  # the SDK warns that 2026-07-28 has none of these: the gateway maps them
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await client.send_ping()
            await client.set_logging_level("debug")
            await client.subscribe_resource("test://hello")  # a subscriptions/listen stream behind
            await client.unsubscribe_resource("test://hello")
        with pytest.raises(MCPError) as missing:
            await client.read_resource("test://nope")
        assert missing.value.error.code == -32002  # -32602 with the uri on the modern side


async def test_the_era_can_be_given_instead_of_detected() -> None:
    async with connect(through_proxy(MODERN_SERVER, "--era-front", "legacy", "--era-back", "modern"), "legacy") as c:
        assert text(await c.call_tool("ask_model", {"prompt": "?"})) == "model said: 42"


async def test_a_modern_client_passes_straight_through_to_the_modern_server() -> None:
    async with connect(through_proxy(MODERN_SERVER), "auto") as client:
        assert client.protocol_version == "2026-07-28"
        assert text(await client.call_tool("ask_model", {"prompt": "?"})) == "model said: 42"
        assert text(await client.call_tool("whoami", {})) == "codex-mcp-client 0.148.0 elicitation,sampling"


async def test_a_legacy_client_on_the_http_front_uses_the_modern_only_server() -> None:
    config = ProxyConfig(stdio_upstream(MODERN_SERVER), rules=BUNDLED)
    async with (
        http_proxy(config) as proxy,
        Client(proxy.url, mode="legacy", client_info=CODEX, sampling_callback=sampling) as client,
    ):
        assert client.protocol_version == "2025-11-25"
        assert text(await client.call_tool("whoami", {})) == "codex-mcp-client 0.148.0 sampling"
        assert text(await client.call_tool("ask_model", {"prompt": "6 x 7?"})) == "model said: 42"


async def test_the_http_front_relays_as_is_when_the_server_is_said_to_speak_the_handshake_era() -> None:
    config = ProxyConfig(stdio_upstream(MODERN_SERVER), rules=BUNDLED, era_back="legacy")
    async with http_proxy(config) as proxy:
        with pytest.raises(Exception) as caught:  # the server's own -32022 refusal reaches the client
            async with Client(proxy.url, mode="legacy", client_info=CODEX):
                pass
    assert "2026-07-28 only" in repr(caught.value) or "2026-07-28 only" in str(caught.value.__cause__)
