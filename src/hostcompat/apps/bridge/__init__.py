"""The MCP Apps host<->view bridge: the `ui/*` JSON-RPC protocol as data, typed messages, a strict parser,
the host's routing rules, and viant's legacy `mcpui:*` envelopes with a mapping to the official messages.

The face names what a view or host author calls (`parse_message`, `serialize`, `error_reply`, the routing rules,
the legacy mapping), the message and params types they build or match on, and the error a bad message raises.
The protocol tables stay in their modules: method names and specs in `methods`, rule ids and JSON-RPC codes in
`codes`, legacy method names in `legacy`, the size and depth bounds in `parse`.

Pure and quick to import: no I/O, and neither the `mcp` SDK nor pydantic is imported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.apps.bridge.context import HostContext as HostContext
    from hostcompat.apps.bridge.context import merge_host_context as merge_host_context
    from hostcompat.apps.bridge.handshake import AppCapabilities as AppCapabilities
    from hostcompat.apps.bridge.handshake import ContentModalities as ContentModalities
    from hostcompat.apps.bridge.handshake import HostCapabilities as HostCapabilities
    from hostcompat.apps.bridge.handshake import Implementation as Implementation
    from hostcompat.apps.bridge.handshake import ListChangedCapability as ListChangedCapability
    from hostcompat.apps.bridge.handshake import SamplingCapability as SamplingCapability
    from hostcompat.apps.bridge.handshake import SandboxCapability as SandboxCapability
    from hostcompat.apps.bridge.handshake import UiInitializeParams as UiInitializeParams
    from hostcompat.apps.bridge.handshake import UiInitializeResult as UiInitializeResult
    from hostcompat.apps.bridge.legacy import LegacyEnvelope as LegacyEnvelope
    from hostcompat.apps.bridge.legacy import is_legacy_envelope as is_legacy_envelope
    from hostcompat.apps.bridge.legacy import parse_legacy_envelope as parse_legacy_envelope
    from hostcompat.apps.bridge.legacy_mapping import from_official as from_official
    from hostcompat.apps.bridge.legacy_mapping import to_official as to_official
    from hostcompat.apps.bridge.legacy_params import LegacyHostReady as LegacyHostReady
    from hostcompat.apps.bridge.legacy_params import LegacyMessage as LegacyMessage
    from hostcompat.apps.bridge.legacy_params import LegacyOpenLink as LegacyOpenLink
    from hostcompat.apps.bridge.legacy_params import LegacyParams as LegacyParams
    from hostcompat.apps.bridge.legacy_params import LegacySizeChanged as LegacySizeChanged
    from hostcompat.apps.bridge.legacy_params import LegacyTeardown as LegacyTeardown
    from hostcompat.apps.bridge.legacy_params import LegacyToolInput as LegacyToolInput
    from hostcompat.apps.bridge.legacy_params import LegacyToolResult as LegacyToolResult
    from hostcompat.apps.bridge.legacy_params import LegacyToolsCall as LegacyToolsCall
    from hostcompat.apps.bridge.messages import DownloadFileParams as DownloadFileParams
    from hostcompat.apps.bridge.messages import EmptyParams as EmptyParams
    from hostcompat.apps.bridge.messages import EmptyResult as EmptyResult
    from hostcompat.apps.bridge.messages import MessageParams as MessageParams
    from hostcompat.apps.bridge.messages import OpenLinkParams as OpenLinkParams
    from hostcompat.apps.bridge.messages import RequestDisplayModeParams as RequestDisplayModeParams
    from hostcompat.apps.bridge.messages import RequestDisplayModeResult as RequestDisplayModeResult
    from hostcompat.apps.bridge.messages import ResourceTeardownParams as ResourceTeardownParams
    from hostcompat.apps.bridge.messages import SandboxResourceReadyParams as SandboxResourceReadyParams
    from hostcompat.apps.bridge.messages import SizeChangedParams as SizeChangedParams
    from hostcompat.apps.bridge.messages import ToolCancelledParams as ToolCancelledParams
    from hostcompat.apps.bridge.messages import ToolInputParams as ToolInputParams
    from hostcompat.apps.bridge.messages import ToolInputPartialParams as ToolInputPartialParams
    from hostcompat.apps.bridge.messages import ToolResultParams as ToolResultParams
    from hostcompat.apps.bridge.messages import UpdateModelContextParams as UpdateModelContextParams
    from hostcompat.apps.bridge.negotiate import ViewSession as ViewSession
    from hostcompat.apps.bridge.negotiate import after_view_message as after_view_message
    from hostcompat.apps.bridge.negotiate import check_app_tool_call as check_app_tool_call
    from hostcompat.apps.bridge.negotiate import forward_to_server as forward_to_server
    from hostcompat.apps.bridge.negotiate import forward_to_view as forward_to_view
    from hostcompat.apps.bridge.negotiate import may_send_to_view as may_send_to_view
    from hostcompat.apps.bridge.negotiate import negotiate_protocol_version as negotiate_protocol_version
    from hostcompat.apps.bridge.parse import BridgeError as BridgeError
    from hostcompat.apps.bridge.parse import BridgeMessage as BridgeMessage
    from hostcompat.apps.bridge.parse import BridgeNotification as BridgeNotification
    from hostcompat.apps.bridge.parse import BridgeParams as BridgeParams
    from hostcompat.apps.bridge.parse import BridgeRequest as BridgeRequest
    from hostcompat.apps.bridge.parse import BridgeResponse as BridgeResponse
    from hostcompat.apps.bridge.parse import BridgeResult as BridgeResult
    from hostcompat.apps.bridge.parse import RequestId as RequestId
    from hostcompat.apps.bridge.parse import error_reply as error_reply
    from hostcompat.apps.bridge.parse import parse_message as parse_message
    from hostcompat.apps.bridge.parse import parse_params as parse_params
    from hostcompat.apps.bridge.parse import parse_result as parse_result
    from hostcompat.apps.bridge.parse import serialize as serialize
    from hostcompat.errors import InvalidBridgeMessage as InvalidBridgeMessage

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.apps.bridge.context": ["HostContext", "merge_host_context"],
        "hostcompat.apps.bridge.handshake": [
            "AppCapabilities",
            "ContentModalities",
            "HostCapabilities",
            "Implementation",
            "ListChangedCapability",
            "SamplingCapability",
            "SandboxCapability",
            "UiInitializeParams",
            "UiInitializeResult",
        ],
        "hostcompat.apps.bridge.legacy": ["LegacyEnvelope", "is_legacy_envelope", "parse_legacy_envelope"],
        "hostcompat.apps.bridge.legacy_mapping": ["from_official", "to_official"],
        "hostcompat.apps.bridge.legacy_params": [
            "LegacyHostReady",
            "LegacyMessage",
            "LegacyOpenLink",
            "LegacyParams",
            "LegacySizeChanged",
            "LegacyTeardown",
            "LegacyToolInput",
            "LegacyToolResult",
            "LegacyToolsCall",
        ],
        "hostcompat.apps.bridge.messages": [
            "DownloadFileParams",
            "EmptyParams",
            "EmptyResult",
            "MessageParams",
            "OpenLinkParams",
            "RequestDisplayModeParams",
            "RequestDisplayModeResult",
            "ResourceTeardownParams",
            "SandboxResourceReadyParams",
            "SizeChangedParams",
            "ToolCancelledParams",
            "ToolInputParams",
            "ToolInputPartialParams",
            "ToolResultParams",
            "UpdateModelContextParams",
        ],
        "hostcompat.apps.bridge.negotiate": [
            "ViewSession",
            "after_view_message",
            "check_app_tool_call",
            "forward_to_server",
            "forward_to_view",
            "may_send_to_view",
            "negotiate_protocol_version",
        ],
        "hostcompat.apps.bridge.parse": [
            "BridgeError",
            "BridgeMessage",
            "BridgeNotification",
            "BridgeParams",
            "BridgeRequest",
            "BridgeResponse",
            "BridgeResult",
            "RequestId",
            "error_reply",
            "parse_message",
            "parse_params",
            "parse_result",
            "serialize",
        ],
        "hostcompat.errors": ["InvalidBridgeMessage"],
    },
)

__all__ = [
    "AppCapabilities",
    "BridgeError",
    "BridgeMessage",
    "BridgeNotification",
    "BridgeParams",
    "BridgeRequest",
    "BridgeResponse",
    "BridgeResult",
    "ContentModalities",
    "DownloadFileParams",
    "EmptyParams",
    "EmptyResult",
    "HostCapabilities",
    "HostContext",
    "Implementation",
    "InvalidBridgeMessage",
    "LegacyEnvelope",
    "LegacyHostReady",
    "LegacyMessage",
    "LegacyOpenLink",
    "LegacyParams",
    "LegacySizeChanged",
    "LegacyTeardown",
    "LegacyToolInput",
    "LegacyToolResult",
    "LegacyToolsCall",
    "ListChangedCapability",
    "MessageParams",
    "OpenLinkParams",
    "RequestDisplayModeParams",
    "RequestDisplayModeResult",
    "RequestId",
    "ResourceTeardownParams",
    "SamplingCapability",
    "SandboxCapability",
    "SandboxResourceReadyParams",
    "SizeChangedParams",
    "ToolCancelledParams",
    "ToolInputParams",
    "ToolInputPartialParams",
    "ToolResultParams",
    "UiInitializeParams",
    "UiInitializeResult",
    "UpdateModelContextParams",
    "ViewSession",
    "after_view_message",
    "check_app_tool_call",
    "error_reply",
    "forward_to_server",
    "forward_to_view",
    "from_official",
    "is_legacy_envelope",
    "may_send_to_view",
    "merge_host_context",
    "negotiate_protocol_version",
    "parse_legacy_envelope",
    "parse_message",
    "parse_params",
    "parse_result",
    "serialize",
    "to_official",
]
