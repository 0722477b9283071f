"""Streamable HTTP and legacy SSE: the example server behind a bearer token, and hostile HTTP servers."""

from __future__ import annotations

import json
import sys
import tracemalloc
from dataclasses import replace
from typing import Any

import pytest

from hostcompat.examples.board import BOARD_URI, board_html
from hostcompat.probe import HttpTarget, SseTarget, capture, snapshot_to_json
from tests.probe._support import TIGHT, free_port, running

pytestmark = pytest.mark.anyio

TOKEN = "s3cret-token-value"
BOARD_TOOLS = ["show_board", "refresh_board", "board_summary", "count_tasks"]


def board(transport: str, port: int, *token: str) -> list[str]:
    return [sys.executable, "-m", "tests.probe.servers.http_board", transport, str(port), *token]


def hostile_http(mode: str, port: int) -> list[str]:
    return [sys.executable, "-m", "tests.probe.servers.http_hostile", mode, str(port)]


@pytest.mark.parametrize(("era", "expected"), [("legacy", "handshake"), ("auto", "modern")])
async def test_a_bearer_protected_streamable_http_server_is_captured_and_the_token_redacted(
    era: Any, expected: str
) -> None:
    port = free_port()
    with running(board("streamable-http", port, TOKEN), port):
        target = HttpTarget(f"http://127.0.0.1:{port}/mcp", {"Authorization": f"Bearer {TOKEN}"})
        snapshot = await capture(target, limits=TIGHT, era=era)
    assert [tool["name"] for tool in snapshot.tools] == BOARD_TOOLS
    assert snapshot.connection is not None and snapshot.connection["era"] == expected
    (item,) = snapshot.ui_resources[BOARD_URI].contents
    assert item["text"] == board_html()
    assert snapshot.events == ()
    assert TOKEN not in snapshot_to_json(snapshot)
    assert snapshot.target["headers"] == {"Authorization": "<redacted>"}


async def test_a_wrong_token_is_a_connect_failure_naming_the_status() -> None:
    port = free_port()
    with running(board("streamable-http", port, TOKEN), port):
        target = HttpTarget(f"http://127.0.0.1:{port}/mcp", {"Authorization": "Bearer wrong"})
        snapshot = await capture(target, limits=TIGHT)
    (failed,) = snapshot.events
    assert failed.code == "PROBE-CONNECT-FAILED" and failed.detail["status"] == 401
    assert snapshot.connection is None


async def test_nobody_listening_is_a_connect_failure() -> None:
    snapshot = await capture(HttpTarget(f"http://127.0.0.1:{free_port()}/mcp"), limits=TIGHT)
    (failed,) = snapshot.events
    assert failed.code == "PROBE-CONNECT-FAILED" and "ConnectError" in failed.message


@pytest.mark.parametrize("era", ["legacy", "auto"])
async def test_the_legacy_sse_transport_is_captured(era: Any) -> None:
    port = free_port()
    with running(board("sse", port), port):
        snapshot = await capture(SseTarget(f"http://127.0.0.1:{port}/sse"), limits=TIGHT, era=era)
    assert [tool["name"] for tool in snapshot.tools] == BOARD_TOOLS
    assert snapshot.ui_resources[BOARD_URI].bytes == len(board_html().encode())
    assert snapshot.target["kind"] == "sse"


async def test_a_50_mb_http_body_is_cut_off_in_bounded_memory() -> None:
    port = free_port()
    with running(hostile_http("huge", port), port):
        tracemalloc.start()
        try:
            snapshot = await capture(HttpTarget(f"http://127.0.0.1:{port}/mcp"), limits=TIGHT)
            _current, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert peak < 4 * TIGHT.max_message_bytes
    (dropped,) = snapshot.events_with("PROBE-MESSAGE-TOO-LARGE")
    assert dropped.step == "resources/read"
    widget = snapshot.ui_resources["ui://huge/widget.html"]
    assert widget.contents == () and widget.truncated
    assert snapshot.coverage["tools"] == "complete"


async def test_a_tool_that_hangs_or_answers_50_mb_over_http_is_cut_and_the_next_call_still_runs() -> None:
    port = free_port()
    limits = replace(TIGHT, total_timeout=20.0, call_timeout=1.0)
    with running(hostile_http("calls", port), port):
        tracemalloc.start()
        try:
            snapshot = await capture(HttpTarget(f"http://127.0.0.1:{port}/mcp"), limits=limits)
            _current, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert peak < 4 * limits.max_message_bytes
    assert dict(snapshot.call_outcomes) == {"hang": "timeout", "huge": "too-large", "fine": "ok"}
    assert snapshot.call_results["fine"] == {"content": [{"type": "text", "text": "fine ok"}]}
    assert {"PROBE-TIMEOUT-TOOLS-CALL", "PROBE-CALL-TOO-LARGE"} <= {event.code for event in snapshot.events}


async def test_an_http_server_that_hangs_mid_probe_times_out_at_that_step() -> None:
    port = free_port()
    with running(hostile_http("hang", port), port):
        snapshot = await capture(HttpTarget(f"http://127.0.0.1:{port}/mcp"), limits=TIGHT)
    assert "PROBE-TIMEOUT-TOOLS-LIST" in {event.code for event in snapshot.events}
    assert snapshot.coverage["tools"] == "failed"
    assert snapshot.coverage["resources"] == "complete"  # the next step still ran


async def test_an_html_error_page_instead_of_json_rpc_is_a_handshake_failure() -> None:
    port = free_port()
    with running(hostile_http("html", port), port):
        snapshot = await capture(HttpTarget(f"http://127.0.0.1:{port}/mcp"), limits=TIGHT, era="legacy")
    (failed,) = snapshot.events
    assert failed.code == "PROBE-HANDSHAKE-FAILED" and "text/html" in failed.message
    assert json.loads(snapshot_to_json(snapshot))["coverage"]["tools"] == "not-attempted"


async def test_a_legacy_sse_event_over_the_sdk_limit_ends_the_connection_and_says_why() -> None:
    port = free_port()
    with running([sys.executable, "-m", "tests.probe.servers.sse_big_event", str(port)], port):
        snapshot = await capture(SseTarget(f"http://127.0.0.1:{port}/sse"), limits=TIGHT)
    assert [tool["name"] for tool in snapshot.tools] == ["show"]
    (closed,) = snapshot.events_with("PROBE-CONNECTION-CLOSED")
    assert closed.step == "resources/read" and "byte limit" in closed.message
    assert snapshot.coverage["uiResources"] == "failed"
