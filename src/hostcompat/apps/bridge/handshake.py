"""What `ui/initialize` exchanges: the view's info and capabilities, the host's info, capabilities and context.

Capability objects are open (unknown keys kept); `declares("serverTools.listChanged")` answers whether a
(possibly nested) capability is present.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from hostcompat._dataclass import dataclass
from hostcompat.apps.bridge._wire import FieldReader, copied, model_wire, no_extra, text_list, wire_object
from hostcompat.apps.bridge.context import HostContext
from hostcompat.wire_json import WireJSON, WireObject


def _declares(wire: Mapping[str, Any], key: str) -> bool:
    """True when the dotted `key` is present in `wire`: an object for a capability, `true` for a flag."""
    value: object = wire
    for part in key.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return False
        value = value[part]
    return value is not False and value is not None


@dataclass(frozen=True, slots=True)
class Implementation:
    """`appInfo` / `hostInfo`: an MCP `Implementation` (`name`, `version`; `title`, icons, … kept in `extra`)."""

    name: str
    version: str
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "implementation") -> Implementation:
        """Read an implementation object; `name` and `version` must be strings."""
        fields = FieldReader(data, where)
        return cls(name=fields.text("name"), version=fields.text("version"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"name": self.name, "version": self.version}, self.extra)


@dataclass(frozen=True, slots=True)
class ListChangedCapability:
    """`serverTools`, `serverResources` or the app's `tools`: `{listChanged?}`."""

    list_changed: bool | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "capability") -> ListChangedCapability:
        """Read `{listChanged?}`."""
        fields = FieldReader(data, where)
        return cls(list_changed=fields.opt_bool("listChanged"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"listChanged": self.list_changed}, self.extra)


@dataclass(frozen=True, slots=True)
class SandboxCapability:
    """`hostCapabilities.sandbox`: the `permissions` and `csp` the host actually granted."""

    permissions: WireJSON | None = None
    csp: WireJSON | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "sandbox") -> SandboxCapability:
        """Read `{permissions?, csp?}`; both are objects."""
        fields = FieldReader(data, where)
        return cls(permissions=fields.opt_object("permissions"), csp=fields.opt_object("csp"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"permissions": copied(self.permissions), "csp": copied(self.csp)}, self.extra)


@dataclass(frozen=True, slots=True)
class SamplingCapability:
    """`hostCapabilities.sampling`: `{tools?}`; the view may send `tools` only when `tools` is present."""

    tools: WireJSON | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "sampling") -> SamplingCapability:
        """Read `{tools?}`."""
        fields = FieldReader(data, where)
        return cls(tools=fields.opt_object("tools"), extra=fields.rest())

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object({"tools": copied(self.tools)}, self.extra)


@dataclass(frozen=True, slots=True)
class ContentModalities:
    """`updateModelContext` / `message`: which content the host accepts (each present key is an object)."""

    text: WireJSON | None = None
    image: WireJSON | None = None
    audio: WireJSON | None = None
    resource: WireJSON | None = None
    resource_link: WireJSON | None = None
    structured_content: WireJSON | None = None
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "modalities") -> ContentModalities:
        """Read `{text?, image?, audio?, resource?, resourceLink?, structuredContent?}`."""
        fields = FieldReader(data, where)
        return cls(
            text=fields.opt_object("text"),
            image=fields.opt_object("image"),
            audio=fields.opt_object("audio"),
            resource=fields.opt_object("resource"),
            resource_link=fields.opt_object("resourceLink"),
            structured_content=fields.opt_object("structuredContent"),
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object(
            {
                "text": copied(self.text),
                "image": copied(self.image),
                "audio": copied(self.audio),
                "resource": copied(self.resource),
                "resourceLink": copied(self.resource_link),
                "structuredContent": copied(self.structured_content),
            },
            self.extra,
        )


@dataclass(frozen=True, slots=True)
class HostCapabilities:
    """`hostCapabilities` of the `ui/initialize` result: what the view may ask the host for."""

    experimental: WireJSON | None = None
    open_links: WireJSON | None = None
    server_tools: ListChangedCapability | None = None
    server_resources: ListChangedCapability | None = None
    logging: WireJSON | None = None
    sandbox: SandboxCapability | None = None
    download_file: WireJSON | None = None
    """Draft/npm."""
    update_model_context: ContentModalities | None = None
    """Draft/npm."""
    message: ContentModalities | None = None
    """Draft/npm."""
    sampling: SamplingCapability | None = None
    """Draft/npm."""
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "hostCapabilities") -> HostCapabilities:
        """Read a host capabilities object; each capability must be an object."""
        fields = FieldReader(data, where)
        return cls(
            experimental=fields.opt_object("experimental"),
            open_links=fields.opt_object("openLinks"),
            server_tools=fields.opt_child("serverTools", ListChangedCapability.from_wire),
            server_resources=fields.opt_child("serverResources", ListChangedCapability.from_wire),
            logging=fields.opt_object("logging"),
            sandbox=fields.opt_child("sandbox", SandboxCapability.from_wire),
            download_file=fields.opt_object("downloadFile"),
            update_model_context=fields.opt_child("updateModelContext", ContentModalities.from_wire),
            message=fields.opt_child("message", ContentModalities.from_wire),
            sampling=fields.opt_child("sampling", SamplingCapability.from_wire),
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """The JSON object, with only the capabilities that are declared."""
        return wire_object(
            {
                "experimental": copied(self.experimental),
                "openLinks": copied(self.open_links),
                "serverTools": model_wire(self.server_tools),
                "serverResources": model_wire(self.server_resources),
                "logging": copied(self.logging),
                "sandbox": model_wire(self.sandbox),
                "downloadFile": copied(self.download_file),
                "updateModelContext": model_wire(self.update_model_context),
                "message": model_wire(self.message),
                "sampling": model_wire(self.sampling),
            },
            self.extra,
        )

    def declares(self, key: str) -> bool:
        """True when the capability named by the wire key (dotted for a sub-key, as `serverTools.listChanged`)
        is declared: present as an object, or `true` as a flag.
        """
        return _declares(self.to_wire(), key)


@dataclass(frozen=True, slots=True)
class AppCapabilities:
    """`appCapabilities` of `ui/initialize`: what the view offers the host."""

    experimental: WireJSON | None = None
    tools: ListChangedCapability | None = None
    """Draft/npm: the view provides tools the host may list and call."""
    available_display_modes: tuple[str, ...] | None = None
    """Every display mode the view supports; the host must not switch to another."""
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "appCapabilities") -> AppCapabilities:
        """Read an app capabilities object."""
        fields = FieldReader(data, where)
        return cls(
            experimental=fields.opt_object("experimental"),
            tools=fields.opt_child("tools", ListChangedCapability.from_wire),
            available_display_modes=fields.opt_text_list("availableDisplayModes"),
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object(
            {
                "experimental": copied(self.experimental),
                "tools": model_wire(self.tools),
                "availableDisplayModes": text_list(self.available_display_modes),
            },
            self.extra,
        )

    def declares(self, key: str) -> bool:
        """True when the (dotted) capability key is declared, as for `HostCapabilities.declares`."""
        return _declares(self.to_wire(), key)


@dataclass(frozen=True, slots=True)
class UiInitializeParams:
    """`ui/initialize` params: the view introduces itself and names the protocol version it speaks."""

    app_info: Implementation
    app_capabilities: AppCapabilities
    protocol_version: str
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "params") -> UiInitializeParams:
        """Read `{appInfo, appCapabilities, protocolVersion}` (all three required)."""
        fields = FieldReader(data, where)
        return cls(
            app_info=fields.child("appInfo", Implementation.from_wire),
            app_capabilities=fields.child("appCapabilities", AppCapabilities.from_wire),
            protocol_version=fields.text("protocolVersion"),
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object(
            {
                "appInfo": self.app_info.to_wire(),
                "appCapabilities": self.app_capabilities.to_wire(),
                "protocolVersion": self.protocol_version,
            },
            self.extra,
        )


@dataclass(frozen=True, slots=True)
class UiInitializeResult:
    """The `ui/initialize` result: the negotiated version, the host's info, capabilities and context."""

    protocol_version: str
    host_info: Implementation
    host_capabilities: HostCapabilities
    host_context: HostContext
    extra: WireJSON = field(default_factory=no_extra)

    @classmethod
    def from_wire(cls, data: object, where: str = "result") -> UiInitializeResult:
        """Read `{protocolVersion, hostInfo, hostCapabilities, hostContext}` (all four required)."""
        fields = FieldReader(data, where)
        return cls(
            protocol_version=fields.text("protocolVersion"),
            host_info=fields.child("hostInfo", Implementation.from_wire),
            host_capabilities=fields.child("hostCapabilities", HostCapabilities.from_wire),
            host_context=fields.child("hostContext", HostContext.from_wire),
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """The JSON object."""
        return wire_object(
            {
                "protocolVersion": self.protocol_version,
                "hostInfo": self.host_info.to_wire(),
                "hostCapabilities": self.host_capabilities.to_wire(),
                "hostContext": self.host_context.to_wire(),
            },
            self.extra,
        )


__all__ = [
    "AppCapabilities",
    "ContentModalities",
    "HostCapabilities",
    "Implementation",
    "ListChangedCapability",
    "SamplingCapability",
    "SandboxCapability",
    "UiInitializeParams",
    "UiInitializeResult",
]
