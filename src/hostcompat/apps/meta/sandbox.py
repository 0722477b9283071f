"""The sandbox parts of a resource's `_meta.ui`: the official CSP object, permissions and viant's CSP policy.

Frozen dataclasses with a strict `from_wire` (wrong types raise `InvalidUIMeta`) and a camelCase `to_wire`.
"""

from __future__ import annotations

from dataclasses import field
from types import MappingProxyType
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.apps.meta.codec import (
    as_bool,
    as_opt_str_tuple,
    as_str_tuple,
    check_flag,
    expect_mapping,
    freeze_extra,
    no_extra,
    put_bool,
    put_list,
    set_field,
    unknown_keys,
    with_extra,
)
from hostcompat.wire_json import WireJSON, WireObject

CSP_FIELDS: Final = ("connectDomains", "resourceDomains", "frameDomains", "baseUriDomains", "wasmUnsafeEval")
"""The `csp` keys `ResourceCSP` models."""

PERMISSION_FIELDS: Final = ("camera", "microphone", "geolocation", "clipboardWrite")
"""The `permissions` keys `ResourcePermissions` models."""

CSP_POLICY_FIELDS: Final = ("scriptSrc", "styleSrc", "connectSrc", "imgSrc", "fontSrc", "scriptStrictDynamic")
"""The `cspPolicy` keys `CSPPolicy` models."""


@dataclass(frozen=True)
class ResourceCSP:
    """The official `_meta.ui.csp` object: origins the view needs (empty = none, the secure default).

    `to_wire` writes only non-empty lists. This differs from viant on purpose: viant always writes all four keys,
    empty ones as `[]`; both mean the same to a host.
    """

    connect_domains: tuple[str, ...] = ()
    """Origins for fetch/XHR/WebSocket (`connectDomains`)."""
    resource_domains: tuple[str, ...] = ()
    """Origins for scripts, styles, images, fonts and media (`resourceDomains`)."""
    frame_domains: tuple[str, ...] = ()
    """Origins for nested iframes (`frameDomains`)."""
    base_uri_domains: tuple[str, ...] = ()
    """Origins allowed as the document base URI (`baseUriDomains`)."""
    wasm_unsafe_eval: bool | None = None
    """Adds `'wasm-unsafe-eval'` to script-src; only one stable revision defines it (`wasmUnsafeEval`)."""
    extra: WireJSON = field(default_factory=no_extra, hash=False)
    """Unknown `csp` subkeys, kept verbatim (read-only)."""

    def __post_init__(self) -> None:
        set_field(self, "connect_domains", as_str_tuple(self.connect_domains, "ResourceCSP.connect_domains"))
        set_field(self, "resource_domains", as_str_tuple(self.resource_domains, "ResourceCSP.resource_domains"))
        set_field(self, "frame_domains", as_str_tuple(self.frame_domains, "ResourceCSP.frame_domains"))
        set_field(self, "base_uri_domains", as_str_tuple(self.base_uri_domains, "ResourceCSP.base_uri_domains"))
        set_field(self, "wasm_unsafe_eval", as_bool(self.wasm_unsafe_eval, "ResourceCSP.wasm_unsafe_eval"))
        set_field(self, "extra", freeze_extra(self.extra, CSP_FIELDS, "ResourceCSP.extra"))

    @classmethod
    def from_wire(cls, raw: object, where: str = "_meta.ui.csp") -> ResourceCSP:
        """Parse the official `csp` object strictly."""
        wire = expect_mapping(raw, where)
        return cls(
            connect_domains=as_opt_str_tuple(wire.get("connectDomains"), f"{where}.connectDomains") or (),
            resource_domains=as_opt_str_tuple(wire.get("resourceDomains"), f"{where}.resourceDomains") or (),
            frame_domains=as_opt_str_tuple(wire.get("frameDomains"), f"{where}.frameDomains") or (),
            base_uri_domains=as_opt_str_tuple(wire.get("baseUriDomains"), f"{where}.baseUriDomains") or (),
            wasm_unsafe_eval=as_bool(wire.get("wasmUnsafeEval"), f"{where}.wasmUnsafeEval"),
            extra=MappingProxyType(unknown_keys(wire, CSP_FIELDS, where)),
        )

    def to_wire(self) -> WireObject:
        """The camelCase `csp` object with only the non-empty lists (and `wasmUnsafeEval` when set)."""
        out: dict[str, Any] = {}
        put_list(out, "connectDomains", self.connect_domains)
        put_list(out, "resourceDomains", self.resource_domains)
        put_list(out, "frameDomains", self.frame_domains)
        put_list(out, "baseUriDomains", self.base_uri_domains)
        put_bool(out, "wasmUnsafeEval", self.wasm_unsafe_eval)
        return with_extra(self.extra, out)


@dataclass(frozen=True)
class ResourcePermissions:
    """`_meta.ui.permissions`: browser features the view asks for (a request; hosts may refuse).

    On the wire each requested feature is an empty object, e.g. `{"camera": {}, "clipboardWrite": {}}`. Any object
    is accepted as a request; its contents are not kept. A present non-object value is an error.
    """

    camera: bool = False
    microphone: bool = False
    geolocation: bool = False
    clipboard_write: bool = False
    """Asks for `clipboard-write` (`clipboardWrite`)."""
    extra: WireJSON = field(default_factory=no_extra, hash=False)
    """Unknown permission keys, kept verbatim (read-only)."""

    def __post_init__(self) -> None:
        for name in ("camera", "microphone", "geolocation", "clipboard_write"):
            check_flag(getattr(self, name), f"ResourcePermissions.{name}")
        set_field(self, "extra", freeze_extra(self.extra, PERMISSION_FIELDS, "ResourcePermissions.extra"))

    @classmethod
    def from_wire(cls, raw: object, where: str = "_meta.ui.permissions") -> ResourcePermissions:
        """Parse the `permissions` object strictly: each present feature must be an object."""
        wire = expect_mapping(raw, where)

        def requested(key: str) -> bool:
            value = wire.get(key)
            if value is None:
                return False
            expect_mapping(value, f"{where}.{key}")
            return True

        return cls(
            camera=requested("camera"),
            microphone=requested("microphone"),
            geolocation=requested("geolocation"),
            clipboard_write=requested("clipboardWrite"),
            extra=MappingProxyType(unknown_keys(wire, PERMISSION_FIELDS, where)),
        )

    def to_wire(self) -> WireObject:
        """`{"camera": {}, ...}` for each requested feature; `{}` when none is."""
        flags = (
            ("camera", self.camera),
            ("microphone", self.microphone),
            ("geolocation", self.geolocation),
            ("clipboardWrite", self.clipboard_write),
        )
        return with_extra(self.extra, {key: {} for key, wanted in flags if wanted})


@dataclass(frozen=True)
class CSPPolicy:
    """viant's `_meta.ui.cspPolicy`: a structured CSP relaxation for hosts that render with srcdoc."""

    script_src: tuple[str, ...] = ()
    style_src: tuple[str, ...] = ()
    connect_src: tuple[str, ...] = ()
    img_src: tuple[str, ...] = ()
    font_src: tuple[str, ...] = ()
    script_strict_dynamic: bool = False
    """Adds `'strict-dynamic'` to script-src (`scriptStrictDynamic`)."""
    extra: WireJSON = field(default_factory=no_extra, hash=False)
    """Unknown `cspPolicy` subkeys, kept verbatim (read-only)."""

    def __post_init__(self) -> None:
        for name in ("script_src", "style_src", "connect_src", "img_src", "font_src"):
            set_field(self, name, as_str_tuple(getattr(self, name), f"CSPPolicy.{name}"))
        check_flag(self.script_strict_dynamic, "CSPPolicy.script_strict_dynamic")
        set_field(self, "extra", freeze_extra(self.extra, CSP_POLICY_FIELDS, "CSPPolicy.extra"))

    @classmethod
    def from_wire(cls, raw: object, where: str = "_meta.ui.cspPolicy") -> CSPPolicy:
        """Parse the `cspPolicy` object strictly."""
        wire = expect_mapping(raw, where)

        def sources(key: str) -> tuple[str, ...]:
            return as_opt_str_tuple(wire.get(key), f"{where}.{key}") or ()

        return cls(
            script_src=sources("scriptSrc"),
            style_src=sources("styleSrc"),
            connect_src=sources("connectSrc"),
            img_src=sources("imgSrc"),
            font_src=sources("fontSrc"),
            script_strict_dynamic=bool(as_bool(wire.get("scriptStrictDynamic"), f"{where}.scriptStrictDynamic")),
            extra=MappingProxyType(unknown_keys(wire, CSP_POLICY_FIELDS, where)),
        )

    def to_wire(self) -> WireObject:
        """The camelCase `cspPolicy` object: non-empty lists, and `scriptStrictDynamic` only when true."""
        out: dict[str, Any] = {}
        put_list(out, "scriptSrc", self.script_src)
        put_list(out, "styleSrc", self.style_src)
        put_list(out, "connectSrc", self.connect_src)
        put_list(out, "imgSrc", self.img_src)
        put_list(out, "fontSrc", self.font_src)
        if self.script_strict_dynamic:
            out["scriptStrictDynamic"] = True
        return with_extra(self.extra, out)


__all__ = [
    "CSP_FIELDS",
    "CSP_POLICY_FIELDS",
    "CSPPolicy",
    "PERMISSION_FIELDS",
    "ResourceCSP",
    "ResourcePermissions",
]
