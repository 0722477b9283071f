"""Schema rewrites about `type`: give untyped nodes one (Codex), move a `type` beside `anyOf` into the branches.

Both keep every value the schema accepted valid, with one documented exception: a node in a value position that
nothing types (no `type`, `enum`, `const`, `$ref` or typed combinator branches) accepts any JSON value, which a
client that needs `type` on every node cannot take at all; it gets the type its keywords suggest, else `"string"`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from hostcompat.clients.rewrites.copy_on_write import JSONObject, map_list, with_key, without_keys
from hostcompat.clients.rewrites.schemas import (
    INPUT_ONLY,
    MAX_SCHEMA_DEPTH,
    map_schema_tools,
    map_subschemas,
    transform_schema,
)
from hostcompat.wire_json import WireJSON

NOT_VALUE_KEYS: Final = frozenset(
    {"not", "if", "then", "else", "contains", "propertyNames", "dependentSchemas", "dependencies"}
)
"""Subschema keywords whose schemas do not describe the value itself: a guessed type there is never added."""

_UNSURE_KEYS: Final = ("not", "if")
_GUESSES: Final = (
    ("object", ("properties", "additionalProperties", "patternProperties", "required", "minProperties")),
    ("object", ("maxProperties", "propertyNames", "dependentRequired", "unevaluatedProperties")),
    ("array", ("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "unevaluatedItems")),
    ("number", ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")),
    ("string", ("minLength", "maxLength", "pattern", "format")),
)


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


def _common(types: set[str]) -> str | None:
    """The one type that covers `types` (integer is a number), or None."""
    if types == {"integer", "number"}:
        return "number"
    return next(iter(types)) if len(types) == 1 else None


def has_type_evidence(node: object, depth: int = 0) -> bool:
    """Whether something gives the node a type: `type`, `enum`, `const`, `$ref`, `allOf` with a typed branch, or a
    non-empty `anyOf`/`oneOf` of typed branches (the schema `false` is typed, `true` is not).

    The same reading as the engine's `missing-type` check, except that a `$ref` always counts (the rewrite types
    the definitions a `$ref` points to where they stand).
    """
    if node is False:
        return True
    if type(node) is not dict and not isinstance(node, Mapping):
        return False
    if "type" in node or "enum" in node or "const" in node or "$ref" in node or depth >= MAX_SCHEMA_DEPTH:
        return True
    all_of = node.get("allOf")
    if isinstance(all_of, list) and any(has_type_evidence(branch, depth + 1) for branch in all_of):
        return True
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches and all(has_type_evidence(b, depth + 1) for b in branches):
            return True
    return False


def implied_type(node: JSONObject) -> str | None:
    """The one type every value `node` accepts already has (from `const`, `enum`, an `allOf` branch's `type`, or
    `anyOf`/`oneOf` branches that all declare it), or None. Adding it never changes what the node accepts.
    """
    if "const" in node:
        return json_type(node["const"])
    enum = node.get("enum")
    if isinstance(enum, list) and enum:
        found = _common({json_type(value) for value in enum})
        if found is not None:
            return found
    all_of = node.get("allOf")
    if isinstance(all_of, list):
        for branch in all_of:
            if isinstance(branch, Mapping) and isinstance(branch.get("type"), str):
                return str(branch["type"])
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches:
            types: set[str] = set()
            for branch in branches:
                kind = branch.get("type") if type(branch) is dict or isinstance(branch, Mapping) else None
                if type(kind) is not str and branch is not False:
                    break
                if kind is not None:
                    types.add(kind)
            else:
                found = _common(types) if types else None
                if found is not None:
                    return found
    return None


def guess_type(node: JSONObject) -> str | None:
    """The type a node with no type evidence most likely means: from its keywords (`properties` → object, `items` →
    array, `minimum` → number, `pattern` → string), else from a non-null `default`, else `"string"` (what a model
    can always produce). None for nodes with `not` or `if`, whose meaning a guess could turn around.
    """
    if any(key in node for key in _UNSURE_KEYS):
        return None
    for kind, keys in _GUESSES:
        if any(key in node for key in keys):
            return kind
    default = node.get("default")
    return "string" if default is None else json_type(default)


def add_missing_types(schema: JSONObject) -> JSONObject:
    """`schema` with a `type` on every node that lacks one and where one can be given, children first.

    A node gets the type its `enum`, `const` or branches imply (no change in meaning). A node in a value position
    (the root, properties, items, additionalProperties, combinator branches, definitions; not inside `not`, `if`,
    `contains`, …) that has no type evidence at all gets `guess_type`: this narrows it from "any value" to that type,
    the documented exception. `$ref` nodes, nodes whose branches are typed but differ (pydantic's `anyOf [T, null]`)
    and nodes with a mixed-type `enum` keep no type: adding one would reject values they accept.
    """

    def visit(node: Any, depth: int, value_position: bool) -> Any:
        if (type(node) is not dict and not isinstance(node, Mapping)) or depth >= MAX_SCHEMA_DEPTH:
            return node
        if NOT_VALUE_KEYS.isdisjoint(node):
            out = map_subschemas(node, lambda child: visit(child, depth + 1, value_position))
        else:
            out = map_subschemas(node, lambda child: visit(child, depth + 1, value_position), skip=NOT_VALUE_KEYS)
            out = map_subschemas(out, lambda child: visit(child, depth + 1, False), only=NOT_VALUE_KEYS)
        if "type" in out or "$ref" in out:
            return out
        kind = implied_type(out)
        if kind is None and value_position and not has_type_evidence(out):
            kind = guess_type(out)
        return out if kind is None else with_key(out, "type", kind)

    result: JSONObject = visit(schema, 0, True)
    return result


def move_type_into_any_of(schema: JSONObject) -> JSONObject:
    """`schema` with no node holding both `type` and `anyOf`: a string `type` moves into untyped branches.

    "T and (A or B)" is "(T and A) or (T and B)", so values keep their validity; a `$ref` branch or a `type`
    list is not repeated into the branches, which only widens the node.
    """

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


def add_missing_schema_types(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """tools/list: give every schema node a `type` where `add_missing_types` can (default: input schemas only)."""
    return map_schema_tools(method, payload, params.get("fields", INPUT_ONLY), add_missing_types)


def move_schema_type_into_any_of(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """tools/list: never leave `type` beside `anyOf` (default: input schemas only)."""
    return map_schema_tools(method, payload, params.get("fields", INPUT_ONLY), move_type_into_any_of)


__all__ = [
    "NOT_VALUE_KEYS",
    "add_missing_schema_types",
    "add_missing_types",
    "guess_type",
    "has_type_evidence",
    "implied_type",
    "json_type",
    "move_schema_type_into_any_of",
    "move_type_into_any_of",
]
