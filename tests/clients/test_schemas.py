import copy
from typing import Any

import pytest

from hostcompat.clients._schemas import (
    MAX_INLINED_NODES,
    add_missing_types,
    drop_keywords,
    infer_type,
    inline_refs,
    move_type_into_any_of,
    resolve_pointer,
)

PYDANTIC_SCHEMA: dict[str, Any] = {
    "$defs": {"Category": {"enum": ["food", "transport"], "type": "string", "title": "Category"}},
    "properties": {
        "category": {"$ref": "#/$defs/Category", "description": "what kind"},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
    },
    "required": ["category"],
    "type": "object",
}


def test_refs_are_inlined_with_annotation_siblings_and_the_definitions_dropped() -> None:
    before = copy.deepcopy(PYDANTIC_SCHEMA)
    out = inline_refs(PYDANTIC_SCHEMA)
    assert out == {
        "properties": {
            "category": {
                "enum": ["food", "transport"],
                "type": "string",
                "title": "Category",
                "description": "what kind",
            },
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        },
        "required": ["category"],
        "type": "object",
    }
    assert before == PYDANTIC_SCHEMA
    assert out["properties"]["note"] is PYDANTIC_SCHEMA["properties"]["note"]


def test_draft07_definitions_and_pointers_into_properties_are_inlined() -> None:
    schema = {
        "definitions": {"Id": {"type": "integer"}},
        "type": "object",
        "properties": {
            "id": {"$ref": "#/definitions/Id"},
            "items": {"type": "array", "items": {"$ref": "#/properties/id"}},
        },
    }
    out = inline_refs(schema)
    assert out["properties"]["items"]["items"] == {"type": "integer"}
    assert "definitions" not in out


@pytest.mark.parametrize(
    "schema",
    [
        {
            "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
            "$ref": "#/$defs/Node",
        },
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}, "$defs": {}},
        {"type": "object", "properties": {"a": {"$ref": "https://example.org/schema.json"}}},
        {"type": "object", "properties": {"a": {"$ref": "#anchor"}}},
        {"$defs": {"S": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/S", "type": "integer"}}},
        {"$defs": {"S": 5}, "properties": {"a": {"$ref": "#/$defs/S"}}},
        {"type": "object", "properties": {"self": {"$ref": "#"}}},
    ],
    ids=["recursive", "dangling", "remote", "anchor", "clashing-sibling", "non-schema-target", "root-cycle"],
)
def test_a_schema_that_cannot_be_inlined_safely_comes_back_as_the_same_object(schema: dict[str, Any]) -> None:
    assert inline_refs(schema) is schema


def test_an_exploding_expansion_gives_up_and_keeps_the_original() -> None:
    definitions: dict[str, Any] = {"L0": {"type": "string"}}
    for level in range(1, 20):
        definitions[f"L{level}"] = {
            "type": "object",
            "properties": {"a": {"$ref": f"#/$defs/L{level - 1}"}, "b": {"$ref": f"#/$defs/L{level - 1}"}},
        }
    schema = {"$defs": definitions, "$ref": "#/$defs/L19"}
    assert MAX_INLINED_NODES < 2**19
    assert inline_refs(schema) is schema


def test_an_unused_recursive_definition_does_not_block_inlining() -> None:
    schema = {
        "$defs": {"Tree": {"properties": {"kids": {"items": {"$ref": "#/$defs/Tree"}}}}, "S": {"type": "string"}},
        "properties": {"name": {"$ref": "#/$defs/S"}},
    }
    assert inline_refs(schema) == {"properties": {"name": {"type": "string"}}}


def test_a_schema_without_refs_comes_back_as_the_same_object() -> None:
    schema = {"type": "object", "properties": {"$ref": {"type": "string"}}, "$defs": {"Unused": {"type": "string"}}}
    assert inline_refs(schema) is schema


def test_ref_shaped_data_in_enum_and_default_is_not_a_ref() -> None:
    schema: dict[str, Any] = {
        "$defs": {"S": {"type": "string"}},
        "properties": {"a": {"$ref": "#/$defs/S"}, "b": {"enum": [{"$ref": "#/x"}], "default": {"$ref": "#/y"}}},
    }
    out = inline_refs(schema)
    assert out["properties"]["b"] is schema["properties"]["b"]


@pytest.mark.parametrize(
    ("pointer", "expected"),
    [
        ("#", "ROOT"),
        ("#/a~1b", 1),
        ("#/c~0d", 2),
        ("#/e%20f", 3),
        ("#/list/1", "second"),
        ("#/list/9", None),
        ("#/list/x", None),
        ("#/missing", None),
        ("other.json#/a", None),
    ],
)
def test_json_pointers_unescape_and_index(pointer: str, expected: object) -> None:
    root = {"a/b": 1, "c~d": 2, "e f": 3, "list": ["first", "second"]}
    found = resolve_pointer(root, pointer)
    assert found == (root if expected == "ROOT" else expected)


def test_dropping_a_keyword_reaches_every_node_but_not_property_names() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "$schema": {"type": "string", "$schema": "x"},
            "list": {"type": "array", "items": {"$schema": "y", "type": "string"}},
        },
    }
    out = drop_keywords(schema, ("$schema",))
    assert out == {
        "type": "object",
        "properties": {"$schema": {"type": "string"}, "list": {"type": "array", "items": {"type": "string"}}},
    }
    assert drop_keywords(out, ("$schema",)) is out


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        ({"properties": {}}, "object"),
        ({"required": ["a"]}, "object"),
        ({"items": {}}, "array"),
        ({"enum": ["a", "b"]}, "string"),
        ({"enum": [1, 2.5]}, "number"),
        ({"enum": [1, "a"]}, None),
        ({"const": True}, "boolean"),
        ({"default": 3}, "integer"),
        ({"minimum": 0}, "number"),
        ({"description": "free text"}, "string"),
        ({}, "string"),
        ({"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}, "string"),
        ({"anyOf": [{"type": "integer"}, {"type": "string"}]}, "string"),
        ({"oneOf": [{"type": "null"}]}, "null"),
        ({"allOf": [{"$ref": "#/$defs/X"}]}, None),
        ({"$ref": "#/$defs/X"}, None),
        ({"not": {"type": "null"}}, None),
    ],
)
def test_a_missing_type_is_inferred_from_the_evidence(node: dict[str, Any], expected: str | None) -> None:
    assert infer_type(node) == expected


def test_types_are_added_to_every_untyped_node_of_the_git_server_schema() -> None:
    schema = {
        "type": "object",
        "properties": {
            "repo_path": {"title": "Repo Path"},
            "contains": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "title": "Contains"},
            "branch_type": {"title": "Branch Type", "enum": ["local", "remote", "all"]},
        },
        "required": ["repo_path", "branch_type"],
    }
    out = add_missing_types(schema)
    assert {name: prop["type"] for name, prop in out["properties"].items()} == {
        "repo_path": "string",
        "contains": "string",
        "branch_type": "string",
    }
    assert out["properties"]["contains"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    assert add_missing_types(out) is out


def test_a_type_beside_any_of_moves_into_untyped_branches() -> None:
    schema = {
        "type": "object",
        "properties": {
            "when": {"type": "string", "anyOf": [{"format": "date"}, {"format": "date-time"}, {"type": "null"}]},
            "either": {"type": ["string", "null"], "anyOf": [{"minLength": 1}]},
        },
    }
    out = move_type_into_any_of(schema)
    assert out["properties"]["when"] == {
        "anyOf": [{"format": "date", "type": "string"}, {"format": "date-time", "type": "string"}, {"type": "null"}]
    }
    assert out["properties"]["either"] == {"anyOf": [{"minLength": 1}]}
    assert move_type_into_any_of(out) is out


def test_very_deep_schemas_are_handled_without_recursion_errors() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(500):
        schema = {"type": "object", "properties": {"x": schema}, "anyOf": [{"properties": {}}]}
    assert drop_keywords(schema, ("$schema",)) is schema
    typed = add_missing_types(schema)
    assert typed["anyOf"] == [{"properties": {}, "type": "object"}]
    assert move_type_into_any_of(schema) is not schema
    assert inline_refs(schema) is schema
