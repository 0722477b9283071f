"""A thousand tool calls in flight at once through the proxy: every one answered, exactly once, with its own text."""

import os
import sys
from collections import Counter

import anyio
import pytest
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from hostcompat.clients.proxy.config import ProxyConfig, stdio_upstream
from hostcompat.clients.proxy.serve import http_proxy
from tests.clients.proxy._interop import everything_server
from tests.clients.proxy._support import BUNDLED, FAKE_SERVER, NOBODY, RawPeer

pytestmark = pytest.mark.anyio

CALLS = 1000


async def storm(peer: RawPeer, tool: str, argument: str) -> None:
    """Send CALLS calls without waiting, read until every one is answered, then check nothing is lost or doubled."""
    await peer.initialize(NOBODY)
    ids = [f"load-{index}" for index in range(CALLS)]

    async def send_all() -> None:
        for index, request_id in enumerate(ids):
            await peer.request(
                "tools/call", {"name": tool, "arguments": {argument: f"call {index}"}}, request_id=request_id
            )

    async with anyio.create_task_group() as group:
        group.start_soon(send_all)
        answers = [await peer.response(request_id) for request_id in ids]
    await peer.call("ping")  # anything doubled would have come before this answer
    counts = Counter(message.get("id") for message in peer.received if "method" not in message)
    assert {request_id: counts[request_id] for request_id in ids} == dict.fromkeys(ids, 1)
    for index, answer in enumerate(answers):
        text = answer["result"]["content"][0]["text"]
        assert text.endswith(f"call {index}"), text


@pytest.mark.timeout(120)
async def test_a_thousand_concurrent_calls_through_the_stdio_front_lose_and_double_nothing() -> None:
    command = [sys.executable, str(FAKE_SERVER)]
    with open(os.devnull, "w") as quiet:
        params = StdioServerParameters(command=sys.executable, args=["-m", "hostcompat.cli.proxy", "--", *command])
        async with stdio_client(params, errlog=quiet) as (read, write):
            await storm(RawPeer(read, write), "echo", "text")


@pytest.mark.interop
@pytest.mark.timeout(120)
async def test_a_thousand_concurrent_calls_to_server_everything_lose_and_double_nothing() -> None:
    command = everything_server()
    with open(os.devnull, "w") as quiet:
        params = StdioServerParameters(command=sys.executable, args=["-m", "hostcompat.cli.proxy", "--", *command])
        async with stdio_client(params, errlog=quiet) as (read, write):
            await storm(RawPeer(read, write), "echo", "message")


@pytest.mark.interop
@pytest.mark.timeout(180)
async def test_a_thousand_concurrent_calls_through_the_http_front_lose_and_double_nothing() -> None:
    config = ProxyConfig(stdio_upstream(everything_server()), rules=BUNDLED)
    async with http_proxy(config) as proxy, streamable_http_client(proxy.url) as (read, write):
        await storm(RawPeer(read, write), "echo", "message")
