"""What the probe's view sent back, read as untrusted data into typed values. Pure.

The report comes from a page running inside someone else's host, so nothing in it is believed on its shape: every
field is taken only when it has the expected type, strings are cut and stripped of control characters, lists and
maps are bounded, and anything else is dropped as if the view had not said it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.wire_json import WireJSON, WireValue

MAX_REPORT_CHARS: Final = 64 * 1024
"""The largest report (as JSON text) the server reads."""
MAX_TEXT: Final = 200
MAX_ITEMS: Final = 50
OUTCOMES: Final = ("result", "error", "timeout", "sent")
CSP_STATES: Final = ("allowed", "blocked")


@dataclass(frozen=True)
class Answer:
    """How the host answered one request of the view: a result, an error (with its code), no answer, or sent (a
    notification, which gets none).
    """

    outcome: str
    code: int | None = None
    is_error: bool = False
    """A result that says `isError: true` (a user who declined, a tool that failed)."""
    mode: str | None = None
    """`result.mode` of a `ui/request-display-mode` answer."""
    echoed: str | None = None
    """`result.structuredContent.token` of a tools/call answer."""
    has_contents: bool = False
    """A `resources/read` answer with at least one content item."""

    @property
    def answered(self) -> bool:
        """A result that is not an error result."""
        return self.outcome == "result" and not self.is_error

    @property
    def refused(self) -> bool:
        """A JSON-RPC error, or no answer at all."""
        return self.outcome in ("error", "timeout")


@dataclass(frozen=True)
class ViewReport:
    """One view's report: what `ui/initialize` answered, each request's answer, what reached the view, the CSP and
    permission checks, and where the view ran.
    """

    variant: str
    initialized: bool = False
    protocol_version: str | None = None
    host_name: str | None = None
    host_version: str | None = None
    host_capabilities: tuple[str, ...] = ()
    context_keys: tuple[str, ...] = ()
    available_modes: tuple[str, ...] = ()
    platform: str | None = None
    requests: Mapping[str, Answer] = field(default_factory=lambda: MappingProxyType({}))
    tool_input: bool = False
    tool_result: bool = False
    structured_content: bool = False
    nonce: str = ""
    result_meta: bool = False
    csp: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    policy: Mapping[str, bool] = field(default_factory=lambda: MappingProxyType({}))
    clipboard: str = ""
    user_agent: str = ""
    nav_platform: str = ""
    tokens: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


def clean(value: object, limit: int = MAX_TEXT) -> str | None:
    """`value` as short printable text (control and format characters dropped), or None if it is not a string."""
    if not isinstance(value, str):
        return None
    kept = "".join(ch for ch in value[: limit * 2] if ch.isprintable())
    return kept.strip()[:limit] or None


def _object(value: object) -> WireJSON:
    return value if isinstance(value, Mapping) else {}


def _answer(raw: object) -> Answer | None:
    data = _object(raw)
    outcome = data.get("outcome")
    if outcome not in OUTCOMES:
        return None
    code = data.get("code")
    result = _object(data.get("result"))
    structured = _object(result.get("structuredContent"))
    contents = result.get("contents")
    return Answer(
        outcome=str(outcome),
        code=code if isinstance(code, int) and not isinstance(code, bool) and abs(code) < 2**31 else None,
        is_error=result.get("isError") is True,
        mode=clean(result.get("mode"), 20),
        echoed=clean(structured.get("token"), 60),
        has_contents=(isinstance(contents, list) and bool(contents)) or (_count(data.get("items")) > 0),
    )


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31 else 0


def _names(value: object, limit: int = MAX_ITEMS) -> tuple[str, ...]:
    if isinstance(value, Mapping):
        value = list(value)
    if not isinstance(value, list):
        return ()
    names = (clean(item, 60) for item in value[:limit])
    return tuple(dict.fromkeys(name for name in names if name))


def _string_map(value: object, allowed: tuple[str, ...] | None = None) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, item in list(_object(value).items())[:MAX_ITEMS]:
        text, name = clean(item, 80), clean(key, 80)
        if name and text and (allowed is None or text in allowed):
            out[name] = text
    return out


def read_report(raw: WireValue) -> ViewReport:
    """The typed report of `raw` (the view's `report` argument); fields of the wrong type are dropped."""
    data = _object(raw)
    variant = data.get("variant")
    ui = _object(data.get("ui"))
    host_info = _object(ui.get("hostInfo"))
    context = _object(ui.get("hostContext"))
    delivery = _object(data.get("delivery"))
    permissions = _object(data.get("permissions"))
    navigator = _object(data.get("navigator"))
    requests = {}
    for key, item in list(_object(data.get("requests")).items())[:MAX_ITEMS]:
        answer, name = _answer(item), clean(key, 80)
        if answer is not None and name:
            requests[name] = answer
    policy = {
        str(name): value
        for name, value in _object(permissions.get("policy")).items()
        if name in ("camera", "microphone", "geolocation", "clipboardWrite") and isinstance(value, bool)
    }
    return ViewReport(
        variant="plain" if variant == "plain" else "declared",
        initialized="protocolVersion" in ui or "hostCapabilities" in ui,
        protocol_version=clean(ui.get("protocolVersion"), 40),
        host_name=clean(host_info.get("name")),
        host_version=clean(host_info.get("version"), 40),
        host_capabilities=_names(ui.get("hostCapabilities")),
        context_keys=_names(context),
        available_modes=_names(context.get("availableDisplayModes"), 10),
        platform=clean(context.get("platform"), 20),
        requests=MappingProxyType(requests),
        tool_input=delivery.get("toolInput") is True,
        tool_result=delivery.get("toolResult") is True,
        structured_content=delivery.get("structuredContent") is True,
        nonce=clean(delivery.get("nonce"), 100) or "",
        result_meta=delivery.get("meta") is True,
        csp=MappingProxyType(_string_map(data.get("csp"), CSP_STATES)),
        policy=MappingProxyType(policy),
        clipboard=clean(permissions.get("clipboardWrite"), 100) or "",
        user_agent=clean(navigator.get("userAgent"), 300) or "",
        nav_platform=" ".join(filter(None, (clean(navigator.get(k), 60) for k in ("uaPlatform", "platform")))),
        tokens=MappingProxyType(_string_map(data.get("tokens"))),
    )


__all__ = ["CSP_STATES", "MAX_REPORT_CHARS", "OUTCOMES", "Answer", "ViewReport", "clean", "read_report"]
