"""Which JSON Schema constructs a tool's `inputSchema` uses, named as the host catalog names what hosts reject.

A small iterative walker (bounded in depth and nodes, total over any JSON) that reports each construct of
`SCHEMA_FEATURES` once, with the JSON path of its first use, so a finding can point at it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from hostcompat.engine.catalog_schema import SCHEMA_FEATURES

MAX_SCHEMA_DEPTH: Final = 64
"""Nodes nested deeper than this are not visited."""

MAX_SCHEMA_NODES: Final = 5_000
"""The most schema nodes visited in one schema; the rest is not examined."""

_ROOT: Final = "root"
_PROPERTY: Final = "property"
_ITEMS: Final = "items"
_OTHER: Final = "other"
_TYPED_ROLES: Final = frozenset({_ROOT, _PROPERTY, _ITEMS})
_REF_SIBLINGS_ALLOWED: Final = frozenset({"$ref", "description", "default"})
_NAMED: Final = "named"
_SINGLE: Final = "single"
_LIST: Final = "list"
_ITEMS_KEY: Final = "items"
_CHILD_KEYS: Final[dict[str, tuple[str, str]]] = {
    "properties": (_NAMED, _PROPERTY),
    "patternProperties": (_NAMED, _PROPERTY),
    "$defs": (_NAMED, _OTHER),
    "definitions": (_NAMED, _OTHER),
    "dependentSchemas": (_NAMED, _OTHER),
    "items": (_ITEMS_KEY, _ITEMS),
    "prefixItems": (_LIST, _ITEMS),
    **dict.fromkeys(
        (
            "additionalProperties",
            "unevaluatedProperties",
            "additionalItems",
            "unevaluatedItems",
            "contains",
            "propertyNames",
            "not",
            "if",
            "then",
            "else",
        ),
        (_SINGLE, _OTHER),
    ),
    **dict.fromkeys(("anyOf", "oneOf", "allOf"), (_LIST, _OTHER)),
}
"""Keyword → (how it holds sub-schemas, the role they play) for the keywords the walk descends into."""
_FEATURE_ORDER: Final = {feature: index for index, feature in enumerate(SCHEMA_FEATURES)}


_Path = tuple[Any, str] | None
"""A path as a chain (parent chain, segment), rendered only when a construct is found there."""


def schema_constructs(schema: object, *, root_path: str = "inputSchema") -> dict[str, str]:
    """The constructs of `SCHEMA_FEATURES` that `schema` uses, each with the JSON path of its first use.

    The walk is depth first in document order, so the paths are stable. Constructs:
    `$ref`, `$defs`, `definitions`, `$schema` (any), `$schema-2020-12`, `type-with-anyOf` (a node with both),
    `type-array` (`type` is a list), `anyOf-in-items` (`items` holds `anyOf`), `ref-with-siblings` (`$ref` beside
    keys other than description/default), `bare-title` (a sub-schema that is only `{"title": ...}`), `oneOf`,
    `object-without-properties`, `missing-type` (the root, a property or an items schema without `type`) and
    `additionalProperties-not-false` (an object schema that does not set it to false).
    A schema that is not an object uses nothing. Never raises for JSON input; the result is in
    `SCHEMA_FEATURES` order.
    """
    found: dict[str, str] = {}
    stack: list[tuple[Any, _Path, str, int]] = [(schema, None, _ROOT, 0)]
    visited = 0
    while stack and visited < MAX_SCHEMA_NODES:
        node, path, role, depth = stack.pop()
        if type(node) is not dict and not isinstance(node, Mapping):
            continue
        visited += 1
        for feature, suffix in _node_constructs(node, role):
            if feature not in found:
                found[feature] = _render(root_path, path) + suffix
        if depth < MAX_SCHEMA_DEPTH:
            stack.extend(reversed(_children(node, path, depth + 1)))
    return {feature: found[feature] for feature in sorted(found, key=_FEATURE_ORDER.__getitem__)}


def _render(root_path: str, path: _Path) -> str:
    segments: list[str] = []
    while path is not None:
        path, segment = path
        segments.append(segment)
    return root_path + "".join(reversed(segments))


def _node_constructs(node: Mapping[Any, Any], role: str) -> list[tuple[str, str]]:
    """The constructs this node uses, each with the path suffix (relative to the node) where it shows."""
    keys = node.keys()
    has_type = "type" in keys
    kind = node.get("type") if has_type else None
    out: list[tuple[str, str]] = []
    if "$ref" in keys:
        out.append(("$ref", ""))
        if any(key not in _REF_SIBLINGS_ALLOWED for key in keys):
            out.append(("ref-with-siblings", ""))
    out.extend((feature, "") for feature in ("$defs", "definitions", "oneOf") if feature in keys)
    if "$schema" in keys:
        out.append(("$schema", ""))
        dialect = node.get("$schema")
        if isinstance(dialect, str) and "2020-12" in dialect:
            out.append(("$schema-2020-12", ""))
    if has_type and "anyOf" in keys:
        out.append(("type-with-anyOf", ""))
    if isinstance(kind, list):
        out.append(("type-array", ""))
    items = node.get("items")
    if isinstance(items, Mapping) and "anyOf" in items:
        out.append(("anyOf-in-items", ".items"))
    if role != _ROOT and len(keys) == 1 and "title" in keys:
        out.append(("bare-title", ""))
    if kind == "object" or (isinstance(kind, list) and "object" in kind):
        if "properties" not in keys:
            out.append(("object-without-properties", ""))
        if node.get("additionalProperties") is not False:
            out.append(("additionalProperties-not-false", ""))
    if not has_type and role in _TYPED_ROLES:
        out.append(("missing-type", ""))
    return out


def _children(node: Mapping[Any, Any], path: _Path, depth: int) -> list[tuple[Any, _Path, str, int]]:
    """The sub-schemas of `node` in document order, with their path segments and roles."""
    children: list[tuple[Any, _Path, str, int]] = []
    for key, value in node.items():
        how = _CHILD_KEYS.get(key) if type(key) is str else None
        if how is None:
            continue
        shape, role = how
        if shape == _SINGLE or (shape == _ITEMS_KEY and not isinstance(value, list)):
            children.append((value, (path, f".{key}"), role, depth))
        elif shape == _NAMED:
            if type(value) is dict or isinstance(value, Mapping):
                children.extend((child, (path, f".{key}.{name}"), role, depth) for name, child in value.items())
        elif isinstance(value, list):
            children.extend((child, (path, f".{key}[{index}]"), role, depth) for index, child in enumerate(value))
    return children


__all__ = ["MAX_SCHEMA_DEPTH", "MAX_SCHEMA_NODES", "schema_constructs"]
