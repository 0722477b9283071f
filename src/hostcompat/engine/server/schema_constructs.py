"""Which JSON Schema constructs a tool's `inputSchema` uses, named as the host catalog names what hosts reject.

A small iterative walker (bounded in depth and nodes, total over any JSON) that reports each construct of
`SCHEMA_FEATURES` once, with the JSON path of its first use, so a finding can point at it. A node counts as typed
the way hosts read it: by `type`, `enum`, `const`, a `$ref` to a typed node, or combinator branches that are typed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final
from urllib.parse import unquote

from hostcompat.engine.catalog.schema import SCHEMA_FEATURES

MAX_SCHEMA_DEPTH: Final = 64
"""Nodes nested deeper than this are not visited."""

MAX_SCHEMA_NODES: Final = 5_000
"""The most schema nodes visited in one schema; the rest is not examined."""

MAX_TYPE_STEPS: Final = 20_000
"""The most nodes looked at, in one schema, to decide whether nodes are typed; past it a node counts as typed."""

_ROOT: Final = "root"
_PROPERTY: Final = "property"
_ITEMS: Final = "items"
_OTHER: Final = "other"
_TYPED_ROLES: Final = frozenset({_ROOT, _PROPERTY, _ITEMS})
_TYPE_KEYWORDS: Final = ("type", "enum", "const")
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
_CHILD_KEY_SET: Final = frozenset(_CHILD_KEYS)
_FEATURE_ORDER: Final = {feature: index for index, feature in enumerate(SCHEMA_FEATURES)}


_Path = tuple[Any, str] | None
"""A path as a chain (parent chain, segment), rendered only when a construct is found there."""


def schema_constructs(schema: object, *, root_path: str = "inputSchema") -> dict[str, str]:
    """The constructs of `SCHEMA_FEATURES` that `schema` uses, each with the JSON path of its first use.

    The walk is depth first in document order, so the paths are stable. Constructs:
    `$ref`, `$defs`, `definitions`, `$schema` (any), `$schema-2020-12`, `type-with-anyOf` (a node with both),
    `type-array` (`type` is a list; also `type-array-argument` where that node is a top-level property, an
    argument), `anyOf-in-items` (`items` holds `anyOf`), `ref-with-siblings` (`$ref` beside
    keys other than description/default), `bare-title` (a sub-schema that is only `{"title": ...}`), `oneOf`,
    `object-without-properties`, `missing-type` (the root, a property or an items schema that nothing gives a type,
    see `has_type`) and `additionalProperties-not-false` (an object schema that does not set it to false).
    A schema that is not an object uses nothing. Never raises for JSON input; the result is in
    `SCHEMA_FEATURES` order.
    """
    found: dict[str, str] = {}
    stack: list[tuple[Any, _Path, str, int]] = [(schema, None, _ROOT, 0)]
    visited = 0
    types = _TypeReader(schema)
    while stack and visited < MAX_SCHEMA_NODES:
        node, path, role, depth = stack.pop()
        if type(node) is not dict and not isinstance(node, Mapping):
            continue
        visited += 1
        keys = node.keys()
        constructs: Sequence[tuple[str, str]]
        if role == _ROOT or not keys.isdisjoint(_NOTABLE_KEYS):
            constructs = _node_constructs(node, role, types)
        else:  # the common node (a typed or untyped leaf, an object): what `_node_constructs` gives, quicker
            kind = node.get("type")
            if isinstance(kind, str) and kind != "object":  # a typed leaf uses nothing
                if role in _TYPED_ROLES:
                    types.steps -= 1  # what `types.typed` counts for a node that has a type
                constructs = ()
            else:
                constructs = _plain_node_constructs(node, role, types)
        if (
            depth == 1
            and path is not None
            and path[1].startswith(".properties.")
            and isinstance(node.get("type"), list)
        ):
            constructs = [*constructs, ("type-array-argument", "")]  # a tool argument itself, not a nested schema
        for feature, suffix in constructs:
            if feature not in found:
                found[feature] = _render(root_path, path) + suffix
        if depth < MAX_SCHEMA_DEPTH and not keys.isdisjoint(_CHILD_KEY_SET):
            stack.extend(reversed(_children(node, path, depth + 1)))
    return {feature: found[feature] for feature in sorted(found, key=_FEATURE_ORDER.__getitem__)}


_NOTABLE_KEYS: Final = frozenset(
    {"$ref", "$defs", "definitions", "oneOf", "$schema", "anyOf", "allOf", "items", "title"}
)
"""Keys that only `_node_constructs` reads; a node other than the root without any goes the quicker way."""


def _plain_node_constructs(node: Mapping[Any, Any], role: str, types: _TypeReader) -> list[tuple[str, str]]:
    """`_node_constructs` of a node that is not the root and has none of `_NOTABLE_KEYS`."""
    kind = node.get("type")
    out: list[tuple[str, str]] = []
    if isinstance(kind, str):
        if kind == "object":
            if "properties" not in node:
                out.append(("object-without-properties", ""))
            if node.get("additionalProperties") is not False:
                out.append(("additionalProperties-not-false", ""))
        if role in _TYPED_ROLES:
            types.steps -= 1  # what `types.typed` counts for a node that has a type
        return out
    if isinstance(kind, list):
        out.append(("type-array", ""))
        if "object" in kind:
            if "properties" not in node:
                out.append(("object-without-properties", ""))
            if node.get("additionalProperties") is not False:
                out.append(("additionalProperties-not-false", ""))
    if role in _TYPED_ROLES and not types.typed(node, 0):
        out.append(("missing-type", ""))
    return out


def _render(root_path: str, path: _Path) -> str:
    segments: list[str] = []
    while path is not None:
        path, segment = path
        segments.append(segment)
    return root_path + "".join(reversed(segments))


def has_type(node: object, root: object = None) -> bool:
    """Whether a schema node has a type as hosts read it.

    A node is typed by `type`, `enum` or `const`; by a local `$ref` to a typed node (a remote, unresolvable or
    recursive `$ref` counts as typed: nothing says otherwise); by `allOf` with a typed branch; or by a non-empty
    `anyOf`/`oneOf` whose branches are all typed (pydantic's `anyOf: [{type: string}, {type: null}]`). The schema
    `false` is typed (it admits nothing), `true` is not. `root` is the document `$ref`s point into (default: `node`).
    Bounded by `MAX_SCHEMA_DEPTH` and `MAX_TYPE_STEPS`, past which a node counts as typed.
    """
    return _TypeReader(node if root is None else root).typed(node, 0)


class _TypeReader:
    """`has_type` over one schema document, remembering what each `$ref` resolved to."""

    def __init__(self, root: object) -> None:
        self.root = root
        self.steps = MAX_TYPE_STEPS
        self.refs: dict[str, bool | None] = {}
        """`$ref` → whether its target is typed; None while it is being decided (a cycle counts as typed)."""

    def typed(self, node: object, depth: int) -> bool:
        if node is False:
            return True
        if type(node) is not dict and not isinstance(node, Mapping):
            return False
        self.steps -= 1
        if any(key in node for key in _TYPE_KEYWORDS) or self.steps < 0 or depth >= MAX_SCHEMA_DEPTH:
            return True
        if "$ref" in node and self.ref_typed(node["$ref"], depth):
            return True
        all_of = node.get("allOf")
        if isinstance(all_of, list) and any(self.typed(branch, depth + 1) for branch in all_of):
            return True
        for key in ("anyOf", "oneOf"):
            branches = node.get(key)
            if isinstance(branches, list) and branches and all(self.typed(b, depth + 1) for b in branches):
                return True
        return False

    def ref_typed(self, ref: object, depth: int) -> bool:
        if not isinstance(ref, str):
            return True
        if ref in self.refs:
            known = self.refs[ref]
            return True if known is None else known
        target = _resolve(self.root, ref)
        if target is _UNRESOLVED:
            return True
        self.refs[ref] = None
        self.refs[ref] = typed = self.typed(target, depth + 1)
        return typed


_UNRESOLVED: Final = object()


def _resolve(root: object, ref: str) -> object:
    """What a local JSON-pointer `$ref` points to in `root`, or `_UNRESOLVED` (remote, anchor, dangling)."""
    if not ref.startswith("#"):
        return _UNRESOLVED
    fragment = unquote(ref[1:])
    if not fragment:
        return root
    if not fragment.startswith("/"):
        return _UNRESOLVED
    node = root
    for raw in fragment[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and len(part) < 10 and int(part) < len(node):
            node = node[int(part)]
        else:
            return _UNRESOLVED
    return node


def _node_constructs(node: Mapping[Any, Any], role: str, types: _TypeReader) -> list[tuple[str, str]]:
    """The constructs this node uses, each with the path suffix (relative to the node) where it shows."""
    keys = node.keys()
    declared = "type" in keys
    kind = node.get("type") if declared else None
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
    if declared and "anyOf" in keys:
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
    if role in _TYPED_ROLES and not types.typed(node, 0):
        out.append(("missing-type", ""))
    if role == _ROOT and any(key in keys for key in ("anyOf", "oneOf", "allOf")):
        out.append(("combinator-at-root", ""))
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


__all__ = ["MAX_SCHEMA_DEPTH", "MAX_SCHEMA_NODES", "MAX_TYPE_STEPS", "has_type", "schema_constructs"]
