"""The rule ids an `InvalidBridgeMessage` carries, and the JSON-RPC error code a host answers each with.

Callers branch on `error.rule_id`, never on message text.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from hostcompat.errors import HostCompatError

BRIDGE_TOO_LARGE: Final = "BRIDGE-TOO-LARGE"
"""The encoded message is over the size limit (checked before decoding)."""
BRIDGE_NOT_JSON: Final = "BRIDGE-NOT-JSON"
"""Not strict JSON: bad syntax or UTF-8, `NaN`/`Infinity`, a duplicate key, a non-JSON value, too deep."""
BRIDGE_NOT_JSONRPC: Final = "BRIDGE-NOT-JSONRPC"
"""Not a JSON-RPC 2.0 message: not an object, `jsonrpc` not `"2.0"`, unknown members, no method/result/error."""
BRIDGE_BAD_ID: Final = "BRIDGE-BAD-ID"
"""An `id` that is not a string or an integer (or `null` on an error reply)."""
BRIDGE_UNKNOWN_METHOD: Final = "BRIDGE-UNKNOWN-METHOD"
"""A method the bridge does not know (and unknown methods were not allowed)."""
BRIDGE_WRONG_KIND: Final = "BRIDGE-WRONG-KIND"
"""A request method without an `id`, or a notification method with one."""
BRIDGE_WRONG_DIRECTION: Final = "BRIDGE-WRONG-DIRECTION"
"""A known method travelling in a direction the protocol does not define for it."""
BRIDGE_BAD_FIELD: Final = "BRIDGE-BAD-FIELD"
"""A params, result or envelope field that is missing, of the wrong type or empty where it must not be."""
BRIDGE_TOOL_NOT_FOR_APP: Final = "BRIDGE-TOOL-NOT-FOR-APP"
"""A view called a tool whose `_meta.ui.visibility` lacks `"app"`."""
BRIDGE_TOOL_OTHER_CONNECTION: Final = "BRIDGE-TOOL-OTHER-CONNECTION"
"""A view called a tool of another server connection than the one that rendered it."""
BRIDGE_NOT_ENVELOPE: Final = "BRIDGE-NOT-ENVELOPE"
"""A legacy `mcpui:*` envelope that is not an object with `version`, `method` and `params`."""
BRIDGE_LEGACY_VERSION: Final = "BRIDGE-LEGACY-VERSION"
"""A legacy envelope whose `version` is not `LEGACY_ENVELOPE_VERSION`."""
BRIDGE_LEGACY_METHOD: Final = "BRIDGE-LEGACY-METHOD"
"""A legacy envelope with a method outside the nine `mcpui:*` methods."""
BRIDGE_LEGACY_URI: Final = "BRIDGE-LEGACY-URI"
"""A legacy envelope whose `resourceUri` fails the generic `ui://` rule."""
BRIDGE_NEEDS_REQUEST_ID: Final = "BRIDGE-NEEDS-REQUEST-ID"
"""A legacy message that maps to an official request or reply, converted without the id to use."""
BRIDGE_NO_EQUIVALENT: Final = "BRIDGE-NO-EQUIVALENT"
"""An official message with no legacy `mcpui:*` form (or none without losing meaning)."""

PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
DENIED: Final = -32000
"""The implementation-defined code the MCP Apps examples use for a denial."""

_CODES: Final[Mapping[str, int]] = MappingProxyType(
    {
        BRIDGE_TOO_LARGE: PARSE_ERROR,
        BRIDGE_NOT_JSON: PARSE_ERROR,
        BRIDGE_NOT_JSONRPC: INVALID_REQUEST,
        BRIDGE_BAD_ID: INVALID_REQUEST,
        BRIDGE_WRONG_KIND: INVALID_REQUEST,
        BRIDGE_WRONG_DIRECTION: INVALID_REQUEST,
        BRIDGE_UNKNOWN_METHOD: METHOD_NOT_FOUND,
        BRIDGE_BAD_FIELD: INVALID_PARAMS,
        BRIDGE_TOOL_NOT_FOR_APP: DENIED,
        BRIDGE_TOOL_OTHER_CONNECTION: DENIED,
    }
)


def jsonrpc_error_code(error: HostCompatError) -> int:
    """The JSON-RPC error code to answer `error` with: parse error, invalid request, unknown method, bad params,
    or `DENIED` for a refused tool call. Anything else is an invalid request.
    """
    return _CODES.get(error.rule_id or "", INVALID_REQUEST)


__all__ = [
    "BRIDGE_BAD_FIELD",
    "BRIDGE_BAD_ID",
    "BRIDGE_LEGACY_METHOD",
    "BRIDGE_LEGACY_URI",
    "BRIDGE_LEGACY_VERSION",
    "BRIDGE_NEEDS_REQUEST_ID",
    "BRIDGE_NOT_ENVELOPE",
    "BRIDGE_NOT_JSON",
    "BRIDGE_NOT_JSONRPC",
    "BRIDGE_NO_EQUIVALENT",
    "BRIDGE_TOOL_NOT_FOR_APP",
    "BRIDGE_TOOL_OTHER_CONNECTION",
    "BRIDGE_TOO_LARGE",
    "BRIDGE_UNKNOWN_METHOD",
    "BRIDGE_WRONG_DIRECTION",
    "BRIDGE_WRONG_KIND",
    "DENIED",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "jsonrpc_error_code",
]
