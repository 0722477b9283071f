"""Tool calls against a hostile stdio server (`servers/tool_calls.py`): only safe tools are called on their own,
a hang or a 50 MB result is cut at its limit and recorded, and the probe goes on with the next call."""

from __future__ import annotations

import hashlib
import json
import time
import tracemalloc
from dataclasses import replace

import pytest

from hostcompat.probe import Snapshot, StdioTarget, capture, snapshot_to_json
from hostcompat.probe.calls import NO_CALLS, CallPlan, ExplicitCall
from hostcompat.probe.target import REDACTED
from tests.probe._support import SHUTDOWN_BOUND, TIGHT, hostile, process_gone

pytestmark = pytest.mark.anyio

MIB = 1024 * 1024
LIMITS = replace(TIGHT, total_timeout=30.0, call_timeout=1.0, max_call_result_bytes=MIB)
SAFE = ("fine", "hang", "huge", "big", "boom", "oops", "env", "optional", "stall")
NEVER_ON_THEIR_OWN = ("write", "sneaky", "plain", "hinted", "needs", "anyof")


def called_by_server(snapshot: Snapshot) -> list[str]:
    """The tools the server logged a tools/call for, in order."""
    assert snapshot.process is not None
    lines = str(snapshot.process["stderrTail"]).splitlines()
    return [line.split()[1] for line in lines if line.startswith("called ")]


def server(*args: str, env: dict[str, str] | None = None) -> StdioTarget:
    return replace(hostile("tool_calls", *args), env=env or {})


async def test_only_read_only_tools_without_arguments_are_called_and_each_failure_is_recorded() -> None:
    tracemalloc.start()
    started = time.monotonic()
    try:
        snapshot = await capture(server(env={"PROBE_SECRET": "hunter2-is-a-secret"}), limits=LIMITS)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    elapsed = time.monotonic() - started
    assert [record.tool for record in snapshot.calls] == list(SAFE)
    assert all(record.reason == "auto" and record.arguments == {} for record in snapshot.calls)
    assert called_by_server(snapshot) == list(SAFE)  # the server itself was never asked to run the others
    assert not set(NEVER_ON_THEIR_OWN) & set(snapshot.call_outcomes)
    assert dict(snapshot.call_outcomes) == {
        "fine": "ok",
        "hang": "timeout",
        "huge": "too-large",
        "big": "too-large",
        "boom": "error",
        "oops": "tool-error",
        "env": "ok",
        "optional": "ok",
        "stall": "timeout",
    }
    by_tool = {record.tool: record for record in snapshot.calls}
    assert 1.0 <= by_tool["hang"].duration_seconds < 3.0  # cut at its limit (the server never answers)
    assert by_tool["huge"].result is None and by_tool["huge"].error is not None
    assert peak < 4 * LIMITS.max_message_bytes  # the 50 MB line is never held
    big = by_tool["big"]
    assert big.result is None and big.bytes is not None and big.bytes > 2 * MIB  # measured, not kept
    assert by_tool["boom"].error == {"code": -32603, "message": "the tool exploded"}
    assert by_tool["oops"].result == {"content": [{"type": "text", "text": "the service is down"}], "isError": True}
    assert snapshot.call_results["fine"]["x-vendor-field"] == {"kept": True}  # raw, unknown fields kept
    assert snapshot.call_results["env"]["content"][0]["text"] == f"secret={REDACTED}"
    assert set(snapshot.call_results) == {"fine", "oops", "env", "optional"}  # results, errors included
    codes = [event.code for event in snapshot.events]
    assert codes.count("PROBE-TIMEOUT-TOOLS-CALL") == 2
    assert {"PROBE-MESSAGE-TOO-LARGE", "PROBE-CALL-TOO-LARGE", "PROBE-CALL-FAILED"} <= set(codes)
    assert all(event.step in ("tools/call", "shutdown") for event in snapshot.events)
    assert snapshot.coverage["tools"] == "complete" and len(snapshot.tools) == len(SAFE) + len(NEVER_ON_THEIR_OWN)
    assert elapsed < 2 * LIMITS.call_timeout + 10.0 + SHUTDOWN_BOUND
    assert process_gone(snapshot.process["pid"] if snapshot.process else 0)


async def test_named_tools_are_called_with_their_arguments_and_recorded_with_secrets_redacted() -> None:
    plan = CallPlan(
        auto=False,
        explicit=(
            ExplicitCall("write", {}),
            ExplicitCall("needs", {"x": 1, "api_token": "tok-0123456789"}),
            ExplicitCall("not-a-tool", {}),
        ),
    )
    snapshot = await capture(server(), limits=LIMITS, calls=plan)
    assert called_by_server(snapshot) == ["write", "needs"]
    sent = json.dumps({"api_token": "tok-0123456789", "x": 1}, sort_keys=True)
    assert snapshot.process is not None and hashlib.sha256(sent.encode()).hexdigest() in snapshot.process["stderrTail"]
    assert "tok-0123456789" not in snapshot_to_json(snapshot)  # not in the record, the result or the stderr tail
    write, needs = snapshot.calls
    assert (write.reason, write.outcome) == ("explicit", "ok")
    assert needs.arguments == {"x": 1, "api_token": REDACTED}
    assert needs.result == {"content": [{"type": "text", "text": f'got {{"api_token": "{REDACTED}", "x": 1}}'}]}
    (not_listed,) = snapshot.events_with("PROBE-CALL-NOT-LISTED")
    assert "not-a-tool" in not_listed.message


async def test_no_calls_calls_nothing_and_the_cap_bounds_automatic_calls() -> None:
    nothing = await capture(server(), limits=LIMITS, calls=NO_CALLS)
    assert nothing.calls == () and called_by_server(nothing) == []
    capped = await capture(server(), limits=replace(LIMITS, max_auto_calls=2))
    assert [record.tool for record in capped.calls] == ["fine", "hang"]
    (cap,) = capped.events_with("PROBE-CALL-CAP")
    assert cap.detail == {"safe": len(SAFE), "limit": 2}


async def test_calls_stop_when_the_total_time_is_spent_and_what_was_captured_is_kept() -> None:
    limits = replace(TIGHT, total_timeout=4.0, call_timeout=3.9)
    started = time.monotonic()
    snapshot = await capture(server("--only", "fine,hang,stall"), limits=limits)
    assert time.monotonic() - started < limits.total_timeout + SHUTDOWN_BOUND
    assert [(record.tool, record.outcome) for record in snapshot.calls] == [("fine", "ok"), ("hang", "timeout")]
    (cut,) = snapshot.events_with("PROBE-CALLS-CUT")
    assert cut.detail == {"notMade": 1}
    assert snapshot.coverage["tools"] == "complete"
