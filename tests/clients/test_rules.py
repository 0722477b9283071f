import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.clients.detect import ClientIdentity
from hostcompat.clients.rewrites.operations import OPERATIONS, REQUEST_METHODS, RESULT_METHODS, TRIGGERS
from hostcompat.clients.rules import (
    BUNDLED_RULES_FILE,
    MAX_RULE_FILE_BYTES,
    SOURCE_KINDS,
    find_rule,
    load_bundled_rules,
    load_rule_file,
    load_rules,
    merge_rules,
    parse_rule_document,
    parse_rule_text,
)
from hostcompat.errors import CatalogError

DATA = resources.files("hostcompat").joinpath("data")


def _bundled_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(DATA.joinpath(BUNDLED_RULES_FILE).read_text(encoding="utf-8"))
    return document


def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(DATA.joinpath("client-rules.schema.json").read_text(encoding="utf-8"))
    return schema


def _rule(**changes: Any) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "id": "acme.cap-tool-count",
        "title": "Acme: at most 10 tools",
        "clients": [{"name": "acme-client", "versions": ">=1.0,<2"}],
        "methods": ["tools/list"],
        "trigger": {"kind": "always"},
        "rewrite": {"op": "cap-tool-count", "max_tools": 10},
        "source": {"url": "https://example.org/acme/issues/1", "kind": "issue"},
        "date": "2026-11-30",
    }
    rule.update(changes)
    return rule


def _user_file(tmp_path: Path, document: dict[str, Any], name: str = "my-rules.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_the_bundled_file_holds_at_least_fifteen_rules_with_unique_ids() -> None:
    rules = load_bundled_rules()
    ids = [rule.id for rule in rules]
    assert len(rules) >= 15
    assert len(set(ids)) == len(ids)


def test_every_bundled_rule_has_an_https_source_a_kind_and_a_date() -> None:
    for rule in load_bundled_rules():
        assert rule.source.url.startswith("https://"), rule.id
        assert rule.source.kind in SOURCE_KINDS, rule.id
        assert rule.date[:2] == "20", rule.id
        assert rule.symptom, rule.id
        assert rule.origin == BUNDLED_RULES_FILE


def test_the_bundled_file_validates_against_its_json_schema() -> None:
    schema = _schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(_bundled_document())


def test_the_schema_lists_exactly_the_operations_triggers_and_methods_the_code_has() -> None:
    schema = _schema()
    definitions = schema["$defs"]
    rule_properties = definitions["rule"]["properties"]
    schema_ops = {
        definitions[ref["$ref"].rsplit("/", 1)[1]]["properties"]["op"]["const"]
        for ref in rule_properties["rewrite"]["oneOf"]
    }
    schema_triggers = {branch["properties"]["kind"]["const"] for branch in rule_properties["trigger"]["oneOf"]}
    assert schema_ops == set(OPERATIONS)
    assert schema_triggers == set(TRIGGERS)
    assert set(rule_properties["methods"]["items"]["enum"]) == set(RESULT_METHODS | REQUEST_METHODS)
    assert tuple(rule_properties["source"]["properties"]["kind"]["enum"]) == SOURCE_KINDS


def test_a_user_rule_validated_by_the_loader_is_also_valid_for_the_schema() -> None:
    document = {"format": 1, "rules": [_rule()], "disabled": ["codex.truncate-tool-names"]}
    parse_rule_document(document, origin="user.json")
    jsonschema.Draft202012Validator(_schema()).validate(document)


def test_a_user_file_adds_a_rule_after_the_bundled_ones(tmp_path: Path) -> None:
    path = _user_file(tmp_path, {"format": 1, "rules": [_rule()]})
    rules = load_rules(path)
    assert rules[-1].id == "acme.cap-tool-count"
    assert rules[-1].origin == str(path)
    assert len(rules) == len(load_bundled_rules()) + 1


def test_a_user_rule_with_a_bundled_id_replaces_it_in_place(tmp_path: Path) -> None:
    bundled_ids = [rule.id for rule in load_bundled_rules()]
    replacement = _rule(id="cursor.cap-tool-count", clients=[{"name": "cursor-vscode"}])
    replacement["rewrite"] = {"op": "cap-tool-count", "max_tools": 40}
    rules = load_rules(_user_file(tmp_path, {"format": 1, "rules": [replacement]}))
    assert [rule.id for rule in rules] == bundled_ids
    assert find_rule(rules, "cursor.cap-tool-count").rewrite.params["max_tools"] == 40


def test_a_user_file_switches_a_bundled_rule_off_by_id(tmp_path: Path) -> None:
    rules = load_rules(_user_file(tmp_path, {"format": 1, "disabled": ["codex.resource-link-to-text"]}))
    switched_off = find_rule(rules, "codex.resource-link-to-text")
    assert not switched_off.enabled
    assert not switched_off.applies_to(ClientIdentity(name="codex-mcp-client", version="0.150.0"))
    assert find_rule(rules, "codex.round-annotation-priority").enabled


def test_a_rule_can_also_be_switched_off_in_place() -> None:
    parsed = parse_rule_document({"format": 1, "rules": [_rule(enabled=False)]}, origin="user.json")
    assert not parsed.rules[0].enabled


def test_disabling_an_unknown_id_names_the_file_and_the_entry(tmp_path: Path) -> None:
    path = _user_file(tmp_path, {"format": 1, "disabled": ["codex.no-such-rule"]})
    with pytest.raises(CatalogError) as caught:
        load_rules(path)
    assert str(path) in caught.value.message
    assert "disabled[0]" in caught.value.message
    assert caught.value.rule_id == "codex.no-such-rule"


def test_later_user_files_override_earlier_ones(tmp_path: Path) -> None:
    first = _user_file(tmp_path, {"format": 1, "rules": [_rule()]}, "a.json")
    second = _user_file(tmp_path, {"format": 1, "disabled": ["acme.cap-tool-count"]}, "b.json")
    assert not find_rule(load_rules(first, second), "acme.cap-tool-count").enabled


BAD_RULES = [
    ("title", _rule(title="")),
    ("clients", _rule(clients=[])),
    ("clients[0].name", _rule(clients=[{"name": ""}])),
    ("clients[0].versions", _rule(clients=[{"name": "acme-client", "versions": ">=one"}])),
    ("clients[0].vesrions", _rule(clients=[{"name": "acme-client", "vesrions": "*"}])),
    ("methods", _rule(methods=["tools/call"])),
    ("methods[0]", _rule(methods=[7])),
    ("trigger.kind", _rule(trigger={"kind": "sometimes"})),
    ("trigger.types", _rule(trigger={"kind": "content-types"})),
    (
        "trigger.kind",
        _rule(
            rewrite={"op": "truncate-tool-names", "max_length": 40},
            trigger={"kind": "content-types", "types": ["image"]},
        ),
    ),
    ("rewrite.op", _rule(rewrite={"op": "make-it-work"})),
    ("rewrite.max_tools", _rule(rewrite={"op": "cap-tool-count", "max_tools": 0})),
    ("rewrite.max_tools", _rule(rewrite={"op": "cap-tool-count", "max_tools": True})),
    ("rewrite.max_tools", _rule(rewrite={"op": "cap-tool-count"})),
    ("rewrite.limit", _rule(rewrite={"op": "cap-tool-count", "max_tools": 5, "limit": 5})),
    ("rewrite.max_length", _rule(rewrite={"op": "truncate-tool-names", "max_length": 8})),
    ("rewrite.allowed_punctuation", _rule(rewrite={"op": "sanitize-tool-names", "allowed_punctuation": "-."})),
    ("rewrite.fields", _rule(rewrite={"op": "inline-schema-refs", "fields": ["schema"]})),
    ("rewrite.keywords", _rule(rewrite={"op": "drop-schema-keywords", "keywords": ["$schema", "properties"]})),
    ("rewrite.keywords", _rule(rewrite={"op": "drop-schema-keywords", "keywords": ["$defs"]})),
    ("source.url", _rule(source={"url": "http://example.org/1", "kind": "issue"})),
    ("source.kind", _rule(source={"url": "https://example.org/1", "kind": "rumour"})),
    ("date", _rule(date="last week")),
    ("date", _rule(date="2026-13")),
    ("enabled", _rule(enabled="no")),
    ("references[0]", _rule(references=["ftp://example.org"])),
    ("sevrity", _rule(sevrity="high")),
]


@pytest.mark.parametrize(("field", "rule"), BAD_RULES, ids=[field for field, _ in BAD_RULES])
def test_a_bad_rule_raises_an_error_naming_the_file_the_rule_id_and_the_field(field: str, rule: dict[str, Any]) -> None:
    with pytest.raises(CatalogError) as caught:
        parse_rule_document({"format": 1, "rules": [rule]}, origin="my-rules.json")
    message = caught.value.message
    assert "my-rules.json" in message
    assert "'acme.cap-tool-count'" in message
    assert f"'{field}'" in message
    assert caught.value.rule_id == "acme.cap-tool-count"


def test_a_missing_required_field_is_named() -> None:
    rule = _rule()
    del rule["source"]
    with pytest.raises(CatalogError) as caught:
        parse_rule_document({"format": 1, "rules": [rule]}, origin="my-rules.json")
    assert "'source'" in caught.value.message
    assert "is required" in caught.value.message


def test_a_bad_id_is_named_by_its_position() -> None:
    with pytest.raises(CatalogError) as caught:
        parse_rule_document({"format": 1, "rules": [_rule(), _rule(id="Not An Id")]}, origin="my-rules.json")
    assert "rules[1].id" in caught.value.message
    assert caught.value.value == "Not An Id"


def test_the_same_id_twice_in_one_file_is_an_error() -> None:
    with pytest.raises(CatalogError) as caught:
        parse_rule_document({"format": 1, "rules": [_rule(), _rule()]}, origin="my-rules.json")
    assert "appears twice" in caught.value.message


@pytest.mark.parametrize(
    ("document", "field"),
    [
        ({"rules": []}, "format"),
        ({"format": 2, "rules": []}, "format"),
        ({"format": 1, "rules": {}}, "rules"),
        ({"format": 1, "rule": []}, "rule"),
        ({"format": 1, "disabled": "codex.round-annotation-priority"}, "disabled"),
        ({"format": 1, "disabled": ["Bad Id"]}, "disabled[0]"),
        ([], "(document)"),
    ],
)
def test_a_bad_document_names_the_file_and_the_field(document: Any, field: str) -> None:
    with pytest.raises(CatalogError) as caught:
        parse_rule_document(document, origin="my-rules.json")
    assert caught.value.message.startswith("my-rules.json: ")
    assert f"'{field}'" in caught.value.message


@pytest.mark.parametrize(
    "text",
    ['{"format": 1,', '{"format": 1, "format": 1}', '{"format": NaN}', "[1, 2"],
)
def test_text_that_is_not_clean_json_names_the_file(text: str) -> None:
    with pytest.raises(CatalogError) as caught:
        parse_rule_text(text, origin="my-rules.json")
    assert "my-rules.json" in caught.value.message


def test_an_oversized_rule_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text(" " * (MAX_RULE_FILE_BYTES + 10) + "{}", encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load_rule_file(path)
    assert str(path) in caught.value.message


def test_a_missing_rule_file_raises_a_catalog_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "absent.json"
    with pytest.raises(CatalogError) as caught:
        load_rule_file(path)
    assert str(path) in caught.value.message
    assert isinstance(caught.value.__cause__, OSError)


def test_finding_an_unknown_rule_id_raises() -> None:
    with pytest.raises(CatalogError) as caught:
        find_rule(load_bundled_rules(), "nobody.nothing")
    assert caught.value.rule_id == "nobody.nothing"


def test_client_names_match_exactly_or_by_glob_and_case_sensitively() -> None:
    copilot = find_rule(load_bundled_rules(), "copilot.cap-tool-count")
    assert copilot.applies_to(ClientIdentity(name="JetBrains-IU-copilot-intellij", version="1.11.2"))
    assert copilot.applies_to(ClientIdentity(name="Visual Studio Code", version="1.102.0"))
    assert not copilot.applies_to(ClientIdentity(name="visual studio code", version="1.102.0"))
    assert not copilot.applies_to(ClientIdentity(name="JetBrains-IU", version="1.11.2"))


def test_merging_never_changes_the_rules_it_was_given() -> None:
    bundled = load_bundled_rules()
    overlay = parse_rule_document({"format": 1, "disabled": ["zed.cap-tool-count"]}, origin="user.json")
    merge_rules(bundled, overlay)
    assert find_rule(bundled, "zed.cap-tool-count").enabled


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=16),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=25,
)
rule_like = st.fixed_dictionaries(
    {},
    optional=dict.fromkeys(("id", "title", "clients", "methods", "trigger", "rewrite", "source", "date"), json_values),
)


@given(st.one_of(json_values, st.fixed_dictionaries({"format": st.just(1), "rules": st.lists(rule_like, max_size=3)})))
def test_any_json_document_gives_a_rule_file_or_a_catalog_error_and_is_not_mutated(document: Any) -> None:
    before = copy.deepcopy(document)
    try:
        parsed = parse_rule_document(document, origin="fuzz.json")
    except CatalogError as error:
        assert error.message.startswith("fuzz.json: ")
    else:
        assert parsed.origin == "fuzz.json"
    assert document == before


@given(st.sampled_from(load_bundled_rules()), st.sampled_from(sorted(set(_rule()) - {"id"})), json_values)
def test_breaking_any_field_of_a_bundled_rule_gives_a_rule_or_a_catalog_error(rule: Any, key: str, value: Any) -> None:
    raw = next(item for item in _bundled_document()["rules"] if item["id"] == rule.id)
    raw[key] = value
    try:
        parse_rule_document({"format": 1, "rules": [raw]}, origin="fuzz.json")
    except CatalogError as error:
        assert error.rule_id == rule.id
