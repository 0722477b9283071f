"""The MCP Apps host-bug rules on the wire: the proxy in front of a real server that gates `_meta.ui`, SDK clients."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp.client import Client

from hostcompat.clients.proxy.config import stdio_upstream
from hostcompat.clients.proxy.serve import http_proxy
from tests.clients.proxy import gated_server as gated
from tests.clients.proxy._support import proxy_config

pytestmark = pytest.mark.anyio

GATED = Path(gated.__file__)
URI = gated.URI


async def _tool_meta(client_info: types.Implementation, *, proxied: bool) -> dict[str, Any]:
    """The `_meta` of the server's one tool as `client_info` sees it, directly or through the proxy."""
    if not proxied:
        async with Client(gated.server, client_info=client_info, mode="legacy") as client:
            return dict((await client.list_tools()).tools[0].meta or {})
    async with (
        http_proxy(proxy_config(stdio_upstream([sys.executable, str(GATED)]))) as proxy,
        Client(proxy.url, client_info=client_info, mode="legacy") as client,
    ):
        return dict((await client.list_tools()).tools[0].meta or {})


CLAUDE_AI = types.Implementation(name="claude-ai", version="0.1.0")


@pytest.mark.timeout(120)
async def test_claude_ai_gets_the_view_through_the_proxy_that_the_gating_server_withholds_from_it() -> None:
    direct = await _tool_meta(CLAUDE_AI, proxied=False)
    assert "ui" not in direct  # the trigger: no UI extension declared, so the server withholds _meta.ui
    proxied = await _tool_meta(CLAUDE_AI, proxied=True)
    assert proxied["ui"] == {"resourceUri": URI}


@pytest.mark.timeout(120)
async def test_claude_code_through_the_proxy_gets_what_the_server_sends_it() -> None:
    meta = await _tool_meta(types.Implementation(name="claude-code", version="2.1.226"), proxied=True)
    assert "ui" not in meta and meta["openai/outputTemplate"] == URI


@pytest.mark.timeout(120)
async def test_vscode_loses_the_template_of_a_server_without_resources_and_nothing_else() -> None:
    meta = await _tool_meta(types.Implementation(name="Visual Studio Code", version="1.116.0"), proxied=True)
    assert "openai/outputTemplate" not in meta
    direct = await _tool_meta(types.Implementation(name="Visual Studio Code", version="1.116.0"), proxied=False)
    assert direct["openai/outputTemplate"] == URI
