"""The params of viant/mcp-ui's legacy `mcpui:*` envelopes, with viant's exact JSON keys.

Each model checks what viant leaves unchecked: non-empty `windowId`, `resourceUri`, `name`, `toolName` and
`url`, and a `resourceUri` that passes the generic `ui://` rule. Optional keys are written only when set, as
Go's `omitempty` does, except that an explicit zero or empty value that was read is written back; keys
without `omitempty` in viant (`content`, `protocolVersion`) are always written.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from hostcompat._dataclass import dataclass
from hostcompat.apps.bridge._wire import FieldReader, copied, json_copy, no_extra, text_list, wire_object
from hostcompat.apps.bridge.codes import BRIDGE_LEGACY_URI
from hostcompat.apps.uri import validate_ui_uri
from hostcompat.errors import InvalidBridgeMessage, InvalidUIURI
from hostcompat.wire_json import WireJSON, WireObject


def _window(fields: FieldReader) -> tuple[str, str]:
    """The `windowId` and `resourceUri` every envelope carries: both non-empty, the URI a valid `ui://` URI."""
    window_id = fields.text("windowId", non_empty=True)
    resource_uri = fields.text("resourceUri", non_empty=True)
    try:
        validate_ui_uri(resource_uri)
    except InvalidUIURI as exc:
        raise InvalidBridgeMessage(
            f"params.resourceUri: {exc.message}", value=resource_uri, rule_id=BRIDGE_LEGACY_URI
        ) from exc
    return window_id, resource_uri


def _window_wire(window_id: str, resource_uri: str) -> dict[str, Any]:
    return {"windowId": window_id, "resourceUri": resource_uri}


@dataclass(frozen=True, slots=True)
class LegacyToolsCall:
    """`mcpui:tools-call` (view -> host): call tool `name`."""

    window_id: str
    resource_uri: str
    name: str
    arguments: WireJSON | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> LegacyToolsCall:
        """Read `{windowId, resourceUri, name, arguments?}`."""
        fields = FieldReader(data, where)
        window_id, resource_uri = _window(fields)
        return cls(
            window_id=window_id,
            resource_uri=resource_uri,
            name=fields.text("name", non_empty=True),
            arguments=fields.opt_object("arguments"),
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """Viant's JSON object."""
        modeled = _window_wire(self.window_id, self.resource_uri)
        modeled.update(name=self.name, arguments=copied(self.arguments))
        return wire_object(modeled, self.extra)


@dataclass(frozen=True, slots=True)
class LegacyMessage:
    """`mcpui:message` (view -> host): a chat message as plain text, with optional free-form `metadata`."""

    window_id: str
    resource_uri: str
    content: str = ""
    metadata: Any = None
    """Any JSON value; `None` = absent."""
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> LegacyMessage:
        """Read `{windowId, resourceUri, content, metadata?}` (`content` reads as `""` when absent)."""
        fields = FieldReader(data, where)
        window_id, resource_uri = _window(fields)
        return cls(
            window_id=window_id,
            resource_uri=resource_uri,
            content=fields.opt_text("content") or "",
            metadata=fields.opt_json("metadata"),
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """Viant's JSON object (`content` always written)."""
        modeled = _window_wire(self.window_id, self.resource_uri)
        modeled.update(content=self.content, metadata=json_copy(self.metadata, "metadata"))
        return wire_object(modeled, self.extra)


@dataclass(frozen=True, slots=True)
class LegacyOpenLink:
    """`mcpui:open-link` (view -> host): open `url`."""

    window_id: str
    resource_uri: str
    url: str
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> LegacyOpenLink:
        """Read `{windowId, resourceUri, url}`."""
        fields = FieldReader(data, where)
        window_id, resource_uri = _window(fields)
        return cls(window_id, resource_uri, url=fields.text("url", non_empty=True), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """Viant's JSON object."""
        return wire_object({**_window_wire(self.window_id, self.resource_uri), "url": self.url}, self.extra)


@dataclass(frozen=True, slots=True)
class LegacyHostReady:
    """`mcpui:host-ready` (host -> view): the host is ready; `allowedTools` the view may call."""

    window_id: str
    resource_uri: str
    protocol_version: str = ""
    allowed_tools: tuple[str, ...] | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> LegacyHostReady:
        """Read `{windowId, resourceUri, allowedTools?, protocolVersion}`."""
        fields = FieldReader(data, where)
        window_id, resource_uri = _window(fields)
        return cls(
            window_id=window_id,
            resource_uri=resource_uri,
            allowed_tools=fields.opt_text_list("allowedTools"),
            protocol_version=fields.opt_text("protocolVersion") or "",
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """Viant's JSON object (`protocolVersion` always written)."""
        modeled = _window_wire(self.window_id, self.resource_uri)
        modeled.update(allowedTools=text_list(self.allowed_tools), protocolVersion=self.protocol_version)
        return wire_object(modeled, self.extra)


@dataclass(frozen=True, slots=True)
class LegacyToolInput:
    """`mcpui:tool-input` and `mcpui:tool-input-partial` (host -> view): the tool's (partial) arguments."""

    window_id: str
    resource_uri: str
    tool_name: str
    protocol_version: str = ""
    tool_input: WireJSON | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> LegacyToolInput:
        """Read `{windowId, resourceUri, toolName, toolInput?, protocolVersion}`."""
        fields = FieldReader(data, where)
        window_id, resource_uri = _window(fields)
        return cls(
            window_id=window_id,
            resource_uri=resource_uri,
            tool_name=fields.text("toolName", non_empty=True),
            tool_input=fields.opt_object("toolInput"),
            protocol_version=fields.opt_text("protocolVersion") or "",
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """Viant's JSON object (`protocolVersion` always written)."""
        modeled = _window_wire(self.window_id, self.resource_uri)
        modeled.update(
            toolName=self.tool_name, toolInput=copied(self.tool_input), protocolVersion=self.protocol_version
        )
        return wire_object(modeled, self.extra)


@dataclass(frozen=True, slots=True)
class LegacyToolResult:
    """`mcpui:tool-result` (host -> view): the tool's result; `content` may be any JSON value."""

    window_id: str
    resource_uri: str
    tool_name: str
    protocol_version: str = ""
    content: Any = None
    """Any JSON value (viant types it `any`); `None` = absent."""
    structured_content: WireJSON | None = None
    meta: WireJSON | None = None
    """The `_meta` object."""
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> LegacyToolResult:
        """Read `{windowId, resourceUri, toolName, content?, structuredContent?, _meta?, protocolVersion}`."""
        fields = FieldReader(data, where)
        window_id, resource_uri = _window(fields)
        return cls(
            window_id=window_id,
            resource_uri=resource_uri,
            tool_name=fields.text("toolName", non_empty=True),
            content=fields.opt_json("content"),
            structured_content=fields.opt_object("structuredContent"),
            meta=fields.opt_object("_meta"),
            protocol_version=fields.opt_text("protocolVersion") or "",
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """Viant's JSON object (`protocolVersion` always written)."""
        modeled = _window_wire(self.window_id, self.resource_uri)
        modeled.update(
            toolName=self.tool_name,
            content=json_copy(self.content, "content"),
            structuredContent=copied(self.structured_content),
            _meta=copied(self.meta),
            protocolVersion=self.protocol_version,
        )
        return wire_object(modeled, self.extra)


@dataclass(frozen=True, slots=True)
class LegacyTeardown:
    """`mcpui:teardown` (host -> view): the window is going away."""

    window_id: str
    resource_uri: str
    reason: str | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> LegacyTeardown:
        """Read `{windowId, resourceUri, reason?}`."""
        fields = FieldReader(data, where)
        window_id, resource_uri = _window(fields)
        return cls(window_id, resource_uri, reason=fields.opt_text("reason"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """Viant's JSON object."""
        return wire_object({**_window_wire(self.window_id, self.resource_uri), "reason": self.reason}, self.extra)


@dataclass(frozen=True, slots=True)
class LegacySizeChanged:
    """`mcpui:size-changed` (view -> host): the content size in whole px."""

    window_id: str
    resource_uri: str
    width: int | None = None
    height: int | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> LegacySizeChanged:
        """Read `{windowId, resourceUri, width?, height?}`: integers >= 0."""
        fields = FieldReader(data, where)
        window_id, resource_uri = _window(fields)
        width, height = fields.opt_size("width", integer=True), fields.opt_size("height", integer=True)
        return cls(
            window_id,
            resource_uri,
            width=None if width is None else int(width),
            height=None if height is None else int(height),
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """Viant's JSON object."""
        modeled = _window_wire(self.window_id, self.resource_uri)
        modeled.update(width=self.width, height=self.height)
        return wire_object(modeled, self.extra)


LegacyParams = (
    LegacyToolsCall
    | LegacyMessage
    | LegacyOpenLink
    | LegacyHostReady
    | LegacyToolInput
    | LegacyToolResult
    | LegacyTeardown
    | LegacySizeChanged
)
"""The params of any legacy envelope."""


__all__ = [
    "LegacyHostReady",
    "LegacyMessage",
    "LegacyOpenLink",
    "LegacyParams",
    "LegacySizeChanged",
    "LegacyTeardown",
    "LegacyToolInput",
    "LegacyToolResult",
    "LegacyToolsCall",
]
