"""`hostcompat probe-host --http`: streamable HTTP on 127.0.0.1 for hosts that reach servers by URL; the SDK's
client talks to it, and a request naming another Host (a DNS-rebinding page) is refused unless `--allow-host`
names it (a tunnel's host name)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp.client import Client
from mcp_types import Implementation

pytestmark = pytest.mark.timeout(120)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def served(tmp_path: Path) -> Iterator[int]:
    port = _free_port()
    command = [sys.executable, "-m", "hostcompat", "probe-host", "--http", "--port", str(port)]
    command += ["-o", str(tmp_path / "probe.json"), "--allow-host", "probe.tunnel.example"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.anyio
async def test_a_client_reaches_the_probe_by_url_and_is_recorded(served: int) -> None:
    info = Implementation(name="openai-mcp", version="1.0.0")
    async with Client(f"http://127.0.0.1:{served}/mcp", mode="legacy", client_info=info) as client:
        shown = await client.call_tool("probe_host", {})
        assert (shown.structured_content or {})["initialize"]["clientInfo"]["name"] == "openai-mcp"


def _status(port: int, host: str) -> int:
    body = (
        b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25",'
        b' "capabilities": {}, "clientInfo": {"name": "curl", "version": "8"}}}'
    )
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json", "Host": host}
    request = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status: int = response.status
            return status
    except urllib.error.HTTPError as error:
        return error.code


def test_only_localhost_and_the_allowed_tunnel_name_are_served(served: int) -> None:
    assert _status(served, "evil.example") in (403, 421)
    assert _status(served, "probe.tunnel.example") == 200
    assert _status(served, f"127.0.0.1:{served}") == 200
