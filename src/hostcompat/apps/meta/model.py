"""The typed `_meta.ui` of tools and resources (frozen dataclasses) and their strict wire codec.

Kept free of pydantic and the SDK so that reading metadata costs only a few imports.
`from_wire` rejects wrong types with `InvalidUIMeta`; `to_wire` writes camelCase JSON with only the set fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.apps.constants import DEFAULT_VISIBILITY
from hostcompat.apps.meta.codec import (
    as_bool,
    as_opt_str_tuple,
    as_str,
    as_str_tuple,
    check_instance,
    expect_mapping,
    freeze_extra,
    no_extra,
    put_bool,
    put_list,
    put_opt_list,
    put_str,
    set_field,
    type_name,
    unknown_keys,
    with_extra,
)
from hostcompat.apps.meta.sandbox import CSPPolicy, ResourceCSP, ResourcePermissions
from hostcompat.errors import InvalidUIMeta
from hostcompat.wire_json import WireJSON, WireObject

TOOL_UI_FIELDS: Final = ("resourceUri", "visibility", "allowedTools", "fallback")
"""The `_meta.ui` keys `ToolUI` models on a tool; every other key is kept in `ToolUI.extra`."""

RESOURCE_UI_FIELDS: Final = (
    "csp",
    "permissions",
    "domain",
    "prefersBorder",
    "linkTrustedDomains",
    "allowedTools",
    "allowedToolBundles",
    "contentHash",
    "protocolVersion",
    "rendererUrl",
    "sandbox",
    "cspPolicy",
    "fallback",
)
"""The `_meta.ui` keys `ResourceUI` models on a resource; every other key is kept in `ResourceUI.extra`."""


@dataclass(frozen=True)
class ToolUI:
    """A tool's `_meta.ui` (`McpUiToolMeta`, plus viant's `allowedTools` and `fallback`).

    `visibility=None` means the key is omitted (hosts then use `DEFAULT_VISIBILITY`); `()` is the explicit empty list,
    which allows neither the model nor the app, and is written back as `[]`. An empty string counts as unset.
    """

    resource_uri: str | None = None
    """The `ui://` resource that renders this tool's results (`resourceUri`)."""
    visibility: tuple[str, ...] | None = None
    """Who may use the tool: `"model"`, `"app"`; `None` = omitted, `()` = nobody."""
    allowed_tools: tuple[str, ...] = ()
    """viant: a discovery mirror of the resource's tool allowlist (`allowedTools`)."""
    fallback: str | None = None
    """viant: `"embedded"` opts the tool in to the embedded-resource fallback."""
    extra: WireJSON = field(default_factory=no_extra, hash=False)
    """Unknown `_meta.ui` subkeys, kept verbatim (read-only)."""

    def __post_init__(self) -> None:
        set_field(self, "resource_uri", as_str(self.resource_uri, "ToolUI.resource_uri"))
        set_field(self, "visibility", as_opt_str_tuple(self.visibility, "ToolUI.visibility"))
        set_field(self, "allowed_tools", as_str_tuple(self.allowed_tools, "ToolUI.allowed_tools"))
        set_field(self, "fallback", as_str(self.fallback, "ToolUI.fallback"))
        set_field(self, "extra", freeze_extra(self.extra, TOOL_UI_FIELDS, "ToolUI.extra"))

    @property
    def effective_visibility(self) -> tuple[str, ...]:
        """The visibility hosts apply: the given list, or `DEFAULT_VISIBILITY` when omitted."""
        return DEFAULT_VISIBILITY if self.visibility is None else self.visibility

    @classmethod
    def from_wire(cls, raw: object, where: str = "_meta.ui") -> ToolUI:
        """Parse a tool's `_meta.ui` object strictly (a non-list `visibility` is an error, not deny-all)."""
        wire = expect_mapping(raw, where)
        return cls(
            resource_uri=as_str(wire.get("resourceUri"), f"{where}.resourceUri"),
            visibility=as_opt_str_tuple(wire.get("visibility"), f"{where}.visibility"),
            allowed_tools=as_opt_str_tuple(wire.get("allowedTools"), f"{where}.allowedTools") or (),
            fallback=as_str(wire.get("fallback"), f"{where}.fallback"),
            extra=MappingProxyType(unknown_keys(wire, TOOL_UI_FIELDS, where)),
        )

    def to_wire(self) -> WireObject:
        """The camelCase `_meta.ui` object: set fields only, but `visibility=()` is written as `[]`."""
        out: dict[str, Any] = {}
        put_str(out, "resourceUri", self.resource_uri)
        put_opt_list(out, "visibility", self.visibility)
        put_list(out, "allowedTools", self.allowed_tools)
        put_str(out, "fallback", self.fallback)
        return with_extra(self.extra, out)


@dataclass(frozen=True)
class ResourceUI:
    """A resource's `_meta.ui` (`McpUiResourceMeta`, plus viant's keys), on a listing entry or a content item.

    The wire key `csp` is an object officially and a raw CSP string in viant's legacy form: the object reads into
    `csp`, the string into `legacy_csp`; when both are set, `to_wire` writes the object. Nested objects (`csp`,
    `permissions`, `cspPolicy`) are written whenever they are not `None`, as `{}` when empty. `prefers_border=False`
    and `link_trusted_domains=()` are written (`false`, `[]`); other empty fields are left out.
    """

    csp: ResourceCSP | None = None
    """The official CSP object (`csp` as an object)."""
    permissions: ResourcePermissions | None = None
    domain: str | None = None
    """A dedicated sandbox origin; the format is host-specific."""
    prefers_border: bool | None = None
    """`True` = border and background, `False` = none, `None` = the host decides (`prefersBorder`)."""
    link_trusted_domains: tuple[str, ...] | None = None
    """Origins `ui/open-link` may open without confirmation (`linkTrustedDomains`, documentation-only key)."""
    allowed_tools: tuple[str, ...] = ()
    """viant: the authoritative allowlist of tools the view may call."""
    allowed_tool_bundles: tuple[str, ...] = ()
    """viant: bundle ids the host must use for those calls."""
    content_hash: str | None = None
    """viant: `sha256:` + lowercase hex of the HTML's UTF-8 bytes."""
    protocol_version: str | None = None
    """viant: the viant/mcp-ui version that produced the resource."""
    renderer_url: str | None = None
    """viant: a same-origin renderer page the host may load instead of srcdoc (`rendererUrl`)."""
    sandbox: str | None = None
    """viant: an iframe `sandbox` attribute override; `None` = the host default."""
    legacy_csp: str | None = None
    """viant legacy: a raw srcdoc CSP string under the same `csp` key; the `csp` object wins on write."""
    csp_policy: CSPPolicy | None = None
    """viant: the structured CSP relaxation (`cspPolicy`)."""
    fallback: str | None = None
    """viant: `"embedded"` opts the resource in to the embedded-resource fallback."""
    extra: WireJSON = field(default_factory=no_extra, hash=False)
    """Unknown `_meta.ui` subkeys, kept verbatim (read-only)."""

    def __post_init__(self) -> None:
        check_instance(self.csp, ResourceCSP, "ResourceUI.csp")
        check_instance(self.permissions, ResourcePermissions, "ResourceUI.permissions")
        check_instance(self.csp_policy, CSPPolicy, "ResourceUI.csp_policy")
        set_field(self, "prefers_border", as_bool(self.prefers_border, "ResourceUI.prefers_border"))
        set_field(
            self,
            "link_trusted_domains",
            as_opt_str_tuple(self.link_trusted_domains, "ResourceUI.link_trusted_domains"),
        )
        for name in ("allowed_tools", "allowed_tool_bundles"):
            set_field(self, name, as_str_tuple(getattr(self, name), f"ResourceUI.{name}"))
        for name in ("domain", "content_hash", "protocol_version", "renderer_url", "sandbox", "legacy_csp", "fallback"):
            set_field(self, name, as_str(getattr(self, name), f"ResourceUI.{name}"))
        set_field(self, "extra", freeze_extra(self.extra, RESOURCE_UI_FIELDS, "ResourceUI.extra"))

    @classmethod
    def from_wire(cls, raw: object, where: str = "_meta.ui") -> ResourceUI:
        """Parse a resource's `_meta.ui` object strictly; `csp` may be an object or a legacy string."""
        wire = expect_mapping(raw, where)
        csp_raw = wire.get("csp")
        csp: ResourceCSP | None = None
        legacy_csp: str | None = None
        if isinstance(csp_raw, str):
            legacy_csp = csp_raw
        elif csp_raw is not None:
            if not isinstance(csp_raw, Mapping):
                raise InvalidUIMeta(
                    f"{where}.csp must be an object (or a legacy CSP string), got {type_name(csp_raw)}",
                    value=csp_raw,
                )
            csp = ResourceCSP.from_wire(csp_raw, f"{where}.csp")
        permissions_raw = wire.get("permissions")
        policy_raw = wire.get("cspPolicy")

        def text(key: str) -> str | None:
            return as_str(wire.get(key), f"{where}.{key}")

        def names(key: str) -> tuple[str, ...]:
            return as_opt_str_tuple(wire.get(key), f"{where}.{key}") or ()

        return cls(
            csp=csp,
            permissions=None
            if permissions_raw is None
            else ResourcePermissions.from_wire(permissions_raw, f"{where}.permissions"),
            domain=text("domain"),
            prefers_border=as_bool(wire.get("prefersBorder"), f"{where}.prefersBorder"),
            link_trusted_domains=as_opt_str_tuple(wire.get("linkTrustedDomains"), f"{where}.linkTrustedDomains"),
            allowed_tools=names("allowedTools"),
            allowed_tool_bundles=names("allowedToolBundles"),
            content_hash=text("contentHash"),
            protocol_version=text("protocolVersion"),
            renderer_url=text("rendererUrl"),
            sandbox=text("sandbox"),
            legacy_csp=legacy_csp,
            csp_policy=None if policy_raw is None else CSPPolicy.from_wire(policy_raw, f"{where}.cspPolicy"),
            fallback=text("fallback"),
            extra=MappingProxyType(unknown_keys(wire, RESOURCE_UI_FIELDS, where)),
        )

    def to_wire(self) -> WireObject:
        """The camelCase `_meta.ui` object (see the class docstring for which empty values are kept)."""
        out: dict[str, Any] = {}
        if self.csp is not None:
            out["csp"] = self.csp.to_wire()
        else:
            put_str(out, "csp", self.legacy_csp)
        if self.permissions is not None:
            out["permissions"] = self.permissions.to_wire()
        put_str(out, "domain", self.domain)
        put_bool(out, "prefersBorder", self.prefers_border)
        put_opt_list(out, "linkTrustedDomains", self.link_trusted_domains)
        put_list(out, "allowedTools", self.allowed_tools)
        put_list(out, "allowedToolBundles", self.allowed_tool_bundles)
        put_str(out, "contentHash", self.content_hash)
        put_str(out, "protocolVersion", self.protocol_version)
        put_str(out, "rendererUrl", self.renderer_url)
        put_str(out, "sandbox", self.sandbox)
        if self.csp_policy is not None:
            out["cspPolicy"] = self.csp_policy.to_wire()
        put_str(out, "fallback", self.fallback)
        return with_extra(self.extra, out)


__all__ = [
    "RESOURCE_UI_FIELDS",
    "ResourceUI",
    "TOOL_UI_FIELDS",
    "ToolUI",
]
