"""Rewrites for MCP Apps host bugs: the widget's data, the keys that bind a tool to its view, the UI capability.

Each function takes `(method, payload, params)` and returns the payload itself when nothing applies (the
copy-on-write contract of `hostcompat.clients.rewrites`); anything not shaped as expected is left exactly as it is.
The keys are the pinned ones of `hostcompat.apps.constants`, so these rewrites and the MCP Apps SDK agree on them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hostcompat.apps.constants import EXTENSION_ID, META_UI_KEY, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY
from hostcompat.clients.detect import CLIENT_CAPABILITIES_META_KEY
from hostcompat.clients.rewrites.copy_on_write import JSONObject, map_list_field, replace_key, with_key, without_keys
from hostcompat.wire_json import WireJSON

OUTPUT_TEMPLATE_KEY = "openai/outputTemplate"
"""The OpenAI Apps SDK tool key naming the widget template (a `ui://` URI)."""

URI_KEYS = ("nested", "flat", "openai")
"""The three places a tool may name its view: `_meta.ui.resourceUri`, `_meta["ui/resourceUri"]`, the template."""

DEFAULT_MAX_MIRROR_CHARS = 100_000
"""The longest structuredContent JSON mirrored into a text block (a larger one is left alone)."""

_META = "_meta"
_NESTED_URI = "resourceUri"


def _uri(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _tool_uris(meta: Mapping[str, Any]) -> dict[str, str | None]:
    ui = meta.get(META_UI_KEY)
    return {
        "nested": _uri(ui.get(_NESTED_URI)) if isinstance(ui, Mapping) else None,
        "flat": _uri(meta.get(RESOURCE_URI_META_KEY)),
        "openai": _uri(meta.get(OUTPUT_TEMPLATE_KEY)),
    }


def _fill_tool(tool: object, wanted: tuple[str, ...]) -> object:
    if not isinstance(tool, Mapping):
        return tool
    meta = tool.get(_META)
    if not isinstance(meta, Mapping):
        return tool
    uris = _tool_uris(meta)
    named = {uri for uri in uris.values() if uri is not None}
    if len(named) != 1:  # no view, or keys that disagree: guessing which one the server meant is not ours to do
        return tool
    (uri,) = named
    ui = meta.get(META_UI_KEY)
    new_meta: JSONObject = meta
    for key in wanted:
        if uris[key] is not None:
            continue
        if key == "nested":
            if ui is not None and not isinstance(ui, Mapping):
                continue
            new_meta = with_key(new_meta, META_UI_KEY, with_key(ui or {}, _NESTED_URI, uri))
        elif key == "flat":
            new_meta = with_key(new_meta, RESOURCE_URI_META_KEY, uri)
        else:
            new_meta = with_key(new_meta, OUTPUT_TEMPLATE_KEY, uri)
    return tool if new_meta is meta else with_key(tool, _META, new_meta)


def fill_ui_uri_keys(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """Write the view URI of each tool under every key of `params["write"]` it lacks (tools/list).

    A tool that names one view URI (under any of the three keys) gets it under the missing keys asked for; a tool
    with no view, or with keys that name different URIs, is left alone.
    """
    if method != "tools/list":
        return payload
    wanted = tuple(key for key in URI_KEYS if key in params.get("write", ()))
    return map_list_field(payload, "tools", lambda tool: _fill_tool(tool, wanted))


def _drop_template(tool: object) -> object:
    if not isinstance(tool, Mapping):
        return tool
    return replace_key(
        tool, _META, lambda meta: without_keys(meta, (OUTPUT_TEMPLATE_KEY,)) if isinstance(meta, Mapping) else meta
    )


def drop_output_template(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """Remove `openai/outputTemplate` from every tool's `_meta` (tools/list); the MCP Apps keys stay."""
    if method != "tools/list":
        return payload
    return map_list_field(payload, "tools", _drop_template)


def _structured_json(value: object, limit: int) -> str | None:
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None
    return text if len(text) <= limit else None


def _holds(block: object, value: object) -> bool:
    """Whether a content block is a text block whose text is `value` as JSON (already mirrored)."""
    if not isinstance(block, Mapping) or block.get("type") != "text" or not isinstance(block.get("text"), str):
        return False
    text = block["text"].strip()
    if not text.startswith(("{", "[")):
        return False
    try:
        return bool(json.loads(text) == value)
    except (ValueError, RecursionError):
        return False


def mirror_structured_content(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """Put a tools/call result's `structuredContent`, as JSON, in a text block at the head of `content`.

    Nothing changes when there is no `structuredContent` object, when a text block already holds it, or when its
    JSON is longer than `params["max_chars"]`. `structuredContent` itself stays.
    """
    if method != "tools/call":
        return payload
    structured = payload.get("structuredContent")
    content = payload.get("content", [])
    if not isinstance(structured, (Mapping, list)) or not isinstance(content, list):
        return payload
    if any(_holds(block, structured) for block in content):
        return payload
    text = _structured_json(structured, params.get("max_chars", DEFAULT_MAX_MIRROR_CHARS))
    if text is None:
        return payload
    return with_key(payload, "content", [{"type": "text", "text": text}, *content])


def _with_ui_extension(capabilities: object) -> object:
    """`capabilities` declaring the MCP Apps UI extension; the same object when it already does (or is no object)."""
    if capabilities is None:
        capabilities = {}
    if not isinstance(capabilities, Mapping):
        return capabilities
    extensions = capabilities.get("extensions")
    if extensions is None:
        extensions = {}
    if not isinstance(extensions, Mapping) or extensions.get(EXTENSION_ID) is not None:
        return capabilities
    declared = with_key(extensions, EXTENSION_ID, {"mimeTypes": [RESOURCE_MIME_TYPE]})
    return with_key(capabilities, "extensions", declared)


def declare_ui_capability(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """Declare the MCP Apps UI extension for a client that renders views without declaring it.

    In `initialize` params the declaration goes into `capabilities.extensions`; in a 2026-07-28 request it goes
    into the client capabilities its `_meta` carries (a request without them is left alone). A client that
    declares the extension already, with whatever MIME types, is left exactly as it is.
    """
    if method == "initialize":
        return (
            replace_key(payload, "capabilities", _with_ui_extension)
            if "capabilities" in payload
            else with_key(payload, "capabilities", _with_ui_extension({}))
        )
    meta = payload.get(_META)
    if not isinstance(meta, Mapping) or CLIENT_CAPABILITIES_META_KEY not in meta:
        return payload
    return replace_key(payload, _META, lambda old: replace_key(old, CLIENT_CAPABILITIES_META_KEY, _with_ui_extension))


def server_lacks(capabilities: WireJSON | None, name: str) -> bool:
    """Whether a server's capabilities are known and do not name `name` (e.g. `resources`)."""
    return capabilities is not None and capabilities.get(name) is None


__all__ = [
    "DEFAULT_MAX_MIRROR_CHARS",
    "OUTPUT_TEMPLATE_KEY",
    "URI_KEYS",
    "declare_ui_capability",
    "drop_output_template",
    "fill_ui_uri_keys",
    "mirror_structured_content",
    "server_lacks",
]
