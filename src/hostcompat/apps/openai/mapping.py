"""Map OpenAI Apps SDK `openai/*` `_meta` keys to and from MCP Apps `_meta.ui`, so one declaration serves both.

ChatGPT's Apps SDK reads `openai/outputTemplate`, `openai/widgetCSP` and friends; MCP Apps hosts read `_meta.ui`.
The mapping follows the ext-apps migration guide. Keys with no counterpart are kept and reported, never dropped:
the reports (`openai_conflicts`, `untranslated_*`) live in `openai_reports` and are re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, overload

from hostcompat.apps.constants import OPENAI_WIDGET_MIME_TYPE, RESOURCE_MIME_TYPE, UI_URI_PREFIX
from hostcompat.apps.meta.access import (
    ResourceCSP,
    ResourceUI,
    ToolUI,
    get_resource_ui,
    get_tool_ui,
    set_tool_ui,
)
from hostcompat.apps.meta.holder import SupportsModelCopy, copied_meta, read_meta, replace_meta
from hostcompat.apps.openai.keys import OPENAI_FILE_PARAMS as OPENAI_FILE_PARAMS
from hostcompat.apps.openai.keys import OPENAI_INVOKED as OPENAI_INVOKED
from hostcompat.apps.openai.keys import OPENAI_INVOKING as OPENAI_INVOKING
from hostcompat.apps.openai.keys import OPENAI_OUTPUT_TEMPLATE as OPENAI_OUTPUT_TEMPLATE
from hostcompat.apps.openai.keys import OPENAI_VISIBILITY as OPENAI_VISIBILITY
from hostcompat.apps.openai.keys import OPENAI_WIDGET_ACCESSIBLE as OPENAI_WIDGET_ACCESSIBLE
from hostcompat.apps.openai.keys import OPENAI_WIDGET_CSP as OPENAI_WIDGET_CSP
from hostcompat.apps.openai.keys import OPENAI_WIDGET_DESCRIPTION as OPENAI_WIDGET_DESCRIPTION
from hostcompat.apps.openai.keys import OPENAI_WIDGET_DOMAIN as OPENAI_WIDGET_DOMAIN
from hostcompat.apps.openai.keys import OPENAI_WIDGET_PREFERS_BORDER as OPENAI_WIDGET_PREFERS_BORDER
from hostcompat.apps.openai.keys import (
    REDIRECT,
    check_openai_keys,
    expect_meta,
    read_flag,
    read_text,
    read_visibility,
    read_widget_csp,
)
from hostcompat.apps.openai.reports import OpenAIConflict as OpenAIConflict
from hostcompat.apps.openai.reports import Untranslated as Untranslated
from hostcompat.apps.openai.reports import openai_conflicts as openai_conflicts
from hostcompat.apps.openai.reports import untranslated_openai_keys as untranslated_openai_keys
from hostcompat.apps.openai.reports import untranslated_ui_keys as untranslated_ui_keys
from hostcompat.apps.uri import validate_ui_uri
from hostcompat.errors import InvalidOpenAIMeta, InvalidUIMeta
from hostcompat.wire_json import WireJSON, WireObject

_HolderT = TypeVar("_HolderT", bound=SupportsModelCopy)


# --- tools ---------------------------------------------------------------------------------------------


def tool_ui_from_openai(meta: WireJSON | None) -> ToolUI | None:
    """The `ToolUI` that a tool's `openai/*` keys declare, or None when it has none of the three tool keys.

    OpenAI's defaults apply: a missing `openai/widgetAccessible` means false (no `"app"`), a missing
    `openai/visibility` means public (`"model"`), so the visibility is always explicit.
    Raises `InvalidOpenAIMeta` for a wrong-typed key or an output template that is not a `ui://` URI.
    """
    values = expect_meta(meta)
    template = read_text(values, OPENAI_OUTPUT_TEMPLATE)
    accessible = read_flag(values, OPENAI_WIDGET_ACCESSIBLE)
    visibility = read_visibility(values)
    if template is None and accessible is None and visibility is None:
        return None
    if template is not None and not template.startswith(UI_URI_PREFIX):
        message = f"{OPENAI_OUTPUT_TEMPLATE} must start with {UI_URI_PREFIX!r} to become _meta.ui.resourceUri"
        raise InvalidOpenAIMeta(message, value=template)
    audiences = (("model", visibility != "private"), ("app", accessible is True))
    return ToolUI(resource_uri=template, visibility=tuple(name for name, on in audiences if on))


def tool_openai_from_ui(ui: ToolUI) -> WireObject:
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
) -> WireObject:
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


def resource_ui_from_openai(meta: WireJSON | None) -> ResourceUI | None:
    """The `ResourceUI` that a resource's `openai/*` keys declare, or None when it has none of them.

    `openai/widgetCSP` gives `csp` (and `redirect_domains` gives `linkTrustedDomains`), `openai/widgetDomain`
    gives `domain`, `openai/widgetPrefersBorder` gives `prefersBorder`. Raises `InvalidOpenAIMeta` for a
    wrong-typed key.
    """
    values = expect_meta(meta)
    csp = read_widget_csp(values)
    domain = read_text(values, OPENAI_WIDGET_DOMAIN)
    border = read_flag(values, OPENAI_WIDGET_PREFERS_BORDER)
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
        link_trusted_domains=None if csp is None else csp.get(REDIRECT),
        domain=domain,
        prefers_border=border,
    )


def resource_openai_from_ui(ui: ResourceUI) -> WireObject:
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
            widget[REDIRECT] = list(ui.link_trusted_domains)
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
def with_openai_tool_meta(tool: WireJSON) -> WireObject: ...
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
def with_openai_resource_meta(resource: WireJSON) -> WireObject: ...
@overload
def with_openai_resource_meta(resource: _HolderT) -> _HolderT: ...
def with_openai_resource_meta(resource: Any) -> Any:
    """A copy of `resource` whose `_meta` also carries the `openai/*` keys its `_meta.ui` implies.

    Present keys win, as in `with_openai_tool_meta`; missing `openai/widgetCSP` entries are filled in one by
    one. The `mimeType` is left alone (see `mime_type_for_openai`).
    """
    ui = get_resource_ui(resource)
    return _with_added(resource, "resource", {} if ui is None else resource_openai_from_ui(ui))


# --- private -------------------------------------------------------------------------------------------


def _with_added(holder: Any, what: str, generated: dict[str, Any]) -> Any:
    """`holder` with `generated` keys added to `_meta` where absent (a widgetCSP entry by entry)."""
    meta = copied_meta(holder, what)
    check_openai_keys(meta)
    for key, value in generated.items():
        present = meta.get(key)
        if present is None:
            meta[key] = value
        elif key == OPENAI_WIDGET_CSP:
            meta[key] = {**value, **{name: item for name, item in present.items() if item is not None}}
    return replace_meta(holder, meta if meta or read_meta(holder, what) is not None else None, what)


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
