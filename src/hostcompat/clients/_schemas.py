"""JSON Schema rewrites of tool `inputSchema`/`outputSchema`: inline refs, drop keywords, add or move `type`.

Schema-aware: only subschema positions are visited, so a property *named* `$schema` or an `enum`
value shaped like a schema is never touched. Depth and work are bounded; a schema that cannot be
rewritten safely (a recursive or dangling `$ref`, too much expansion) is left exactly as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import unquote

from hostcompat.clients._cow import (
    JSONObject,
    map_list,
    map_list_field,
    map_values,
    replace_key,
    with_key,
    without_keys,
)

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
_INDEX = re.compile(r"[0-9]{1,9}")

Change = Callable[[Any], Any]


def _is_object(value: object) -> bool:
    return type(value) is dict or isinstance(value, Mapping)  # the exact-type test first: the ABC check is slow


def map_subschemas(node: JSONObject, change: Change, *, skip: Sequence[str] = ()) -> JSONObject:
    """`node` with `change` applied to each direct subschema (copy-on-write; keys in `skip` not visited)."""
    present = _SUBSCHEMA_KEYS.intersection(node.keys())
    if not present:  # a leaf: the common case, kept cheap
        return node
    out = node
    for key in sorted(present):
        value = node[key]
        if key in _MAPS_SET and key not in skip and _is_object(value):
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
            clash = not isinstance(target, Mapping) or any(
                key in target and key not in _ANNOTATION_KEYS for key in siblings
            )
            if ref in active or clash or not isinstance(target, Mapping):
                self.failed = True
                return node
            self.inlined += 1
            return self.visit({**target, **siblings}, depth + 1, (*active, ref), at_root)
        skip = _DEFINITION_KEYS if at_root else ()
        return map_subschemas(node, lambda child: self.visit(child, depth + 1, active, False), skip=skip)


def inline_refs(schema: JSONObject) -> JSONObject:
    """`schema` with every local `$ref` replaced by its target and the root `$defs`/`definitions` dropped.

    Keywords beside a `$ref` are merged into the target when they are annotations (title,
    description, default, …) or absent from it. The original comes back unchanged when any `$ref`
    is recursive, dangling, remote, clashes with its siblings, or the expansion exceeds the budget.
    """
    inliner = _Inliner(schema)
    out = inliner.visit(schema, 0, (), True)
    if inliner.failed or not inliner.inlined or not isinstance(out, Mapping):
        return schema
    return without_keys(out, _DEFINITION_KEYS)


def drop_keywords(schema: JSONObject, keywords: Sequence[str]) -> JSONObject:
    """`schema` without the given keywords in any schema node (property names are not keywords)."""
    return transform_schema(schema, lambda node: without_keys(node, keywords))


def json_type(value: object) -> str:
    """The JSON Schema type name of a JSON value."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "array"
    return "object"


def _branch_type(node: JSONObject) -> str | None:
    # Optional[T] (anyOf [T, null]) is a T; several non-null types fall back to "string" (what a
    # model can always produce); branches without a declared type give no evidence.
    declared: list[str] = []
    for key in ("anyOf", "oneOf", "allOf"):
        branches = node.get(key)
        if isinstance(branches, list):
            declared.extend(
                branch["type"]
                for branch in branches
                if isinstance(branch, Mapping) and isinstance(branch.get("type"), str)
            )
    non_null = set(declared) - {"null"}
    if len(non_null) == 1:
        return non_null.pop()
    if non_null:
        return "string"
    return "null" if declared else None


def infer_type(node: JSONObject) -> str | None:
    """The `type` a schema node evidently has, `"string"` when nothing says otherwise, or None when unsure.

    Nodes with `$ref`, `not` or `if`, and combinators whose branches declare no type, are unsure.
    """
    if any(key in node for key in ("anyOf", "oneOf", "allOf")):
        return _branch_type(node)
    if any(key in node for key in ("$ref", "not", "if")):
        return None
    if any(key in node for key in ("properties", "additionalProperties", "patternProperties", "required")):
        return "object"
    if any(key in node for key in ("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains")):
        return "array"
    if "const" in node:
        return json_type(node["const"])
    enum = node.get("enum")
    if isinstance(enum, list) and enum:
        types = {json_type(value) for value in enum}
        if types == {"integer", "number"}:
            return "number"
        return types.pop() if len(types) == 1 else None
    if node.get("default") is not None:
        return json_type(node["default"])
    if any(key in node for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
        return "number"
    return "string"


def add_missing_types(schema: JSONObject) -> JSONObject:
    """`schema` with an inferred `type` on every node that has none, children first (so branches inform parents).

    Nodes `infer_type` is unsure about are left untyped.
    """

    def add(node: JSONObject) -> JSONObject:
        if "type" in node:
            return node
        inferred = infer_type(node)
        return node if inferred is None else with_key(node, "type", inferred)

    return transform_schema(schema, add, bottom_up=True)


def move_type_into_any_of(schema: JSONObject) -> JSONObject:
    """`schema` with no node holding both `type` and `anyOf`: a string `type` moves into untyped branches."""

    def move(node: JSONObject) -> JSONObject:
        any_of = node.get("anyOf")
        if "type" not in node or not isinstance(any_of, list):
            return node
        outer = node["type"]

        def push(branch: object) -> object:
            if isinstance(outer, str) and isinstance(branch, Mapping) and "type" not in branch and "$ref" not in branch:
                return with_key(branch, "type", outer)
            return branch

        return with_key(without_keys(node, ("type",)), "anyOf", map_list(any_of, push))

    return transform_schema(schema, move)


def _map_tool_schemas(method: str, payload: JSONObject, fields: Sequence[str], change: Change) -> JSONObject:
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


def inline_schema_refs(method: str, payload: JSONObject, params: Mapping[str, Any]) -> JSONObject:
    """tools/list: inline `$ref`s in each tool's schemas (`fields`, default input and output)."""
    return _map_tool_schemas(method, payload, params.get("fields", INPUT_AND_OUTPUT), inline_refs)


def drop_schema_keywords(method: str, payload: JSONObject, params: Mapping[str, Any]) -> JSONObject:
    """tools/list: remove `keywords` from every node of each tool's schemas."""
    keywords: Sequence[str] = params.get("keywords", ())
    return _map_tool_schemas(
        method, payload, params.get("fields", INPUT_AND_OUTPUT), lambda schema: drop_keywords(schema, keywords)
    )


def add_missing_schema_types(method: str, payload: JSONObject, params: Mapping[str, Any]) -> JSONObject:
    """tools/list: give every schema node a `type` (default: input schemas only)."""
    return _map_tool_schemas(method, payload, params.get("fields", INPUT_ONLY), add_missing_types)


def move_schema_type_into_any_of(method: str, payload: JSONObject, params: Mapping[str, Any]) -> JSONObject:
    """tools/list: never leave `type` beside `anyOf` (default: input schemas only)."""
    return _map_tool_schemas(method, payload, params.get("fields", INPUT_ONLY), move_type_into_any_of)


def drop_output_schema(method: str, payload: JSONObject, params: Mapping[str, Any]) -> JSONObject:
    """tools/list: remove each tool's `outputSchema`."""
    if method != "tools/list":
        return payload
    return map_list_field(
        payload, "tools", lambda tool: without_keys(tool, ("outputSchema",)) if isinstance(tool, Mapping) else tool
    )


__all__ = [
    "INPUT_AND_OUTPUT",
    "INPUT_ONLY",
    "MAX_INLINED_NODES",
    "MAX_SCHEMA_DEPTH",
    "add_missing_schema_types",
    "add_missing_types",
    "drop_keywords",
    "drop_output_schema",
    "drop_schema_keywords",
    "infer_type",
    "inline_refs",
    "inline_schema_refs",
    "json_type",
    "map_subschemas",
    "move_schema_type_into_any_of",
    "move_type_into_any_of",
    "resolve_pointer",
    "transform_schema",
]
