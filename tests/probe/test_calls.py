"""Which tools a probe may call on its own, how calls are named, what a call record keeps, and secrets."""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hostcompat.errors import InvalidInput
from hostcompat.probe import Snapshot
from hostcompat.probe.call_secrets import argument_secrets, redact_arguments
from hostcompat.probe.calls import (
    MAX_EXPLICIT_CALLS,
    NO_CALLS,
    CallPlan,
    CallRecord,
    ExplicitCall,
    auto_call_refusal,
    call_outcomes,
    call_results,
    calls_from_json,
    parse_call,
    plan_calls,
)
from hostcompat.redaction import REDACTED, Redactor

READ_ONLY = {"readOnlyHint": True}
V1_SNAPSHOT = Path(__file__).parent / "fixtures" / "board-snapshot-v1.json"


def tool(name: str = "t", annotations: Any = READ_ONLY, schema: Any = None, **extra: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"name": name, "inputSchema": {"type": "object"} if schema is None else schema, **extra}
    if annotations is not None:
        item["annotations"] = annotations
    return item


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object"},
        {"type": "object", "properties": {"limit": {"type": "integer", "default": 5}}},
        {"type": "object", "properties": {}, "required": []},
        {"type": "object", "additionalProperties": False, "minProperties": 0},
        {"properties": {"q": {"type": "string"}}},
        {"type": ["object", "null"], "$defs": {"x": {"const": 1}}},
    ],
)
def test_a_read_only_tool_that_needs_no_arguments_may_be_called(schema: dict[str, Any]) -> None:
    assert auto_call_refusal(tool(schema=schema)) is None
    assert auto_call_refusal(tool(annotations={"readOnlyHint": True, "destructiveHint": False}, schema=schema)) is None


@pytest.mark.parametrize(
    ("item", "why"),
    [
        (tool(annotations=None), "readOnlyHint"),
        (tool(annotations={}), "readOnlyHint"),
        (tool(annotations={"readOnlyHint": False}), "readOnlyHint"),
        (tool(annotations={"readOnlyHint": "true"}), "readOnlyHint"),
        (tool(annotations={"readOnlyHint": 1}), "readOnlyHint"),
        (tool(annotations=["readOnlyHint"]), "readOnlyHint"),
        (tool(annotations={"destructiveHint": False}), "readOnlyHint"),
        (tool(annotations={"readOnlyHint": True, "destructiveHint": True}), "destructiveHint"),
        (tool(execution={"taskSupport": "required"}), "task"),
        (tool(schema={"type": "object", "required": ["q"]}), "required"),
        (tool(schema={"type": "object", "required": "q"}), "required"),
        (tool(schema={"type": "object", "minProperties": 1}), "minProperties"),
        (tool(schema={"type": "object", "minProperties": True}), "minProperties"),
        (tool(schema={"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}), "anyOf"),
        (tool(schema={"type": "object", "oneOf": [{}]}), "oneOf"),
        (tool(schema={"type": "object", "allOf": [{"required": ["a"]}]}), "allOf"),
        (tool(schema={"type": "object", "not": {}}), "not"),
        (tool(schema={"type": "object", "if": {}, "then": {"required": ["a"]}}), "if"),
        (tool(schema={"$ref": "#/$defs/args", "$defs": {"args": {"required": ["a"]}}}), "$ref"),
        (tool(schema={"type": "object", "enum": [{"a": 1}]}), "enum"),
        (tool(schema={"type": "string"}), "not an object schema"),
        (tool(schema=[]), "no input schema"),
        ({"name": "t", "annotations": READ_ONLY}, "no input schema"),
    ],
)
def test_anything_else_is_never_called_on_its_own(item: dict[str, Any], why: str) -> None:
    refusal = auto_call_refusal(item)
    assert refusal is not None and why in refusal


def test_the_plan_calls_named_tools_first_then_safe_ones_up_to_the_cap() -> None:
    tools = [tool("a"), tool("w", annotations={"readOnlyHint": False}), tool("b"), tool("c"), tool("b"), {"name": 3}]
    plan = CallPlan(explicit=(ExplicitCall("w", {"really": True}), ExplicitCall("b", {"x": 1})))
    planned, events = plan_calls(plan, tools, tools_known=True, max_auto=1)
    assert [(call.tool, dict(call.arguments), call.reason) for call in planned] == [
        ("w", {"really": True}, "explicit"),
        ("b", {"x": 1}, "explicit"),
        ("a", {}, "auto"),
    ]
    (cap,) = events
    assert cap.code == "PROBE-CALL-CAP" and cap.detail == {"safe": 2, "limit": 1}


def test_without_auto_calls_only_named_tools_are_called_and_unlisted_names_are_reported() -> None:
    tools = [tool("a"), tool("b")]
    plan = CallPlan(auto=False, explicit=(ExplicitCall("missing"), ExplicitCall("b")))
    planned, events = plan_calls(plan, tools, tools_known=True, max_auto=10)
    assert [call.tool for call in planned] == ["b"]
    assert [event.code for event in events] == ["PROBE-CALL-NOT-LISTED"]
    assert plan_calls(NO_CALLS, tools, tools_known=True, max_auto=10) == ((), ())
    unknown_listing, _ = plan_calls(plan, tools, tools_known=False, max_auto=10)
    assert [call.tool for call in unknown_listing] == ["missing", "b"]  # the listing was cut: it may exist


def test_a_call_option_is_tool_equals_a_json_object() -> None:
    assert parse_call('search={"query": "a=b", "n": [1, null]}') == ExplicitCall(
        "search", {"query": "a=b", "n": [1, None]}
    )
    assert parse_call("refresh") == ExplicitCall("refresh", {})
    assert parse_call("refresh={}") == ExplicitCall("refresh", {})
    for bad, message in (
        ("=x", "TOOL=JSON"),
        ("t={", "not JSON"),
        ("t=[1]", "JSON object"),
        ('t="s"', "JSON object"),
        ("t=" + "[" * 100_000, "not JSON"),
    ):
        with pytest.raises(InvalidInput, match=message):
            parse_call(bad)


def test_a_calls_document_is_an_object_or_a_list_of_entries() -> None:
    by_tool = calls_from_json({"a": {}, "b": {"x": 1}})
    assert by_tool == (ExplicitCall("a"), ExplicitCall("b", {"x": 1}))
    listed = calls_from_json([{"tool": "a"}, {"tool": "a", "arguments": {"n": 2}}])
    assert listed == (ExplicitCall("a"), ExplicitCall("a", {"n": 2}))
    for bad, message in (
        ("a", "object"),
        ({"a": []}, "JSON object"),
        ([{"tool": "a", "args": {}}], r"calls\[0\] has unknown keys \['args'\]"),
        ([{"arguments": {}}], r"calls\[0\].tool"),
        ([1], r"calls\[0\]"),
        ({"": {}}, "tool name"),
        ([{"tool": "a"}] * (MAX_EXPLICIT_CALLS + 1), "more than"),
    ):
        with pytest.raises(InvalidInput, match=message):
            calls_from_json(bad)


def test_arguments_are_recorded_with_secret_looking_values_redacted() -> None:
    arguments = {
        "query": "weather",
        "api_key": "k-123",
        "nested": {"password": {"deep": 1}, "list": [{"token": "t"}, "plain"]},
        "url": "https://user:pw@example.com/x?access_token=abc&q=1",
    }
    assert redact_arguments(arguments) == {
        "query": "weather",
        "api_key": REDACTED,
        "nested": {"password": REDACTED, "list": [{"token": REDACTED}, "plain"]},
        "url": f"https://{REDACTED}@example.com/x?access_token={REDACTED}&q=1",
    }
    assert arguments["api_key"] == "k-123"  # the input is not changed


def test_the_secret_values_of_named_call_arguments_are_known_to_the_probe() -> None:
    plan = CallPlan(
        explicit=(
            ExplicitCall("t", {"auth": {"user": "user-in-auth", "n": 1}, "q": "not-a-secret"}),
            ExplicitCall("u", {"link": "https://me:long-password@example.com/?sig=signature-value", "pw": ["x"]}),
        )
    )
    basic = base64.b64encode(b"me:long-password").decode()  # what an HTTP client sends for the URL's credentials
    assert set(argument_secrets(plan)) == {"user-in-auth", "long-password", basic, "signature-value", "x"}


def test_a_snapshot_keeps_known_secrets_out_of_call_arguments_results_and_errors() -> None:
    record = CallRecord(
        "t",
        redact_arguments({"q": "token-value-1 inside", "link": "https://a:b@h/"}),
        "explicit",
        "ok",
        result={
            "content": [{"type": "text", "text": 'got "token-value-1"'}],
            "structuredContent": {"url": "https://u:p@h/"},
        },
    )
    failed = CallRecord("t", {}, "auto", "error", error={"code": 1, "message": "bad token-value-1"})
    snapshot = Snapshot.from_dict(json.loads(V1_SNAPSHOT.read_text("utf-8")))
    redacted = replace(snapshot, calls=(record, failed)).redacted(Redactor.of(["token-value-1"]))
    kept, error = redacted.calls
    assert kept.arguments == {"q": f"{REDACTED} inside", "link": f"https://{REDACTED}@h/"}
    assert kept.result == {
        "content": [{"type": "text", "text": f'got "{REDACTED}"'}],
        "structuredContent": {"url": "https://u:p@h/"},  # a result is the server's own data: only known values go
    }
    assert error.error == {"code": 1, "message": f"bad {REDACTED}"}


def test_a_record_round_trips_and_gives_results_and_outcomes_per_tool() -> None:
    records = (
        CallRecord("a", {}, "auto", "timeout", 5.0, error={"probe": "PROBE-TIMEOUT-TOOLS-CALL", "message": "slow"}),
        CallRecord("a", {"n": 1}, "explicit", "ok", 0.1, result={"content": [], "x-extra": 1}, bytes=30),
        CallRecord("a", {"n": 2}, "explicit", "error", 0.1, error={"code": -32602, "message": "bad"}),
        CallRecord("b", {}, "auto", "tool-error", 0.1, result={"content": [], "isError": True}, bytes=20),
        CallRecord("c", {}, "auto", "too-large", 0.1, bytes=10**8),
    )
    for record in records:
        assert CallRecord.from_dict(record.to_dict()) == record
    assert call_results(records) == {"a": {"content": [], "x-extra": 1}, "b": {"content": [], "isError": True}}
    assert call_outcomes(records) == {"a": "ok", "b": "tool-error", "c": "too-large"}
    for bad in ({"tool": "a", "reason": "auto", "outcome": "maybe"}, {"tool": "a", "reason": "why", "outcome": "ok"}):
        with pytest.raises(InvalidInput):
            CallRecord.from_dict(bad)
