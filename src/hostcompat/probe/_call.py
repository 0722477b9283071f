"""Make the planned tool calls, one at a time, each within its time and size limit, into `CallRecord`s.

Requests go through the session's `request` (the official `ClientSession.send_request`, not `call_tool`, which would
re-list tools and validate results against their output schemas, or the probe's own session that does what
`send_request` does); the result kept is the raw one the `Wire` recorded. Nothing a server
does here is fatal: a JSON-RPC error, an `isError` result, a hang or a flood becomes the call's outcome (and an
event), and the probe goes on with the next call.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Final

import anyio
import pydantic_core
from pydantic_core import ValidationError

from hostcompat.errors import InvalidInput
from hostcompat.probe._json import copy_object
from hostcompat.probe._rpc import REQUEST_TIMEOUT, ProbeSession, RpcError
from hostcompat.probe._wire import Wire, sample
from hostcompat.probe.call_secrets import redact_arguments
from hostcompat.probe.calls import CallOutcome, CallRecord, PlannedCall
from hostcompat.probe.events import (
    CALL_FAILED,
    CALL_TOO_LARGE,
    CALLS_CUT,
    CONNECTION_CLOSED,
    INTERNAL_ERROR,
    INVALID_RESULT,
    MESSAGE_TOO_LARGE,
    timeout_code,
)

_METHOD: Final = "tools/call"
_SHORTEST_CALL: Final = 0.2
"""A call is not started with less time than this left of the probe's total."""
_MARGIN: Final = 0.25
"""A call ends this long before the probe's total time does, so its outcome is recorded before the probe stops."""


_Record = Callable[..., CallRecord]
"""Builds the call's record from an outcome and its fields (the tool, arguments, reason and time filled in)."""


async def make_calls(
    session: ProbeSession,
    planned: Sequence[PlannedCall],
    wire: Wire,
    records: list[CallRecord],
    *,
    deadline: float,
) -> None:
    """Make each planned call into `records` (so an interrupted probe keeps the calls already made).

    `deadline` is when the probe's total time ends (`anyio.current_time()` clock): each call's time limit is
    shortened to end a moment before it, and no call starts with less than a moment left.
    """
    for index, call in enumerate(planned):
        left = len(planned) - index
        if wire.closed:
            return
        if wire.over_budget:
            message = f"{left} call(s) not made: the byte budget is spent"
            wire.event(CALLS_CUT, "warning", message, {"notMade": left}, step=_METHOD)
            return
        remaining = deadline - anyio.current_time() - _MARGIN
        if remaining < _SHORTEST_CALL:
            message = f"{left} call(s) not made: the probe's total time was spent"
            wire.event(CALLS_CUT, "warning", message, {"notMade": left}, step=_METHOD)
            return
        records.append(await call_tool(session, call, wire, min(wire.limits.call_timeout, remaining)))


async def call_tool(session: ProbeSession, call: PlannedCall, wire: Wire, limit: float) -> CallRecord:
    """Call one tool within `limit` seconds and `Limits.max_call_result_bytes`; never raises for the server.

    The record holds the result as received: the probe removes the secrets it knows from the whole snapshot.
    """
    wire.step = _METHOD
    name = sample(call.tool)
    arguments = redact_arguments(call.arguments)
    started = time.monotonic()

    def record(outcome: CallOutcome, **fields: Any) -> CallRecord:
        elapsed = round(time.monotonic() - started, 3)
        return CallRecord(call.tool, arguments, call.reason, outcome, duration_seconds=elapsed, **fields)

    params = {"name": call.tool, "arguments": dict(call.arguments)}
    rejected: ValidationError | None = None
    with anyio.move_on_after(limit) as scope:
        try:
            await session.request(_METHOD, params)
        except ValidationError as error:
            rejected = error
        except RpcError as error:
            return _failed(error, name, wire, record, limit)
        except Exception as error:  # the SDK's own surprises must not end the probe
            if wire.was_dropped(_METHOD):
                return _dropped(name, wire, record)
            message = f"calling {name!r} failed inside the client: {type(error).__name__}: {error}"
            wire.event(CALL_FAILED, "warning", message, {"tool": name})
            return record("failed", error={"probe": INTERNAL_ERROR, "message": str(error)[:500]})
    if scope.cancelled_caught:
        message = f"no answer to calling {name!r} within {limit:g} s"
        wire.event(timeout_code(_METHOD), "warning", message, {"tool": name})
        return record("timeout", error={"probe": timeout_code(_METHOD), "message": f"no answer within {limit:g} s"})
    raw = wire.take_result(_METHOD)
    if raw is None:  # pragma: no cover - a result always passes the tee first
        return record("failed", error={"probe": INTERNAL_ERROR, "message": "no raw result recorded"})
    return _kept(raw, name, wire, record, rejected)


def _kept(
    raw: dict[str, Any],
    name: str,
    wire: Wire,
    record: _Record,
    rejected: ValidationError | None,
) -> CallRecord:
    size = len(pydantic_core.to_json(raw))
    limit = wire.limits.max_call_result_bytes
    if size > limit:
        message = f"the result of {name!r} is {size} bytes, over the {limit}-byte limit; it was not kept"
        wire.event(CALL_TOO_LARGE, "warning", message, {"tool": name, "bytes": size, "limit": limit})
        problem = {"probe": CALL_TOO_LARGE, "message": f"{size} bytes, over the {limit}-byte limit"}
        return record("too-large", error=problem, bytes=size)
    try:
        kept = copy_object(raw, "tool result")  # bounded in depth, as everything a snapshot holds
    except InvalidInput as error:
        wire.event(CALL_FAILED, "warning", f"the result of {name!r} was not kept: {error.message}", {"tool": name})
        return record("failed", error={"probe": CALL_FAILED, "message": error.message}, bytes=size)
    if rejected is not None:
        first = rejected.errors()[0]["msg"]
        message = f"the official client rejects the result of {name!r} ({first}); it is kept as sent"
        wire.event(INVALID_RESULT, "warning", message, {"tool": name})
    outcome: CallOutcome = "tool-error" if kept.get("isError") is True else "ok"
    return record(outcome, result=kept, bytes=size)


def _dropped(name: str, wire: Wire, record: _Record) -> CallRecord:
    limit = wire.limits.max_message_bytes
    problem = {"probe": MESSAGE_TOO_LARGE, "message": f"the reply was over the {limit}-byte message limit"}
    message = f"the result of {name!r} was over the {limit}-byte message limit; it was dropped unread"
    wire.event(CALL_TOO_LARGE, "warning", message, {"tool": name, "limit": limit})
    return record("too-large", error=problem)


def _failed(error: RpcError, name: str, wire: Wire, record: _Record, limit: float) -> CallRecord:
    if wire.was_dropped(_METHOD):
        return _dropped(name, wire, record)
    if wire.closed:
        return record("failed", error={"probe": CONNECTION_CLOSED, "message": "connection closed"})
    if error.code == REQUEST_TIMEOUT:
        wire.event(timeout_code(_METHOD), "warning", f"no answer to calling {name!r} within {limit:g} s")
        return record("timeout", error={"probe": timeout_code(_METHOD), "message": error.message[:500]})
    wire.event(CALL_FAILED, "warning", f"calling {name!r} was answered with error {error.code}", {"tool": name})
    return record("error", error={"code": error.code, "message": error.message[:2000]})


__all__ = ["call_tool", "make_calls"]
