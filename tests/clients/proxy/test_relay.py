import json
from typing import Any

import anyio
import pytest
from mcp.shared.message import ServerMessageMetadata, SessionMessage
from mcp_types import JSONRPCRequest

from hostcompat.clients.detect import CLIENT_INFO_META_KEY
from hostcompat.clients.proxy.config import ProxyConfig, http_upstream, stdio_upstream
from hostcompat.clients.proxy.failures import CONNECTION_CLOSED, PROXY_OVERLOADED, REQUEST_TIMEOUT, describe_failure
from hostcompat.clients.proxy.links import FrontLink
from hostcompat.clients.proxy.session.relay import ProxySession
from hostcompat.clients.proxy.session.wire import stream_item
from hostcompat.errors import InvalidMessage
from tests.clients.proxy._support import (
    CLAUDE_CODE,
    CODEX,
    NOBODY,
    SAMPLED,
    RawPeer,
    proxied,
    proxy_config,
)
from tests.clients.proxy.fake_server import PAGE_2, TOOLS

pytestmark = pytest.mark.anyio


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


def priorities(response: dict[str, Any]) -> list[Any]:
    return [block["annotations"]["priority"] for block in response["result"]["content"]]


async def test_results_reach_the_client_with_unknown_fields_and_meta_untouched() -> None:
    async with proxied(proxy_config()) as run:
        init = await run.peer.initialize(NOBODY)
        listing = await run.peer.call("tools/list")
        called = await run.peer.call("tools/call", call("echo", text="hi"))
    assert init["result"]["x-unknown-init-field"] == "kept"
    assert init["result"]["capabilities"]["x-unknown-capability"] == {}
    assert listing["result"] == TOOLS
    assert called["result"]["x-unknown-call-field"] == "kept"
    assert called["result"]["content"][0]["_meta"] == {"x.c/m": 1}
    assert priorities(called) == [0.5]


async def test_codex_gets_integer_priorities_and_claude_code_the_exact_floats() -> None:
    async with proxied(proxy_config()) as codex, proxied(proxy_config()) as claude:
        await codex.peer.initialize(CODEX)
        await claude.peer.initialize(CLAUDE_CODE)
        codex_call = await codex.peer.call("tools/call", call("echo", text="a"))
        claude_call = await claude.peer.call("tools/call", call("echo", text="a"))
    assert priorities(codex_call) == [1]
    assert isinstance(priorities(codex_call)[0], int)
    assert priorities(claude_call) == [0.5]
    assert codex.session.tracker.applied == {"codex.round-annotation-priority": 1}
    assert "codex.round-annotation-priority" not in claude.session.tracker.applied


async def test_a_renamed_tool_is_called_by_its_real_name() -> None:
    async with proxied(proxy_config()) as run:
        await run.peer.initialize(CODEX)
        listing = await run.peer.call("tools/list")
        names = [tool["name"] for tool in listing["result"]["tools"]]
        called = await run.peer.call("tools/call", call("get_weather", city="Paris"))
    assert names == ["echo", "get_weather"]
    assert called["result"]["content"][0]["text"] == "get.weather: Paris"


async def test_pages_pass_through_with_their_cursors_and_renames_hold_across_pages() -> None:
    async with proxied(proxy_config()) as plain, proxied(proxy_config()) as codex:
        await plain.peer.initialize(NOBODY)
        await codex.peer.initialize(CODEX)
        page = await plain.peer.call("tools/list", {"cursor": "page-2"})
        await codex.peer.call("tools/list")
        renamed = await codex.peer.call("tools/list", {"cursor": "page-2"})
        first_page_tool = await codex.peer.call("tools/call", call("get_weather", city="Lima"))
    assert page["result"] == PAGE_2
    assert renamed["result"]["tools"][0]["name"] == "second_page"
    assert renamed["result"]["nextCursor"] == "page-3"
    assert first_page_tool["result"]["content"][0]["text"] == "get.weather: Lima"


async def test_a_2026_era_client_is_known_by_the_meta_of_each_request() -> None:
    meta = {CLIENT_INFO_META_KEY: CODEX, "io.modelcontextprotocol/protocolVersion": "2026-07-28"}
    async with proxied(proxy_config()) as run:
        called = await run.peer.call("tools/call", {**call("echo", text="x"), "_meta": meta})
    assert priorities(called) == [1]
    assert run.session.tracker.protocol_version == "2026-07-28"


async def test_an_upstream_crash_answers_every_pending_request_with_the_exit_code_and_stderr() -> None:
    async with proxied(proxy_config()) as run:
        await run.peer.initialize(NOBODY)
        hanging = await run.peer.request("tools/call", call("hang"))
        crash = await run.peer.call("tools/call", call("crash", code=3))
        other = await run.peer.response(hanging)
        with anyio.fail_after(10):
            while not run.ends:
                await anyio.lowlevel.checkpoint()
    for response in (crash, other):
        error = response["error"]
        assert error["code"] == CONNECTION_CLOSED
        assert "exited with code 3" in error["message"]
        assert "tools/call" in error["message"]
        assert "the disk is on fire" in error["message"]
        assert error["data"]["exitCode"] == 3
    end = run.ends[0]
    assert end is not None and end.exit_code == 3


async def test_a_request_left_unanswered_times_out_with_a_clear_error_and_is_cancelled_upstream() -> None:
    async with proxied(proxy_config(request_timeout=1.0)) as run:
        await run.peer.initialize(NOBODY)
        timed_out = await run.peer.call("tools/call", call("hang"), request_id="slow-1")
        seen = await run.peer.call("tools/call", call("cancelled"))
    assert timed_out["error"]["code"] == REQUEST_TIMEOUT
    assert "did not answer tools/call within 1 s" in timed_out["error"]["message"]
    cancellations = json.loads(seen["result"]["content"][0]["text"])
    assert [entry["requestId"] for entry in cancellations] == ["slow-1"]
    assert "within 1 s" in cancellations[0]["reason"]


async def test_progress_keeps_a_slow_request_alive_and_reaches_the_client_with_its_token() -> None:
    async with proxied(proxy_config(request_timeout=1.0)) as run:
        await run.peer.initialize(NOBODY)
        params = {**call("progress", steps=4, interval=0.5), "_meta": {"progressToken": "tok-9"}}
        done = await run.peer.call("tools/call", params)
    assert done["result"]["content"][0]["text"] == "done"
    progress = run.peer.notifications("notifications/progress")
    assert [note["params"]["progress"] for note in progress] == [1, 2, 3, 4]
    assert {note["params"]["progressToken"] for note in progress} == {"tok-9"}


async def test_an_answer_after_a_timeout_is_dropped_so_the_client_never_gets_two() -> None:
    async with proxied(proxy_config(request_timeout=1.0)) as run:
        await run.peer.initialize(NOBODY)
        late = await run.peer.call("tools/call", call("progress", steps=2, interval=0.8), request_id=41)
        await run.peer.call("ping")  # the fake server answers it only after the slow call
    assert late["error"]["code"] == REQUEST_TIMEOUT
    assert [message for message in run.peer.received if message.get("id") == 41] == [late]


async def test_a_client_cancellation_goes_upstream_unchanged_and_no_answer_follows() -> None:
    async with proxied(proxy_config()) as run:
        await run.peer.initialize(NOBODY)
        hanging = await run.peer.request("tools/call", call("hang"))
        cancel = {"requestId": hanging, "reason": "the user pressed stop", "_meta": {"x.v/k": 1}}
        await run.peer.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})
        seen = await run.peer.call("tools/call", call("cancelled"))
    assert json.loads(seen["result"]["content"][0]["text"]) == [cancel]
    assert not [message for message in run.peer.received if message.get("id") == hanging]
    assert run.session.tracker.pending() == {}


async def test_server_requests_and_notifications_pass_through_both_ways() -> None:
    async with proxied(proxy_config()) as run:
        await run.peer.initialize(NOBODY)
        sampled = await run.peer.call("tools/call", call("sample"))
        await run.peer.call("tools/call", call("notify"))
    requests = [message for message in run.peer.received if message.get("method") == "sampling/createMessage"]
    assert requests == [
        {
            "jsonrpc": "2.0",
            "id": "s1",
            "method": "sampling/createMessage",
            "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5},
        }
    ]
    assert json.loads(sampled["result"]["content"][0]["text"]) == SAMPLED
    assert run.peer.notifications("notifications/tools/list_changed") == [
        {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    ]
    assert run.peer.notifications("notifications/message")[0]["params"] == {"level": "info", "data": "hello"}


async def test_an_oversized_upstream_message_ends_the_session_with_an_error_naming_the_limit() -> None:
    async with proxied(proxy_config(max_message_bytes=65_536)) as run:
        await run.peer.initialize(NOBODY)
        response = await run.peer.call("tools/call", call("big", bytes=200_000))
    assert response["error"]["code"] == CONNECTION_CLOSED
    assert "over 65536 bytes" in response["error"]["message"]


async def test_a_line_from_upstream_that_is_not_json_rpc_is_skipped() -> None:
    async with proxied(proxy_config()) as run:
        await run.peer.initialize(NOBODY)
        response = await run.peer.call("tools/call", call("garbage"))
    assert response["result"]["content"][0]["text"] == "after garbage"


async def test_a_server_that_cannot_start_answers_initialize_with_an_error_naming_the_command() -> None:
    upstream = stdio_upstream(["/nonexistent/hostcompat-no-such-server", "--flag"])
    async with proxied(proxy_config(upstream)) as run:
        response = await run.peer.call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}})
    message = response["error"]["message"]
    assert "/nonexistent/hostcompat-no-such-server --flag" in message
    assert "could not be run" in message
    assert "FileNotFoundError" in message


async def test_requests_over_the_in_flight_limit_are_refused_at_once() -> None:
    async with proxied(proxy_config(max_pending=2)) as run:
        await run.peer.initialize(NOBODY)
        await run.peer.request("tools/call", call("hang"))
        await run.peer.request("tools/call", call("hang"))
        refused = await run.peer.call("tools/call", call("echo", text="x"))
    assert refused["error"]["code"] == PROXY_OVERLOADED
    assert "2 requests are already in flight" in refused["error"]["message"]


async def test_a_client_that_stops_sending_still_gets_the_answers_in_flight() -> None:
    async with proxied(proxy_config(), drains_on_close=True) as run:
        await run.peer.initialize(NOBODY)
        request_id = await run.peer.request("tools/call", call("progress", steps=2, interval=0.05))
        await run.peer.write.aclose()
        response = await run.peer.response(request_id)
    assert response["result"]["content"][0]["text"] == "done"


async def test_an_unreadable_client_message_gets_a_parse_error_with_a_null_id() -> None:
    to_proxy, proxy_reads = anyio.create_memory_object_stream[SessionMessage | Exception](1)
    proxy_writes, from_proxy = anyio.create_memory_object_stream[SessionMessage](1)
    session = ProxySession(proxy_config(), FrontLink(proxy_reads, proxy_writes))
    async with anyio.create_task_group() as group:
        group.start_soon(session.run)
        await to_proxy.send(InvalidMessage("not a JSON-RPC message: 'oops'"))
        reply = RawPeer(from_proxy, to_proxy)
        error = await reply.next()
        to_proxy.close()
        group.cancel_scope.cancel()
    for stream in (proxy_reads, proxy_writes, from_proxy):
        stream.close()
    assert error["id"] is None
    assert error["error"]["code"] == -32700
    assert "oops" in error["error"]["message"]


async def test_each_request_of_a_client_batch_gets_an_error_with_its_id() -> None:
    to_proxy, proxy_reads = anyio.create_memory_object_stream[SessionMessage | Exception](1)
    proxy_writes, from_proxy = anyio.create_memory_object_stream[SessionMessage](2)
    session = ProxySession(proxy_config(), FrontLink(proxy_reads, proxy_writes))
    line = b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"b","method":"tools/list"}]\n'
    async with anyio.create_task_group() as group:
        group.start_soon(session.run)
        await to_proxy.send(stream_item(line))
        reply = RawPeer(from_proxy, to_proxy)
        errors = [await reply.next(), await reply.next()]
        to_proxy.close()
        group.cancel_scope.cancel()
    for stream in (proxy_reads, proxy_writes, from_proxy):
        stream.close()
    assert [(error["id"], error["error"]["code"]) for error in errors] == [(1, -32600), ("b", -32600)]
    assert "batch" in errors[0]["error"]["message"]


async def test_a_cancelled_request_ends_its_front_stream_through_the_transport_hook() -> None:
    to_proxy, proxy_reads = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    proxy_writes, from_proxy = anyio.create_memory_object_stream[SessionMessage](0)
    session = ProxySession(proxy_config(), FrontLink(proxy_reads, proxy_writes))
    ended: list[str] = []

    async def on_unanswered() -> None:
        ended.append("ended")

    peer = RawPeer(from_proxy, to_proxy)
    async with anyio.create_task_group() as group:
        group.start_soon(session.run)
        await peer.initialize(NOBODY)
        request = JSONRPCRequest(jsonrpc="2.0", id=5, method="tools/call", params=call("hang"))
        await to_proxy.send(SessionMessage(request, ServerMessageMetadata(on_request_unanswered=on_unanswered)))
        await peer.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}})
        await peer.call("ping")
        to_proxy.close()
        group.cancel_scope.cancel()
    for stream in (proxy_reads, proxy_writes, from_proxy):
        stream.close()
    assert ended == ["ended"]


class Group(Exception):
    """Shaped like an exception group (a builtin only from Python 3.11)."""

    def __init__(self, *inner: BaseException) -> None:
        super().__init__("group")
        self.exceptions = inner


def test_a_failure_is_described_by_its_innermost_error_and_whether_the_server_had_started() -> None:
    group = Group(Group(ConnectionResetError("peer reset")))
    stdio = proxy_config(stdio_upstream(["srv", "--x"]))
    problem = "ConnectionResetError: peer reset"
    assert describe_failure(stdio, group).summary == f"the upstream server (srv --x) could not be run: {problem}"
    assert describe_failure(stdio, group, started=True).summary == f"the upstream server (srv --x) failed: {problem}"
    http = ProxyConfig(http_upstream("http://127.0.0.1:9/mcp"))
    assert "http://127.0.0.1:9/mcp" in describe_failure(http, TimeoutError()).summary
