"""Reports on a `_meta` that both OpenAI's Apps SDK and MCP Apps read: conflicts, and keys with no counterpart.

Nothing is changed or dropped here; the reports say what `with_openai_*_meta` kept as it was, and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.apps.meta.access import ResourceCSP, ResourceUI, ToolUI, get_resource_ui, get_tool_ui
from hostcompat.apps.openai.keys import (
    CSP_LISTS,
    OPENAI_FILE_PARAMS,
    OPENAI_INVOKED,
    OPENAI_INVOKING,
    OPENAI_OUTPUT_TEMPLATE,
    OPENAI_VISIBILITY,
    OPENAI_WIDGET_ACCESSIBLE,
    OPENAI_WIDGET_CSP,
    OPENAI_WIDGET_DESCRIPTION,
    OPENAI_WIDGET_DOMAIN,
    OPENAI_WIDGET_PREFERS_BORDER,
    REDIRECT,
    RESOURCE_KEYS,
    TOOL_KEYS,
    check_openai_keys,
    expect_meta,
    read_domains,
    read_flag,
    read_text,
    read_visibility,
    read_widget_csp,
)
from hostcompat.errors import InvalidUIMeta
from hostcompat.wire_json import WireJSON

_PREFIX = "openai/"
_NO_EQUIVALENT: Final = {
    OPENAI_INVOKING: "tool status text; MCP Apps has no equivalent yet",
    OPENAI_INVOKED: "tool status text; MCP Apps has no equivalent yet",
    OPENAI_WIDGET_DESCRIPTION: "no equivalent; a view can send ui/update-model-context instead",
    OPENAI_FILE_PARAMS: "file parameters; MCP Apps has no equivalent",
}


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


def openai_conflicts(meta: WireJSON | None) -> list[OpenAIConflict]:
    """Where the `openai/*` keys and `_meta.ui` of one `_meta` disagree.

    Each present `openai/*` key is compared with the value MCP Apps hosts apply (defaults included) whenever
    `_meta.ui` exists; an absent `openai/*` key is no conflict (`with_openai_*_meta` fills it in). Domain lists
    compare as sets. `domain` and `prefersBorder` compare only when both sides set them.
    Raises `InvalidOpenAIMeta` for a wrong-typed `openai/*` key and `InvalidUIMeta` for a malformed `_meta.ui`.
    """
    values = expect_meta(meta)
    if not values:
        return []
    conflicts: list[OpenAIConflict] = []
    holder = {"_meta": values}
    if any(key in values for key in TOOL_KEYS):
        tool_ui = get_tool_ui(holder)
        if tool_ui is not None:
            conflicts += _tool_conflicts(values, tool_ui)
    if any(key in values for key in RESOURCE_KEYS):
        resource_ui = get_resource_ui(holder)
        if resource_ui is not None:
            conflicts += _resource_conflicts(values, resource_ui)
    return conflicts


def untranslated_openai_keys(meta: WireJSON | None) -> list[Untranslated]:
    """The `openai/*` keys (and `openai/widgetCSP` entries) of `meta` that have no MCP Apps equivalent."""
    values = expect_meta(meta) or {}
    check_openai_keys(values)
    known_csp = {name for name, _ in CSP_LISTS} | {REDIRECT}
    notes: list[Untranslated] = []
    for key, value in values.items():
        if not isinstance(key, str) or not key.startswith(_PREFIX) or value is None:
            continue
        if key == OPENAI_FILE_PARAMS:
            notes.append(Untranslated(key, _NO_EQUIVALENT[key], list(read_domains(value, f"_meta[{key!r}]"))))
        elif key in _NO_EQUIVALENT:
            notes.append(Untranslated(key, _NO_EQUIVALENT[key], read_text(values, key)))
        elif key == OPENAI_WIDGET_CSP:
            unknown = [(name, item) for name, item in value.items() if name not in known_csp]
            notes += [
                Untranslated(f"{key}.{name}", "unknown widgetCSP entry; not mapped", item) for name, item in unknown
            ]
        elif key not in TOOL_KEYS and key not in RESOURCE_KEYS:
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


def _conflict(openai_key: str, ui_key: str, openai_value: Any, ui_value: Any) -> OpenAIConflict:
    message = f"{openai_key} says {openai_value!r} but _meta.{ui_key} says {ui_value!r}"
    return OpenAIConflict(openai_key, ui_key, message, openai_value, ui_value)


def _tool_conflicts(meta: Mapping[str, Any], ui: ToolUI) -> list[OpenAIConflict]:
    conflicts: list[OpenAIConflict] = []
    template = read_text(meta, OPENAI_OUTPUT_TEMPLATE)
    if template is not None and ui.resource_uri is not None and template != ui.resource_uri:
        conflicts.append(_conflict(OPENAI_OUTPUT_TEMPLATE, "ui.resourceUri", template, ui.resource_uri))
    effective = list(ui.effective_visibility)
    accessible = read_flag(meta, OPENAI_WIDGET_ACCESSIBLE)
    if accessible is not None and accessible != ("app" in effective):
        conflicts.append(_conflict(OPENAI_WIDGET_ACCESSIBLE, "ui.visibility", accessible, effective))
    visibility = read_visibility(meta)
    if visibility is not None and (visibility == "public") != ("model" in effective):
        conflicts.append(_conflict(OPENAI_VISIBILITY, "ui.visibility", visibility, effective))
    return conflicts


def _resource_conflicts(meta: Mapping[str, Any], ui: ResourceUI) -> list[OpenAIConflict]:
    conflicts: list[OpenAIConflict] = []
    csp = read_widget_csp(meta)
    if csp is not None:
        official = ui.csp or ResourceCSP()
        pairs = [(name, f"ui.csp.{wire}", getattr(official, name)) for name, wire in CSP_LISTS]
        pairs.append((REDIRECT, "ui.linkTrustedDomains", ui.link_trusted_domains or ()))
        for name, ui_key, mcp_values in pairs:
            if name in csp and set(csp[name]) != set(mcp_values):
                conflicts.append(_conflict(f"{OPENAI_WIDGET_CSP}.{name}", ui_key, list(csp[name]), list(mcp_values)))
    domain = read_text(meta, OPENAI_WIDGET_DOMAIN)
    if domain is not None and ui.domain is not None and domain != ui.domain:
        conflicts.append(_conflict(OPENAI_WIDGET_DOMAIN, "ui.domain", domain, ui.domain))
    border = read_flag(meta, OPENAI_WIDGET_PREFERS_BORDER)
    if border is not None and ui.prefers_border is not None and border != ui.prefers_border:
        conflicts.append(_conflict(OPENAI_WIDGET_PREFERS_BORDER, "ui.prefersBorder", border, ui.prefers_border))
    return conflicts


__all__ = [
    "OpenAIConflict",
    "Untranslated",
    "openai_conflicts",
    "untranslated_openai_keys",
    "untranslated_ui_keys",
]
