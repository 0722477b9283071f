"""viant/mcp-ui's legacy `mcpui:*` browser envelopes (`{version, method, params}`), typed and validated.

These predate the official `ui/*` protocol and are not part of it. viant only declares the types; this
module adds the checks viant lacks: a known method and `version == LEGACY_ENVELOPE_VERSION` here, non-empty
identity fields and a valid `ui://` `resourceUri` in the params models (`legacy_params`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.apps.bridge._wire import DEFAULT_MAX_BYTES, decode_json, json_copy, no_extra, type_name, wire_object
from hostcompat.apps.bridge.codes import BRIDGE_LEGACY_METHOD, BRIDGE_LEGACY_VERSION, BRIDGE_NOT_ENVELOPE
from hostcompat.apps.bridge.legacy_params import (
    LegacyHostReady,
    LegacyMessage,
    LegacyOpenLink,
    LegacyParams,
    LegacySizeChanged,
    LegacyTeardown,
    LegacyToolInput,
    LegacyToolResult,
    LegacyToolsCall,
)
from hostcompat.apps.constants import LEGACY_ENVELOPE_VERSION
from hostcompat.errors import InvalidBridgeMessage
from hostcompat.wire_json import WireJSON, WireObject

LEGACY_TOOLS_CALL: Final = "mcpui:tools-call"
LEGACY_MESSAGE: Final = "mcpui:message"
LEGACY_OPEN_LINK: Final = "mcpui:open-link"
LEGACY_HOST_READY: Final = "mcpui:host-ready"
LEGACY_TOOL_INPUT: Final = "mcpui:tool-input"
LEGACY_TOOL_INPUT_PARTIAL: Final = "mcpui:tool-input-partial"
LEGACY_TOOL_RESULT: Final = "mcpui:tool-result"
LEGACY_TEARDOWN: Final = "mcpui:teardown"
LEGACY_SIZE_CHANGED: Final = "mcpui:size-changed"

LEGACY_METHODS: Final = (
    LEGACY_TOOLS_CALL,
    LEGACY_MESSAGE,
    LEGACY_OPEN_LINK,
    LEGACY_HOST_READY,
    LEGACY_TOOL_INPUT,
    LEGACY_TOOL_INPUT_PARTIAL,
    LEGACY_TOOL_RESULT,
    LEGACY_TEARDOWN,
    LEGACY_SIZE_CHANGED,
)
"""The nine `mcpui:*` methods (viant's README lists eight: it leaves out `mcpui:size-changed`)."""

LEGACY_METHOD_PREFIX: Final = "mcpui:"


LEGACY_PARAMS_MODELS: Final[Mapping[str, Callable[[object, str], LegacyParams]]] = MappingProxyType(
    {
        LEGACY_TOOLS_CALL: LegacyToolsCall.from_wire,
        LEGACY_MESSAGE: LegacyMessage.from_wire,
        LEGACY_OPEN_LINK: LegacyOpenLink.from_wire,
        LEGACY_HOST_READY: LegacyHostReady.from_wire,
        LEGACY_TOOL_INPUT: LegacyToolInput.from_wire,
        LEGACY_TOOL_INPUT_PARTIAL: LegacyToolInput.from_wire,
        LEGACY_TOOL_RESULT: LegacyToolResult.from_wire,
        LEGACY_TEARDOWN: LegacyTeardown.from_wire,
        LEGACY_SIZE_CHANGED: LegacySizeChanged.from_wire,
    }
)
"""The params reader of each legacy method."""


@dataclass(frozen=True, slots=True)
class LegacyEnvelope:
    """One `mcpui:*` message: `{version, method, params}`."""

    method: str
    params: LegacyParams
    version: str = LEGACY_ENVELOPE_VERSION
    extra: WireJSON = field(default_factory=no_extra)
    """Unknown top-level keys, kept verbatim."""

    def to_wire(self) -> WireObject:
        """Viant's JSON object."""
        return wire_object(
            {"version": self.version, "method": self.method, "params": self.params.to_wire()}, self.extra
        )


def is_legacy_envelope(data: object) -> bool:
    """True when `data` looks like a legacy envelope rather than JSON-RPC: an object with an `mcpui:` method
    and no `jsonrpc` member. It says nothing about validity; `parse_legacy_envelope` checks that.
    """
    if not isinstance(data, Mapping) or "jsonrpc" in data:
        return False
    method = data.get("method")
    return isinstance(method, str) and method.startswith(LEGACY_METHOD_PREFIX)


def parse_legacy_envelope(data: str | bytes | WireJSON, *, max_bytes: int = DEFAULT_MAX_BYTES) -> LegacyEnvelope:
    """Parse and validate one legacy envelope.

    Raises:
        InvalidBridgeMessage: too large or not JSON; not an object with `version`, `method` and an object
            `params` (`BRIDGE-NOT-ENVELOPE`); an unknown method (`BRIDGE-LEGACY-METHOD`); a version other than
            `LEGACY_ENVELOPE_VERSION` (`BRIDGE-LEGACY-VERSION`); an empty or mistyped field
            (`BRIDGE-BAD-FIELD`); a `resourceUri` that is not a valid `ui://` URI (`BRIDGE-LEGACY-URI`).
    """
    raw = decode_json(data, max_bytes=max_bytes, what="envelope")
    if not isinstance(raw, Mapping):
        raise InvalidBridgeMessage(
            f"a legacy envelope is an object, got {type_name(raw)}", value=raw, rule_id=BRIDGE_NOT_ENVELOPE
        )
    for key in ("version", "method", "params"):
        if key not in raw:
            raise InvalidBridgeMessage(f"a legacy envelope needs {key!r}", value=dict(raw), rule_id=BRIDGE_NOT_ENVELOPE)
    method = raw["method"]
    reader = LEGACY_PARAMS_MODELS.get(method) if isinstance(method, str) else None
    if reader is None:
        raise InvalidBridgeMessage(
            f"unknown legacy method {method!r}; expected one of {', '.join(LEGACY_METHODS)}",
            value=method,
            rule_id=BRIDGE_LEGACY_METHOD,
        )
    version = raw["version"]
    if version != LEGACY_ENVELOPE_VERSION:
        raise InvalidBridgeMessage(
            f"legacy envelope version must be {LEGACY_ENVELOPE_VERSION!r}, got {version!r}",
            value=version,
            rule_id=BRIDGE_LEGACY_VERSION,
        )
    params = raw["params"]
    if not isinstance(params, Mapping):
        raise InvalidBridgeMessage(
            f"legacy 'params' must be an object, got {type_name(params)}", value=params, rule_id=BRIDGE_NOT_ENVELOPE
        )
    extra = {key: json_copy(value, key) for key, value in raw.items() if key not in ("version", "method", "params")}
    return LegacyEnvelope(method=method, params=reader(params, "params"), version=version, extra=extra)


__all__ = [
    "LEGACY_HOST_READY",
    "LEGACY_MESSAGE",
    "LEGACY_METHODS",
    "LEGACY_METHOD_PREFIX",
    "LEGACY_OPEN_LINK",
    "LEGACY_PARAMS_MODELS",
    "LEGACY_SIZE_CHANGED",
    "LEGACY_TEARDOWN",
    "LEGACY_TOOLS_CALL",
    "LEGACY_TOOL_INPUT",
    "LEGACY_TOOL_INPUT_PARTIAL",
    "LEGACY_TOOL_RESULT",
    "LegacyEnvelope",
    "is_legacy_envelope",
    "parse_legacy_envelope",
]
