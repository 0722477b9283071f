"""Copy-on-write over plain JSON: rebuild only the containers on the changed path, share the rest.

Every helper returns its input object itself when nothing changed, so "no rewrite" is `result is input`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from hostcompat.wire_json import WireJSON, WireObject

JSONObject = WireJSON


def with_key(mapping: JSONObject, key: str, value: Any) -> WireObject:
    """A copy of `mapping` with `key` set to `value` (key order kept)."""
    copy = dict(mapping)
    copy[key] = value
    return copy


def without_keys(mapping: JSONObject, keys: Iterable[str]) -> JSONObject:
    """`mapping` without `keys`; the same object when none of them is present."""
    doomed = [key for key in keys if key in mapping]
    if not doomed:
        return mapping
    return {key: value for key, value in mapping.items() if key not in doomed}


def replace_key(mapping: JSONObject, key: str, change: Callable[[Any], Any]) -> JSONObject:
    """`mapping` with `mapping[key]` passed through `change`; the same object if `key` is absent or unchanged."""
    if key not in mapping:
        return mapping
    old = mapping[key]
    new = change(old)
    return mapping if new is old else with_key(mapping, key, new)


def map_list(items: Sequence[Any], change: Callable[[Any], Any]) -> Sequence[Any]:
    """`items` with each element passed through `change`; the same object when every element came back as is."""
    out: list[Any] | None = None
    for index, item in enumerate(items):
        new = change(item)
        if out is None and new is not item:
            out = list(items[:index])
        if out is not None:
            out.append(new)
    return items if out is None else out


def map_values(mapping: JSONObject, change: Callable[[Any], Any]) -> JSONObject:
    """`mapping` with each value passed through `change`; the same object when every value came back as is."""
    out: dict[str, Any] | None = None
    for key, value in mapping.items():
        new = change(value)
        if out is None and new is not value:
            out = dict(mapping)
        if out is not None and new is not value:
            out[key] = new
    return mapping if out is None else out


def map_list_field(result: JSONObject, key: str, change: Callable[[Any], Any]) -> JSONObject:
    """`result` with each element of the list `result[key]` passed through `change` (non-lists left alone)."""
    items = result.get(key)
    if not isinstance(items, list):
        return result
    new = map_list(items, change)
    return result if new is items else with_key(result, key, new)


__all__ = [
    "JSONObject",
    "map_list",
    "map_list_field",
    "map_values",
    "replace_key",
    "with_key",
    "without_keys",
]
