"""Detection per request through the proxy: 2026-07-28 requests from Codex and Claude Code interleaved on one
connection, in front of the SDK's stateless streamable HTTP server (which rewrites nothing itself).

A 2026-07-28 client names itself in each request's `_meta`, so one connection may carry requests of several
identities (a host relaying for two agents). A thousand calls alternate between Codex and Claude Code, eight in
flight at once, through the proxy's session and its era gateway (eras detected, as by default): every Codex result is
rewritten, no Claude Code result is, and every result is the answer to its own call.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any

import pytest
from mcp_types import CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY

from hostcompat.clients.proxy.config import ProxyConfig, http_upstream
from hostcompat.clients.proxy.era.gateway import era_opener
from hostcompat.clients.proxy.links import UpstreamLink
from hostcompat.clients.proxy.session.upstream import open_upstream
from tests.clients.proxy._support import BUNDLED, CLAUDE_CODE, CODEX, proxied
from tests.clients.test_stateless_interleaved import CALLS, IN_FLIGHT, serving
from tests.clients.test_stateless_interleaved import _check as check

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"


def envelope(client: dict[str, str]) -> dict[str, Any]:
    return {PROTOCOL_VERSION_META_KEY: MODERN, CLIENT_INFO_META_KEY: client, CLIENT_CAPABILITIES_META_KEY: {}}


@pytest.mark.timeout(300)
async def test_codex_and_claude_code_on_one_connection_each_get_their_own_rules_across_a_thousand_calls() -> None:
    async with serving(middleware=False) as url:
        config = ProxyConfig(http_upstream(url), rules=BUNDLED)

        def plain() -> AbstractAsyncContextManager[UpstreamLink]:
            return open_upstream(config)

        async with proxied(config, upstream=era_opener(config, plain)) as run:
            checked = {CODEX["name"]: 0, CLAUDE_CODE["name"]: 0}
            for start in range(0, CALLS, IN_FLIGHT):
                batch = range(start, min(start + IN_FLIGHT, CALLS))
                sent = {}
                for n in batch:  # all of a batch in flight at once, the identities alternating
                    client = CODEX if n % 2 == 0 else CLAUDE_CODE
                    params = {"name": "read_file", "arguments": {"n": n}, "_meta": envelope(client)}
                    sent[n] = (client["name"], await run.peer.request("tools/call", params, request_id=f"call-{n}"))
                for n, (name, request_id) in reversed(sent.items()):
                    response = await run.peer.response(request_id)
                    assert "result" in response, response
                    check(name, n, response["result"])
                    checked[name] += 1
    assert checked == {CODEX["name"]: CALLS // 2, CLAUDE_CODE["name"]: CALLS // 2}
    # the same input gave two outputs: one rewritten, one left as the server made it (no leak either way)
    assert run.session.tracker.applied.get("codex.round-annotation-priority", 0) >= CALLS // 2
