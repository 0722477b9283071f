"""Read and write the typed `_meta.ui` of tools, resources, resource contents and embedded resources.

Stricter than viant's Go `meta` package: wrong types raise `InvalidUIMeta` instead of reading as empty, inputs
are never changed (every setter returns a new object), unknown keys survive, and clearing is explicit.
Holders are plain mappings or pydantic models (such as the SDK's `Tool`, `Resource`, `TextResourceContents`).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar, overload

from hostcompat.apps.constants import META_UI_KEY, RESOURCE_URI_META_KEY, UI_URI_PREFIX
from hostcompat.apps.meta.codec import as_str, expect_mapping, preview, type_name
from hostcompat.apps.meta.holder import (
    META_KEY,
    MetaHolder,
    SupportsModelCopy,
    copied_meta,
    read_child,
    read_meta,
    replace_child,
    replace_meta,
)
from hostcompat.apps.meta.model import RESOURCE_UI_FIELDS, TOOL_UI_FIELDS, ResourceUI, ToolUI
from hostcompat.apps.meta.sandbox import CSPPolicy, ResourceCSP, ResourcePermissions
from hostcompat.errors import InvalidUIMeta
from hostcompat.wire_json import WireJSON, WireObject

_ModelT = TypeVar("_ModelT", bound=SupportsModelCopy)

_FLAT_KEY_LABEL = f"{META_KEY}[{RESOURCE_URI_META_KEY!r}]"
_UI_LABEL = f"{META_KEY}.{META_UI_KEY}"
_EMBEDDED_TYPE = "resource"


def _merged_ui(old: object, new_wire: dict[str, Any], modeled: tuple[str, ...]) -> dict[str, Any]:
    """The existing `_meta.ui`'s unknown subkeys, overlaid with the new wire object (unknowns in it win)."""
    if old is None:
        return new_wire
    existing = expect_mapping(old, _UI_LABEL)
    return {**{key: value for key, value in existing.items() if key not in modeled}, **new_wire}


def _raw_ui(holder: object, what: str) -> object:
    meta = read_meta(holder, what)
    return None if meta is None else meta.get(META_UI_KEY)


# --- tools -----------------------------------------------------------------------------------------------------


def get_tool_ui(tool: MetaHolder) -> ToolUI | None:
    """The tool's `_meta.ui` as a `ToolUI`, or `None` when neither `_meta.ui` nor the flat URI key is present.

    A nested `resourceUri` wins; the deprecated flat `_meta["ui/resourceUri"]` fills it in when missing.
    Only types are checked here; `tool_ui_resource_uri` also insists on the `ui://` scheme.

    Raises:
        InvalidUIMeta: the tool, its `_meta`, `_meta.ui` or a field has the wrong type.
    """
    meta = read_meta(tool, "tool")
    if meta is None:
        return None
    raw_ui = meta.get(META_UI_KEY)
    flat = as_str(meta.get(RESOURCE_URI_META_KEY), _FLAT_KEY_LABEL)
    if raw_ui is None and flat is None:
        return None
    ui = ToolUI() if raw_ui is None else ToolUI.from_wire(raw_ui, _UI_LABEL)
    if ui.resource_uri is None and flat is not None:
        ui = dataclasses.replace(ui, resource_uri=flat)
    return ui


@overload
def set_tool_ui(tool: WireJSON, ui: ToolUI, *, write_flat_key: bool = True) -> WireObject: ...
@overload
def set_tool_ui(tool: _ModelT, ui: ToolUI, *, write_flat_key: bool = True) -> _ModelT: ...
def set_tool_ui(tool: Any, ui: ToolUI, *, write_flat_key: bool = True) -> Any:
    """A copy of `tool` whose `_meta.ui` is `ui`; the input is never changed.

    Other `_meta` keys and unknown `_meta.ui` subkeys are kept (`ui.extra` wins over them); modeled keys that `ui`
    leaves unset are removed. An empty `ToolUI()` writes `_meta.ui` holding only the kept unknown subkeys (`{}` when
    there are none): it never clears; use `clear_tool_ui` for that. With `write_flat_key` (the default, as npm's
    `registerAppTool` does) the deprecated `_meta["ui/resourceUri"]` gets the same URI; otherwise, and whenever
    `ui.resource_uri` is unset, the flat key is removed so it cannot disagree with the nested one.

    Raises:
        InvalidUIMeta: `ui` is not a `ToolUI`, or the tool, its `_meta` or `_meta.ui` is not a mapping.
    """
    if not isinstance(ui, ToolUI):
        raise InvalidUIMeta(f"set_tool_ui needs a ToolUI, got {type_name(ui)}", value=ui)
    meta = copied_meta(tool, "tool")
    meta[META_UI_KEY] = _merged_ui(meta.get(META_UI_KEY), ui.to_wire(), TOOL_UI_FIELDS)
    if write_flat_key and ui.resource_uri is not None:
        meta[RESOURCE_URI_META_KEY] = ui.resource_uri
    else:
        meta.pop(RESOURCE_URI_META_KEY, None)
    return replace_meta(tool, meta, "tool")


@overload
def clear_tool_ui(tool: WireJSON) -> WireObject: ...
@overload
def clear_tool_ui(tool: _ModelT) -> _ModelT: ...
def clear_tool_ui(tool: Any) -> Any:
    """A copy of `tool` without `_meta.ui` and the flat `ui/resourceUri` (and without `_meta` if it ends up empty).

    Whatever `_meta.ui` held, unknown subkeys included, is dropped; other `_meta` keys stay.

    Raises:
        InvalidUIMeta: the tool or its `_meta` is not a mapping/model.
    """
    meta = copied_meta(tool, "tool")
    meta.pop(META_UI_KEY, None)
    meta.pop(RESOURCE_URI_META_KEY, None)
    return replace_meta(tool, meta or None, "tool")


def tool_ui_resource_uri(tool: MetaHolder) -> str | None:
    """The tool's UI resource URI with npm's `getToolUiResourceUri` rules.

    `_meta.ui.resourceUri` wins, the flat `_meta["ui/resourceUri"]` is the fallback, and `None` means neither is
    present. A present value that is not a string starting with `ui://` is an error (an empty string too).

    Raises:
        InvalidUIMeta: the URI is present but not a `ui://` string, or the tool, `_meta` or `_meta.ui` is malformed.
    """
    meta = read_meta(tool, "tool")
    if meta is None:
        return None
    raw_ui = meta.get(META_UI_KEY)
    nested = None if raw_ui is None else expect_mapping(raw_ui, _UI_LABEL).get("resourceUri")
    value = nested if nested is not None else meta.get(RESOURCE_URI_META_KEY)
    if value is None:
        return None
    if not isinstance(value, str) or not value.startswith(UI_URI_PREFIX):
        raise InvalidUIMeta(
            f"Invalid UI resource URI: expected a string starting with {UI_URI_PREFIX!r}, got {preview(value)}",
            value=value,
        )
    return value


def _tool_ui_of(tool: MetaHolder | ToolUI) -> ToolUI | None:
    return tool if isinstance(tool, ToolUI) else get_tool_ui(tool)


def is_app_only(tool: MetaHolder | ToolUI) -> bool:
    """True when the visibility is exactly `["app"]` (hidden from the model); false when it is omitted."""
    ui = _tool_ui_of(tool)
    return ui is not None and ui.visibility == ("app",)


def is_model_only(tool: MetaHolder | ToolUI) -> bool:
    """True when the visibility is exactly `["model"]` (not callable from views); false when it is omitted."""
    ui = _tool_ui_of(tool)
    return ui is not None and ui.visibility == ("model",)


# --- resources, contents items, read-result items ----------------------------------------------------------------


def get_resource_ui(resource: MetaHolder) -> ResourceUI | None:
    """The `_meta.ui` of a resource listing entry, contents item or read-result item, or `None` when absent.

    Raises:
        InvalidUIMeta: the holder, its `_meta`, `_meta.ui` or a field has the wrong type.
    """
    raw_ui = _raw_ui(resource, "resource")
    return None if raw_ui is None else ResourceUI.from_wire(raw_ui, _UI_LABEL)


@overload
def set_resource_ui(resource: WireJSON, ui: ResourceUI) -> WireObject: ...
@overload
def set_resource_ui(resource: _ModelT, ui: ResourceUI) -> _ModelT: ...
def set_resource_ui(resource: Any, ui: ResourceUI) -> Any:
    """A copy of the resource (or contents item) whose `_meta.ui` is `ui`; the input is never changed.

    Unknown `_meta` keys and unknown `_meta.ui` subkeys are kept (`ui.extra` wins); modeled keys left unset are
    removed, so re-setting with only `domain` drops an earlier `permissions`. An empty `ResourceUI()` writes a
    `_meta.ui` with only the kept unknown subkeys; use `clear_resource_ui` to remove it.

    Raises:
        InvalidUIMeta: `ui` is not a `ResourceUI`, or the holder, its `_meta` or `_meta.ui` is not a mapping.
    """
    if not isinstance(ui, ResourceUI):
        raise InvalidUIMeta(f"set_resource_ui needs a ResourceUI, got {type_name(ui)}", value=ui)
    meta = copied_meta(resource, "resource")
    meta[META_UI_KEY] = _merged_ui(meta.get(META_UI_KEY), ui.to_wire(), RESOURCE_UI_FIELDS)
    return replace_meta(resource, meta, "resource")


@overload
def clear_resource_ui(resource: WireJSON) -> WireObject: ...
@overload
def clear_resource_ui(resource: _ModelT) -> _ModelT: ...
def clear_resource_ui(resource: Any) -> Any:
    """A copy of the resource without `_meta.ui` (and without `_meta` if it ends up empty).

    Raises:
        InvalidUIMeta: the holder or its `_meta` is not a mapping/model.
    """
    meta = copied_meta(resource, "resource")
    meta.pop(META_UI_KEY, None)
    return replace_meta(resource, meta or None, "resource")


def resolve_resource_ui(content_item: MetaHolder, listing_entry: MetaHolder | None = None) -> ResourceUI | None:
    """The `_meta.ui` a host should apply: the content item's when it has one (even `{}`), else the listing's.

    This is the draft's "content first, then listing" rule; the two are never merged.

    Raises:
        InvalidUIMeta: the `_meta.ui` that applies, or a holder or `_meta` on the way, is malformed.
    """
    raw_ui = _raw_ui(content_item, "content item")
    if raw_ui is not None:
        return ResourceUI.from_wire(raw_ui, _UI_LABEL)
    return None if listing_entry is None else get_resource_ui(listing_entry)


# --- embedded resource blocks -------------------------------------------------------------------------------------


def _embedded_resource(block: object) -> Any:
    kind = read_child(block, "type", "embedded resource block")
    if kind != _EMBEDDED_TYPE:
        raise InvalidUIMeta(f"an embedded resource block has type {_EMBEDDED_TYPE!r}, got {preview(kind)}", value=block)
    resource = read_child(block, "resource", "embedded resource block")
    if resource is None:
        raise InvalidUIMeta("an embedded resource block needs a 'resource'", value=block)
    return resource


def get_embedded_resource_ui(block: MetaHolder) -> ResourceUI | None:
    """The UI metadata of an embedded resource block: `resource._meta.ui` first, then the block's own `_meta.ui`.

    Raises:
        InvalidUIMeta: the block is not `{type: "resource", resource: {...}}`, or the metadata read is malformed.
    """
    inner = get_resource_ui(_embedded_resource(block))
    return inner if inner is not None else get_resource_ui(block)


@overload
def set_embedded_resource_ui(block: WireJSON, ui: ResourceUI) -> WireObject: ...
@overload
def set_embedded_resource_ui(block: _ModelT, ui: ResourceUI) -> _ModelT: ...
def set_embedded_resource_ui(block: Any, ui: ResourceUI) -> Any:
    """A copy of the block with `ui` written to both the block's `_meta.ui` and `resource._meta.ui`.

    Each location keeps its own unknown keys, as `set_resource_ui` does. The input is never changed.

    Raises:
        InvalidUIMeta: the block is not an embedded resource block, or a `_meta` on the way is malformed.
    """
    resource = set_resource_ui(_embedded_resource(block), ui)
    return replace_child(set_resource_ui(block, ui), "resource", resource, "embedded resource block")


@overload
def clear_embedded_resource_ui(block: WireJSON) -> WireObject: ...
@overload
def clear_embedded_resource_ui(block: _ModelT) -> _ModelT: ...
def clear_embedded_resource_ui(block: Any) -> Any:
    """A copy of the block without `_meta.ui`, both on the block and on its resource.

    Raises:
        InvalidUIMeta: the block is not an embedded resource block, or a `_meta` on the way is malformed.
    """
    resource = clear_resource_ui(_embedded_resource(block))
    return replace_child(clear_resource_ui(block), "resource", resource, "embedded resource block")


__all__ = [
    "CSPPolicy",
    "MetaHolder",
    "RESOURCE_UI_FIELDS",
    "ResourceCSP",
    "ResourcePermissions",
    "ResourceUI",
    "TOOL_UI_FIELDS",
    "ToolUI",
    "clear_embedded_resource_ui",
    "clear_resource_ui",
    "clear_tool_ui",
    "get_embedded_resource_ui",
    "get_resource_ui",
    "get_tool_ui",
    "is_app_only",
    "is_model_only",
    "resolve_resource_ui",
    "set_embedded_resource_ui",
    "set_resource_ui",
    "set_tool_ui",
    "tool_ui_resource_uri",
]
