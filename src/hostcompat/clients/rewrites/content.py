"""Rewrites of content blocks, annotations and call arguments (tools/call, prompts/get, resources/*).

Each function takes `(method, payload, params)` and returns the payload itself when nothing applies;
anything not shaped as expected is left exactly as it is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from hostcompat.clients.rewrites.copy_on_write import (
    JSONObject,
    map_list,
    map_list_field,
    replace_key,
    with_key,
    without_keys,
)
from hostcompat.wire_json import WireJSON

_PRIORITY_LOW = 0
_PRIORITY_HIGH = 1
PRIORITY_THRESHOLD = 0.5
"""Priorities at or above this become 1, below it 0 (round half up, as Go's `math.Round` does)."""


def spec_legal_priority(value: object) -> object:
    """The nearest spec-legal integer priority (0 or 1) for a number; anything else comes back as is.

    The integers 0 and 1 come back as the same object. Ties go up (0.5 -> 1), numbers outside
    [0, 1] are clamped, integral floats become ints (1.0 -> 1) and NaN becomes 0.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if type(value) is int and value in (_PRIORITY_LOW, _PRIORITY_HIGH):
        return value
    if isinstance(value, float) and math.isnan(value):
        return _PRIORITY_LOW
    return _PRIORITY_HIGH if value >= PRIORITY_THRESHOLD else _PRIORITY_LOW


def _round_annotations(holder: object) -> object:
    if not isinstance(holder, Mapping):
        return holder

    def round_priority(annotations: object) -> object:
        if not isinstance(annotations, Mapping):
            return annotations
        return replace_key(annotations, "priority", spec_legal_priority)

    return replace_key(holder, "annotations", round_priority)


def _round_block(block: object) -> object:
    rounded = _round_annotations(block)
    if isinstance(rounded, Mapping) and rounded.get("type") == "resource":
        return replace_key(rounded, "resource", _round_annotations)
    return rounded


def _map_blocks(method: str, payload: JSONObject, change: Callable[[Any], Any]) -> JSONObject:
    """Apply `change` to every content block of a tools/call result or a prompts/get result."""
    if method == "tools/call":
        return map_list_field(payload, "content", change)
    if method == "prompts/get":

        def change_message(message: object) -> object:
            if not isinstance(message, Mapping):
                return message
            content = message.get("content")
            if isinstance(content, list):
                return replace_key(message, "content", lambda blocks: map_list(blocks, change))
            return replace_key(message, "content", change)

        return map_list_field(payload, "messages", change_message)
    return payload


def round_annotation_priority(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """Round `annotations.priority` to 0 or 1 in content blocks, embedded resources, resources and templates.

    Touches nothing else: not `structuredContent`, not tool annotations, not icons, not `_meta`.
    """
    if method in ("tools/call", "prompts/get"):
        return _map_blocks(method, payload, _round_block)
    if method == "resources/list":
        return map_list_field(payload, "resources", _round_annotations)
    if method == "resources/templates/list":
        return map_list_field(payload, "resourceTemplates", _round_annotations)
    return payload


def _text_of(block: Mapping[str, Any], key: str) -> str | None:
    value = block.get(key)
    return value if isinstance(value, str) and value else None


def resource_link_text(block: WireJSON) -> str:
    """The text that stands in for a `resource_link` block: `[Resource link] <title>: <uri> (<mimeType>)`."""
    label = _text_of(block, "title") or _text_of(block, "name")
    uri = _text_of(block, "uri")
    mime_type = _text_of(block, "mimeType")
    text = "[Resource link]"
    if label and uri and label != uri:
        text += f" {label}: {uri}"
    elif label or uri:
        text += f" {label or uri}"
    if mime_type:
        text += f" ({mime_type})"
    return text


def _link_to_text(block: object) -> object:
    if not isinstance(block, Mapping) or block.get("type") != "resource_link":
        return block
    text_block: dict[str, Any] = {"type": "text", "text": resource_link_text(block)}
    for key in ("annotations", "_meta"):
        if key in block:
            text_block[key] = block[key]
    return text_block


def resource_link_to_text(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """Replace each `resource_link` content block with a text block naming it (annotations and `_meta` kept)."""
    return _map_blocks(method, payload, _link_to_text)


def drop_structured_content(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """Remove `structuredContent` from a tools/call result, leaving `content` as the payload."""
    if method != "tools/call":
        return payload
    return without_keys(payload, ("structuredContent",))


def content_types(method: str, payload: JSONObject) -> frozenset[str]:
    """The `type`s of the content blocks in a tools/call or prompts/get result."""
    found: set[str] = set()

    def note(block: object) -> object:
        if isinstance(block, Mapping) and isinstance(block.get("type"), str):
            found.add(block["type"])
        return block

    _map_blocks(method, payload, note)
    return frozenset(found)


def strip_call_arguments(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """Remove the named keys from a tools/call request's `arguments`."""
    if method != "tools/call":
        return payload
    arguments = payload.get("arguments")
    if not isinstance(arguments, Mapping):
        return payload
    stripped = without_keys(arguments, params.get("names", ()))
    return payload if stripped is arguments else with_key(payload, "arguments", stripped)


__all__ = [
    "PRIORITY_THRESHOLD",
    "content_types",
    "drop_structured_content",
    "resource_link_text",
    "resource_link_to_text",
    "round_annotation_priority",
    "spec_legal_priority",
    "strip_call_arguments",
]
