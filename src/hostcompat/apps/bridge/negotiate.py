"""The host's decisions on the bridge, as pure functions: the view protocol version, what is forwarded where,
when the host may talk to the view, and whether a view may call a tool.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.apps.bridge import methods as m
from hostcompat.apps.bridge.codes import BRIDGE_TOOL_NOT_FOR_APP, BRIDGE_TOOL_OTHER_CONNECTION
from hostcompat.apps.bridge.handshake import HostCapabilities
from hostcompat.apps.constants import (
    DEFAULT_VISIBILITY,
    LATEST_PROTOCOL_VERSION,
    META_UI_KEY,
    SUPPORTED_PROTOCOL_VERSIONS,
)
from hostcompat.errors import InvalidBridgeMessage
from hostcompat.wire_json import WireJSON

APP_AUDIENCE: Final = "app"
"""The `_meta.ui.visibility` entry that lets views call a tool."""

_SERVER_CAPABILITY_BY_PREFIX: Final = (("tools/", "serverTools"), ("resources/", "serverResources"))


def negotiate_protocol_version(requested: str | None) -> str:
    """The view protocol version a host answers `ui/initialize` with: the view's own when the host supports
    it, otherwise `LATEST_PROTOCOL_VERSION` (the view then decides whether it can go on).
    """
    return requested if requested in SUPPORTED_PROTOCOL_VERSIONS else LATEST_PROTOCOL_VERSION


def forward_to_view(method: str) -> bool:
    """Whether a sandbox proxy passes `method` on to the view: everything but its own handshake with the host
    (`ui/notifications/sandbox-*`).
    """
    return not method.startswith(m.SANDBOX_NOTIFICATION_PREFIX)


def forward_to_server(method: str, host_capabilities: HostCapabilities | WireJSON) -> bool:
    """Whether a host proxies a view's `method` to the MCP server.

    Never a `ui/` method. `tools/*` only when the host declared `serverTools`, `resources/*` only when it
    declared `serverResources`. Every other method is answered by the host itself or not at all (`ping`,
    `notifications/message` and `sampling/createMessage` go to the host; no capability covers prompts or
    completions), so this fails closed for them, within the spec's "MAY forward".

    Raises:
        InvalidBridgeMessage: `host_capabilities` given as a mapping is not a valid capabilities object.
    """
    if method.startswith(m.UI_METHOD_PREFIX):
        return False
    capabilities = (
        host_capabilities
        if isinstance(host_capabilities, HostCapabilities)
        else HostCapabilities.from_wire(host_capabilities)
    )
    for prefix, capability in _SERVER_CAPABILITY_BY_PREFIX:
        if method.startswith(prefix):
            return capabilities.declares(capability)
    return False


@dataclass(frozen=True, slots=True)
class ViewSession:
    """What the host knows of one view's handshake: whether it has sent `ui/notifications/initialized`."""

    initialized: bool = False


def after_view_message(session: ViewSession, method: str) -> ViewSession:
    """The session after the view sent `method`: initialized once `ui/notifications/initialized` arrives."""
    if method == m.UI_INITIALIZED and not session.initialized:
        return replace(session, initialized=True)
    return session


def may_send_to_view(session: ViewSession, method: str) -> bool:
    """Whether the host may send the request or notification `method` to the view now.

    Only after the view's `ui/notifications/initialized`, and only a method defined host->view. (Replies, including
    the one to `ui/initialize`, are not methods and are always allowed.)
    """
    return session.initialized and m.Direction.HOST_TO_VIEW in m.method_directions(method)


def check_app_tool_call(tool: WireJSON, *, same_connection: bool) -> None:
    """Refuse a view's `tools/call` the host must not run.

    `tool` is the tool's entry in the server's `tools/list`. The call is allowed only when the tool belongs
    to the server connection whose resource rendered the view, and its `_meta.ui.visibility` includes
    `"app"` (an absent visibility means `["model", "app"]`; `[]` allows nobody).

    Raises:
        InvalidBridgeMessage: `BRIDGE-TOOL-OTHER-CONNECTION` for another connection's tool;
            `BRIDGE-TOOL-NOT-FOR-APP` when the visibility lacks `"app"` or is malformed (failing closed).
    """
    name = tool.get("name") if isinstance(tool, Mapping) else None
    if not same_connection:
        raise InvalidBridgeMessage(
            f"tool {name!r} belongs to another server connection than the view's",
            value=name,
            rule_id=BRIDGE_TOOL_OTHER_CONNECTION,
        )
    visibility = _visibility(tool, name)
    if APP_AUDIENCE not in visibility:
        raise InvalidBridgeMessage(
            f"tool {name!r} is not visible to apps (visibility {list(visibility)})",
            value=name,
            rule_id=BRIDGE_TOOL_NOT_FOR_APP,
        )


def _visibility(tool: object, name: object) -> tuple[str, ...]:
    def malformed(what: str, value: object) -> InvalidBridgeMessage:
        return InvalidBridgeMessage(
            f"tool {name!r}: {what}; refusing the call", value=value, rule_id=BRIDGE_TOOL_NOT_FOR_APP
        )

    if not isinstance(tool, Mapping):
        raise malformed("the tool entry is not an object", tool)
    meta = tool.get("_meta")
    if meta is None:
        return DEFAULT_VISIBILITY
    if not isinstance(meta, Mapping):
        raise malformed("_meta is not an object", meta)
    ui = meta.get(META_UI_KEY)
    if ui is None:
        return DEFAULT_VISIBILITY
    if not isinstance(ui, Mapping):
        raise malformed("_meta.ui is not an object", ui)
    if "visibility" not in ui:
        return DEFAULT_VISIBILITY
    visibility = ui["visibility"]
    if not isinstance(visibility, (list, tuple)) or not all(isinstance(item, str) for item in visibility):
        raise malformed("_meta.ui.visibility is not an array of strings", visibility)
    return tuple(visibility)


__all__ = [
    "APP_AUDIENCE",
    "ViewSession",
    "after_view_message",
    "check_app_tool_call",
    "forward_to_server",
    "forward_to_view",
    "may_send_to_view",
    "negotiate_protocol_version",
]
