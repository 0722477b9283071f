"""The HTTP front's door: Host and Origin checked wherever it listens, and no server started for a refused request.

Real sockets throughout; the upstream is `hostile_server.py --starts FILE`, which writes a line each time it starts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest

from hostcompat.clients.proxy.config import stdio_upstream
from hostcompat.clients.proxy.serve import http_proxy
from hostcompat.errors import InvalidInput
from tests.clients.proxy._support import FAKE_SERVER, NOBODY, initialize_params, proxy_config

pytestmark = pytest.mark.anyio

HOSTILE = Path(__file__).with_name("hostile_server.py")
JSON_AND_SSE = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
APP = "https://app.example.com"


def initialize_body(**params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {**initialize_params(NOBODY), **params}}


def counted(starts: Path, **limits: Any) -> Any:
    return proxy_config(stdio_upstream([sys.executable, str(HOSTILE), "--starts", str(starts)]), **limits)


def starts_of(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


async def test_beyond_loopback_the_front_needs_an_explicit_list_of_origins() -> None:
    with pytest.raises(InvalidInput, match="--allow-origin"):
        async with http_proxy(proxy_config(), host="0.0.0.0"):
            pass


async def test_beyond_loopback_a_foreign_origin_or_host_is_refused_and_a_listed_origin_gets_a_session(
    tmp_path: Path,
) -> None:
    starts = tmp_path / "starts"
    config = counted(starts, allowed_origins=(APP,))
    async with http_proxy(config, host="0.0.0.0") as proxy, httpx2.AsyncClient() as http:
        url = proxy.url.replace("0.0.0.0", "127.0.0.1")
        evil_origin = await http.post(
            url, json=initialize_body(), headers={**JSON_AND_SSE, "origin": "http://evil.example"}
        )
        evil_host = await http.post(url, json=initialize_body(), headers={**JSON_AND_SSE, "host": "evil.example"})
        assert proxy.app.session_count == 0
        listed = await http.post(url, json=initialize_body(), headers={**JSON_AND_SSE, "origin": APP})
        no_origin = await http.post(url, json=initialize_body(), headers=JSON_AND_SSE)
        assert proxy.app.session_count == 2
        assert proxy.warning is not None and APP in proxy.warning
    assert evil_origin.status_code == 403
    assert evil_host.status_code == 421
    assert listed.status_code == 200 and no_origin.status_code == 200
    assert starts_of(starts) == 2


async def test_on_loopback_an_allowed_origin_is_added_to_the_proxys_own() -> None:
    config = proxy_config(allowed_origins=("http://localhost:5173",))
    async with http_proxy(config) as proxy, httpx2.AsyncClient() as http:
        port = proxy.url.rsplit(":", 1)[1].split("/")[0]
        for origin in ("http://localhost:5173", f"http://localhost:{port}"):
            response = await http.post(proxy.url, json=initialize_body(), headers={**JSON_AND_SSE, "origin": origin})
            assert response.status_code == 200, origin
        other = await http.post(proxy.url, json=initialize_body(), headers={**JSON_AND_SSE, "origin": "http://x:1"})
    assert other.status_code == 403
    assert proxy.warning is None


async def _truncated_post(url: str, body: bytes) -> None:
    """A POST whose Content-Length promises more than is sent before the connection closes."""
    host, port = url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    head = (
        f"POST /mcp HTTP/1.1\r\nhost: {host}:{port}\r\naccept: application/json, text/event-stream\r\n"
        f"content-type: application/json\r\ncontent-length: {len(body) + 500}\r\n\r\n"
    )
    async with await anyio.connect_tcp(host, int(port)) as stream:
        await stream.send(head.encode() + body)


def refused_requests(url: str) -> list[dict[str, Any]]:
    """One of each kind of request that must not open a session, as httpx2 request arguments."""
    good = json.dumps(initialize_body())
    return [
        {"method": "POST", "content": good, "headers": {**JSON_AND_SSE, "origin": "http://evil.example"}},
        {"method": "POST", "content": good, "headers": {**JSON_AND_SSE, "host": "evil.example"}},
        {"method": "GET", "headers": {"accept": "text/event-stream"}},
        {"method": "DELETE", "headers": JSON_AND_SSE},
        {"method": "POST", "content": good, "headers": {**JSON_AND_SSE, "accept": "application/json"}},
        {"method": "POST", "content": good, "headers": {**JSON_AND_SSE, "content-type": "text/plain"}},
        {"method": "POST", "content": good[:-5], "headers": JSON_AND_SSE},
        {"method": "POST", "content": f"[{good}]", "headers": JSON_AND_SSE},
        {
            "method": "POST",
            "content": json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            "headers": JSON_AND_SSE,
        },
        {"method": "POST", "content": json.dumps(initialize_body(clientInfo=None)), "headers": JSON_AND_SSE},
        {
            "method": "POST",
            "content": b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": \xff}',
            "headers": JSON_AND_SSE,
        },
    ]


@pytest.mark.timeout(180)
async def test_two_hundred_refused_or_broken_requests_start_the_server_zero_times(tmp_path: Path) -> None:
    starts = tmp_path / "starts"
    async with http_proxy(counted(starts)) as proxy, httpx2.AsyncClient() as http:
        kinds = refused_requests(proxy.url)
        statuses: set[int] = set()
        for index in range(200):
            kind = index % (len(kinds) + 1)
            if kind == len(kinds):
                await _truncated_post(proxy.url, json.dumps(initialize_body()).encode())
                continue
            response = await http.request(url=proxy.url, **kinds[kind])
            statuses.add(response.status_code)
        await anyio.sleep(1)  # anything started would have written its line by now
        assert proxy.app.session_count == 0
        assert starts_of(starts) == 0
        assert statuses == {400, 403, 406, 415, 421}
        accepted = await http.post(proxy.url, json=initialize_body(), headers=JSON_AND_SSE)
        assert accepted.status_code == 200
        await anyio.sleep(1)
    assert starts_of(starts) == 1  # the counter counts


def test_a_listed_origin_is_normalized_and_a_wildcard_list_is_refused() -> None:
    from hostcompat.clients.proxy.session.front_guard import front_guard, normalize_origin

    assert normalize_origin("HTTPS://App.Example.com/") == APP
    assert normalize_origin("http://host:*") == "http://host:*"
    for bad in ("*", "https://*.example.com", "ftp://x", "https://x/path", "https://x:99999"):
        with pytest.raises(InvalidInput):
            normalize_origin(bad)
    guard = front_guard("0.0.0.0", 8765, ["http://host:*"])
    assert guard.refusal({"host": "host:8765", "origin": "http://host:3000"}) is None
    assert guard.refusal({"host": "host:8765", "origin": "http://host"}) == (403, "Invalid Origin header")
    assert guard.refusal({"host": "other:8765"}) == (421, "Invalid Host header")
    assert guard.refusal({}) == (421, "Invalid Host header")


FAKE = [sys.executable, str(FAKE_SERVER)]
PROXY = [sys.executable, "-m", "hostcompat.cli.proxy"]


def test_the_cli_refuses_to_listen_beyond_loopback_without_allowed_origins() -> None:
    done = subprocess.run([*PROXY, "--listen", "0.0.0.0:0", "--", *FAKE], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--allow-origin" in done.stderr


@pytest.mark.timeout(60)
async def test_the_cli_warns_when_it_listens_beyond_loopback_and_refuses_foreign_origins() -> None:
    command = [*PROXY, "--listen", "0.0.0.0:0", "--allow-origin", APP, "--", *FAKE]
    async with await anyio.open_process(command) as process:
        assert process.stderr is not None
        printed = b""
        async for chunk in process.stderr:
            printed += chunk
            if b"serving " in printed and printed.endswith(b"\n"):
                break
        text = printed.decode()
        url = text.split("serving ", 1)[1].split()[0].replace("0.0.0.0", "127.0.0.1")
        async with httpx2.AsyncClient() as http:
            evil = await http.post(
                url, json=initialize_body(), headers={**JSON_AND_SSE, "origin": "http://evil.example"}
            )
        process.terminate()
        await process.wait()
    assert "warning: listening on 0.0.0.0" in text and APP in text
    assert text.index("warning") < text.index("serving ")
    assert evil.status_code == 403
