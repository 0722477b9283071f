"""The streamable HTTP front: one upstream per session, the HTTP-level refusals, and a dead upstream's session."""

import sys
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client.streamable_http import streamable_http_client

from hostcompat.clients.proxy.config import stdio_upstream
from hostcompat.clients.proxy.failures import CONNECTION_CLOSED
from hostcompat.clients.proxy.serve import http_proxy
from tests.clients.proxy._support import NOBODY, RawPeer, initialize_params, proxy_config

pytestmark = pytest.mark.anyio

JSON_AND_SSE = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def initialize_body() -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize_params(NOBODY)}


async def upstream_pid(url: str) -> int:
    async with streamable_http_client(url) as (read, write):
        peer = RawPeer(read, write)
        await peer.initialize(NOBODY)
        reply = await peer.call("tools/call", {"name": "pid"})
        return int(reply["result"]["content"][0]["text"])


async def test_each_session_gets_its_own_upstream_server() -> None:
    async with http_proxy(proxy_config()) as proxy:
        first, second = await upstream_pid(proxy.url), await upstream_pid(proxy.url)
    assert first != second


async def test_an_upstream_crash_answers_the_pending_call_and_then_every_later_request() -> None:
    async with http_proxy(proxy_config()) as proxy, streamable_http_client(proxy.url) as (read, write):
        peer = RawPeer(read, write)
        await peer.initialize(NOBODY)
        crashed = await peer.call("tools/call", {"name": "crash", "arguments": {"code": 9}})
        later = await peer.call("tools/list")
    assert "exited with code 9" in crashed["error"]["message"]
    assert later["error"]["code"] == CONNECTION_CLOSED
    assert "exited with code 9 before answering tools/list" in later["error"]["message"]


async def test_a_2026_era_request_is_refused_with_the_versions_this_front_speaks() -> None:
    async with http_proxy(proxy_config()) as proxy, httpx2.AsyncClient() as http:
        headers = {**JSON_AND_SSE, "mcp-protocol-version": "2026-07-28"}
        body = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}
        response = await http.post(proxy.url, json=body, headers=headers)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == -32022
    assert "2025-11-25" in error["data"]["supported"]
    assert error["data"]["requested"] == "2026-07-28"


async def test_unknown_sessions_and_other_paths_are_not_found() -> None:
    async with http_proxy(proxy_config()) as proxy, httpx2.AsyncClient() as http:
        stale = await http.post(proxy.url, json=initialize_body(), headers={**JSON_AND_SSE, "mcp-session-id": "nope"})
        elsewhere = await http.post(proxy.url.replace("/mcp", "/other"), json=initialize_body(), headers=JSON_AND_SSE)
    assert stale.status_code == 404
    assert elsewhere.status_code == 404


async def test_sessions_over_the_limit_are_refused_with_503() -> None:
    async with http_proxy(proxy_config(max_sessions=1)) as proxy, streamable_http_client(proxy.url) as (read, write):
        await RawPeer(read, write).initialize(NOBODY)
        async with httpx2.AsyncClient() as http:
            refused = await http.post(proxy.url, json=initialize_body(), headers=JSON_AND_SSE)
        assert proxy.app.session_count == 1
    assert refused.status_code == 503
    assert "Too many open sessions (1)" in refused.json()["error"]["message"]


async def test_a_foreign_host_header_is_refused_on_loopback() -> None:
    async with http_proxy(proxy_config()) as proxy, httpx2.AsyncClient() as http:
        headers = {**JSON_AND_SSE, "host": "evil.example.com", "origin": "http://evil.example.com"}
        response = await http.post(proxy.url, json=initialize_body(), headers=headers)
        assert proxy.app.session_count == 0
    assert response.status_code == 421


async def test_a_foreign_host_is_refused_before_its_body_is_read() -> None:
    """A refused request costs no memory: the answer comes while the body (declared, never sent) is still awaited."""
    async with http_proxy(proxy_config()) as proxy:
        host, port = proxy.url.split("//")[1].split("/")[0].split(":")
        stream = await anyio.connect_tcp(host, int(port))
        async with stream:
            head = "POST /mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\n"
            await stream.send(f"{head}Content-Length: 10000000\r\n\r\n".encode())
            with anyio.fail_after(5):
                answer = await stream.receive()
    assert answer.startswith(b"HTTP/1.1 421")


async def test_a_request_body_over_the_message_limit_is_refused_with_413() -> None:
    async with http_proxy(proxy_config(max_message_bytes=4096)) as proxy, httpx2.AsyncClient() as http:
        body = {**initialize_body(), "params": {**initialize_params(NOBODY), "padding": "x" * 5000}}
        response = await http.post(proxy.url, json=body, headers=JSON_AND_SSE)
    assert response.status_code == 413


UNREADABLE_INITIALIZE = r"""
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize":
        head = '{"jsonrpc":"2.0","id":%s,"result":{"capabilities":{},' % json.dumps(message["id"])
        sys.stdout.buffer.write(head.encode() + b'"serverInfo":{"name":"\xff","version":"1"}}}\n')
        sys.stdout.buffer.flush()
"""


async def test_an_unreadable_answer_to_initialize_is_an_error_at_once_not_a_timeout() -> None:
    config = proxy_config(stdio_upstream([sys.executable, "-c", UNREADABLE_INITIALIZE]), request_timeout=30)
    async with http_proxy(config) as proxy, httpx2.AsyncClient(timeout=30) as http:
        with anyio.fail_after(10):
            response = await http.post(proxy.url, json=initialize_body(), headers=JSON_AND_SSE)
    body = response.text
    assert '"id":1' in body.replace(" ", "") and "error" in body


async def test_a_request_whose_id_is_not_a_string_or_an_integer_is_refused_not_dropped() -> None:
    async with http_proxy(proxy_config()) as proxy, httpx2.AsyncClient() as http:
        opened = await http.post(proxy.url, json=initialize_body(), headers=JSON_AND_SSE)
        session = {**JSON_AND_SSE, "mcp-session-id": opened.headers["mcp-session-id"]}
        refused = await http.post(
            proxy.url, json={"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}, headers=session
        )
        fine = await http.post(proxy.url, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers=session)
    assert refused.status_code == 400  # before: 202, as for a notification, and never answered
    assert "neither a string nor an integer" in refused.json()["error"]["message"]
    assert fine.status_code == 200 and '"id":2' in fine.text.replace(" ", "")
