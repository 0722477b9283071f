"""Which tools a probe calls to capture their results, with which arguments, and the record each call leaves.

A tool result is the evidence for every result-based check (text fallback, `structuredContent`, images, links …),
but calling a tool can change the world. So a probe calls a tool on its own only when that is safe: annotated
`readOnlyHint: true`, not `destructiveHint: true`, and with an input schema that an empty arguments object provably
satisfies. Every other tool is called only when the user names it (`ExplicitCall`). Each call becomes a
`CallRecord` holding the raw result as received (the secrets the probe was given are kept out: `call_secrets`).
Pure: no SDK, no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import Any, Final, Literal, get_args

from hostcompat._dataclass import dataclass
from hostcompat.errors import InvalidInput
from hostcompat.probe._json import (
    copy_json,
    copy_object,
    expect_choice,
    expect_list,
    expect_number,
    expect_object,
    expect_optional_int,
    expect_str,
)
from hostcompat.probe.events import CALL_CAP, CALL_NOT_LISTED, ProbeEvent
from hostcompat.wire_json import WireJSON, WireObject

CallReason = Literal["auto", "explicit"]
"""`auto`: the probe chose the tool as safe to call; `explicit`: the user named it."""

CallOutcome = Literal["ok", "tool-error", "error", "timeout", "too-large", "failed"]
"""How one call went: `ok` (a result, kept), `tool-error` (a result with `isError: true`, kept), `error` (a
JSON-RPC error), `timeout` (no answer within the call's time limit), `too-large` (a result over the size limit,
not kept), `failed` (the connection broke, or the probe could not keep the result)."""

CALL_REASONS: Final[tuple[CallReason, ...]] = get_args(CallReason)
CALL_OUTCOMES: Final[tuple[CallOutcome, ...]] = get_args(CallOutcome)

MAX_EXPLICIT_CALLS: Final = 1000
"""The most calls one probe may be asked to make by name."""

_NARROWING: Final = ("anyOf", "oneOf", "allOf", "not", "if", "$ref", "$dynamicRef", "$recursiveRef", "enum", "const")
"""Input-schema keywords that may reject `{}`: a schema using one is never called without arguments."""


# --- what to call ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExplicitCall:
    """A tool the user asked to call, with its arguments (a JSON object, sent as given)."""

    tool: str
    arguments: WireJSON = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.tool, str) or not self.tool.strip():
            raise InvalidInput("a call needs a tool name", value=self.tool)
        arguments = copy_object(self.arguments, f"arguments of {self.tool}")
        object.__setattr__(self, "arguments", MappingProxyType(arguments))


@dataclass(frozen=True)
class CallPlan:
    """Which tools a probe calls: the safe ones on its own (`auto`), and the `explicit` ones, in order, first."""

    auto: bool = True
    explicit: tuple[ExplicitCall, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.auto, bool):
            raise InvalidInput("CallPlan.auto must be a boolean", value=self.auto)
        calls = tuple(self.explicit)
        if not all(isinstance(call, ExplicitCall) for call in calls):
            raise InvalidInput("CallPlan.explicit must hold ExplicitCall items", value=self.explicit)
        if len(calls) > MAX_EXPLICIT_CALLS:
            raise InvalidInput(f"at most {MAX_EXPLICIT_CALLS} calls may be named", value=len(calls))
        object.__setattr__(self, "explicit", calls)


DEFAULT_CALLS: Final = CallPlan()
"""Call the safe tools on their own, and nothing else."""

NO_CALLS: Final = CallPlan(auto=False)
"""Call no tool at all."""


@dataclass(frozen=True)
class PlannedCall:
    """One call a probe is about to make."""

    tool: str
    arguments: WireJSON
    reason: CallReason


def auto_call_refusal(tool: WireJSON) -> str | None:
    """Why a probe must not call this `tools/list` entry on its own, or `None` when it may.

    It may only when the tool is annotated `readOnlyHint: true` (the boolean), is not annotated
    `destructiveHint: true`, need not run as a task, and `{}` satisfies its input schema for sure: an object
    schema without `required` properties, `minProperties` or a keyword that could reject an empty object.
    """
    annotations = tool.get("annotations")
    hints: Mapping[str, Any] = annotations if isinstance(annotations, Mapping) else {}
    if hints.get("readOnlyHint") is not True:
        return "it is not annotated readOnlyHint: true"
    if hints.get("destructiveHint") is True:
        return "it is annotated destructiveHint: true"
    execution = tool.get("execution")
    if isinstance(execution, Mapping) and execution.get("taskSupport") == "required":
        return "it must run as a task"
    schema = tool.get("inputSchema")
    if not isinstance(schema, Mapping):
        return "it has no input schema object"
    kind = schema.get("type")
    if kind is not None and kind != "object" and not (isinstance(kind, list) and "object" in kind):
        return "its input schema is not an object schema"
    required = schema.get("required")
    if required is not None and required != []:
        return "its input schema has required properties"
    least = schema.get("minProperties")
    if least is not None and not (type(least) is int and least <= 0):
        return "its input schema sets minProperties"
    narrowing = next((keyword for keyword in _NARROWING if keyword in schema), None)
    if narrowing is not None:
        return f"its input schema uses {narrowing}, which may reject an empty object"
    return None


def plan_calls(
    plan: CallPlan, tools: Sequence[WireJSON], *, tools_known: bool, max_auto: int
) -> tuple[tuple[PlannedCall, ...], tuple[ProbeEvent, ...]]:
    """The calls to make, in order (the named ones first, then up to `max_auto` safe ones), and events about it.

    `tools_known` says the tool listing is complete: a named tool it does not hold is then not called (an event
    says so); with an incomplete listing, every named call is made. A tool named explicitly is not also called
    on its own.
    """
    listed = {name for tool in tools if isinstance(name := tool.get("name"), str)}
    planned: list[PlannedCall] = []
    events: list[ProbeEvent] = []
    for call in plan.explicit:
        if tools_known and call.tool not in listed:
            message = f"a call names the tool {call.tool[:200]!r}, which the server does not list; it was not called"
            events.append(ProbeEvent(CALL_NOT_LISTED, "warning", "tools/call", message, {"tool": call.tool[:200]}))
            continue
        planned.append(PlannedCall(call.tool, call.arguments, "explicit"))
    if not plan.auto:
        return tuple(planned), tuple(events)
    named = {call.tool for call in plan.explicit}
    safe: list[str] = []
    for tool in tools:
        name = tool.get("name")
        if isinstance(name, str) and name and name not in named and auto_call_refusal(tool) is None:
            named.add(name)
            safe.append(name)
    if len(safe) > max_auto:
        message = f"{len(safe)} tools are safe to call without arguments; only the first {max_auto} were called"
        events.append(ProbeEvent(CALL_CAP, "info", "tools/call", message, {"safe": len(safe), "limit": max_auto}))
    planned.extend(PlannedCall(name, MappingProxyType({}), "auto") for name in safe[:max_auto])
    return tuple(planned), tuple(events)


# --- naming calls (the --call and --calls options) ---------------------------------------------------------------


def parse_call(text: str) -> ExplicitCall:
    """`TOOL=JSON` (the arguments as a JSON object) or `TOOL` alone (no arguments) as an `ExplicitCall`.

    Raises:
        InvalidInput: no tool name, arguments that are not JSON, or JSON that is not an object.
    """
    name, sep, body = expect_str(text, "a call").partition("=")
    name = name.strip()
    if not name:
        raise InvalidInput(f'a call must look like TOOL=JSON, e.g. search=\'{{"query": "x"}}\', got {text!r}')
    if not sep:
        return ExplicitCall(name)
    try:
        arguments = json.loads(body)
    except (ValueError, RecursionError) as error:
        raise InvalidInput(f"the arguments of {name!r} are not JSON: {error}", value=body) from error
    if not isinstance(arguments, dict):
        raise InvalidInput(f"the arguments of {name!r} must be a JSON object, got {body[:80]!r}", value=body)
    return ExplicitCall(name, arguments)


def calls_from_json(data: object, what: str = "calls") -> tuple[ExplicitCall, ...]:
    """Named calls from JSON data: an object `{tool: arguments}`, or a list of `{"tool": …, "arguments": {…}}`.

    A list may name a tool more than once (each call is made); `arguments` may be left out (no arguments).

    Raises:
        InvalidInput: any other shape, naming the entry that is wrong.
    """
    if isinstance(data, Mapping):
        entries = [(str(tool), arguments) for tool, arguments in data.items()]
    elif isinstance(data, list):
        entries = []
        for index, item in enumerate(data):
            entry = expect_object(item, f"{what}[{index}]")
            unknown = sorted(set(entry) - {"tool", "arguments"})
            if unknown:
                raise InvalidInput(f"{what}[{index}] has unknown keys {unknown} (only tool, arguments)", value=entry)
            entries.append((expect_str(entry.get("tool"), f"{what}[{index}].tool"), entry.get("arguments", {})))
    else:
        raise InvalidInput(f"{what} must be an object {{tool: arguments}} or a list of {{tool, arguments}}")
    if len(entries) > MAX_EXPLICIT_CALLS:
        raise InvalidInput(f"{what} names more than {MAX_EXPLICIT_CALLS} calls", value=len(entries))
    calls = []
    for tool, arguments in entries:
        if not isinstance(arguments, Mapping):
            raise InvalidInput(f"{what}: the arguments of {tool!r} must be a JSON object", value=arguments)
        calls.append(ExplicitCall(tool, arguments))
    return tuple(calls)


# --- the record ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CallRecord:
    """One tools/call a probe made: what, why, how it went, and the raw result as received.

    `arguments` are as sent, secrets redacted. `result` is the raw result (unknown fields kept) for `ok` and
    `tool-error`; `error` the JSON-RPC error (`code`, `message`) or the probe's problem (`probe` event code,
    `message`). `bytes` is the result's size as compact JSON (`None` when unknown, e.g. dropped unread).
    """

    tool: str
    arguments: WireJSON
    reason: CallReason
    outcome: CallOutcome
    duration_seconds: float = 0.0
    result: WireJSON | None = None
    error: WireJSON | None = None
    bytes: int | None = None

    def __post_init__(self) -> None:
        expect_str(self.tool, "call tool")
        expect_choice(self.reason, CALL_REASONS, "call reason")
        expect_choice(self.outcome, CALL_OUTCOMES, "call outcome")
        object.__setattr__(self, "arguments", MappingProxyType(copy_object(self.arguments, "call arguments")))

    @property
    def succeeded(self) -> bool:
        """True when the call returned a result that is not a tool error (outcome `ok`)."""
        return self.outcome == "ok" and self.result is not None

    def to_dict(self) -> WireObject:
        """Plain JSON data, as written in a snapshot."""
        return {
            "tool": self.tool,
            "arguments": copy_json(self.arguments, "call arguments"),
            "reason": self.reason,
            "outcome": self.outcome,
            "durationSeconds": self.duration_seconds,
            "bytes": self.bytes,
            "result": None if self.result is None else copy_json(self.result, "call result"),
            "error": None if self.error is None else copy_json(self.error, "call error"),
        }

    @classmethod
    def from_dict(cls, data: object) -> CallRecord:
        """A record from `to_dict` output.

        Raises:
            InvalidInput: a missing field or a field of the wrong type.
        """
        obj = expect_object(data, "call")
        result, error = obj.get("result"), obj.get("error")
        return cls(
            tool=expect_str(obj.get("tool"), "call tool"),
            arguments=expect_object(obj.get("arguments", {}), "call arguments"),
            reason=expect_choice(obj.get("reason"), CALL_REASONS, "call reason"),
            outcome=expect_choice(obj.get("outcome"), CALL_OUTCOMES, "call outcome"),
            duration_seconds=expect_number(obj.get("durationSeconds", 0.0), "call durationSeconds", positive=False),
            result=None if result is None else copy_object(result, "call result"),
            error=None if error is None else copy_object(error, "call error"),
            bytes=expect_optional_int(obj.get("bytes"), "call bytes"),
        )


def records_from_json(items: object) -> tuple[CallRecord, ...]:
    """The `calls` list of a snapshot file."""
    return tuple(CallRecord.from_dict(item) for item in expect_list(items, "calls"))


def call_results(records: Sequence[CallRecord]) -> Mapping[str, WireJSON]:
    """Tool name → the raw result the server returned for it: its first `ok` call's, else its first `tool-error`
    call's (`isError: true`). What the result-based checks read; a tool that is not a key returned no result.
    """
    results: dict[str, WireJSON] = {}
    for wanted in ("ok", "tool-error"):
        for record in records:
            if record.outcome == wanted and record.result is not None and record.tool not in results:
                results[record.tool] = record.result
    return MappingProxyType(results)


def call_outcomes(records: Sequence[CallRecord]) -> Mapping[str, CallOutcome]:
    """Tool name → how calling it went (`ok` if any call succeeded, else the last call's outcome).

    A tool that is not a key was not called.
    """
    outcomes: dict[str, CallOutcome] = {}
    for record in records:
        if outcomes.get(record.tool) != "ok":
            outcomes[record.tool] = record.outcome
    return MappingProxyType(outcomes)


__all__ = [
    "CALL_OUTCOMES",
    "CALL_REASONS",
    "CallOutcome",
    "CallPlan",
    "CallReason",
    "CallRecord",
    "DEFAULT_CALLS",
    "ExplicitCall",
    "MAX_EXPLICIT_CALLS",
    "NO_CALLS",
    "PlannedCall",
    "auto_call_refusal",
    "call_outcomes",
    "call_results",
    "calls_from_json",
    "parse_call",
    "plan_calls",
    "records_from_json",
]
