"""JSON Schema rewrites of tool `inputSchema`/`outputSchema`: inline refs, drop keywords, drop `outputSchema`.

Schema-aware: only subschema positions are visited, so a property *named* `$schema` or an `enum`
value shaped like a schema is never touched. Depth and work are bounded; a schema that cannot be
rewritten safely (a recursive or dangling `$ref`, too much expansion, keywords whose meaning would
change) is left exactly as it is: no rewrite here makes a value invalid that the schema accepted.
The rewrites of `type` are in `hostcompat.clients.rewrites.schema_types`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any
from urllib.parse import unquote

from hostcompat._regex import regex
from hostcompat.clients.rewrites.copy_on_write import (
    JSONObject,
    map_list,
    map_list_field,
    map_values,
    replace_key,
    without_keys,
)
from hostcompat.wire_json import WireJSON

MAX_SCHEMA_DEPTH = 64
"""Subschemas nested deeper than this are left as they are."""

MAX_INLINED_NODES = 20_000
"""The most schema nodes `$ref` inlining may produce before it gives up and keeps the original."""

INPUT_AND_OUTPUT: tuple[str, ...] = ("inputSchema", "outputSchema")
INPUT_ONLY: tuple[str, ...] = ("inputSchema",)

_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")
_SCHEMA_ONE = (
    "additionalProperties",
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
)
_SCHEMA_MANY = ("anyOf", "oneOf", "allOf", "prefixItems", "items")
_MAPS_SET = frozenset(_SCHEMA_MAPS)
_ONE_SET = frozenset(_SCHEMA_ONE)
_MANY_SET = frozenset(_SCHEMA_MANY)
_SUBSCHEMA_KEYS = _MAPS_SET | _ONE_SET | _MANY_SET
_DEFINITION_KEYS = ("$defs", "definitions")
# Keys that may sit beside `$ref` and be merged into the inlined target without changing its meaning.
_ANNOTATION_KEYS = frozenset({"title", "description", "default", "examples", "$comment", "deprecated", "readOnly"})
# Keywords whose meaning depends on another keyword of the same node: a `$ref`'s siblings are merged into its
# target only when no group has members on both sides (`additionalProperties` beside a `$ref` to an object with
# `properties` means "no properties at all" before the merge and "no other properties" after it).
_INTERPLAY = (
    frozenset({"properties", "patternProperties", "additionalProperties", "unevaluatedProperties"}),
    frozenset({"prefixItems", "items", "additionalItems", "unevaluatedItems", "contains"}),
    frozenset({"contains", "minContains", "maxContains"}),
    frozenset({"if", "then", "else"}),
    frozenset({"minimum", "exclusiveMinimum"}),
    frozenset({"maximum", "exclusiveMaximum"}),
)
# `unevaluated*` sees what every in-place applicator of its node evaluated: never merged across a `$ref`.
_UNEVALUATED = frozenset({"unevaluatedProperties", "unevaluatedItems"})
# Keywords that change how a `$ref` resolves: a schema holding one below its root is never inlined.
_SCOPE_KEYS = ("$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveAnchor", "$recursiveRef")
# Before 2019-09 the siblings of a `$ref` are ignored: only annotations (and the dialect) are carried over.
_LEGACY_DIALECTS = ("draft-03", "draft-04", "draft-06", "draft-07")
_LEGACY_SIBLINGS = _ANNOTATION_KEYS | {"$schema"}
DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema"
"""The dialect of a tool schema without `$schema` (the MCP specification's default)."""
_INDEX = regex(r"[0-9]{1,9}")

Change = Callable[[Any], Any]


def _is_object(value: object) -> bool:
    return type(value) is dict or isinstance(value, Mapping)  # the exact-type test first: the ABC check is slow


def map_subschemas(
    node: JSONObject, change: Change, *, skip: Collection[str] = (), only: Collection[str] | None = None
) -> JSONObject:
    """`node` with `change` applied to each direct subschema (copy-on-write): those under the keywords in `only`
    (default: every keyword that holds subschemas), except the keywords in `skip`.
    """
    present = _SUBSCHEMA_KEYS.intersection(node.keys())
    if present and only is not None:
        present = present.intersection(only)
    if present and skip:
        present = present.difference(skip)
    if not present:  # a leaf: the common case, kept cheap
        return node
    out = node
    for key in sorted(present):
        value = node[key]
        if key in _MAPS_SET and _is_object(value):
            out = replace_key(out, key, lambda schemas: map_values(schemas, change))
        elif key in _ONE_SET and _is_object(value):
            out = replace_key(out, key, change)
        elif key in _MANY_SET and isinstance(value, list):
            out = replace_key(out, key, lambda schemas: map_list(schemas, change))
    return out


def transform_schema(
    schema: JSONObject, change_node: Callable[[JSONObject], JSONObject], *, bottom_up: bool = False
) -> JSONObject:
    """Apply `change_node` to every schema node (top down, or children first); the same object when nothing changed."""

    def visit(node: Any, depth: int) -> Any:
        if not isinstance(node, Mapping) or depth >= MAX_SCHEMA_DEPTH:
            return node
        if bottom_up:
            return change_node(map_subschemas(node, lambda child: visit(child, depth + 1)))
        return map_subschemas(change_node(node), lambda child: visit(child, depth + 1))

    result: JSONObject = visit(schema, 0)
    return result


def resolve_pointer(root: object, ref: str) -> object | None:
    """The value a local `$ref` (`#`, `#/$defs/X`, `#/properties/a`) points to in `root`, or None."""
    if not ref.startswith("#"):
        return None
    fragment = unquote(ref[1:])
    if not fragment:
        return root
    if not fragment.startswith("/"):
        return None
    node: object = root
    for raw in fragment[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping):
            if part not in node:
                return None
            node = node[part]
        elif isinstance(node, list) and _INDEX.fullmatch(part) and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


class _Inliner:
    """One inlining pass over one schema; `failed` means the caller must keep the original."""

    def __init__(self, root: JSONObject) -> None:
        self.root = root
        self.budget = MAX_INLINED_NODES
        self.inlined = 0
        self.failed = False
        dialect = root.get("$schema")
        self.legacy = isinstance(dialect, str) and any(name in dialect for name in _LEGACY_DIALECTS)

    def visit(self, node: Any, depth: int, active: tuple[str, ...], at_root: bool) -> Any:
        if self.failed or not isinstance(node, Mapping):
            return node
        self.budget -= 1
        if self.budget < 0 or depth >= MAX_SCHEMA_DEPTH:
            self.failed = True
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = resolve_pointer(self.root, ref)
            siblings = without_keys(node, ("$ref",))
            if self.legacy:
                siblings = {key: value for key, value in siblings.items() if key in _LEGACY_SIBLINGS}
            if ref in active or not isinstance(target, Mapping) or _clashes(target, siblings):
                self.failed = True
                return node
            self.inlined += 1
            return self.visit({**target, **siblings}, depth + 1, (*active, ref), at_root)
        skip = _DEFINITION_KEYS if at_root else ()
        return map_subschemas(node, lambda child: self.visit(child, depth + 1, active, False), skip=skip)


def _clashes(target: Mapping[str, Any], siblings: Mapping[str, Any]) -> bool:
    """Whether merging `siblings` into `target` could change what the pair accepts together."""
    if any(key in target and key not in _ANNOTATION_KEYS for key in siblings):
        return True
    if siblings.keys() - _ANNOTATION_KEYS and _UNEVALUATED.intersection({*target, *siblings}):
        return True
    return any(group.intersection(siblings) and group.intersection(target) for group in _INTERPLAY)


def inline_refs(schema: JSONObject) -> JSONObject:
    """`schema` with every local `$ref` replaced by its target and the root `$defs`/`definitions` dropped.

    Keywords beside a `$ref` are merged into the target when they are annotations (title, description,
    default, …) or absent from it and independent of its keywords; in a draft-07 (or older) schema, where
    they are ignored, only annotations are kept. The original comes back unchanged when any `$ref` is
    recursive, dangling, remote or an anchor, clashes with its siblings, the schema scopes its refs with
    `$id`/`$anchor`/`$dynamicRef` below the root, or the expansion exceeds the budget.
    """
    inliner = _Inliner(schema)
    out = inliner.visit(schema, 0, (), True)
    if inliner.failed or not inliner.inlined or not isinstance(out, Mapping) or _scopes_refs(schema):
        return schema
    return without_keys(out, _DEFINITION_KEYS)


def _scopes_refs(schema: JSONObject) -> bool:
    """Whether a node of `schema` (an `$id` below the root, an anchor, a dynamic ref) changes how `$ref`s resolve."""
    found = False

    def look(node: JSONObject) -> JSONObject:
        nonlocal found
        found = found or any(key in node for key in _SCOPE_KEYS if key != "$id" or node is not schema)
        return node

    transform_schema(schema, look)
    return found


NARROWING_DROPS = frozenset(
    {"properties", "patternProperties", "prefixItems", "$defs", "definitions", *_SCOPE_KEYS, "$vocabulary"}
)
"""Keywords `drop_keywords` refuses: without them `additionalProperties`/`items` cover more, or `$ref`s dangle."""


def drop_keywords(schema: JSONObject, keywords: Sequence[str]) -> JSONObject:
    """`schema` without the given keywords in any schema node (property names are not keywords).

    The root's `$schema` is dropped only when it names the default dialect (2020-12): without it a draft-07
    schema would be read as 2020-12, where `$ref` siblings and `items` mean something else.
    """
    dialect = schema.get("$schema")
    keeps_dialect = isinstance(dialect, str) and dialect.rstrip("#") != DEFAULT_DIALECT
    at_root = tuple(key for key in keywords if key != "$schema") if keeps_dialect else keywords
    return transform_schema(schema, lambda node: without_keys(node, at_root if node is schema else keywords))


def map_schema_tools(method: str, payload: JSONObject, fields: Sequence[str], change: Change) -> JSONObject:
    """tools/list: `payload` with `change` applied to each tool's schema `fields` (other methods: unchanged)."""
    if method != "tools/list":
        return payload

    def per_tool(tool: object) -> object:
        if not isinstance(tool, Mapping):
            return tool
        out: JSONObject = tool
        for name in fields:
            if isinstance(out.get(name), Mapping):
                out = replace_key(out, name, change)
        return out

    return map_list_field(payload, "tools", per_tool)


def inline_schema_refs(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """tools/list: inline `$ref`s in each tool's schemas (`fields`, default input and output)."""
    return map_schema_tools(method, payload, params.get("fields", INPUT_AND_OUTPUT), inline_refs)


def drop_schema_keywords(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """tools/list: remove `keywords` from every node of each tool's schemas."""
    keywords: Sequence[str] = params.get("keywords", ())
    return map_schema_tools(
        method, payload, params.get("fields", INPUT_AND_OUTPUT), lambda schema: drop_keywords(schema, keywords)
    )


def drop_output_schema(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """tools/list: remove each tool's `outputSchema`."""
    if method != "tools/list":
        return payload
    return map_list_field(
        payload, "tools", lambda tool: without_keys(tool, ("outputSchema",)) if isinstance(tool, Mapping) else tool
    )


__all__ = [
    "DEFAULT_DIALECT",
    "INPUT_AND_OUTPUT",
    "INPUT_ONLY",
    "MAX_INLINED_NODES",
    "MAX_SCHEMA_DEPTH",
    "NARROWING_DROPS",
    "drop_keywords",
    "drop_output_schema",
    "drop_schema_keywords",
    "inline_refs",
    "inline_schema_refs",
    "map_schema_tools",
    "map_subschemas",
    "resolve_pointer",
    "transform_schema",
]
