import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.engine.catalog.schema import SCHEMA_FEATURES
from hostcompat.engine.server.schema_constructs import MAX_SCHEMA_DEPTH, has_type, schema_constructs
from hostcompat.engine.server.surface import describe_server_surface
from hostcompat.errors import InvalidInput

CLEAN = {
    "type": "object",
    "properties": {"name": {"type": "string", "title": "Name"}, "tags": {"type": "array", "items": {"type": "string"}}},
    "required": ["name"],
    "additionalProperties": False,
}

CASES = [
    ("$ref", {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}, "inputSchema.properties.a"),
    ("$defs", {"type": "object", "properties": {}, "$defs": {}}, "inputSchema"),
    ("definitions", {"type": "object", "properties": {}, "definitions": {}}, "inputSchema"),
    ("$schema", {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}, "inputSchema"),
    ("$schema-2020-12", {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}, "inputSchema"),
    (
        "type-with-anyOf",
        {"type": "object", "properties": {"a": {"type": "string", "anyOf": [{}]}}},
        "inputSchema.properties.a",
    ),
    ("type-array", {"type": "object", "properties": {"a": {"type": ["string", "null"]}}}, "inputSchema.properties.a"),
    (
        "anyOf-in-items",
        {"type": "object", "properties": {"a": {"type": "array", "items": {"anyOf": []}}}},
        "inputSchema.properties.a.items",
    ),
    (
        "ref-with-siblings",
        {"type": "object", "properties": {"a": {"$ref": "#/x", "title": "A"}}},
        "inputSchema.properties.a",
    ),
    ("bare-title", {"type": "object", "properties": {"a": {"title": "A"}}}, "inputSchema.properties.a"),
    ("oneOf", {"type": "object", "properties": {"a": {"oneOf": []}}}, "inputSchema.properties.a"),
    ("object-without-properties", {"type": "object"}, "inputSchema"),
    ("missing-type", {"type": "object", "properties": {"a": {"description": "no type"}}}, "inputSchema.properties.a"),
    ("additionalProperties-not-false", {"type": "object", "properties": {}}, "inputSchema"),
    ("combinator-at-root", {"type": "object", "properties": {}, "anyOf": [{"required": []}]}, "inputSchema"),
    (
        "type-array-argument",
        {"type": "object", "properties": {"a": {"type": ["string", "null"]}}},
        "inputSchema.properties.a",
    ),
]


@pytest.mark.parametrize(("feature", "schema", "path"), CASES, ids=[case[0] for case in CASES])
def test_each_construct_is_found_with_the_path_of_its_first_use(feature: str, schema: Any, path: str) -> None:
    assert schema_constructs(schema)[feature] == path


def test_every_catalog_schema_feature_has_a_case() -> None:
    assert {case[0] for case in CASES} == set(SCHEMA_FEATURES)


def test_a_type_list_nested_below_an_argument_is_no_argument_of_its_own() -> None:
    nested = {"type": "object", "properties": {"a": {"type": "array", "items": {"type": ["string", "null"]}}}}
    assert "type-array" in schema_constructs(nested) and "type-array-argument" not in schema_constructs(nested)


def test_a_strict_plain_schema_uses_nothing() -> None:
    assert schema_constructs(CLEAN) == {}


@pytest.mark.parametrize("schema", [None, True, [], "object", 3])
def test_a_schema_that_is_not_an_object_uses_nothing(schema: Any) -> None:
    assert schema_constructs(schema) == {}


def test_constructs_come_in_catalog_order_and_the_first_use_wins() -> None:
    schema = {"type": "object", "properties": {"a": {"oneOf": []}, "b": {"$ref": "#/x"}, "c": {"oneOf": []}}}
    found = schema_constructs(schema)
    assert list(found) == [feature for feature in SCHEMA_FEATURES if feature in found]
    assert found["oneOf"] == "inputSchema.properties.a"


def test_definitions_and_combinators_are_walked_too() -> None:
    schema = {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
        "$defs": {"A": {"anyOf": [{"type": "object"}]}},
    }
    assert schema_constructs(schema)["object-without-properties"] == "inputSchema.$defs.A.anyOf[0]"


OPTIONAL_STRING = {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "title": "Contains"}
TYPED_NODES = [
    pytest.param(OPTIONAL_STRING, id="pydantic-optional"),
    pytest.param({"enum": ["local", "remote"]}, id="enum"),
    pytest.param({"const": 3}, id="const"),
    pytest.param({"$ref": "#/$defs/Typed"}, id="ref-to-typed"),
    pytest.param({"$ref": "#/$defs/Optional"}, id="ref-to-typed-branches"),
    pytest.param({"$ref": "#/$defs/Loop"}, id="recursive-ref"),
    pytest.param({"$ref": "https://example.com/s.json"}, id="remote-ref"),
    pytest.param({"allOf": [{"$ref": "#/$defs/Typed"}], "description": "pydantic v1"}, id="allOf-with-a-typed-branch"),
    pytest.param({"oneOf": [{"type": "integer"}, {"enum": ["auto"]}]}, id="oneOf-of-typed-branches"),
    pytest.param({"anyOf": [{"anyOf": [{"type": "string"}, {"const": 1}]}, {"type": "null"}]}, id="nested-combinators"),
    pytest.param({"anyOf": [{"type": "string"}, False]}, id="false-branch"),
]
UNTYPED_NODES = [
    pytest.param({}, id="any"),
    pytest.param({"title": "Value"}, id="bare-title"),
    pytest.param({"description": "free", "default": 3}, id="only-annotations"),
    pytest.param({"anyOf": [{"type": "string"}, {}]}, id="anyOf-with-an-untyped-branch"),
    pytest.param({"anyOf": []}, id="empty-anyOf"),
    pytest.param({"oneOf": [{"type": "string"}, True]}, id="true-branch"),
    pytest.param({"allOf": [{"description": "x"}]}, id="allOf-without-a-typed-branch"),
    pytest.param({"$ref": "#/$defs/Untyped"}, id="ref-to-untyped"),
    pytest.param({"not": {"type": "null"}}, id="not"),
]
DEFS = {
    "Typed": {"type": "object", "properties": {}},
    "Optional": OPTIONAL_STRING,
    "Loop": {"anyOf": [{"$ref": "#/$defs/Loop"}]},
    "Untyped": {"title": "Untyped"},
}


def _with_property(node: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"a": node}, "$defs": DEFS}


@pytest.mark.parametrize("node", TYPED_NODES)
def test_a_property_typed_by_enum_const_ref_or_typed_branches_is_not_missing_its_type(node: Any) -> None:
    schema = _with_property(node)
    assert has_type(node, schema)
    assert "missing-type" not in schema_constructs(schema)
    assert "missing-type" not in schema_constructs({"type": "array", "items": node, "$defs": DEFS})


@pytest.mark.parametrize("node", UNTYPED_NODES)
def test_a_property_nothing_gives_a_type_is_missing_its_type(node: Any) -> None:
    schema = _with_property(node)
    assert not has_type(node, schema)
    assert schema_constructs(schema)["missing-type"] == "inputSchema.properties.a"
    assert schema_constructs({"type": "array", "items": node, "$defs": DEFS})["missing-type"] == "inputSchema.items"


def test_the_root_is_typed_through_a_ref_and_definitions_are_not_checked_on_their_own() -> None:
    assert "missing-type" not in schema_constructs({"$ref": "#/$defs/Typed", "$defs": DEFS})
    assert schema_constructs({"$ref": "#/$defs/Untyped", "$defs": DEFS})["missing-type"] == "inputSchema"


def test_deep_and_wide_combinators_are_decided_within_the_bounds() -> None:
    deep: dict[str, Any] = {"description": "leaf"}
    for _ in range(MAX_SCHEMA_DEPTH * 4):
        deep = {"anyOf": [deep]}
    assert has_type(deep)  # past the depth bound a node counts as typed: no false alarm
    definitions: dict[str, Any] = {f"D{i}": {"anyOf": [{"$ref": f"#/$defs/D{i + 1}"}] * 3} for i in range(25)}
    definitions["D25"] = {"type": "string"}
    assert has_type({"$ref": "#/$defs/D0"}, {"$defs": definitions})  # 3**25 paths: each $ref is decided once
    definitions["D25"] = {"title": "untyped"}
    assert not has_type({"$ref": "#/$defs/D0"}, {"$defs": definitions})


def test_the_git_reference_server_uses_no_untyped_property() -> None:
    """mcp-server-git's optional arguments are pydantic's anyOf [T, null]: typed, so nothing to report for Codex."""
    captured = json.loads((Path(__file__).parent / "schema_fixtures" / "mcp-server-git.tools.json").read_text("utf-8"))
    optional = [
        name
        for tool in captured["tools"]
        for name, prop in tool["inputSchema"]["properties"].items()
        if "anyOf" in prop and "type" not in prop
    ]
    assert optional  # the capture does hold the pydantic Optional shape
    surface = describe_server_surface(captured["tools"])
    assert "missing-type" not in surface.schema_uses


def nested(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
    schema = leaf
    for _ in range(depth):
        schema = {"type": "object", "properties": {"x": schema}, "additionalProperties": False}
    return schema


def test_constructs_within_the_depth_bound_are_found_and_deeper_ones_cut_without_recursion_errors() -> None:
    assert "oneOf" in schema_constructs(nested(MAX_SCHEMA_DEPTH - 1, {"type": "string", "oneOf": []}))
    assert schema_constructs(nested(MAX_SCHEMA_DEPTH * 50, {"type": "string", "oneOf": []})) == {}


def test_the_surface_reads_schemas_output_schemas_and_results_once_per_tool() -> None:
    tools = [
        {"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}},
        {"name": "a", "inputSchema": {"oneOf": []}},
        "junk",
        {"name": "b"},
    ]
    results = {"b": {"content": [{"type": "image"}, {"type": ["weird"]}, 3], "structuredContent": {}}, "zzz": {}}
    surface = describe_server_surface(tools, call_results=results)
    assert surface.tool_names == ("a", "b")
    assert "oneOf" not in surface.schema_uses
    assert surface.schema_uses["object-without-properties"] == (("a", "inputSchema"),)
    assert surface.output_schema_tools == ("a",)
    assert surface.structured_result_tools == ("b",)
    assert dict(surface.result_content) == {"image": ("b",)}
    assert surface.to_dict()["resultsCaptured"] is True


@pytest.mark.parametrize(("tools", "results"), [({"tools": []}, None), ([], ["a"])])
def test_surface_containers_of_the_wrong_type_are_invalid_input(tools: Any, results: Any) -> None:
    with pytest.raises(InvalidInput):
        describe_server_surface(tools, call_results=results)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["type", "properties", "items", "anyOf", "$ref", "title", "$defs", "oneOf", "x"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=25,
)


@given(json_values)
def test_any_json_schema_gives_known_constructs_and_is_not_changed(schema: Any) -> None:
    before = copy.deepcopy(schema)
    found = schema_constructs(schema)
    assert set(found) <= set(SCHEMA_FEATURES)
    assert all(path.startswith("inputSchema") for path in found.values())
    assert schema == before
    assert schema_constructs(schema) == found
