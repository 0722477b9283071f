"""Typed params and results of the view protocol's own methods, each with `from_wire` and `to_wire`.

Every object is open: keys a model does not know are kept in `extra` and written back, so a message survives
a parse and a re-serialisation whole. Content blocks, `CallToolResult` parts and the like stay plain mappings
(checked to be objects with a string `type` where the protocol says so). Standard MCP methods proxied to the
server (`tools/call`, `resources/read`, …) keep their params as mappings and have no model here.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.apps.bridge._wire import (
    FieldReader,
    bad_field,
    copied,
    no_extra,
    object_list,
    type_name,
    wire_object,
)
from hostcompat.wire_json import WireJSON, WireObject

MESSAGE_ROLE: Final = "user"
"""The only `role` a `ui/message` may carry."""

DOWNLOAD_ITEM_TYPES: Final = ("resource", "resource_link")
"""The content types `ui/download-file` accepts: an embedded resource or a resource link."""


def _blocks(items: tuple[dict[str, Any], ...], where: str) -> tuple[dict[str, Any], ...]:
    """Content blocks: each must carry a string `type`."""
    for index, block in enumerate(items):
        kind = block.get("type")
        if not isinstance(kind, str):
            raise bad_field(f"{where}[{index}].type", f"expected a string, got {type_name(kind)}", block)
    return items


@dataclass(frozen=True, slots=True)
class EmptyParams:
    """The params of a method that carries none: `ui/notifications/initialized`, `request-teardown`,
    `sandbox-proxy-ready` and `ping` (`{}`; `_meta` or other keys are kept in `extra`).
    """

    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> EmptyParams:
        """Read an object with no modeled fields."""
        return cls(extra=FieldReader(data, where).rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({}, self.extra)


@dataclass(frozen=True, slots=True)
class EmptyResult:
    """The `{}` result of `ui/open-link`, `ui/message`, `ui/update-model-context`, `ui/download-file`,
    `ui/resource-teardown` and `ping`; npm lets it say `isError: true` (e.g. the user denied a link).
    """

    is_error: bool | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "result") -> EmptyResult:
        """Read `{isError?}`."""
        fields = FieldReader(data, where)
        return cls(is_error=fields.opt_bool("isError"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"isError": self.is_error}, self.extra)


@dataclass(frozen=True, slots=True)
class OpenLinkParams:
    """`ui/open-link`: the view asks the host to open `url` (the host may ask the user first)."""

    url: str
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> OpenLinkParams:
        """Read `{url}`."""
        fields = FieldReader(data, where)
        return cls(url=fields.text("url"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"url": self.url}, self.extra)


@dataclass(frozen=True, slots=True)
class MessageParams:
    """`ui/message`: a user message the view adds to the conversation.

    `content` is a list of content blocks (npm types it `ContentBlock[]`). The stable text shows a single
    block object instead; `from_wire` accepts that form too and normalises it to a list of one, so
    `to_wire` always writes an array.
    """

    content: tuple[WireJSON, ...]
    role: str = MESSAGE_ROLE
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> MessageParams:
        """Read `{role: "user", content}`; any other role is an error."""
        fields = FieldReader(data, where)
        role = fields.text("role")
        if role != MESSAGE_ROLE:
            raise bad_field(f"{where}.role", f"must be {MESSAGE_ROLE!r}", role)
        content = _blocks(fields.object_list("content", single_ok=True), f"{where}.content")
        return cls(content=content, role=role, extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object, `content` always an array."""
        return wire_object({"role": self.role, "content": object_list(self.content)}, self.extra)


@dataclass(frozen=True, slots=True)
class UpdateModelContextParams:
    """`ui/update-model-context`: context for the model's next turns; each call replaces the previous one."""

    content: tuple[WireJSON, ...] | None = None
    structured_content: WireJSON | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> UpdateModelContextParams:
        """Read `{content?, structuredContent?}`."""
        fields = FieldReader(data, where)
        content = fields.opt_object_list("content")
        return cls(
            content=None if content is None else _blocks(content, f"{where}.content"),
            structured_content=fields.opt_object("structuredContent"),
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object(
            {"content": object_list(self.content), "structuredContent": copied(self.structured_content)},
            self.extra,
        )


@dataclass(frozen=True, slots=True)
class RequestDisplayModeParams:
    """`ui/request-display-mode`: the mode the view would like (`inline`, `fullscreen`, `pip`)."""

    mode: str
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> RequestDisplayModeParams:
        """Read `{mode}`."""
        fields = FieldReader(data, where)
        return cls(mode=fields.text("mode"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"mode": self.mode}, self.extra)


@dataclass(frozen=True, slots=True)
class RequestDisplayModeResult:
    """The `ui/request-display-mode` result: the mode actually in effect (the current one when refused)."""

    mode: str
    is_error: bool | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "result") -> RequestDisplayModeResult:
        """Read `{mode, isError?}`."""
        fields = FieldReader(data, where)
        return cls(mode=fields.text("mode"), is_error=fields.opt_bool("isError"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"mode": self.mode, "isError": self.is_error}, self.extra)


@dataclass(frozen=True, slots=True)
class SizeChangedParams:
    """`ui/notifications/size-changed`: the view's content size in px (npm makes both optional)."""

    width: float | None = None
    height: float | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> SizeChangedParams:
        """Read `{width?, height?}`: finite numbers >= 0 (an int stays an int)."""
        fields = FieldReader(data, where)
        return cls(width=fields.opt_size("width"), height=fields.opt_size("height"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"width": self.width, "height": self.height}, self.extra)


@dataclass(frozen=True, slots=True)
class ToolInputParams:
    """`ui/notifications/tool-input`: the tool call's complete arguments (sent at most once, before the result)."""

    arguments: WireJSON | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> ToolInputParams:
        """Read `{arguments?}` (required in the stable text, optional in npm)."""
        fields = FieldReader(data, where)
        return cls(arguments=fields.opt_object("arguments"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"arguments": copied(self.arguments)}, self.extra)


@dataclass(frozen=True, slots=True)
class ToolInputPartialParams:
    """`ui/notifications/tool-input-partial`: best-effort arguments while the model is still writing them."""

    arguments: WireJSON | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> ToolInputPartialParams:
        """Read `{arguments?}`."""
        fields = FieldReader(data, where)
        return cls(arguments=fields.opt_object("arguments"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"arguments": copied(self.arguments)}, self.extra)


@dataclass(frozen=True, slots=True)
class ToolResultParams:
    """`ui/notifications/tool-result`: the tool's `CallToolResult` (content for the model, data for the view)."""

    content: tuple[WireJSON, ...]
    structured_content: WireJSON | None = None
    is_error: bool | None = None
    meta: WireJSON | None = None
    """The result's `_meta`."""
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> ToolResultParams:
        """Read `{content, structuredContent?, isError?, _meta?}`."""
        fields = FieldReader(data, where)
        return cls(
            content=_blocks(fields.object_list("content"), f"{where}.content"),
            structured_content=fields.opt_object("structuredContent"),
            is_error=fields.opt_bool("isError"),
            meta=fields.opt_object("_meta"),
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object(
            {
                "content": object_list(self.content),
                "structuredContent": copied(self.structured_content),
                "isError": self.is_error,
                "_meta": copied(self.meta),
            },
            self.extra,
        )


@dataclass(frozen=True, slots=True)
class ToolCancelledParams:
    """`ui/notifications/tool-cancelled`: the tool call will not complete."""

    reason: str | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> ToolCancelledParams:
        """Read `{reason?}`."""
        fields = FieldReader(data, where)
        return cls(reason=fields.opt_text("reason"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"reason": self.reason}, self.extra)


@dataclass(frozen=True, slots=True)
class ResourceTeardownParams:
    """`ui/resource-teardown`: the host is about to remove the view (spec: `{reason}`; npm: `{}`)."""

    reason: str | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> ResourceTeardownParams:
        """Read `{reason?}`."""
        fields = FieldReader(data, where)
        return cls(reason=fields.opt_text("reason"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"reason": self.reason}, self.extra)


@dataclass(frozen=True, slots=True)
class DownloadFileParams:
    """`ui/download-file`: files the view asks the host to save (the sandbox has no `allow-downloads`)."""

    contents: tuple[WireJSON, ...]
    """Embedded resources (`type: "resource"`) or resource links (`type: "resource_link"`)."""
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> DownloadFileParams:
        """Read `{contents}`; each item's `type` must be one of `DOWNLOAD_ITEM_TYPES`."""
        fields = FieldReader(data, where)
        contents = _blocks(fields.object_list("contents"), f"{where}.contents")
        for index, item in enumerate(contents):
            if item["type"] not in DOWNLOAD_ITEM_TYPES:
                raise bad_field(f"{where}.contents[{index}].type", f"must be one of {DOWNLOAD_ITEM_TYPES}", item)
        return cls(contents=contents, extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"contents": object_list(self.contents)}, self.extra)


@dataclass(frozen=True, slots=True)
class SandboxResourceReadyParams:
    """`ui/notifications/sandbox-resource-ready` (host -> sandbox proxy): the HTML to load and its sandbox."""

    html: str
    sandbox: str | None = None
    """The inner iframe's `sandbox` attribute, overriding the proxy's default."""
    csp: WireJSON | None = None
    permissions: WireJSON | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> SandboxResourceReadyParams:
        """Read `{html, sandbox?, csp?, permissions?}`."""
        fields = FieldReader(data, where)
        return cls(
            html=fields.text("html"),
            sandbox=fields.opt_text("sandbox"),
            csp=fields.opt_object("csp"),
            permissions=fields.opt_object("permissions"),
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object(
            {
                "html": self.html,
                "sandbox": self.sandbox,
                "csp": copied(self.csp),
                "permissions": copied(self.permissions),
            },
            self.extra,
        )


__all__ = [
    "DOWNLOAD_ITEM_TYPES",
    "DownloadFileParams",
    "EmptyParams",
    "EmptyResult",
    "MESSAGE_ROLE",
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
]
