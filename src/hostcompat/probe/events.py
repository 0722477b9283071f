"""What happened during a probe: stable event codes, steps and coverage states, and the `ProbeEvent` record.

A probe never raises for server misbehaviour; it records an event instead. Codes are stable strings so reports,
tests and CI baselines can match on them; the message is for people and may change.
"""

from __future__ import annotations

import re
from dataclasses import field
from types import MappingProxyType
from typing import Final, Literal, get_args

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.errors import InvalidInput
from hostcompat.probe._json import copy_json, expect_choice, expect_object, expect_str
from hostcompat.wire_json import WireJSON, WireObject

Severity = Literal["error", "warning", "info"]
"""`error`: something could not be captured; `warning`: captured, but cut or odd; `info`: worth knowing."""

Step = Literal[
    "connect",
    "initialize",
    "tools/list",
    "resources/list",
    "resources/templates/list",
    "prompts/list",
    "resources/read",
    "tools/call",
    "shutdown",
    "probe",
]
"""Where an event happened; the list steps carry the wire method name."""

Coverage = Literal["complete", "truncated", "failed", "not-declared", "not-attempted"]
"""How much of one dimension a snapshot holds. Anything but `complete` and `not-declared` means "unknown"."""

Dimension = Literal["tools", "resources", "resourceTemplates", "prompts", "uiResources"]

DIMENSIONS: Final[tuple[Dimension, ...]] = get_args(Dimension)
STEPS: Final[tuple[Step, ...]] = get_args(Step)
SEVERITIES: Final[tuple[Severity, ...]] = get_args(Severity)
COVERAGES: Final[tuple[Coverage, ...]] = get_args(Coverage)
UNKNOWN_COVERAGES: Final[frozenset[Coverage]] = frozenset({"truncated", "failed", "not-attempted"})

# --- codes ---------------------------------------------------------------------------------------------------------

CONNECT_FAILED: Final = "PROBE-CONNECT-FAILED"
"""The server could not be started or reached (no such command, refused connection, HTTP error)."""
HANDSHAKE_FAILED: Final = "PROBE-HANDSHAKE-FAILED"
"""`initialize` / `server/discover` was answered with an error or a result the client cannot use."""
TIMEOUT_TOTAL: Final = "PROBE-TIMEOUT-TOTAL"
"""The whole probe ran out of time; what was captured before is kept."""
ERROR_RESPONSE: Final = "PROBE-ERROR-RESPONSE"
"""The server answered a request with a JSON-RPC error."""
METHOD_NOT_FOUND: Final = "PROBE-METHOD-NOT-FOUND"
"""The server declared a capability but answers its list method with "method not found"; read as offering none."""
INVALID_RESULT: Final = "PROBE-INVALID-RESULT"
"""The official client rejects this result for the negotiated version; the raw result is kept anyway."""
MALFORMED_RESULT: Final = "PROBE-MALFORMED-RESULT"
"""A result without the expected list, a non-string cursor, or list items that are not objects."""
CURSOR_REPEATED: Final = "PROBE-CURSOR-REPEATED"
"""The server sent a cursor it had sent before: the listing would loop forever."""
PAGE_CAP: Final = "PROBE-PAGE-CAP"
"""The page limit cut a listing."""
ITEM_CAP: Final = "PROBE-ITEM-CAP"
"""The item limit cut a listing."""
MESSAGE_TOO_LARGE: Final = "PROBE-MESSAGE-TOO-LARGE"
"""A message over the size limit was dropped unread."""
RESOURCE_TRUNCATED: Final = "PROBE-RESOURCE-TRUNCATED"
"""A resource's text or blob was longer than the per-resource limit and was cut."""
BYTE_BUDGET: Final = "PROBE-BYTE-BUDGET"
"""The snapshot reached its total byte budget; later captures were skipped."""
UI_RESOURCE_CAP: Final = "PROBE-UI-RESOURCE-CAP"
"""More distinct `ui://` resources were named than the limit allows reading."""
INVALID_UI_META: Final = "PROBE-INVALID-UI-META"
"""A tool's `_meta.ui` (or flat key, or `openai/outputTemplate`) is malformed, so its widget was not read."""
INVALID_UTF8: Final = "PROBE-INVALID-UTF8"
"""The server wrote bytes that are not UTF-8; they were replaced with U+FFFD."""
GARBAGE_OUTPUT: Final = "PROBE-GARBAGE-OUTPUT"
"""The server wrote lines that are not JSON-RPC messages on its protocol stream."""
REQUEST_FLOOD: Final = "PROBE-REQUEST-FLOOD"
"""The server sent more requests to the client than the probe answers at once (it was not reading the answers)."""
NESTING_TOO_DEEP: Final = "PROBE-NESTING-TOO-DEEP"
"""The server sent a message nested past the JSON parser's recursion limit; the request it answered failed."""
CONNECTION_CLOSED: Final = "PROBE-CONNECTION-CLOSED"
"""The connection ended before the probe did."""
SERVER_EXITED: Final = "PROBE-SERVER-EXITED"
"""The server process exited on its own before the probe stopped it."""
SHUTDOWN_TERMINATED: Final = "PROBE-SHUTDOWN-TERMINATED"
"""The server did not exit when its stdin closed and needed SIGTERM."""
SHUTDOWN_KILLED: Final = "PROBE-SHUTDOWN-KILLED"
"""The server ignored SIGTERM and was killed."""
SHUTDOWN_ABANDONED: Final = "PROBE-SHUTDOWN-ABANDONED"
"""The server was still alive after SIGKILL (it should never happen)."""
DETACHED_STOPPED: Final = "PROBE-DETACHED-STOPPED"
"""The server left processes it had started in sessions of their own running (outside its process group, which
the stop signals); they were stopped after it."""
STDERR_TRUNCATED: Final = "PROBE-STDERR-TRUNCATED"
"""The server wrote more to stderr than the limit keeps; only the tail is kept."""
EVENTS_TRUNCATED: Final = "PROBE-EVENTS-TRUNCATED"
"""Some codes occurred more often than the snapshot keeps; the detail counts every occurrence per code."""
URL_CREDENTIALS_IGNORED: Final = "PROBE-URL-CREDENTIALS-IGNORED"
"""The URL has `user:password` and an explicit `Authorization` header was given: the header is sent, not those."""
CALL_NOT_LISTED: Final = "PROBE-CALL-NOT-LISTED"
"""A call names a tool the server does not list (its listing is complete); it was not made."""
CALL_CAP: Final = "PROBE-CALL-CAP"
"""More tools were safe to call on their own than `Limits.max_auto_calls`; only the first were called."""
CALL_FAILED: Final = "PROBE-CALL-FAILED"
"""A tools/call was answered with a JSON-RPC error, or failed in the client."""
CALL_TOO_LARGE: Final = "PROBE-CALL-TOO-LARGE"
"""A tool's result was larger than `Limits.max_call_result_bytes`; it was measured and not kept."""
CALLS_CUT: Final = "PROBE-CALLS-CUT"
"""Calls were left out because the probe's total time or byte budget was (nearly) spent."""
INTERNAL_ERROR: Final = "PROBE-INTERNAL-ERROR"
"""An unexpected error inside the probe itself; please report it."""

_TIMEOUT_PREFIX: Final = "PROBE-TIMEOUT-"
_CODE_PATTERN: Final = regex(r"PROBE-[A-Z0-9]+(?:-[A-Z0-9]+)*")
MAX_MESSAGE_CHARS: Final = 2000
"""The longest event message kept; a longer one is cut, with `…` at the end."""


def timeout_code(step: Step) -> str:
    """The stable code of a timeout at `step`, e.g. `PROBE-TIMEOUT-TOOLS-LIST` for `tools/list`."""
    return _TIMEOUT_PREFIX + re.sub(r"[^A-Z0-9]+", "-", step.upper())


def is_event_code(value: object) -> bool:
    """True for a string shaped like an event code (`PROBE-` and upper-case words joined by dashes)."""
    return isinstance(value, str) and _CODE_PATTERN.fullmatch(value) is not None


@dataclass(frozen=True)
class ProbeEvent:
    """One thing that happened during a probe: a stable `code`, where (`step`), how bad, and evidence."""

    code: str
    severity: Severity
    step: Step
    message: str
    detail: WireJSON = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if not is_event_code(self.code):
            raise InvalidInput(f"event code must look like 'PROBE-SOME-THING', got {self.code!r}", value=self.code)
        if self.severity not in SEVERITIES:
            raise InvalidInput(f"event severity must be one of {SEVERITIES}", value=self.severity)
        if self.step not in STEPS:
            raise InvalidInput(f"event step must be one of {STEPS}, got {self.step!r}", value=self.step)
        if not isinstance(self.message, str):
            raise InvalidInput("event message must be a string", value=self.message)
        if len(self.message) > MAX_MESSAGE_CHARS:
            object.__setattr__(self, "message", self.message[: MAX_MESSAGE_CHARS - 1] + "…")
        detail = copy_json(expect_object(self.detail, "event detail"), "event detail")
        object.__setattr__(self, "detail", MappingProxyType(detail))

    def to_dict(self) -> WireObject:
        """The event as plain JSON data (a fresh copy)."""
        return {
            "code": self.code,
            "severity": self.severity,
            "step": self.step,
            "message": self.message,
            "detail": copy_json(self.detail, "event detail"),
        }

    @classmethod
    def from_dict(cls, data: object) -> ProbeEvent:
        """An event from `to_dict` output.

        Raises:
            InvalidInput: `data` is not an event object.
        """
        obj = expect_object(data, "event")
        detail = obj.get("detail", {})
        return cls(
            code=expect_str(obj.get("code"), "event code"),
            severity=expect_choice(obj.get("severity"), SEVERITIES, "event severity"),
            step=expect_choice(obj.get("step"), STEPS, "event step"),
            message=expect_str(obj.get("message"), "event message"),
            detail=expect_object(detail, "event detail"),
        )


__all__ = [
    "BYTE_BUDGET",
    "CALLS_CUT",
    "CALL_CAP",
    "CALL_FAILED",
    "CALL_NOT_LISTED",
    "CALL_TOO_LARGE",
    "CONNECTION_CLOSED",
    "CONNECT_FAILED",
    "COVERAGES",
    "CURSOR_REPEATED",
    "Coverage",
    "DETACHED_STOPPED",
    "DIMENSIONS",
    "Dimension",
    "ERROR_RESPONSE",
    "EVENTS_TRUNCATED",
    "GARBAGE_OUTPUT",
    "HANDSHAKE_FAILED",
    "INTERNAL_ERROR",
    "INVALID_RESULT",
    "INVALID_UI_META",
    "INVALID_UTF8",
    "ITEM_CAP",
    "MALFORMED_RESULT",
    "MAX_MESSAGE_CHARS",
    "MESSAGE_TOO_LARGE",
    "METHOD_NOT_FOUND",
    "NESTING_TOO_DEEP",
    "PAGE_CAP",
    "ProbeEvent",
    "REQUEST_FLOOD",
    "RESOURCE_TRUNCATED",
    "SERVER_EXITED",
    "SEVERITIES",
    "SHUTDOWN_ABANDONED",
    "SHUTDOWN_KILLED",
    "SHUTDOWN_TERMINATED",
    "STDERR_TRUNCATED",
    "STEPS",
    "Severity",
    "Step",
    "TIMEOUT_TOTAL",
    "UI_RESOURCE_CAP",
    "UNKNOWN_COVERAGES",
    "URL_CREDENTIALS_IGNORED",
    "is_event_code",
    "timeout_code",
]
