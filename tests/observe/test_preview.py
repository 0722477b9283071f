"""`hostcompat preview` headless: the page served on loopback shows basic-react's widget as the chosen host renders
it, the bridge messages in the log beside it, and switches host; the server refuses other sites, requests without
the token, and the widget frame itself."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.errors import InvalidInput
from hostcompat.probe.snapshot import write_snapshot
from hostcompat.web.preview import PreviewServer, PreviewSite
from tests.observe.support import corpus_snapshot, make_snapshot, require_browser

CATALOG = load_catalog()
pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def server() -> Iterator[PreviewServer]:
    site = PreviewSite.of(corpus_snapshot("server-basic-react"), CATALOG, "chatgpt")
    preview = PreviewServer(site)
    preview.start()
    yield preview
    preview.close()


def _request(
    server: PreviewServer, method: str, path: str, *, headers: dict[str, str] | None = None, body: bytes | None = None
) -> tuple[int, bytes]:
    address = urlsplit(server.url)
    connection = http.client.HTTPConnection(address.hostname or "", address.port, timeout=10)
    connection.request(method, path, body=body, headers={"Host": address.netloc, **(headers or {})})
    try:
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_the_server_refuses_other_sites_and_requests_without_the_token(server: PreviewServer) -> None:
    token = server.guard.token
    assert _request(server, "GET", f"/?token={token}")[0] == 200
    assert _request(server, "GET", "/")[0] == 403
    assert _request(server, "GET", "/?token=wrong")[0] == 403
    assert _request(server, "GET", f"/?token={token}", headers={"Host": "evil.example"})[0] == 403  # rebinding
    body = json.dumps({"method": "tools/call", "params": {"name": "get-time"}}).encode()
    post = {"Content-Type": "application/json", "x-hostcompat-token": token}
    assert _request(server, "POST", "/api/server", body=body, headers={**post, "Origin": "null"})[0] == 403
    assert _request(server, "POST", "/api/server", body=body, headers={"Content-Type": "application/json"})[0] == 403
    status, answer = _request(server, "POST", "/api/server", body=body, headers=post)
    assert status == 200 and json.loads(answer)["result"]["content"]
    status, answer = _request(server, "POST", "/api/server", body=b'{"method": "ui/message"}', headers=post)
    assert json.loads(answer)["error"]["code"] == -32601  # only what a host forwards to the server


def test_params_nested_too_deep_are_a_bad_request_not_a_dropped_connection(server: PreviewServer) -> None:
    deep = b'{"method": "tools/call", "params": ' + b"[" * 5_000 + b"]" * 5_000 + b"}"  # the widget sends params
    post = {"Content-Type": "application/json", "x-hostcompat-token": server.guard.token}
    status, answer = _request(server, "POST", "/api/server", body=deep, headers=post)
    assert status == 400 and b"expected" in answer


def test_the_page_renders_the_widget_logs_its_messages_and_switches_host(server: PreviewServer) -> None:
    require_browser()
    from playwright.sync_api import sync_playwright

    from hostcompat.observe.browser import LAUNCH_ARGS, find_chromium

    with sync_playwright() as playwright:
        args = [arg for arg in LAUNCH_ARGS if not arg.startswith("--proxy")]
        browser = playwright.chromium.launch(executable_path=find_chromium(), headless=True, args=args)
        try:
            page = browser.new_page()
            page.goto(server.url + "&host=chatgpt")
            log = page.locator("#hc-log")
            log.get_by_text("ui/notifications/initialized").first.wait_for(timeout=15_000)
            assert "ChatGPT" in page.title() and "Replays chatgpt-first-widget-no-tool-result" in page.content()
            widget = page.frame_locator("iframe")
            widget.get_by_role("button").first.click(timeout=10_000)  # "Get Server Time": tools/call, forwarded
            log.get_by_text("tools/call").first.wait_for(timeout=10_000)
            assert (
                page.evaluate(
                    "() => { try { return frames[0].hcServer !== undefined; } catch (e) { return 'blocked'; } }"
                )
                == "blocked"
            )
            page.select_option("#hc-host", "goose")
            page.wait_for_url("**host=goose**", timeout=10_000)
            log.get_by_text("ui/notifications/initialized").first.wait_for(timeout=15_000)
            widget.get_by_role("button").first.click(timeout=10_000)
            page.locator("#hc-log .err").first.wait_for(timeout=10_000)  # Goose refuses tools/call
            assert "Method not found" in page.locator("#hc-log .err").first.inner_text()
            Path("artifacts").mkdir(exist_ok=True)
            page.screenshot(path="artifacts/preview-goose.png")
        finally:
            browser.close()


def test_a_snapshot_without_widgets_or_a_host_without_apps_is_a_clear_error() -> None:
    with pytest.raises(InvalidInput, match="no widget to preview"):
        PreviewSite.of(make_snapshot([{"name": "t", "inputSchema": {"type": "object"}}], {}), CATALOG, "claude")
    with pytest.raises(InvalidInput, match="does not render MCP Apps"):
        PreviewSite.of(corpus_snapshot("server-basic-react"), CATALOG, "claude-code")


def test_the_command_prints_its_address_and_serves_until_its_time_is_up(tmp_path: Path) -> None:
    path = tmp_path / "basic-react.json"
    write_snapshot(corpus_snapshot("server-basic-react"), path)
    command = [sys.executable, "-m", "hostcompat", "preview", str(path), "--host", "chatgpt", "--no-open"]
    with subprocess.Popen([*command, "--serve-seconds", "20"], stdout=subprocess.PIPE, text=True) as process:
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert line.startswith("hostcompat preview: http://127.0.0.1:") and "token=" in line
            url = urlsplit(line.split(" ", 2)[2].strip())
            connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=10)
            connection.request("GET", f"/?{url.query}")
            response = connection.getresponse()
            assert response.status == 200 and b"hostcompat preview: ChatGPT" in response.read()
            connection.close()
        finally:
            process.terminate()
            process.wait(10)
