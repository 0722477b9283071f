"""A schema rewrite never makes a value invalid that the original schema accepted: each bundled schema rule, checked
with generated schemas (pydantic, zod and hand-written shapes) and generated values, by a real JSON Schema validator.

The one intended narrowing is named here and documented on its rule: `codex.add-missing-schema-types` gives a node
that nothing types (it accepts any value) the type its keywords suggest, because Codex cannot take such a node.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

import jsonschema
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hostcompat.clients.detect import parse_client_spec
from hostcompat.clients.rewrite import plan_rewrites, rewrite_result
from hostcompat.clients.rewrites.operations import OPERATIONS, ResultOperation
from hostcompat.clients.rules import Rule, load_bundled_rules
from hostcompat.engine.server.schema_constructs import schema_constructs
from tests.clients.schema_strategies import instances, tool_schemas

SCHEMA_OPS: Final = frozenset(
    {
        "inline-schema-refs",
        "drop-schema-keywords",
        "add-missing-schema-types",
        "move-type-into-anyof",
        "drop-output-schema",
    }
)
SCHEMA_RULES: Final = [rule for rule in load_bundled_rules() if rule.rewrite.op in SCHEMA_OPS]
FIELDS: Final = ("inputSchema", "outputSchema")
INSTANCES_PER_SCHEMA: Final = 3

_VALUE_MAPS: Final = ("properties", "patternProperties", "$defs", "definitions")
_VALUE_ONE: Final = ("additionalProperties", "items", "additionalItems", "unevaluatedProperties", "unevaluatedItems")
_VALUE_MANY: Final = ("anyOf", "oneOf", "allOf", "prefixItems", "items")
_OTHER_ONE: Final = ("not", "if", "then", "else", "contains", "propertyNames")
_OTHER_MAPS: Final = ("dependentSchemas",)


def _children(node: Mapping[str, Any]) -> list[tuple[str, tuple[str, ...], Any, bool]]:
    """(keyword, path within it, subschema, whether it is a value position) for each direct subschema."""
    out: list[tuple[str, tuple[str, ...], Any, bool]] = []
    for key, value in node.items():
        if key in _VALUE_MAPS + _OTHER_MAPS and isinstance(value, Mapping):
            out += [(key, (name,), child, key in _VALUE_MAPS) for name, child in value.items()]
        elif key in _VALUE_MANY and isinstance(value, list):
            out += [(key, (str(index),), child, True) for index, child in enumerate(value)]
        elif key in _VALUE_ONE + _OTHER_ONE and isinstance(value, Mapping):
            out.append((key, (), value, key in _VALUE_ONE))
    return out


def _evidence(node: Any) -> bool:
    """This test's own reading of "something gives the node a type" (type, enum, const, $ref, typed branches)."""
    if node is False:
        return True
    if not isinstance(node, Mapping):
        return False
    if any(key in node for key in ("type", "enum", "const", "$ref")):
        return True
    if any(_evidence(branch) for branch in node.get("allOf") or ()):
        return True
    return any(node.get(key) and all(_evidence(b) for b in node[key]) for key in ("anyOf", "oneOf"))


def _without_guessed_types(rewritten: Any, original: Any, value_position: bool = True) -> Any:
    """`rewritten` less the documented narrowing: a `type` added to a value-position node without type evidence.

    Also checks that the rewrite added nothing but `type` keys, and never guessed one outside a value position.
    """
    if not isinstance(original, Mapping):
        assert rewritten == original
        return rewritten
    assert isinstance(rewritten, Mapping)
    added = rewritten.keys() - original.keys()
    assert added <= {"type"}, f"the rewrite added {added}"
    out = dict(rewritten)
    if added and not _evidence(original):
        assert value_position, f"a type was guessed outside a value position: {original}"
        del out["type"]
    for key, path, child, value in _children(original):
        holder = rewritten[key]
        for step in path:
            holder = holder[int(step)] if isinstance(holder, list) else holder[step]
        relaxed = _without_guessed_types(holder, child, value_position and value)
        if relaxed is not holder:
            out[key] = _replace(out[key], path, relaxed)
    return out


def _replace(container: Any, path: tuple[str, ...], value: Any) -> Any:
    if not path:
        return value
    if isinstance(container, list):
        copy = list(container)
        copy[int(path[0])] = value
        return copy
    return {**container, path[0]: value}


NARROWING_EXCEPTIONS: Final[dict[str, Callable[[Any, Any], Any]]] = {
    "codex.add-missing-schema-types": _without_guessed_types,
}
"""Rule id → what its documented narrowing is, as a function removing it from the rewritten schema."""


def _validator(schema: Any) -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    return cls(schema)


def _client_for(rule: Rule) -> str:
    """A client the rule applies to: its first client's name at a version in its range."""
    match = rule.clients[0]
    name = match.name.replace("*", "x")
    specs = [f"{name}@{version}" for version in ("99.0.0", "0.0.1")]
    spec = next((spec for spec in specs if rule.applies_to(parse_client_spec(spec))), None)
    assert spec is not None, (rule.id, specs)
    return spec


def _rewrite(rule: Rule, tool: dict[str, Any]) -> Mapping[str, Any]:
    profile = plan_rewrites(parse_client_spec(_client_for(rule)), [rule])
    result = rewrite_result("tools/list", {"tools": [tool]}, profile).result
    rewritten: Mapping[str, Any] = result["tools"][0]
    return rewritten


def test_every_schema_operation_is_covered_by_this_property() -> None:
    schema_modules = {"hostcompat.clients.rewrites.schemas", "hostcompat.clients.rewrites.schema_types"}
    ops = {
        name
        for name, op in OPERATIONS.items()
        if isinstance(op, ResultOperation) and op.patch.__module__ in schema_modules
    }
    assert ops == SCHEMA_OPS
    assert {rule.rewrite.op for rule in SCHEMA_RULES} == SCHEMA_OPS


@pytest.mark.parametrize("rule_id", sorted(NARROWING_EXCEPTIONS))
def test_each_intended_narrowing_is_documented_on_its_rule(rule_id: str) -> None:
    [rule] = [rule for rule in SCHEMA_RULES if rule.id == rule_id]
    assert "Narrows on purpose" in rule.notes


@pytest.mark.timeout(300)  # 150 jsonschema-heavy examples; three times slower under branch coverage
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=tool_schemas(), data=st.data())
def test_a_value_the_original_schema_accepts_stays_valid_after_each_schema_rule(
    schema: dict[str, Any], data: st.DataObject
) -> None:
    """Every bundled schema rule, on one drawn schema and the same drawn values (drawing is the slow part)."""
    original = _validator(schema)
    values = [data.draw(instances(schema, schema)) for _ in range(INSTANCES_PER_SCHEMA)]
    valid = [value for value in values if original.is_valid(value)]
    assume(valid)
    for rule in SCHEMA_RULES:
        rewritten_tool = _rewrite(rule, {"name": "tool", "inputSchema": schema, "outputSchema": schema})
        narrowing = NARROWING_EXCEPTIONS.get(rule.id)
        for field in FIELDS:
            if field not in rewritten_tool:  # a dropped schema accepts every value
                continue
            rewritten = rewritten_tool[field]
            _validator(rewritten)  # the rewritten schema is itself a valid schema of its dialect
            judged = _validator(rewritten if narrowing is None else narrowing(rewritten, schema))
            for value in valid:
                assert judged.is_valid(value), f"{rule.id} refuses {value!r} in {field}: {rewritten}"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=tool_schemas())
def test_after_the_codex_rewrite_the_engine_finds_no_untyped_property_left(schema: dict[str, Any]) -> None:
    """The rewrite fixes what the engine flags (the generated schemas hold no untyped `not`/`if` node to skip)."""
    [rule] = [rule for rule in SCHEMA_RULES if rule.id == "codex.add-missing-schema-types"]
    rewritten = _rewrite(rule, {"name": "tool", "inputSchema": schema})["inputSchema"]
    assert "missing-type" not in schema_constructs(rewritten)


@settings(max_examples=100, deadline=None)
@given(schema=tool_schemas(), data=st.data())
def test_the_generated_values_are_mostly_valid_so_the_property_has_teeth(
    schema: dict[str, Any], data: st.DataObject
) -> None:
    validator = _validator(schema)
    values = [data.draw(instances(schema, schema)) for _ in range(INSTANCES_PER_SCHEMA)]
    assume(any(validator.is_valid(value) for value in values))
