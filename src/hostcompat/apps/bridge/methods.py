"""Every method of the MCP Apps host<->view protocol, as data: direction, kind, capability needed, since when.

One row per (method, direction): `tools/call`, for instance, runs view->host (proxied to the server) and, for
app-provided tools, host->view. The early-draft method names are kept as a rename map.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.apps.bridge.codes import BRIDGE_UNKNOWN_METHOD
from hostcompat.errors import InvalidBridgeMessage

UI_INITIALIZE: Final = "ui/initialize"
UI_INITIALIZED: Final = "ui/notifications/initialized"
UI_OPEN_LINK: Final = "ui/open-link"
UI_DOWNLOAD_FILE: Final = "ui/download-file"
UI_MESSAGE: Final = "ui/message"
UI_UPDATE_MODEL_CONTEXT: Final = "ui/update-model-context"
UI_REQUEST_DISPLAY_MODE: Final = "ui/request-display-mode"
UI_SIZE_CHANGED: Final = "ui/notifications/size-changed"
UI_REQUEST_TEARDOWN: Final = "ui/notifications/request-teardown"
UI_TOOL_INPUT: Final = "ui/notifications/tool-input"
UI_TOOL_INPUT_PARTIAL: Final = "ui/notifications/tool-input-partial"
UI_TOOL_RESULT: Final = "ui/notifications/tool-result"
UI_TOOL_CANCELLED: Final = "ui/notifications/tool-cancelled"
UI_HOST_CONTEXT_CHANGED: Final = "ui/notifications/host-context-changed"
UI_RESOURCE_TEARDOWN: Final = "ui/resource-teardown"
UI_SANDBOX_PROXY_READY: Final = "ui/notifications/sandbox-proxy-ready"
UI_SANDBOX_RESOURCE_READY: Final = "ui/notifications/sandbox-resource-ready"

TOOLS_CALL: Final = "tools/call"
TOOLS_LIST: Final = "tools/list"
TOOLS_LIST_CHANGED: Final = "notifications/tools/list_changed"
RESOURCES_READ: Final = "resources/read"
RESOURCES_LIST: Final = "resources/list"
RESOURCES_TEMPLATES_LIST: Final = "resources/templates/list"
LOGGING_MESSAGE: Final = "notifications/message"
SAMPLING_CREATE_MESSAGE: Final = "sampling/createMessage"
PING: Final = "ping"

UI_METHOD_PREFIX: Final = "ui/"
"""Methods of the view protocol itself; a host never forwards them to a server."""
SANDBOX_NOTIFICATION_PREFIX: Final = "ui/notifications/sandbox-"
"""Proxy<->host handshake notifications; a sandbox proxy never forwards them to the view."""


class Direction(str, Enum):
    """Who sends the message to whom."""

    VIEW_TO_HOST = "view-to-host"
    HOST_TO_VIEW = "host-to-view"
    PROXY_TO_HOST = "proxy-to-host"
    HOST_TO_PROXY = "host-to-proxy"


class MessageKind(str, Enum):
    """A request (has an `id`, gets a reply) or a notification (no `id`, no reply)."""

    REQUEST = "request"
    NOTIFICATION = "notification"


class Since(str, Enum):
    """Where the method is defined: the stable 2026-01-26 text, or only the newest draft and npm 2.0.4."""

    STABLE = "stable"
    DRAFT = "draft"


@dataclass(frozen=True, slots=True)
class MethodSpec:
    """One method in one direction.

    `host_capability` is the `hostCapabilities` key the host must declare before a view may use the method
    (dotted for a sub-key, as `serverTools.listChanged`); `app_capability` is the `appCapabilities` key the view
    must declare before the host may use it. `note` records a nuance of the sources.
    """

    name: str
    direction: Direction
    kind: MessageKind
    since: Since
    host_capability: str | None = None
    app_capability: str | None = None
    note: str = ""


_V2H, _H2V = Direction.VIEW_TO_HOST, Direction.HOST_TO_VIEW
_REQ, _NOTE = MessageKind.REQUEST, MessageKind.NOTIFICATION
_STABLE, _DRAFT = Since.STABLE, Since.DRAFT

METHODS: Final[tuple[MethodSpec, ...]] = (
    MethodSpec(UI_INITIALIZE, _V2H, _REQ, _STABLE),
    MethodSpec(UI_INITIALIZED, _V2H, _NOTE, _STABLE),
    MethodSpec(PING, _V2H, _REQ, _STABLE),
    MethodSpec(PING, _H2V, _REQ, _STABLE),
    MethodSpec(TOOLS_CALL, _V2H, _REQ, _STABLE, host_capability="serverTools", note="proxied to the server"),
    MethodSpec(TOOLS_LIST, _V2H, _REQ, _DRAFT, host_capability="serverTools", note="proxied to the server"),
    MethodSpec(TOOLS_LIST_CHANGED, _H2V, _NOTE, _DRAFT, host_capability="serverTools.listChanged"),
    MethodSpec(RESOURCES_READ, _V2H, _REQ, _STABLE, host_capability="serverResources"),
    MethodSpec(RESOURCES_LIST, _V2H, _REQ, _DRAFT, host_capability="serverResources", note="npm"),
    MethodSpec(RESOURCES_TEMPLATES_LIST, _V2H, _REQ, _DRAFT, host_capability="serverResources", note="npm"),
    MethodSpec(LOGGING_MESSAGE, _V2H, _NOTE, _STABLE, host_capability="logging"),
    MethodSpec(
        SAMPLING_CREATE_MESSAGE,
        _V2H,
        _REQ,
        _DRAFT,
        host_capability="sampling",
        note="`sampling.tools` is needed before the request may carry `tools`",
    ),
    MethodSpec(UI_OPEN_LINK, _V2H, _REQ, _STABLE, host_capability="openLinks"),
    MethodSpec(UI_DOWNLOAD_FILE, _V2H, _REQ, _DRAFT, host_capability="downloadFile"),
    MethodSpec(UI_MESSAGE, _V2H, _REQ, _STABLE, host_capability="message", note="the capability key is draft/npm"),
    MethodSpec(
        UI_UPDATE_MODEL_CONTEXT,
        _V2H,
        _REQ,
        _STABLE,
        host_capability="updateModelContext",
        note="the capability key is draft/npm; each call replaces the previous context",
    ),
    MethodSpec(UI_REQUEST_DISPLAY_MODE, _V2H, _REQ, _STABLE, note="check hostContext.availableDisplayModes"),
    MethodSpec(UI_SIZE_CHANGED, _V2H, _NOTE, _STABLE),
    MethodSpec(
        UI_REQUEST_TEARDOWN,
        _V2H,
        _NOTE,
        _DRAFT,
        note="the host MAY ignore it; if it accepts, it MUST send ui/resource-teardown",
    ),
    MethodSpec(TOOLS_LIST_CHANGED, _V2H, _NOTE, _DRAFT, app_capability="tools.listChanged", note="app tools"),
    MethodSpec(UI_TOOL_INPUT, _H2V, _NOTE, _STABLE, note="at most once, before tool-result"),
    MethodSpec(UI_TOOL_INPUT_PARTIAL, _H2V, _NOTE, _STABLE, note="0..n times, stops once tool-input is sent"),
    MethodSpec(UI_TOOL_RESULT, _H2V, _NOTE, _STABLE),
    MethodSpec(UI_TOOL_CANCELLED, _H2V, _NOTE, _STABLE),
    MethodSpec(UI_HOST_CONTEXT_CHANGED, _H2V, _NOTE, _STABLE, note="a partial HostContext; the view merges it"),
    MethodSpec(UI_RESOURCE_TEARDOWN, _H2V, _REQ, _STABLE, note="the host SHOULD wait for the reply"),
    MethodSpec(TOOLS_CALL, _H2V, _REQ, _DRAFT, app_capability="tools", note="app-provided tools"),
    MethodSpec(TOOLS_LIST, _H2V, _REQ, _DRAFT, app_capability="tools", note="app-provided tools"),
    MethodSpec(UI_SANDBOX_PROXY_READY, Direction.PROXY_TO_HOST, _NOTE, _STABLE),
    MethodSpec(UI_SANDBOX_RESOURCE_READY, Direction.HOST_TO_PROXY, _NOTE, _STABLE),
)
"""The protocol, one row per method and direction (spec §7 table)."""

LEGACY_METHOD_RENAMES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "ui/tool-cancelled": UI_TOOL_CANCELLED,
        "ui/size-change": UI_SIZE_CHANGED,
        "ui/host-context-change": UI_HOST_CONTEXT_CHANGED,
        "ui/notifications/sandbox-ready": UI_SANDBOX_PROXY_READY,
    }
)
"""Early-draft method names and the stable names that replaced them."""

KNOWN_METHODS: Final[frozenset[str]] = frozenset(spec.name for spec in METHODS)
"""Every method name in `METHODS`."""

_KINDS: Final[Mapping[str, MessageKind]] = MappingProxyType({spec.name: spec.kind for spec in METHODS})


def is_known_method(name: str) -> bool:
    """True when `name` is a method of the view protocol (in any direction)."""
    return name in KNOWN_METHODS


def method_kind(name: str) -> MessageKind | None:
    """Whether `name` is a request or a notification method; `None` for an unknown name."""
    return _KINDS.get(name)


def method_directions(name: str) -> tuple[Direction, ...]:
    """The directions `name` travels in, in table order; empty for an unknown name."""
    return tuple(spec.direction for spec in METHODS if spec.name == name)


def method_spec(name: str, direction: Direction) -> MethodSpec:
    """The row for `name` sent in `direction`.

    Raises:
        InvalidBridgeMessage: (`BRIDGE-UNKNOWN-METHOD`) no such method in that direction.
    """
    for spec in METHODS:
        if spec.name == name and spec.direction is direction:
            return spec
    hint = f"; renamed to {LEGACY_METHOD_RENAMES[name]!r}" if name in LEGACY_METHOD_RENAMES else ""
    raise InvalidBridgeMessage(
        f"unknown bridge method {name!r} for {direction.value}{hint}", value=name, rule_id=BRIDGE_UNKNOWN_METHOD
    )


def current_method_name(name: str) -> str:
    """The stable name for an early-draft method name; any other name unchanged."""
    return LEGACY_METHOD_RENAMES.get(name, name)


__all__ = [
    "Direction",
    "KNOWN_METHODS",
    "LEGACY_METHOD_RENAMES",
    "LOGGING_MESSAGE",
    "METHODS",
    "MessageKind",
    "MethodSpec",
    "PING",
    "RESOURCES_LIST",
    "RESOURCES_READ",
    "RESOURCES_TEMPLATES_LIST",
    "SAMPLING_CREATE_MESSAGE",
    "SANDBOX_NOTIFICATION_PREFIX",
    "Since",
    "TOOLS_CALL",
    "TOOLS_LIST",
    "TOOLS_LIST_CHANGED",
    "UI_DOWNLOAD_FILE",
    "UI_HOST_CONTEXT_CHANGED",
    "UI_INITIALIZE",
    "UI_INITIALIZED",
    "UI_MESSAGE",
    "UI_METHOD_PREFIX",
    "UI_OPEN_LINK",
    "UI_REQUEST_DISPLAY_MODE",
    "UI_REQUEST_TEARDOWN",
    "UI_RESOURCE_TEARDOWN",
    "UI_SANDBOX_PROXY_READY",
    "UI_SANDBOX_RESOURCE_READY",
    "UI_SIZE_CHANGED",
    "UI_TOOL_CANCELLED",
    "UI_TOOL_INPUT",
    "UI_TOOL_INPUT_PARTIAL",
    "UI_TOOL_RESULT",
    "UI_UPDATE_MODEL_CONTEXT",
    "current_method_name",
    "is_known_method",
    "method_directions",
    "method_kind",
    "method_spec",
]
