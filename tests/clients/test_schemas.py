import copy
from typing import Any

import pytest

from hostcompat.clients.rewrites.schema_types import (
    add_missing_types,
    guess_type,
    has_type_evidence,
    implied_type,
    move_type_into_any_of,
)
from hostcompat.clients.rewrites.schemas import MAX_INLINED_NODES, drop_keywords, inline_refs, resolve_pointer

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


DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def test_in_a_draft07_schema_the_ignored_siblings_of_a_ref_are_not_merged_into_its_target() -> None:
    schema = {
        "$schema": DRAFT_07,
        "definitions": {"Count": {"type": "integer"}},
        "properties": {"count": {"$ref": "#/definitions/Count", "minimum": 5, "description": "how many"}},
    }
    assert inline_refs(schema) == {
        "$schema": DRAFT_07,
        "properties": {"count": {"type": "integer", "description": "how many"}},  # minimum never applied here
    }


@pytest.mark.parametrize(
    ("target", "siblings"),
    [
        ({"type": "object", "properties": {"a": {"type": "string"}}}, {"additionalProperties": False}),
        ({"type": "object", "additionalProperties": False}, {"properties": {"b": {"type": "string"}}}),
        ({"type": "array", "contains": {"type": "string"}}, {"minContains": 2}),
        ({"type": "array", "prefixItems": [{"type": "integer"}]}, {"items": {"type": "string"}}),
        ({"if": {"minimum": 5}}, {"then": {"multipleOf": 2}}),
        ({"type": "object", "unevaluatedProperties": False}, {"allOf": [{"properties": {"b": {}}}]}),
    ],
    ids=["additionalProperties", "properties", "minContains", "items", "then", "unevaluatedProperties"],
)
def test_siblings_whose_meaning_depends_on_the_target_keep_the_ref(
    target: dict[str, Any], siblings: dict[str, Any]
) -> None:
    schema = {"$defs": {"T": target}, "type": "object", "properties": {"a": {"$ref": "#/$defs/T", **siblings}}}
    assert inline_refs(schema) is schema


@pytest.mark.parametrize(
    "extra",
    [
        {"$defs": {"T": {"$id": "https://example.com/t", "type": "string"}}},
        {"$defs": {"T": {"type": "string"}}, "properties": {"b": {"$dynamicRef": "#meta"}}},
        {"$defs": {"T": {"$anchor": "t", "type": "string"}}},
    ],
    ids=["$id", "$dynamicRef", "$anchor"],
)
def test_a_schema_that_scopes_its_refs_is_not_inlined(extra: dict[str, Any]) -> None:
    properties = {"a": {"$ref": "#/$defs/T"}, **extra.get("properties", {})}
    schema = {"type": "object", **extra, "properties": properties}
    assert inline_refs(schema) is schema


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


def test_a_root_schema_naming_another_dialect_than_the_default_keeps_it() -> None:
    schema = {"$schema": DRAFT_07, "type": "object", "properties": {"a": {"$schema": "x", "type": "string"}}}
    assert drop_keywords(schema, ("$schema",)) == {
        "$schema": DRAFT_07,
        "type": "object",
        "properties": {"a": {"type": "string"}},
    }


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        ({"enum": ["a", "b"]}, "string"),
        ({"enum": [1, 2.5]}, "number"),
        ({"enum": [1, "a"]}, None),
        ({"enum": []}, None),
        ({"const": True}, "boolean"),
        ({"const": None}, "null"),
        ({"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "maxLength": 3}]}, "string"),
        ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, "number"),
        ({"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}, None),
        ({"anyOf": [{"type": "string"}, {}]}, None),
        ({"anyOf": [{"type": "string"}, False]}, "string"),
        ({"anyOf": [{"type": ["string", "null"]}, {"type": "boolean"}]}, None),
        ({"allOf": [{"$ref": "#/$defs/X"}, {"type": "object"}]}, "object"),
        ({"allOf": [{"$ref": "#/$defs/X"}]}, None),
        ({"properties": {}}, None),
        ({}, None),
    ],
)
def test_the_implied_type_is_one_every_accepted_value_already_has(node: dict[str, Any], expected: str | None) -> None:
    assert implied_type(node) == expected


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        ({"properties": {}}, "object"),
        ({"required": ["a"]}, "object"),
        ({"items": {}}, "array"),
        ({"minimum": 0, "default": 3}, "number"),
        ({"pattern": "^a"}, "string"),
        ({"default": 3}, "integer"),
        ({"default": None, "title": "Any"}, "string"),
        ({"description": "free text"}, "string"),
        ({}, "string"),
        ({"not": {"type": "null"}}, None),
        ({"if": {"minimum": 1}, "then": {"multipleOf": 2}}, None),
    ],
)
def test_a_node_with_no_type_evidence_gets_the_type_its_keywords_suggest(
    node: dict[str, Any], expected: str | None
) -> None:
    assert not has_type_evidence(node)
    assert guess_type(node) == expected


def test_pydantic_optionals_keep_their_null_and_only_the_untyped_properties_get_a_type() -> None:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "repo_path": {"title": "Repo Path"},
            "contains": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "title": "Contains"},
            "branch_type": {"title": "Branch Type", "enum": ["local", "remote", "all"]},
            "depth": {"anyOf": [{"type": "integer"}, {"minimum": 0}]},
            "category": {"$ref": "#/$defs/Free"},
        },
        "required": ["repo_path", "branch_type"],
        "$defs": {"Free": {"description": "anything"}},
    }
    out = add_missing_types(schema)
    assert out["properties"]["contains"] is schema["properties"]["contains"]  # no type beside anyOf [T, null]
    assert out["properties"]["repo_path"] == {"title": "Repo Path", "type": "string"}
    assert out["properties"]["branch_type"]["type"] == "string"
    assert out["properties"]["depth"] == {
        "anyOf": [{"type": "integer"}, {"minimum": 0, "type": "number"}],
        "type": "number",  # once the branch is typed, every branch is a number
    }
    assert out["properties"]["category"] == {"$ref": "#/$defs/Free"}
    assert out["$defs"]["Free"] == {"description": "anything", "type": "string"}
    assert add_missing_types(out) is out


def test_no_type_is_guessed_inside_not_if_or_contains() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "array", "contains": {"minimum": 3}}},
        "not": {"required": ["b"]},
        "if": {"properties": {"c": {"const": 1}}},
        "then": {"required": ["d"]},
    }
    assert add_missing_types(schema) == {
        **schema,
        "if": {"properties": {"c": {"const": 1, "type": "integer"}}},  # implied by const: no change in meaning
    }


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
    assert has_type_evidence(_nested_any_of(500))
    assert move_type_into_any_of(schema) is not schema
    assert inline_refs(schema) is schema


def _nested_any_of(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"description": "leaf"}
    for _ in range(depth):
        node = {"anyOf": [node]}
    return node
