"""The streamable HTTP upstream leg: a proxy in front of another proxy's HTTP front, and upstreams that go away."""

import json
from typing import Any

import pytest

from hostcompat.clients.proxy.config import ProxyConfig, http_upstream
from hostcompat.clients.proxy.failures import CONNECTION_CLOSED
from hostcompat.clients.proxy.serve import http_proxy
from tests.clients.proxy._interop import free_port
from tests.clients.proxy._support import BUNDLED, CODEX, NOBODY, SAMPLED, proxied, proxy_config

pytestmark = pytest.mark.anyio


def through(url: str, **limits: Any) -> ProxyConfig:
    return ProxyConfig(http_upstream(url), rules=BUNDLED, **limits)


async def test_everything_crosses_an_http_upstream_leg() -> None:
    async with http_proxy(proxy_config()) as inner, proxied(through(inner.url)) as outer:
        init = await outer.peer.initialize(CODEX)
        listing = await outer.peer.call("tools/list")
        called = await outer.peer.call("tools/call", {"name": "get_weather", "arguments": {"city": "Rome"}})
        sampled = await outer.peer.call("tools/call", {"name": "sample"})
        params = {"name": "progress", "arguments": {"steps": 2}, "_meta": {"progressToken": 5}}
        progressed = await outer.peer.call("tools/call", params)
    assert init["result"]["x-unknown-init-field"] == "kept"
    assert [tool["name"] for tool in listing["result"]["tools"]] == ["echo", "get_weather"]
    assert called["result"]["content"][0] == {
        "type": "text",
        "text": "get.weather: Rome",
        "annotations": {"priority": 1},
        "_meta": {"x.c/m": 1},
    }
    assert json.loads(sampled["result"]["content"][0]["text"]) == SAMPLED
    assert progressed["result"]["content"][0]["text"] == "done"
    assert [note["params"]["progress"] for note in outer.peer.notifications("notifications/progress")] == [1, 2]


async def test_the_negotiated_protocol_version_rides_on_every_upstream_request() -> None:
    async with http_proxy(proxy_config()) as inner, proxied(through(inner.url)) as outer:
        await outer.peer.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": NOBODY})
        assert outer.session.tracker.protocol_version == "2025-06-18"
        pong = await outer.peer.call("ping")
    assert pong["result"] == {}


async def test_an_unreachable_upstream_answers_initialize_with_an_error_naming_the_url() -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    async with proxied(through(url)) as outer:
        response = await outer.peer.call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}})
    assert response["error"]["code"] == CONNECTION_CLOSED
    assert url in response["error"]["message"]
    assert "Connect" in response["error"]["message"]


async def test_a_request_in_flight_when_the_upstream_server_stops_gets_an_error() -> None:
    async with http_proxy(proxy_config()) as inner, proxied(through(inner.url)) as outer:
        await outer.peer.initialize(NOBODY)
        hanging = await outer.peer.request("tools/call", {"name": "hang"})
        await outer.peer.call("ping")  # the hanging call has reached the inner proxy
        await inner.stop()
        response = await outer.peer.response(hanging)
    assert response["error"]["code"] == CONNECTION_CLOSED
