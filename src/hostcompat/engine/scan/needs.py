"""The widget capability needs the scanner reports, and how each bridge style spells them.

One table per widget style (ext-apps App methods, raw JSON-RPC methods, `window.openai`, legacy
mcp-ui message types), all pointing at the same need ids, so a verdict does not care which
style a widget was written in. The first nine ids are MCPJam's; the rest are needs it does not scan.
"""

from __future__ import annotations

from typing import Final, Literal

__all__ = [
    "ALL_NEEDS",
    "APP_GUARD_KEYS",
    "APP_HANDLER_PROPERTIES",
    "APP_METHOD_NEEDS",
    "CONFIDENCES",
    "DISTINCTIVE_APP_METHODS",
    "HOST_TO_VIEW_TOOL_METHODS",
    "KINDS",
    "MCPJAM_NEEDS",
    "MCP_UI_TYPE_NEEDS",
    "OPENAI_METHOD_NEEDS",
    "WIRE_METHOD_NEEDS",
    "Confidence",
    "Directive",
    "EmbeddedMedia",
    "ExternalKind",
    "Kind",
    "LimitCode",
    "SdkHow",
    "SdkName",
    "Via",
    "confidence_rank",
]

Kind = Literal["call", "guarded-call", "automatic", "use", "declaration", "meta"]
"""How a need was seen: a call by the app, a call behind a host-capability check, done by the
SDK on the app's behalf (auto-resize), another use that needs the host (a `window.openai` read,
a tool handler, a loaded URL), a definition that is not a call (it does not count), or declared
in the resource `_meta`."""

Confidence = Literal["high", "medium", "low"]

Via = Literal["ext-apps", "json-rpc", "openai", "mcp-ui", "html", "js", "meta", "browser-api", "wrapper"]
"""The bridge style a need was seen through: the ext-apps `App` API, raw JSON-RPC, `window.openai`, legacy mcp-ui
actions, the markup, a URL in the code, the resource `_meta`, a browser API gated by the sandbox, or a wrapper
around one of these."""

Directive = Literal["resource", "connect", "frame", "mention"]
"""The CSP directive a URL's origin falls under (`mention`: a URL the code only names)."""

ExternalKind = Literal["script-src", "module-import", "dynamic-import", "importmap", "worker", "iframe-url"]
"""How the widget loads code the scanner did not read."""

SdkName = Literal["ext-apps", "openai-apps-sdk", "mcp-ui", "mcp-ui-adapter", "bridge-wrapper"]
"""A bridge SDK the scanner recognises."""

SdkHow = Literal["bundled", "imported", "runtime", "mcp-apps", "apps-sdk", "unknown"]
"""How an SDK is present (bundled, imported, seen at runtime) or, for an mcp-ui adapter, what it translates to."""

LimitCode = Literal[
    "input_truncated",
    "blob_undecodable",
    "external_code_not_analysed",
    "importmap_invalid",
    "hits_capped",
    "embedded_not_scanned",
    "meta_invalid",
    "meta_truncated",
]
"""What a scan could not fully do."""

EmbeddedMedia = Literal["js", "data-url"]
"""Embedded code: a (base64 or plain) script, or a whole `data:` URL."""

KINDS: Final = ("call", "guarded-call", "automatic", "use", "declaration", "meta")
CONFIDENCES: Final = ("high", "medium", "low")

MCPJAM_NEEDS: Final = (
    "serverTools",
    "serverResources",
    "message",
    "updateModelContext",
    "openLinks",
    "downloadFile",
    "logging",
    "sandboxPermissions",
    "cspFrameDomains",
)
"""The nine needs MCPJam's engine checks against a host's capability matrix."""

ALL_NEEDS: Final = (
    *MCPJAM_NEEDS,
    "requestDisplayMode",
    "sizeChanged",
    "appTools",
    "sampling",
    "requestTeardown",
    "openaiApps",
    "mcpUiActions",
    "cspResourceDomains",
    "cspConnectDomains",
)
"""Every need id, in report order (`mcpUiActions`: legacy mcp-ui actions that no adapter in the page translates,
which only a host rendering legacy mcp-ui resources answers)."""

APP_METHOD_NEEDS: Final[dict[str, str]] = {
    "callServerTool": "serverTools",
    "readServerResource": "serverResources",
    "listServerResources": "serverResources",
    "sendMessage": "message",
    "updateModelContext": "updateModelContext",
    "openLink": "openLinks",
    "sendOpenLink": "openLinks",
    "downloadFile": "downloadFile",
    "sendLog": "logging",
    "requestDisplayMode": "requestDisplayMode",
    "sendSizeChanged": "sizeChanged",
    "setupSizeChangedNotifications": "sizeChanged",
    "registerTool": "appTools",
    "createSamplingMessage": "sampling",
    "requestTeardown": "requestTeardown",
}
"""ext-apps `App` methods (names survive minification as property names) -> need."""

DISTINCTIVE_APP_METHODS: Final = frozenset(
    {
        "callServerTool",
        "readServerResource",
        "listServerResources",
        "updateModelContext",
        "requestDisplayMode",
        "sendSizeChanged",
        "setupSizeChangedNotifications",
        "createSamplingMessage",
        "sendOpenLink",
    }
)
"""App methods whose names are unlikely to belong to another library (others, like `sendMessage`, are common)."""

APP_HANDLER_PROPERTIES: Final[dict[str, str]] = {"oncalltool": "appTools", "onlisttools": "appTools"}
"""Assigning these App handler properties means the app serves tools to the host."""

APP_GUARD_KEYS: Final[dict[str, str]] = {
    "serverTools": "serverTools",
    "serverResources": "serverResources",
    "message": "message",
    "updateModelContext": "updateModelContext",
    "openLinks": "openLinks",
    "downloadFile": "downloadFile",
    "logging": "logging",
    "sampling": "sampling",
}
"""Need -> the `getHostCapabilities()` key an app checks before using it."""

WIRE_METHOD_NEEDS: Final[dict[str, str]] = {
    "tools/call": "serverTools",
    "tools/list": "serverTools",
    "resources/read": "serverResources",
    "resources/list": "serverResources",
    "resources/templates/list": "serverResources",
    "ui/message": "message",
    "ui/update-model-context": "updateModelContext",
    "ui/open-link": "openLinks",
    "ui/download-file": "downloadFile",
    "notifications/message": "logging",
    "ui/request-display-mode": "requestDisplayMode",
    "ui/notifications/size-changed": "sizeChanged",
    "ui/notifications/size-change": "sizeChanged",
    "sampling/createMessage": "sampling",
    "ui/notifications/request-teardown": "requestTeardown",
}
"""View -> host JSON-RPC methods (MCP Apps bridge) -> need."""

HOST_TO_VIEW_TOOL_METHODS: Final = frozenset({"tools/call", "tools/list"})
"""Methods that, when a hand-written view dispatches on them, mean it serves tools to the host."""

OPENAI_METHOD_NEEDS: Final[dict[str, str]] = {
    "callTool": "serverTools",
    "sendFollowUpMessage": "message",
    "sendFollowupTurn": "message",
    "openExternal": "openLinks",
    "requestDisplayMode": "requestDisplayMode",
    "notifyIntrinsicHeight": "sizeChanged",
    "setWidgetState": "updateModelContext",
    "getFileDownloadUrl": "downloadFile",
    "requestClose": "requestTeardown",
    "uploadFile": "openaiApps",
    "requestModal": "openaiApps",
    "setOpenInAppUrl": "openaiApps",
}
"""`window.openai` methods -> need; every `window.openai` use also needs the OpenAI runtime (`openaiApps`)."""

MCP_UI_TYPE_NEEDS: Final[dict[str, str]] = {
    "tool": "serverTools",
    "prompt": "message",
    "intent": "message",
    "link": "openLinks",
    "notify": "logging",
    "ui-size-change": "sizeChanged",
}
"""Legacy mcp-ui `postMessage({type, payload})` action types -> need."""

_CONFIDENCE_RANK: Final = {"high": 2, "medium": 1, "low": 0}


def confidence_rank(confidence: str) -> int:
    """Order of a confidence level: high 2, medium 1, low 0 (unknown levels rank lowest)."""
    return _CONFIDENCE_RANK.get(confidence, -1)
