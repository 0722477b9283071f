"""Map legacy `mcpui:*` envelopes to official view-protocol messages and back.

Only the mapped fields cross: `windowId` and `resourceUri` are session context with no place in an official
message (pass them back to `from_official`), as are `toolName` (official: `hostContext.toolInfo`),
`allowedTools`, the legacy `protocolVersion` and `mcpui:message`'s `metadata`. Unknown keys do not cross.
Legacy messages carry no JSON-RPC id, so those that become requests or replies need `request_id`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from hostcompat.apps.bridge import legacy as lg
from hostcompat.apps.bridge import legacy_params as lp
from hostcompat.apps.bridge import methods as m
from hostcompat.apps.bridge.codes import BRIDGE_NEEDS_REQUEST_ID, BRIDGE_NO_EQUIVALENT
from hostcompat.apps.bridge.context import HostContext
from hostcompat.apps.bridge.handshake import HostCapabilities, Implementation, UiInitializeResult
from hostcompat.apps.bridge.messages import (
    MessageParams,
    OpenLinkParams,
    ResourceTeardownParams,
    SizeChangedParams,
    ToolInputParams,
    ToolInputPartialParams,
    ToolResultParams,
)
from hostcompat.apps.bridge.parse import (
    BridgeError,
    BridgeMessage,
    BridgeNotification,
    BridgeRequest,
    BridgeResponse,
    RequestId,
    parse_message,
    parse_result,
    serialize,
)
from hostcompat.apps.constants import LATEST_PROTOCOL_VERSION, LEGACY_ENVELOPE_VERSION
from hostcompat.errors import InvalidBridgeMessage
from hostcompat.wire_json import WireJSON, WireObject

LEGACY_TO_OFFICIAL: Final[Mapping[str, str]] = MappingProxyType(
    {
        lg.LEGACY_HOST_READY: m.UI_INITIALIZE,
        lg.LEGACY_TOOL_INPUT: m.UI_TOOL_INPUT,
        lg.LEGACY_TOOL_INPUT_PARTIAL: m.UI_TOOL_INPUT_PARTIAL,
        lg.LEGACY_TOOL_RESULT: m.UI_TOOL_RESULT,
        lg.LEGACY_TEARDOWN: m.UI_RESOURCE_TEARDOWN,
        lg.LEGACY_SIZE_CHANGED: m.UI_SIZE_CHANGED,
        lg.LEGACY_TOOLS_CALL: m.TOOLS_CALL,
        lg.LEGACY_MESSAGE: m.UI_MESSAGE,
        lg.LEGACY_OPEN_LINK: m.UI_OPEN_LINK,
    }
)
"""Each legacy method and its official counterpart (`host-ready` is the *reply* to `ui/initialize`)."""

_MESSAGE_TYPES: Final = (BridgeRequest, BridgeNotification, BridgeResponse, BridgeError)

LEGACY_HOST_NAME: Final = "mcpui"
"""The `hostInfo.name` given to a legacy host that did not introduce itself."""


def to_official(
    envelope: lg.LegacyEnvelope,
    *,
    request_id: RequestId | None = None,
    host_info: Implementation | None = None,
    host_capabilities: HostCapabilities | None = None,
    host_context: HostContext | None = None,
) -> WireObject:
    """The official JSON-RPC message for a legacy envelope.

    `tools-call`, `message`, `open-link` and `teardown` become requests and `host-ready` becomes the reply
    to the view's `ui/initialize`: all of them need `request_id`. `host-ready` answers with
    `LATEST_PROTOCOL_VERSION` (the legacy version is the envelope's, not the view protocol's), and with
    `host_info` (default: name `mcpui`, the envelope's version), `host_capabilities` and `host_context`
    (default: empty). A `message`'s text becomes one text block; a `tool-result` whose `content` is a string
    becomes one text block, absent becomes `[]`.

    Raises:
        InvalidBridgeMessage: `BRIDGE-NEEDS-REQUEST-ID` without a needed `request_id`;
            `BRIDGE-NO-EQUIVALENT` for a `tool-result` content that is neither a list, a string nor absent.
    """
    params = envelope.params
    official = LEGACY_TO_OFFICIAL[envelope.method]
    message: BridgeMessage
    if isinstance(params, (lp.LegacyToolInput, lp.LegacyToolResult, lp.LegacySizeChanged)):
        return serialize(BridgeNotification(method=official, params=_notification_params(envelope.method, params)))
    if request_id is None:
        raise InvalidBridgeMessage(
            f"{envelope.method} maps to an official {'reply' if official == m.UI_INITIALIZE else 'request'}: "
            "give the request_id to use",
            value=envelope.method,
            rule_id=BRIDGE_NEEDS_REQUEST_ID,
        )
    if isinstance(params, lp.LegacyHostReady):
        result = UiInitializeResult(
            protocol_version=LATEST_PROTOCOL_VERSION,
            host_info=host_info or Implementation(LEGACY_HOST_NAME, params.protocol_version or envelope.version),
            host_capabilities=host_capabilities or HostCapabilities(),
            host_context=host_context or HostContext(),
        )
        message = BridgeResponse(id=request_id, result=result.to_wire())
    elif isinstance(params, lp.LegacyToolsCall):
        call: dict[str, Any] = {"name": params.name}
        if params.arguments is not None:
            call["arguments"] = dict(params.arguments)
        message = BridgeRequest(id=request_id, method=official, params=call)
    elif isinstance(params, lp.LegacyMessage):
        text_block = {"type": "text", "text": params.content}
        message = BridgeRequest(id=request_id, method=official, params=MessageParams(content=(text_block,)))
    elif isinstance(params, lp.LegacyOpenLink):
        message = BridgeRequest(id=request_id, method=official, params=OpenLinkParams(url=params.url))
    else:
        message = BridgeRequest(id=request_id, method=official, params=ResourceTeardownParams(reason=params.reason))
    return serialize(message)


def _notification_params(
    method: str, params: lp.LegacyToolInput | lp.LegacyToolResult | lp.LegacySizeChanged
) -> ToolInputParams | ToolInputPartialParams | ToolResultParams | SizeChangedParams:
    if isinstance(params, lp.LegacySizeChanged):
        return SizeChangedParams(width=params.width, height=params.height)
    if isinstance(params, lp.LegacyToolInput):
        if method == lg.LEGACY_TOOL_INPUT_PARTIAL:
            return ToolInputPartialParams(arguments=params.tool_input)
        return ToolInputParams(arguments=params.tool_input)
    wire: dict[str, Any] = {"content": _official_content(params.content)}
    if params.structured_content is not None:
        wire["structuredContent"] = params.structured_content
    if params.meta is not None:
        wire["_meta"] = params.meta
    return ToolResultParams.from_wire(wire, "params")


def _official_content(content: Any) -> list[Any]:
    if content is None:
        return []
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return content
    raise InvalidBridgeMessage(
        "mcpui:tool-result content must be a list of blocks, a string or absent to map to a CallToolResult",
        value=content,
        rule_id=BRIDGE_NO_EQUIVALENT,
    )


def from_official(
    message: BridgeMessage | str | bytes | WireJSON,
    *,
    window_id: str,
    resource_uri: str,
    tool_name: str = "",
    allowed_tools: Sequence[str] | None = None,
    protocol_version: str = LEGACY_ENVELOPE_VERSION,
) -> lg.LegacyEnvelope:
    """The legacy envelope for an official message, where one exists.

    The session context the official message does not carry is given: `window_id`, `resource_uri`, and for
    tool notifications `tool_name`; `allowed_tools` fills `host-ready`; `protocol_version` the legacy
    `protocolVersion`. A reply is read as the `ui/initialize` result (the only reply with a legacy form).
    The result is checked as `parse_legacy_envelope` would check it.

    Raises:
        InvalidBridgeMessage: the message does not parse; it has no legacy form (`BRIDGE-NO-EQUIVALENT`:
            e.g. `ui/request-display-mode`, a `ui/message` other than one text block, a tool result with
            `isError: true`); or the given context is empty or not a `ui://` URI.
    """
    parsed = parse_message(serialize(message) if isinstance(message, _MESSAGE_TYPES) else message)
    window = {"windowId": window_id, "resourceUri": resource_uri}
    version = {"protocolVersion": protocol_version}
    legacy_method: str
    if isinstance(parsed, BridgeResponse):
        parse_result(m.UI_INITIALIZE, parsed.result)
        legacy_method = lg.LEGACY_HOST_READY
        params: dict[str, Any] = {**window, **version}
        if allowed_tools is not None:
            params["allowedTools"] = list(allowed_tools)
    elif isinstance(parsed, (BridgeRequest, BridgeNotification)):
        legacy_method, params = _legacy_params(parsed, window, version, tool_name)
    else:
        raise _no_equivalent("an error reply", parsed)
    return lg.parse_legacy_envelope({"version": LEGACY_ENVELOPE_VERSION, "method": legacy_method, "params": params})


def _legacy_params(
    message: BridgeRequest | BridgeNotification, window: dict[str, Any], version: dict[str, Any], tool_name: str
) -> tuple[str, dict[str, Any]]:
    params = message.params
    if message.method == m.TOOLS_CALL and isinstance(message, BridgeRequest):
        call_params: Mapping[str, Any] = params if isinstance(params, Mapping) else {}
        call: dict[str, Any] = {**window, "name": call_params.get("name")}
        if "arguments" in call_params:
            call["arguments"] = call_params["arguments"]
        return lg.LEGACY_TOOLS_CALL, call
    if isinstance(params, MessageParams):
        blocks = params.content
        if len(blocks) != 1 or blocks[0].get("type") != "text" or not isinstance(blocks[0].get("text"), str):
            raise _no_equivalent("a ui/message other than exactly one text block", message)
        return lg.LEGACY_MESSAGE, {**window, "content": blocks[0]["text"]}
    if isinstance(params, OpenLinkParams):
        return lg.LEGACY_OPEN_LINK, {**window, "url": params.url}
    if isinstance(params, ResourceTeardownParams):
        return lg.LEGACY_TEARDOWN, _without_none({**window, "reason": params.reason})
    if isinstance(params, (ToolInputParams, ToolInputPartialParams)):
        method = lg.LEGACY_TOOL_INPUT if isinstance(params, ToolInputParams) else lg.LEGACY_TOOL_INPUT_PARTIAL
        tool_input = {"toolInput": params.arguments}
        return method, _without_none({**window, "toolName": tool_name, **tool_input, **version})
    if isinstance(params, ToolResultParams):
        if params.is_error:
            raise _no_equivalent("a tool result with isError: true (mcpui:tool-result has no error flag)", message)
        result = {
            "content": list(params.content),
            "structuredContent": params.structured_content,
            "_meta": params.meta,
        }
        return lg.LEGACY_TOOL_RESULT, _without_none({**window, "toolName": tool_name, **result, **version})
    if isinstance(params, SizeChangedParams):
        size = {"width": _whole_px(params.width), "height": _whole_px(params.height)}
        return lg.LEGACY_SIZE_CHANGED, _without_none({**window, **size})
    raise _no_equivalent(repr(message.method), message)


def _whole_px(size: float | None) -> int | None:
    """Legacy sizes are whole pixels: round a fractional size up, so the content still fits."""
    return None if size is None else math.ceil(size)


def _without_none(params: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in params.items() if value is not None}


def _no_equivalent(what: str, message: object) -> InvalidBridgeMessage:
    return InvalidBridgeMessage(f"{what} has no legacy mcpui:* form", value=message, rule_id=BRIDGE_NO_EQUIVALENT)


__all__ = [
    "LEGACY_HOST_NAME",
    "LEGACY_TO_OFFICIAL",
    "from_official",
    "to_official",
]
