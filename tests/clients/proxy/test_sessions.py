"""HTTP front sessions are reclaimed: abandoned ones give their place back, and a server's memory is capped.

Real sockets and processes: the proxy runs as a subprocess (or in this event loop on a real socket) in front of
`hostile_server.py`, and sessions are opened and abandoned by a plain HTTP client.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client.streamable_http import streamable_http_client

from hostcompat.clients.proxy import config as proxy_settings
from hostcompat.clients.proxy.config import stdio_upstream
from hostcompat.clients.proxy.failures import CONNECTION_CLOSED
from hostcompat.clients.proxy.serve import http_proxy
from tests.clients.proxy._support import NOBODY, RawPeer, initialize_params, proxy_config
from tests.clients.proxy.test_process_lifecycle import alive

pytestmark = pytest.mark.anyio

HOSTILE = Path(__file__).with_name("hostile_server.py")
PROXY = [sys.executable, "-m", "hostcompat.cli.proxy"]
JSON_AND_SSE = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
MIB = 1024 * 1024


def initialize_body() -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize_params(NOBODY)}


async def open_and_abandon(http: httpx2.AsyncClient, url: str, *, initialized: bool) -> int:
    """Open a session (and say `initialized` when told) and walk away from it; the HTTP status of the opening."""
    opened = await http.post(url, json=initialize_body(), headers=JSON_AND_SSE)
    if opened.status_code == 200 and initialized:
        headers = {**JSON_AND_SSE, "mcp-session-id": opened.headers["mcp-session-id"]}
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert (await http.post(url, json=note, headers=headers)).status_code == 202
    return opened.status_code


async def pids_through(url: str) -> int:
    """A real client's session: initialize, then one tool call that answers the server's pid."""
    async with streamable_http_client(url) as (read, write):
        peer = RawPeer(read, write)
        await peer.initialize(NOBODY)
        reply = await peer.call("tools/call", {"name": "pids"})
        return int(reply["result"]["content"][0]["text"].split()[0])


def test_the_defaults_reclaim_abandoned_sessions_in_minutes_and_cap_memory() -> None:
    assert proxy_settings.DEFAULT_SESSION_IDLE_TIMEOUT <= 5 * 60
    assert getattr(proxy_settings, "DEFAULT_HANDSHAKE_TIMEOUT", 30 * 60) <= 60
    assert getattr(proxy_settings, "DEFAULT_UPSTREAM_MEMORY", None) is not None


@pytest.mark.timeout(120)
async def test_abandoned_sessions_do_not_lock_out_a_new_client_after_the_idle_time(tmp_path: Path) -> None:
    starts = tmp_path / "starts"
    server = [sys.executable, str(HOSTILE), "--starts", str(starts)]
    command = [*PROXY, "--listen", "127.0.0.1:0", "--max-sessions", "4", "--session-idle", "2", "--", *server]
    async with await anyio.open_process(command) as process:
        assert process.stderr is not None
        printed = b""
        async for chunk in process.stderr:
            printed += chunk
            if b"serving " in printed and printed.endswith(b"\n"):
                break
        url = printed.decode().split("serving ", 1)[1].split()[0]
        async with httpx2.AsyncClient() as http:
            opened = [await open_and_abandon(http, url, initialized=index % 2 == 0) for index in range(12)]
            assert opened.count(200) == 4 and opened.count(503) == 8  # the cap is full of abandoned sessions
            abandoned = [int(pid) for pid in starts.read_text().split()]
            deadline = time.monotonic() + 30
            while (status := await open_and_abandon(http, url, initialized=True)) == 503:
                assert time.monotonic() < deadline, "abandoned sessions still hold the cap"
                await anyio.sleep(0.5)
            assert status == 200
        await anyio.sleep(2.5)  # the session just opened is abandoned too: make room for the real client
        new_pid = await pids_through(url)
        process.terminate()
        await process.wait()
    assert new_pid not in abandoned
    assert not any(alive(pid) for pid in abandoned)  # reclaiming a session stopped its server


@pytest.mark.timeout(60)
async def test_a_session_silent_after_initialize_is_closed_long_before_the_idle_timeout() -> None:
    config = proxy_config(session_idle_timeout=600, handshake_timeout=1)
    async with http_proxy(config) as proxy, httpx2.AsyncClient() as http:
        assert await open_and_abandon(http, proxy.url, initialized=False) == 200
        assert await open_and_abandon(http, proxy.url, initialized=True) == 200
        assert proxy.app.session_count == 2
        deadline = time.monotonic() + 20
        while proxy.app.session_count != 1:
            assert time.monotonic() < deadline, "a session abandoned after initialize was not closed"
            await anyio.sleep(0.1)
        await anyio.sleep(1.5)
        assert proxy.app.session_count == 1  # the one whose client went on is kept until it is idle


@pytest.mark.timeout(60)
async def test_a_server_over_the_session_memory_limit_is_stopped_and_its_client_told() -> None:
    config = proxy_config(stdio_upstream([sys.executable, str(HOSTILE)]), upstream_memory=256 * MIB)
    async with http_proxy(config) as proxy, streamable_http_client(proxy.url) as (read, write):
        peer = RawPeer(read, write)
        await peer.initialize(NOBODY)
        small = await peer.call("tools/call", {"name": "hog", "arguments": {"mib": 16}})
        big = await peer.call("tools/call", {"name": "hog", "arguments": {"mib": 512}})
    assert "holding" in small["result"]["content"][0]["text"]
    assert big["error"]["code"] == CONNECTION_CLOSED
    assert "MemoryError" in big["error"]["data"]["stderr"]


@pytest.mark.timeout(60)
def test_the_stdio_proxy_caps_its_server_s_memory_too() -> None:
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize_params(NOBODY)},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "hog", "arguments": {"mib": 512}}},
    ]
    done = subprocess.run(
        [*PROXY, "--session-memory", "256", "--", sys.executable, str(HOSTILE)],
        input="".join(json.dumps(request) + "\n" for request in requests),
        capture_output=True,
        text=True,
        timeout=60,
    )
    replies = {reply["id"]: reply for reply in map(json.loads, done.stdout.splitlines())}
    assert replies[2]["error"]["code"] == CONNECTION_CLOSED
    assert done.returncode == 1
