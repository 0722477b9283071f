"""Hostile stdio servers: each probe ends within its limits, stops the child, stays small and names what happened."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import pytest

from hostcompat.probe import Limits, Snapshot, StdioTarget, capture, capture_many
from tests.probe._support import SHUTDOWN_BOUND, TIGHT, hostile, process_gone
from tests.probe.servers.big_widget import CHUNK
from tests.probe.servers.stderr_flood import LINE

pytestmark = [pytest.mark.anyio, pytest.mark.xdist_group("timing")]
"""`timing`: time-bounded reads of spawned servers, run one after another in one worker (scripts/check)."""

MIB = 1024 * 1024


def codes(snapshot: Snapshot) -> set[str]:
    return {event.code for event in snapshot.events}


def pid_of(snapshot: Snapshot) -> int:
    assert snapshot.process is not None
    pid: int = snapshot.process["pid"]
    return pid


async def timed(probe: Callable[[], Awaitable[Snapshot]]) -> tuple[Snapshot, float]:
    started = time.monotonic()
    snapshot = await probe()
    return snapshot, time.monotonic() - started


async def traced(target: StdioTarget, limits: Limits) -> tuple[Snapshot, int]:
    tracemalloc.start()
    try:
        snapshot = await capture(target, limits=limits)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return snapshot, peak


async def test_a_server_that_never_answers_initialize_times_out_and_is_terminated() -> None:
    snapshot, elapsed = await timed(lambda: capture(hostile("hang_initialize"), limits=TIGHT))
    assert elapsed < TIGHT.connect_timeout + SHUTDOWN_BOUND
    assert {"PROBE-TIMEOUT-INITIALIZE", "PROBE-SHUTDOWN-TERMINATED"} <= codes(snapshot)
    assert snapshot.connection is None and snapshot.initialize is None
    assert all(snapshot.is_unknown(dimension) for dimension in ("tools", "resources", "prompts", "uiResources"))
    assert process_gone(pid_of(snapshot))


async def test_a_server_that_hangs_mid_list_keeps_the_first_page_and_marks_tools_unknown() -> None:
    snapshot, elapsed = await timed(lambda: capture(hostile("hang_mid_list"), limits=TIGHT))
    assert elapsed < TIGHT.step_timeout * 2 + SHUTDOWN_BOUND
    assert [tool["name"] for tool in snapshot.tools] == ["first"]
    assert snapshot.coverage["tools"] == "failed" and snapshot.truncated["tools"]
    (timeout,) = snapshot.events_with("PROBE-TIMEOUT-TOOLS-LIST")
    assert timeout.step == "tools/list"
    assert process_gone(pid_of(snapshot))


async def test_a_server_that_crashes_mid_list_is_reported_with_its_exit_code_and_stderr() -> None:
    snapshot, elapsed = await timed(lambda: capture(hostile("crash_mid_list"), limits=TIGHT))
    assert elapsed < TIGHT.step_timeout + SHUTDOWN_BOUND
    (exited,) = snapshot.events_with("PROBE-SERVER-EXITED")
    assert exited.step == "tools/list"
    assert exited.detail["exitCode"] == 3
    assert "the tool registry is corrupt" in exited.detail["stderrTail"]
    assert [tool["name"] for tool in snapshot.tools] == ["before-crash"]
    assert snapshot.is_unknown("tools")
    assert snapshot.process is not None and snapshot.process["ended"] == "exited"
    assert process_gone(pid_of(snapshot))


async def test_endless_pagination_stops_at_the_page_limit() -> None:
    snapshot, elapsed = await timed(lambda: capture(hostile("endless_pages"), limits=TIGHT))
    assert elapsed < TIGHT.total_timeout + SHUTDOWN_BOUND
    assert len(snapshot.tools) == TIGHT.max_pages
    assert snapshot.coverage["tools"] == "truncated"
    assert "PROBE-PAGE-CAP" in codes(snapshot)
    assert process_gone(pid_of(snapshot))


async def test_a_50_mb_widget_is_dropped_while_it_streams_and_memory_stays_small() -> None:
    snapshot, peak = await traced(hostile("big_widget", "50"), TIGHT)
    assert peak < 4 * TIGHT.max_message_bytes  # the 50 MB line is never held
    (dropped,) = snapshot.events_with("PROBE-MESSAGE-TOO-LARGE")
    assert dropped.step == "resources/read"
    assert dropped.detail["bytes"] > 50 * MIB
    widget = snapshot.ui_resources["ui://big/widget.html"]
    assert widget.contents == () and widget.bytes is None and widget.truncated
    assert snapshot.coverage["uiResources"] == "failed"
    assert snapshot.coverage["tools"] == "complete"
    assert process_gone(pid_of(snapshot))


async def test_a_widget_over_the_per_resource_limit_is_cut_and_measured_whole() -> None:
    limits = replace(TIGHT, max_message_bytes=8 * MIB, max_bytes_per_resource=MIB)
    snapshot = await capture(hostile("big_widget", "3"), limits=limits)
    widget = snapshot.ui_resources["ui://big/widget.html"]
    assert widget.truncated and widget.error is None
    assert widget.bytes == 3 * len(CHUNK)
    (item,) = widget.contents
    assert len(item["text"].encode()) == limits.max_bytes_per_resource
    assert "PROBE-RESOURCE-TRUNCATED" in codes(snapshot)
    assert snapshot.coverage["uiResources"] == "truncated"


async def test_invalid_utf8_is_replaced_and_reported() -> None:
    snapshot = await capture(hostile("invalid_utf8"), limits=TIGHT)
    (tool,) = snapshot.tools
    assert "\ufffd" in tool["description"] and tool["description"].startswith("caf")
    assert "PROBE-INVALID-UTF8" in codes(snapshot)
    assert snapshot.coverage["tools"] == "complete"
    assert process_gone(pid_of(snapshot))


async def test_a_reply_nested_too_deeply_is_named_as_such_and_fails_its_request_at_once() -> None:
    limits = replace(TIGHT, step_timeout=30.0, total_timeout=60.0)
    snapshot = await capture(hostile("deep_nesting"), limits=limits)
    (deep,) = snapshot.events_with("PROBE-NESTING-TOO-DEEP")
    assert "nesting is too deep" in deep.message
    assert not {"PROBE-GARBAGE-OUTPUT", "PROBE-TIMEOUT-TOOLS-LIST", "PROBE-ERROR-RESPONSE"} & codes(snapshot)
    assert snapshot.is_unknown("tools")
    assert process_gone(pid_of(snapshot))


async def test_garbage_on_stdout_is_counted_and_the_real_answers_still_arrive() -> None:
    snapshot = await capture(hostile("garbage_stdout"), limits=TIGHT)
    assert [tool["name"] for tool in snapshot.tools] == ["survivor"]
    (garbage,) = snapshot.events_with("PROBE-GARBAGE-OUTPUT")
    assert garbage.detail["lines"] == 5
    assert garbage.detail["firstLine"] == "Server starting on stdio..."
    assert snapshot.coverage["tools"] == "complete"


async def test_a_100000_tool_page_over_the_message_limit_is_dropped_in_bounded_memory() -> None:
    snapshot, peak = await traced(hostile("many_tools"), TIGHT)
    assert peak < 4 * TIGHT.max_message_bytes
    assert "PROBE-MESSAGE-TOO-LARGE" in codes(snapshot)
    assert snapshot.tools == () and snapshot.is_unknown("tools")
    assert process_gone(pid_of(snapshot))


async def test_a_paginated_100000_tool_catalog_stops_at_the_item_limit_in_bounded_memory() -> None:
    snapshot, peak = await traced(hostile("many_tools", "--page-size", "1000"), TIGHT)
    assert peak < 64 * MIB
    assert len(snapshot.tools) == TIGHT.max_items
    assert snapshot.coverage["tools"] == "truncated"
    assert "PROBE-ITEM-CAP" in codes(snapshot)


async def test_a_slow_drip_reply_times_out_without_a_garbage_finding() -> None:
    snapshot, elapsed = await timed(lambda: capture(hostile("slow_drip"), limits=TIGHT))
    assert elapsed < TIGHT.step_timeout + SHUTDOWN_BOUND
    assert "PROBE-TIMEOUT-TOOLS-LIST" in codes(snapshot)
    assert "PROBE-GARBAGE-OUTPUT" not in codes(snapshot)
    assert snapshot.coverage["tools"] == "failed"
    assert process_gone(pid_of(snapshot))


async def test_a_server_that_ignores_sigterm_and_stdin_closing_is_killed() -> None:
    snapshot, elapsed = await timed(lambda: capture(hostile("ignore_sigterm"), limits=TIGHT))
    assert elapsed < SHUTDOWN_BOUND + TIGHT.step_timeout
    assert [tool["name"] for tool in snapshot.tools] == ["stubborn"]
    (killed,) = snapshot.events_with("PROBE-SHUTDOWN-KILLED")
    assert killed.step == "shutdown" and snapshot.events[-1] == killed
    assert snapshot.process is not None and snapshot.process["signal"] == "SIGKILL"
    assert process_gone(pid_of(snapshot))


async def test_a_stderr_flood_keeps_only_the_tail() -> None:
    snapshot = await capture(hostile("stderr_flood", "4"), limits=TIGHT)
    assert snapshot.process is not None
    assert snapshot.process["stderrBytes"] > 4 * MIB - len(LINE)
    assert len(snapshot.process["stderrTail"]) <= TIGHT.max_stderr_bytes
    assert snapshot.process["stderrTail"].endswith("last words: ready\n")
    assert "PROBE-STDERR-TRUNCATED" in codes(snapshot)
    assert [tool["name"] for tool in snapshot.tools] == ["noisy"]


async def test_a_server_that_exits_at_start_is_named_with_its_complaint() -> None:
    snapshot = await capture(hostile("exit_at_start"), limits=TIGHT)
    (exited,) = snapshot.events_with("PROBE-SERVER-EXITED")
    assert exited.step == "initialize" and exited.detail["exitCode"] == 1
    assert "MY_API_KEY is not set" in exited.message
    assert "PROBE-HANDSHAKE-FAILED" not in codes(snapshot)


async def test_a_command_that_does_not_exist_is_a_connect_failure() -> None:
    snapshot = await capture(StdioTarget("/nonexistent/hostcompat-test-server"), limits=TIGHT)
    (failed,) = snapshot.events_with("PROBE-CONNECT-FAILED")
    assert "No such file" in failed.message
    assert snapshot.process is None


async def test_wrong_shapes_are_kept_as_sent_and_each_is_a_finding() -> None:
    snapshot = await capture(hostile("wrong_shapes"), limits=TIGHT)
    found = codes(snapshot)
    assert {
        "PROBE-INVALID-RESULT",
        "PROBE-MALFORMED-RESULT",
        "PROBE-CURSOR-REPEATED",
        "PROBE-ERROR-RESPONSE",
        "PROBE-INVALID-UI-META",
    } <= found
    names = [tool["name"] for tool in snapshot.tools]
    assert names == ["good", "no-schema", "bad-meta", "bad-template", "second-page"]
    assert snapshot.tools[0]["x-vendor-field"] == {"kept": True}  # raw, not sieved through the SDK's models
    assert snapshot.coverage["tools"] == "truncated"
    assert snapshot.coverage["resources"] == "failed"
    assert snapshot.coverage["prompts"] == "failed"
    missing = snapshot.ui_resources["ui://shapes/missing.html"]
    assert missing.error == {"code": -32002, "message": "Resource not found"}
    odd = snapshot.ui_resources["ui://shapes/odd.html"]
    assert odd.error is not None and odd.error["probe"] == "PROBE-MALFORMED-RESULT"


async def test_the_total_limit_ends_a_probe_that_would_page_forever() -> None:
    endless = replace(TIGHT, total_timeout=1.0, connect_timeout=1.0, step_timeout=1.0, max_pages=10**9, max_items=10**9)
    snapshot, elapsed = await timed(lambda: capture(hostile("endless_pages"), limits=endless))
    assert elapsed < endless.total_timeout + SHUTDOWN_BOUND
    assert "PROBE-TIMEOUT-TOTAL" in codes(snapshot)
    assert snapshot.coverage["tools"] == "truncated" and len(snapshot.tools) > 0
    assert process_gone(pid_of(snapshot))


async def test_concurrent_probes_are_isolated_from_each_others_failures() -> None:
    names = ("crash_mid_list", "garbage_stdout", "hang_initialize", "wrong_shapes")
    targets = [hostile(name) for name in names]
    snapshots, elapsed = await timed_many(targets)
    assert elapsed < TIGHT.connect_timeout + SHUTDOWN_BOUND + 2.0
    crashed, garbage, hung, shapes = snapshots
    assert "PROBE-SERVER-EXITED" in codes(crashed)
    assert [tool["name"] for tool in garbage.tools] == ["survivor"] and garbage.coverage["tools"] == "complete"
    assert "PROBE-TIMEOUT-INITIALIZE" in codes(hung)
    assert "PROBE-SERVER-EXITED" not in codes(garbage) | codes(shapes)
    assert all(process_gone(pid_of(snapshot)) for snapshot in snapshots)


async def timed_many(targets: list[StdioTarget], **options: Any) -> tuple[list[Snapshot], float]:
    started = time.monotonic()
    snapshots = await capture_many(targets, limits=TIGHT, **options)
    return snapshots, time.monotonic() - started
