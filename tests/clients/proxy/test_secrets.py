"""The proxy never sends its upstream's credentials to a client, nor prints them in its banner: errors name the failure
with the command line and URL redacted, and the upstream's stderr loses every secret value it was given. Real proxy
processes, real upstreams (the leaky stdio server of the probe tests, the example board over HTTP), real sockets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx2
import pytest

from hostcompat.redaction import REDACTED
from tests.clients.proxy._support import NOBODY, initialize_params
from tests.probe._support import REPO, free_port, running
from tests.probe.test_http import BOARD_TOOLS, TOKEN, board

SERVICE_TOKEN = "svc-7f3a9c2e41b8d6055e"
API_KEY = "key-0a1b2c3d4e5f6a7b8c"
BEARER = "bearer-93e1c4f7a2"
PASSWORD = "pw-5d8e2f1a9b"
QUERY_TOKEN = "qt-6c2a7e9d1f"
SECRETS = (SERVICE_TOKEN, API_KEY, BEARER, PASSWORD, QUERY_TOKEN)
PROXY = [sys.executable, "-m", "hostcompat.cli.proxy"]
LEAKY = [sys.executable, "-m", "tests.probe.servers.leaky", "crash", f"--api-key={API_KEY}", "--verbose"]
"""Echoes its command line and $SERVICE_TOKEN on stderr, then exits with code 4 on `tools/list`."""
ENV = {**os.environ, "SERVICE_TOKEN": SERVICE_TOKEN}
"""The proxy's environment, which a stdio upstream inherits: a secret-named variable the proxy was never told of."""
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def assert_no_secret(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text


def dead_url() -> str:
    """An upstream URL with a password and a token in it, where nothing listens."""
    return f"http://app:{PASSWORD}@127.0.0.1:{free_port()}/mcp?token={QUERY_TOKEN}"


@contextmanager
def http_proxy(*argv: str) -> Iterator[tuple[str, str]]:
    """A proxy process serving HTTP on a free port: its URL and the banner it printed (every line up to it)."""
    with subprocess.Popen(
        [*PROXY, "--listen", "127.0.0.1:0", *argv],
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=ENV,
        start_new_session=True,
    ) as process:
        try:
            assert process.stderr is not None
            banner = ""
            while "serving " not in banner:
                line = process.stderr.readline()
                assert line, f"the proxy exited before serving: {banner}"
                banner += line
            yield banner.split("serving ", 1)[1].split()[0], banner
        finally:
            process.terminate()
            process.wait(timeout=30)


def post(url: str, message: dict[str, Any], session: str | None = None) -> tuple[str, str | None]:
    """The raw body the proxy answers a POST with, and the session id it gives."""
    headers = dict(HEADERS)
    if session is not None:
        headers |= {"mcp-session-id": session, "mcp-protocol-version": "2025-11-25"}
    response = httpx2.post(url, json=message, headers=headers, timeout=60)
    return response.text, response.headers.get("mcp-session-id")


def rpc(request_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, **({"params": params} if params else {})}


@pytest.mark.timeout(90)
def test_an_http_client_gets_the_failure_of_an_http_upstream_without_its_password_or_token() -> None:
    with http_proxy("--upstream", dead_url(), "--header", f"Authorization: Bearer {BEARER}") as (url, banner):
        body, _ = post(url, rpc(1, "initialize", initialize_params(NOBODY)))
    assert_no_secret(banner + body)
    assert "ConnectError" in body and f"http://{REDACTED}@127.0.0.1:" in body and f"?token={REDACTED}" in body
    assert f"(upstream: http://{REDACTED}@127.0.0.1:" in banner
    assert "warning: the URL has user:password credentials and an Authorization header" in banner


@pytest.mark.timeout(90)
def test_an_http_client_gets_the_crash_of_a_stdio_upstream_without_its_arguments_or_its_secrets() -> None:
    with http_proxy("--", *LEAKY) as (url, banner):
        _, session = post(url, rpc(1, "initialize", initialize_params(NOBODY)))
        post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
        body, _ = post(url, rpc(2, "tools/list"), session)
    assert_no_secret(banner + body)
    assert f"--api-key={REDACTED} --verbose" in banner
    (error,) = [json.loads(line[5:])["error"] for line in body.splitlines() if line.startswith("data:")]
    assert "exited with code 4 before answering tools/list" in error["message"]
    assert f"--api-key={REDACTED} --verbose" in error["message"]
    assert f"SERVICE_TOKEN is {REDACTED}" in error["data"]["stderr"]


@pytest.mark.timeout(90)
def test_a_stdio_client_gets_the_crash_of_a_stdio_upstream_without_its_secrets() -> None:
    lines = [rpc(1, "initialize", initialize_params(NOBODY)), {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines.append(rpc(2, "tools/list"))
    done = subprocess.run(
        [*PROXY, "--", *LEAKY],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        env=ENV,
    )
    assert_no_secret(done.stdout)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert "exited with code 4" in replies[-1]["error"]["message"]
    assert done.returncode == 1
    summary = done.stderr.splitlines()[-1]  # the proxy's own last word; the server's stderr is passed on above it
    assert summary.startswith("hostcompat proxy: the upstream server") and API_KEY not in summary
    assert done.stderr.count("exited with code 4") == 1  # said once, not twice


@pytest.mark.timeout(90)
def test_a_command_that_cannot_run_is_named_without_its_secrets() -> None:
    command = [str(REPO / "no-such-server"), f"--api-key={API_KEY}", "--token", QUERY_TOKEN]
    done = subprocess.run(
        [*PROXY, "--", *command],
        input=json.dumps(rpc(1, "initialize", initialize_params(NOBODY))) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert_no_secret(done.stdout + done.stderr)
    (reply,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert f"--api-key={REDACTED} --token {REDACTED}) could not be run" in reply["error"]["message"]


@pytest.mark.timeout(90)
def test_url_credentials_and_an_authorization_header_send_the_header() -> None:
    """An HTTP client replaces an explicit `Authorization` header with Basic credentials from the URL: the
    bearer-protected board refused the proxy. The header is sent; the proxy warns that the URL's credentials are not."""
    port = free_port()
    upstream = f"http://app:{PASSWORD}@127.0.0.1:{port}/mcp"
    command = [*PROXY, "--upstream", upstream, "--header", f"Authorization: Bearer {TOKEN}"]
    with (
        running(board("streamable-http", port, TOKEN), port),
        subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proxy,
    ):
        assert proxy.stdin is not None and proxy.stdout is not None
        proxy.stdin.write(json.dumps(rpc(1, "initialize", initialize_params(NOBODY))).encode() + b"\n")
        proxy.stdin.flush()
        assert "result" in json.loads(proxy.stdout.readline())  # a client waits for it before going on
        proxy.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode() + b"\n")
        proxy.stdin.write(json.dumps(rpc(2, "tools/list")).encode() + b"\n")
        stdout, stderr = proxy.communicate(timeout=60)
    listing = json.loads(stdout)
    assert [tool["name"] for tool in listing["result"]["tools"]] == BOARD_TOOLS
    assert b"the Authorization header is sent, and the URL's credentials are not" in stderr
    assert_no_secret((stdout + stderr).decode())
