"""Hypothesis strategies for the schema-rewrite properties: tool schemas as servers write them, and values for them.

`tool_schemas()` draws an object schema in one of four styles: pydantic (2020-12 by default, `$defs`, Optional as
`anyOf [T, null]`, `allOf [$ref]`), zod 3 (draft-07 `$schema`, `definitions`, nullable as a type list,
`additionalProperties: false`), zod 4 (2020-12 `$schema`, `const` with `type`) and hand-written (untyped nodes, bare
titles, `type` beside `anyOf`, mixed enums, discriminated `oneOf`, tuples, dictionaries, formats). `instances(schema)`
draws values meant to be valid under it: close to exact for these shapes, so the tests filter by real validation
and only the rare miss is thrown away.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final
from urllib.parse import unquote

from hypothesis import strategies as st

DRAFT_07: Final = "http://json-schema.org/draft-07/schema#"
DRAFT_2020: Final = "https://json-schema.org/draft/2020-12/schema"
STYLES: Final = ("pydantic", "zod3", "zod4", "hand")

_KEYS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=6)
_FORMATS = ("date", "date-time", "email", "uri", "uuid")
_SCALARS = (
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.floats(-1e6, 1e6, allow_nan=False) | st.text(max_size=6)
)
json_values = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=8,
)
"""Any JSON value (finite numbers)."""

Draw = Callable[[st.SearchStrategy[Any]], Any]


class _Builder:
    """One schema being drawn: its style and the definitions its `$ref`s point to."""

    def __init__(self, draw: Draw, style: str) -> None:
        self.draw = draw
        self.style = style
        self.defs: dict[str, Any] = {}
        self.defs_key = "definitions" if style == "zod3" else "$defs"

    def pick(self, *options: str) -> str:
        return str(self.draw(st.sampled_from(options)))

    def node(self, depth: int) -> dict[str, Any]:
        leafy = ("string", "integer", "number", "boolean", "enum", "const", "any", "untyped-number")
        nested = ("nullable", "union", "ref", "object", "dict", "array", "type-with-anyOf", "untyped-object")
        extra = ("oneOf-kinds", "oneOf-scalars", "allOf-ref", "tuple", "untyped-array", "mixed-enum")
        kinds = leafy if depth >= 3 else leafy + nested + extra
        kind = self.pick(*kinds)
        build: Callable[[int], dict[str, Any]] = getattr(self, "_" + kind.replace("-", "_"))
        return build(depth)

    # --- leaves --------------------------------------------------------------------------------------------------

    def _string(self, depth: int) -> dict[str, Any]:
        node: dict[str, Any] = {"type": "string"}
        extra = self.draw(st.sampled_from(["", "length", "format", "pattern"]))
        if extra == "length":
            low = self.draw(st.integers(0, 3))
            node.update(minLength=low, maxLength=low + self.draw(st.integers(0, 4)))
        elif extra == "format":
            node["format"] = self.pick(*_FORMATS)
        elif extra == "pattern":
            node["pattern"] = "^[a-z]{1,4}$"
        return self._titled(node)

    def _integer(self, depth: int) -> dict[str, Any]:
        node: dict[str, Any] = {"type": "integer"}
        if self.draw(st.booleans()):
            node.update(minimum=0, maximum=self.draw(st.integers(0, 100)))
        if self.draw(st.booleans()):
            node["default"] = 0
        return self._titled(node)

    def _number(self, depth: int) -> dict[str, Any]:
        node: dict[str, Any] = {"type": "number"}
        if self.draw(st.booleans()):
            node["exclusiveMinimum"] = 0
        return self._titled(node)

    def _boolean(self, depth: int) -> dict[str, Any]:
        return self._titled({"type": "boolean"})

    def _enum(self, depth: int) -> dict[str, Any]:
        values = self.draw(st.lists(st.sampled_from(["a", "b", "c", "dd"]), min_size=1, max_size=3, unique=True))
        node: dict[str, Any] = {"enum": values}
        if self.style != "hand" or self.draw(st.booleans()):
            node["type"] = "string"
        return self._titled(node)

    def _mixed_enum(self, depth: int) -> dict[str, Any]:
        return {
            "enum": self.draw(
                st.lists(st.sampled_from([1, "one", None, True, 2.5]), min_size=2, max_size=4, unique=True)
            )
        }

    def _const(self, depth: int) -> dict[str, Any]:
        value = self.draw(st.sampled_from(["fixed", 3, True, None]))
        node: dict[str, Any] = {"const": value}
        if self.style in ("zod4", "pydantic") and value is not None:
            node["type"] = {str: "string", int: "integer", bool: "boolean"}[type(value)]
        return node

    def _any(self, depth: int) -> dict[str, Any]:
        return dict(self.draw(st.sampled_from([{}, {"title": "Value"}, {"description": "anything"}, {"default": 3}])))

    def _untyped_number(self, depth: int) -> dict[str, Any]:
        return {"minimum": 0, "description": "a count"}

    # --- composites ----------------------------------------------------------------------------------------------

    def _nullable(self, depth: int) -> dict[str, Any]:
        inner = self.node(depth + 1)
        if self.style == "zod3" and isinstance(inner.get("type"), str) and len(inner) <= 2:
            return {**inner, "type": [inner["type"], "null"]}
        return {"anyOf": [inner, {"type": "null"}], "default": None, "title": "Maybe"}

    def _union(self, depth: int) -> dict[str, Any]:
        return {"anyOf": [self.node(depth + 1) for _ in range(self.draw(st.integers(2, 3)))]}

    def _oneOf_kinds(self, depth: int) -> dict[str, Any]:
        branches = []
        for kind in ("circle", "square"):
            props = {"kind": {"const": kind, "type": "string"}, "size": {"type": "number"}}
            branches.append({"type": "object", "properties": props, "required": ["kind"]})
        return {"oneOf": branches}

    def _oneOf_scalars(self, depth: int) -> dict[str, Any]:
        return {"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}][: self.draw(st.integers(2, 3))]}

    def _ref(self, depth: int) -> dict[str, Any]:
        name = f"D{len(self.defs)}"
        self.defs[name] = {}  # reserved before the target is drawn, so nested refs get other names
        self.defs[name] = self.node(depth + 1)
        ref: dict[str, Any] = {"$ref": f"#/{self.defs_key}/{name}"}
        sibling = self.pick("", "", "description", "default", "minLength", "additionalProperties")
        if sibling == "description":
            ref["description"] = "see the definition"
        elif sibling == "default":
            ref["default"] = None
        elif sibling == "minLength":
            ref["minLength"] = 1  # a constraint beside $ref: applies in 2020-12, ignored before 2019-09
        elif sibling == "additionalProperties":
            ref["additionalProperties"] = False  # with the target's properties, only together with them
        return ref

    def _allOf_ref(self, depth: int) -> dict[str, Any]:
        return {"allOf": [self._ref(depth)], "description": "pydantic v1 style"}

    def _object(self, depth: int) -> dict[str, Any]:
        props = {name: self.node(depth + 1) for name in self.draw(st.lists(_KEYS, min_size=1, max_size=3, unique=True))}
        node: dict[str, Any] = {"type": "object", "properties": props}
        required = [name for name in props if self.draw(st.booleans())]
        if required:
            node["required"] = required
        closing = self.pick("open", "false", "schema") if self.style == "hand" else None
        if self.style == "zod3" or closing == "false":
            node["additionalProperties"] = False
        elif closing == "schema":
            node["additionalProperties"] = {"type": "integer"}
        return node

    def _untyped_object(self, depth: int) -> dict[str, Any]:
        node = self._object(depth)
        del node["type"]
        return node

    def _dict(self, depth: int) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": self.node(depth + 1)}

    def _array(self, depth: int) -> dict[str, Any]:
        node: dict[str, Any] = {"type": "array", "items": self.node(depth + 1)}
        if self.draw(st.booleans()):
            node["maxItems"] = 3
        return node

    def _untyped_array(self, depth: int) -> dict[str, Any]:
        return {"items": self.node(depth + 1)}

    def _tuple(self, depth: int) -> dict[str, Any]:
        items = [self.node(depth + 1) for _ in range(self.draw(st.integers(1, 2)))]
        if self.style == "zod3":
            return {"type": "array", "items": items, "minItems": len(items), "maxItems": len(items)}
        return {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}

    def _type_with_anyOf(self, depth: int) -> dict[str, Any]:
        if self.draw(st.booleans()):
            return {
                "type": "string",
                "anyOf": [{"format": "date"}, {"maxLength": 2}, {"$ref": self._ref(depth)["$ref"]}],
            }
        props = {"a": {"type": "string"}, "b": {"type": "integer"}}
        return {"type": "object", "properties": props, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}

    def _titled(self, node: dict[str, Any]) -> dict[str, Any]:
        return {**node, "title": "Field"} if self.style == "pydantic" else node


@st.composite
def tool_schemas(draw: Draw, style: str | None = None) -> dict[str, Any]:
    """An object `inputSchema` (or `outputSchema`) in one of `STYLES`."""
    builder = _Builder(draw, style or draw(st.sampled_from(STYLES)))
    root = builder._object(0)
    if builder.style != "hand" or draw(st.booleans()):
        root["type"] = "object"
    elif "type" in root and draw(st.booleans()):
        del root["type"]
    if builder.defs:
        root[builder.defs_key] = builder.defs
    if builder.style == "zod3":
        root["$schema"] = DRAFT_07
    elif builder.style == "zod4" or (builder.style == "hand" and draw(st.booleans())):
        root["$schema"] = DRAFT_2020
    return root


def resolve(root: Any, ref: str) -> Any:
    """The target of a local JSON-pointer `$ref` (None when it does not resolve)."""
    node = root
    for raw in unquote(ref.removeprefix("#")).split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def instances(node: Any, root: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    """Values meant to be valid under `node` (a subschema of `root`); filter them with a real validator."""
    if node is True or node == {} or depth > 12 or not isinstance(node, Mapping):
        return json_values if node is not False else st.nothing()
    if isinstance(node.get("$ref"), str):
        target = resolve(root, node["$ref"])
        return json_values if target is None else instances(target, root, depth + 1)
    if "const" in node:
        return st.just(node["const"])
    if isinstance(node.get("enum"), list):
        return st.sampled_from(node["enum"])
    if isinstance(node.get("allOf"), list):
        rest = {key: value for key, value in node.items() if key != "allOf"}
        return instances({**rest, **node["allOf"][0]}, root, depth + 1)
    for key in ("anyOf", "oneOf"):
        if isinstance(node.get(key), list):
            rest = {k: v for k, v in node.items() if k != key}
            return st.one_of([instances({**rest, **branch}, root, depth + 1) for branch in node[key]])
    kind = node.get("type")
    if isinstance(kind, list):
        return st.one_of([instances({**node, "type": one}, root, depth + 1) for one in kind])
    if kind is None:  # nothing types it: any value, or one its keywords shape
        shaped = {"properties": "object", "items": "array", "minimum": "number"}
        guess = next((shaped[key] for key in shaped if key in node), None)
        return json_values if guess is None else json_values | instances({**node, "type": guess}, root, depth + 1)
    return _typed(node, str(kind), root, depth)


def _typed(node: Mapping[str, Any], kind: str, root: Any, depth: int) -> st.SearchStrategy[Any]:
    if kind == "string":
        if "pattern" in node:
            return st.from_regex(node["pattern"], fullmatch=True)
        return st.text(min_size=node.get("minLength", 0), max_size=node.get("maxLength", 8))
    if kind == "integer":
        return st.integers(node.get("minimum", -1000), node.get("maximum", 1000))
    if kind == "number":
        low = node.get("exclusiveMinimum")
        floats = st.floats(-1e6 if low is None else low, 1e6, exclude_min=low is not None, allow_nan=False)
        return floats | st.integers(0 if low is None else low + 1, 1000)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return _array(node, root, depth)
    if kind == "object":
        return _object(node, root, depth)
    return st.nothing()


def _array(node: Mapping[str, Any], root: Any, depth: int) -> st.SearchStrategy[Any]:
    prefix = node.get("prefixItems") or (node["items"] if isinstance(node.get("items"), list) else [])
    rest = node.get("items") if isinstance(node.get("items"), Mapping) else None
    head = st.tuples(*(instances(item, root, depth + 1) for item in prefix)).map(list)
    if rest is None and prefix:
        return head
    tail = st.lists(instances(rest, root, depth + 1), max_size=max(0, node.get("maxItems", 3) - len(prefix)))
    return st.tuples(head, tail).map(lambda parts: parts[0] + parts[1])


def _object(node: Mapping[str, Any], root: Any, depth: int) -> st.SearchStrategy[Any]:
    props = node.get("properties") or {}
    required = set(node.get("required") or ())
    fixed = {name: instances(schema, root, depth + 1) for name, schema in props.items() if name in required}
    optional = {name: instances(schema, root, depth + 1) for name, schema in props.items() if name not in required}
    known = st.fixed_dictionaries(fixed, optional=optional)
    extra_schema = node.get("additionalProperties", True)
    if extra_schema is False:
        return known
    extra_keys = _KEYS.filter(lambda key: key not in props)
    extra = st.dictionaries(extra_keys, instances(extra_schema, root, depth + 1), max_size=2)
    return st.tuples(known, extra).map(lambda parts: {**parts[1], **parts[0]})


__all__ = ["DRAFT_07", "DRAFT_2020", "STYLES", "instances", "json_values", "resolve", "tool_schemas"]
