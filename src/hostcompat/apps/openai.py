"""Map OpenAI Apps SDK `openai/*` `_meta` keys to and from MCP Apps `_meta.ui`, so one declaration serves both.

ChatGPT's Apps SDK reads `openai/outputTemplate`, `openai/widgetCSP` and friends; MCP Apps hosts read `_meta.ui`.
The mapping follows the ext-apps migration guide. Keys with no counterpart are kept and reported, never dropped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar, overload

from hostcompat.apps._meta_holder import SupportsModelCopy, copied_meta, read_meta, replace_meta
from hostcompat.apps.constants import OPENAI_WIDGET_MIME_TYPE, RESOURCE_MIME_TYPE, UI_URI_PREFIX
from hostcompat.apps.meta import (
    ResourceCSP,
    ResourceUI,
    ToolUI,
    get_resource_ui,
    get_tool_ui,
    set_tool_ui,
)
from hostcompat.apps.uri import validate_ui_uri
from hostcompat.errors import InvalidOpenAIMeta, InvalidUIMeta

OPENAI_OUTPUT_TEMPLATE: Final = "openai/outputTemplate"
"""Tool: the widget template's resource URI (`_meta.ui.resourceUri`)."""
OPENAI_WIDGET_ACCESSIBLE: Final = "openai/widgetAccessible"
"""Tool: the widget may call this tool (`"app"` in `_meta.ui.visibility`); OpenAI's default is false."""
OPENAI_VISIBILITY: Final = "openai/visibility"
"""Tool: `"public"` (the default) or `"private"` (`"model"` in `_meta.ui.visibility` or not)."""
OPENAI_INVOKING: Final = "openai/toolInvocation/invoking"
"""Tool: status text while the tool runs; MCP Apps has no equivalent."""
OPENAI_INVOKED: Final = "openai/toolInvocation/invoked"
"""Tool: status text once the tool is done; MCP Apps has no equivalent."""
OPENAI_FILE_PARAMS: Final = "openai/fileParams"
"""Tool: input fields that carry files; MCP Apps has no equivalent."""
OPENAI_WIDGET_CSP: Final = "openai/widgetCSP"
"""Resource: `{connect_domains, resource_domains, frame_domains?, redirect_domains?}` (`_meta.ui.csp`)."""
OPENAI_WIDGET_DOMAIN: Final = "openai/widgetDomain"
"""Resource: the widget's dedicated origin (`_meta.ui.domain`)."""
OPENAI_WIDGET_PREFERS_BORDER: Final = "openai/widgetPrefersBorder"
"""Resource: draw a border (`_meta.ui.prefersBorder`)."""
OPENAI_WIDGET_DESCRIPTION: Final = "openai/widgetDescription"
"""Resource: a description for the model; MCP Apps has none (a view uses `ui/update-model-context`)."""

_PREFIX = "openai/"
_MAX_DOMAINS = 1024
_CSP_LISTS: Final = (
    ("connect_domains", "connectDomains"),
    ("resource_domains", "resourceDomains"),
    ("frame_domains", "frameDomains"),
)
_REDIRECT = "redirect_domains"
_TOOL_KEYS: Final = (OPENAI_OUTPUT_TEMPLATE, OPENAI_WIDGET_ACCESSIBLE, OPENAI_VISIBILITY)
_RESOURCE_KEYS: Final = (OPENAI_WIDGET_CSP, OPENAI_WIDGET_DOMAIN, OPENAI_WIDGET_PREFERS_BORDER)
_NO_EQUIVALENT: Final = {
    OPENAI_INVOKING: "tool status text; MCP Apps has no equivalent yet",
    OPENAI_INVOKED: "tool status text; MCP Apps has no equivalent yet",
    OPENAI_WIDGET_DESCRIPTION: "no equivalent; a view can send ui/update-model-context instead",
    OPENAI_FILE_PARAMS: "file parameters; MCP Apps has no equivalent",
}

_HolderT = TypeVar("_HolderT", bound=SupportsModelCopy)


@dataclass(frozen=True)
class OpenAIConflict:
    """An `openai/*` key (or `openai/widgetCSP` entry) that disagrees with what `_meta.ui` declares."""

    openai_key: str
    ui_key: str
    message: str
    openai_value: Any = field(hash=False)
    ui_value: Any = field(hash=False)


@dataclass(frozen=True)
class Untranslated:
    """A key present on one side that the other side cannot express; it is kept where it is."""

    key: str
    reason: str
    value: Any = field(hash=False)


# --- tools ---------------------------------------------------------------------------------------------


def tool_ui_from_openai(meta: Mapping[str, Any] | None) -> ToolUI | None:
    """The `ToolUI` that a tool's `openai/*` keys declare, or None when it has none of the three tool keys.

    OpenAI's defaults apply: a missing `openai/widgetAccessible` means false (no `"app"`), a missing
    `openai/visibility` means public (`"model"`), so the visibility is always explicit.
    Raises `InvalidOpenAIMeta` for a wrong-typed key or an output template that is not a `ui://` URI.
    """
    values = _expect_meta(meta)
    template = _text(values, OPENAI_OUTPUT_TEMPLATE)
    accessible = _flag(values, OPENAI_WIDGET_ACCESSIBLE)
    visibility = _visibility(values)
    if template is None and accessible is None and visibility is None:
        return None
    if template is not None and not template.startswith(UI_URI_PREFIX):
        message = f"{OPENAI_OUTPUT_TEMPLATE} must start with {UI_URI_PREFIX!r} to become _meta.ui.resourceUri"
        raise InvalidOpenAIMeta(message, value=template)
    audiences = (("model", visibility != "private"), ("app", accessible is True))
    return ToolUI(resource_uri=template, visibility=tuple(name for name, on in audiences if on))


def tool_openai_from_ui(ui: ToolUI) -> dict[str, Any]:
    """The `openai/*` tool keys equivalent to `ui` (a new dict).

    `openai/widgetAccessible` and `openai/visibility` are always written, from the visibility hosts apply
    (an omitted one means `["model", "app"]`), because the two SDKs default differently.
    """
    if not isinstance(ui, ToolUI):
        raise InvalidUIMeta("tool_openai_from_ui needs a ToolUI", value=ui)
    out: dict[str, Any] = {}
    if ui.resource_uri is not None:
        out[OPENAI_OUTPUT_TEMPLATE] = ui.resource_uri
    out[OPENAI_WIDGET_ACCESSIBLE] = "app" in ui.effective_visibility
    out[OPENAI_VISIBILITY] = "public" if "model" in ui.effective_visibility else "private"
    return out


def dual_tool_meta(
    resource_uri: str, *, visibility: Sequence[str] | None = None, write_flat_key: bool = True
) -> dict[str, Any]:
    """A tool `_meta` that both bridges read: `_meta.ui` (and the flat `ui/resourceUri`) plus the `openai/*` keys.

    `visibility` None leaves `_meta.ui.visibility` out (hosts apply `["model", "app"]`). Raises `InvalidUIURI`
    for a bad URI and `InvalidUIMeta` for an audience other than `"model"`/`"app"`.
    """
    validate_ui_uri(resource_uri)
    audiences = None if visibility is None else tuple(visibility)
    if audiences is not None and not set(audiences) <= {"model", "app"}:
        raise InvalidUIMeta("visibility may only hold 'model' and 'app'", value=visibility)
    ui = ToolUI(resource_uri=resource_uri, visibility=audiences)
    return {**set_tool_ui({}, ui, write_flat_key=write_flat_key)["_meta"], **tool_openai_from_ui(ui)}


# --- resources -----------------------------------------------------------------------------------------


def resource_ui_from_openai(meta: Mapping[str, Any] | None) -> ResourceUI | None:
    """The `ResourceUI` that a resource's `openai/*` keys declare, or None when it has none of them.

    `openai/widgetCSP` gives `csp` (and `redirect_domains` gives `linkTrustedDomains`), `openai/widgetDomain`
    gives `domain`, `openai/widgetPrefersBorder` gives `prefersBorder`. Raises `InvalidOpenAIMeta` for a
    wrong-typed key.
    """
    values = _expect_meta(meta)
    csp = _widget_csp(values)
    domain = _text(values, OPENAI_WIDGET_DOMAIN)
    border = _flag(values, OPENAI_WIDGET_PREFERS_BORDER)
    if csp is None and domain is None and border is None:
        return None
    official = None
    if csp is not None:
        official = ResourceCSP(
            connect_domains=csp.get("connect_domains", ()),
            resource_domains=csp.get("resource_domains", ()),
            frame_domains=csp.get("frame_domains", ()),
        )
    return ResourceUI(
        csp=official,
        link_trusted_domains=None if csp is None else csp.get(_REDIRECT),
        domain=domain,
        prefers_border=border,
    )


def resource_openai_from_ui(ui: ResourceUI) -> dict[str, Any]:
    """The `openai/*` resource keys equivalent to `ui` (a new dict).

    `openai/widgetCSP` is written when `ui` has a `csp` or `linkTrustedDomains`, always with `connect_domains`
    and `resource_domains`. `baseUriDomains`, `wasmUnsafeEval` and `permissions` have no OpenAI key
    (see `untranslated_ui_keys`).
    """
    if not isinstance(ui, ResourceUI):
        raise InvalidUIMeta("resource_openai_from_ui needs a ResourceUI", value=ui)
    out: dict[str, Any] = {}
    if ui.csp is not None or ui.link_trusted_domains is not None:
        csp = ui.csp or ResourceCSP()
        widget: dict[str, Any] = {"connect_domains": list(csp.connect_domains)}
        widget["resource_domains"] = list(csp.resource_domains)
        if csp.frame_domains:
            widget["frame_domains"] = list(csp.frame_domains)
        if ui.link_trusted_domains is not None:
            widget[_REDIRECT] = list(ui.link_trusted_domains)
        out[OPENAI_WIDGET_CSP] = widget
    if ui.domain is not None:
        out[OPENAI_WIDGET_DOMAIN] = ui.domain
    if ui.prefers_border is not None:
        out[OPENAI_WIDGET_PREFERS_BORDER] = ui.prefers_border
    return out


def mime_type_for_openai(mime_type: str) -> str:
    """`text/html+skybridge` for the MCP App MIME type (or itself); anything else is `InvalidOpenAIMeta`."""
    if mime_type in (RESOURCE_MIME_TYPE, OPENAI_WIDGET_MIME_TYPE):
        return OPENAI_WIDGET_MIME_TYPE
    raise InvalidOpenAIMeta(f"only {RESOURCE_MIME_TYPE!r} has an OpenAI widget MIME type", value=mime_type)


def mime_type_for_mcp(mime_type: str) -> str:
    """`text/html;profile=mcp-app` for the OpenAI widget MIME type (or itself); else `InvalidOpenAIMeta`."""
    if mime_type in (RESOURCE_MIME_TYPE, OPENAI_WIDGET_MIME_TYPE):
        return RESOURCE_MIME_TYPE
    raise InvalidOpenAIMeta(f"only {OPENAI_WIDGET_MIME_TYPE!r} has an MCP App MIME type", value=mime_type)


# --- holders -------------------------------------------------------------------------------------------


@overload
def with_openai_tool_meta(tool: Mapping[str, Any]) -> dict[str, Any]: ...
@overload
def with_openai_tool_meta(tool: _HolderT) -> _HolderT: ...
def with_openai_tool_meta(tool: Any) -> Any:
    """A copy of `tool` whose `_meta` also carries the `openai/*` keys its `_meta.ui` implies.

    An `openai/*` key already present is never overwritten, even when it disagrees: `openai_conflicts` of the
    result lists exactly those. A tool without `_meta.ui` comes back unchanged (as a copy).
    Raises `InvalidOpenAIMeta` for a wrong-typed `openai/*` key and `InvalidUIMeta` for a malformed `_meta.ui`.
    """
    ui = get_tool_ui(tool)
    return _with_added(tool, "tool", {} if ui is None else tool_openai_from_ui(ui))


@overload
def with_openai_resource_meta(resource: Mapping[str, Any]) -> dict[str, Any]: ...
@overload
def with_openai_resource_meta(resource: _HolderT) -> _HolderT: ...
def with_openai_resource_meta(resource: Any) -> Any:
    """A copy of `resource` whose `_meta` also carries the `openai/*` keys its `_meta.ui` implies.

    Present keys win, as in `with_openai_tool_meta`; missing `openai/widgetCSP` entries are filled in one by
    one. The `mimeType` is left alone (see `mime_type_for_openai`).
    """
    ui = get_resource_ui(resource)
    return _with_added(resource, "resource", {} if ui is None else resource_openai_from_ui(ui))


# --- reports -------------------------------------------------------------------------------------------


def openai_conflicts(meta: Mapping[str, Any] | None) -> list[OpenAIConflict]:
    """Where the `openai/*` keys and `_meta.ui` of one `_meta` disagree.

    Each present `openai/*` key is compared with the value MCP Apps hosts apply (defaults included) whenever
    `_meta.ui` exists; an absent `openai/*` key is no conflict (`with_openai_*_meta` fills it in). Domain lists
    compare as sets. `domain` and `prefersBorder` compare only when both sides set them.
    Raises `InvalidOpenAIMeta` for a wrong-typed `openai/*` key and `InvalidUIMeta` for a malformed `_meta.ui`.
    """
    values = _expect_meta(meta)
    if not values:
        return []
    conflicts: list[OpenAIConflict] = []
    holder = {"_meta": values}
    if any(key in values for key in _TOOL_KEYS):
        tool_ui = get_tool_ui(holder)
        if tool_ui is not None:
            conflicts += _tool_conflicts(values, tool_ui)
    if any(key in values for key in _RESOURCE_KEYS):
        resource_ui = get_resource_ui(holder)
        if resource_ui is not None:
            conflicts += _resource_conflicts(values, resource_ui)
    return conflicts


def untranslated_openai_keys(meta: Mapping[str, Any] | None) -> list[Untranslated]:
    """The `openai/*` keys (and `openai/widgetCSP` entries) of `meta` that have no MCP Apps equivalent."""
    values = _expect_meta(meta) or {}
    _check_openai_keys(values)
    known_csp = {name for name, _ in _CSP_LISTS} | {_REDIRECT}
    notes: list[Untranslated] = []
    for key, value in values.items():
        if not isinstance(key, str) or not key.startswith(_PREFIX) or value is None:
            continue
        if key == OPENAI_FILE_PARAMS:
            notes.append(Untranslated(key, _NO_EQUIVALENT[key], list(_domains(value, f"_meta[{key!r}]"))))
        elif key in _NO_EQUIVALENT:
            notes.append(Untranslated(key, _NO_EQUIVALENT[key], _text(values, key)))
        elif key == OPENAI_WIDGET_CSP:
            unknown = [(name, item) for name, item in value.items() if name not in known_csp]
            notes += [
                Untranslated(f"{key}.{name}", "unknown widgetCSP entry; not mapped", item) for name, item in unknown
            ]
        elif key not in _TOOL_KEYS and key not in _RESOURCE_KEYS:
            notes.append(Untranslated(key, "unknown OpenAI key; not mapped", value))
    return notes


def untranslated_ui_keys(ui: ToolUI | ResourceUI) -> list[Untranslated]:
    """The official `_meta.ui` fields of `ui` that no `openai/*` key can express."""
    if isinstance(ui, ToolUI):
        others = [name for name in ui.visibility or () if name not in ("model", "app")]
        return [Untranslated("ui.visibility", "audiences other than model/app", others)] if others else []
    if not isinstance(ui, ResourceUI):
        raise InvalidUIMeta("untranslated_ui_keys needs a ToolUI or a ResourceUI", value=ui)
    notes: list[Untranslated] = []
    if ui.csp is not None and ui.csp.base_uri_domains:
        notes.append(Untranslated("ui.csp.baseUriDomains", "MCP-only", list(ui.csp.base_uri_domains)))
    if ui.csp is not None and ui.csp.wasm_unsafe_eval is not None:
        notes.append(Untranslated("ui.csp.wasmUnsafeEval", "MCP-only", ui.csp.wasm_unsafe_eval))
    if ui.permissions is not None:
        notes.append(Untranslated("ui.permissions", "MCP-only", ui.permissions.to_wire()))
    return notes


# --- private -------------------------------------------------------------------------------------------


def _expect_meta(meta: object) -> Mapping[str, Any] | None:
    if meta is None:
        return None
    if not isinstance(meta, Mapping):
        raise InvalidOpenAIMeta("_meta must be an object", value=meta)
    if "_meta" in meta:
        raise InvalidOpenAIMeta("pass the `_meta` object, not the tool or resource holding it", value=meta)
    return meta


def _text(meta: Mapping[str, Any] | None, key: str) -> str | None:
    value = None if meta is None else meta.get(key)
    if value is not None and not isinstance(value, str):
        raise InvalidOpenAIMeta(f"_meta[{key!r}] must be a string", value=value)
    return value


def _flag(meta: Mapping[str, Any] | None, key: str) -> bool | None:
    value = None if meta is None else meta.get(key)
    if value is not None and not isinstance(value, bool):
        raise InvalidOpenAIMeta(f"_meta[{key!r}] must be a boolean", value=value)
    return value


def _visibility(meta: Mapping[str, Any] | None) -> str | None:
    value = _text(meta, OPENAI_VISIBILITY)
    if value is not None and value not in ("public", "private"):
        raise InvalidOpenAIMeta(f"_meta[{OPENAI_VISIBILITY!r}] must be 'public' or 'private'", value=value)
    return value


def _domains(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or len(value) > _MAX_DOMAINS:
        raise InvalidOpenAIMeta(f"{where} must be a list of at most {_MAX_DOMAINS} strings", value=value)
    for item in value:
        if not isinstance(item, str):
            raise InvalidOpenAIMeta(f"{where} must hold only strings", value=item)
    return tuple(value)


def _widget_csp(meta: Mapping[str, Any] | None) -> dict[str, tuple[str, ...]] | None:
    """The known `openai/widgetCSP` lists that are present, checked; None when the key is absent."""
    raw = None if meta is None else meta.get(OPENAI_WIDGET_CSP)
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise InvalidOpenAIMeta(f"_meta[{OPENAI_WIDGET_CSP!r}] must be an object", value=raw)
    names = [name for name, _ in _CSP_LISTS] + [_REDIRECT]
    where = f"_meta[{OPENAI_WIDGET_CSP!r}]"
    return {name: _domains(raw[name], f"{where}.{name}") for name in names if raw.get(name) is not None}


def _check_openai_keys(meta: Mapping[str, Any]) -> None:
    """Type-check every mapped `openai/*` key present (the `ui://` rule applies only when converting)."""
    _text(meta, OPENAI_OUTPUT_TEMPLATE)
    _flag(meta, OPENAI_WIDGET_ACCESSIBLE)
    _visibility(meta)
    _widget_csp(meta)
    _text(meta, OPENAI_WIDGET_DOMAIN)
    _flag(meta, OPENAI_WIDGET_PREFERS_BORDER)


def _with_added(holder: Any, what: str, generated: dict[str, Any]) -> Any:
    """`holder` with `generated` keys added to `_meta` where absent (a widgetCSP entry by entry)."""
    meta = copied_meta(holder, what)
    _check_openai_keys(meta)
    for key, value in generated.items():
        present = meta.get(key)
        if present is None:
            meta[key] = value
        elif key == OPENAI_WIDGET_CSP:
            meta[key] = {**value, **{name: item for name, item in present.items() if item is not None}}
    return replace_meta(holder, meta if meta or read_meta(holder, what) is not None else None, what)


def _conflict(openai_key: str, ui_key: str, openai_value: Any, ui_value: Any) -> OpenAIConflict:
    message = f"{openai_key} says {openai_value!r} but _meta.{ui_key} says {ui_value!r}"
    return OpenAIConflict(openai_key, ui_key, message, openai_value, ui_value)


def _tool_conflicts(meta: Mapping[str, Any], ui: ToolUI) -> list[OpenAIConflict]:
    conflicts: list[OpenAIConflict] = []
    template = _text(meta, OPENAI_OUTPUT_TEMPLATE)
    if template is not None and ui.resource_uri is not None and template != ui.resource_uri:
        conflicts.append(_conflict(OPENAI_OUTPUT_TEMPLATE, "ui.resourceUri", template, ui.resource_uri))
    effective = list(ui.effective_visibility)
    accessible = _flag(meta, OPENAI_WIDGET_ACCESSIBLE)
    if accessible is not None and accessible != ("app" in effective):
        conflicts.append(_conflict(OPENAI_WIDGET_ACCESSIBLE, "ui.visibility", accessible, effective))
    visibility = _visibility(meta)
    if visibility is not None and (visibility == "public") != ("model" in effective):
        conflicts.append(_conflict(OPENAI_VISIBILITY, "ui.visibility", visibility, effective))
    return conflicts


def _resource_conflicts(meta: Mapping[str, Any], ui: ResourceUI) -> list[OpenAIConflict]:
    conflicts: list[OpenAIConflict] = []
    csp = _widget_csp(meta)
    if csp is not None:
        official = ui.csp or ResourceCSP()
        pairs = [(name, f"ui.csp.{wire}", getattr(official, name)) for name, wire in _CSP_LISTS]
        pairs.append((_REDIRECT, "ui.linkTrustedDomains", ui.link_trusted_domains or ()))
        for name, ui_key, mcp_values in pairs:
            if name in csp and set(csp[name]) != set(mcp_values):
                conflicts.append(_conflict(f"{OPENAI_WIDGET_CSP}.{name}", ui_key, list(csp[name]), list(mcp_values)))
    domain = _text(meta, OPENAI_WIDGET_DOMAIN)
    if domain is not None and ui.domain is not None and domain != ui.domain:
        conflicts.append(_conflict(OPENAI_WIDGET_DOMAIN, "ui.domain", domain, ui.domain))
    border = _flag(meta, OPENAI_WIDGET_PREFERS_BORDER)
    if border is not None and ui.prefers_border is not None and border != ui.prefers_border:
        conflicts.append(_conflict(OPENAI_WIDGET_PREFERS_BORDER, "ui.prefersBorder", border, ui.prefers_border))
    return conflicts


__all__ = [
    "OPENAI_FILE_PARAMS",
    "OPENAI_INVOKED",
    "OPENAI_INVOKING",
    "OPENAI_OUTPUT_TEMPLATE",
    "OPENAI_VISIBILITY",
    "OPENAI_WIDGET_ACCESSIBLE",
    "OPENAI_WIDGET_CSP",
    "OPENAI_WIDGET_DESCRIPTION",
    "OPENAI_WIDGET_DOMAIN",
    "OPENAI_WIDGET_PREFERS_BORDER",
    "OpenAIConflict",
    "Untranslated",
    "dual_tool_meta",
    "mime_type_for_mcp",
    "mime_type_for_openai",
    "openai_conflicts",
    "resource_openai_from_ui",
    "resource_ui_from_openai",
    "tool_openai_from_ui",
    "tool_ui_from_openai",
    "untranslated_openai_keys",
    "untranslated_ui_keys",
    "with_openai_resource_meta",
    "with_openai_tool_meta",
]
