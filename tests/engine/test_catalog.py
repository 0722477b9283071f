import copy
import json
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hostcompat.engine.catalog.load import (
    BUNDLED_SOURCE_NAME,
    Catalog,
    Fact,
    apply_overrides,
    load_catalog,
    parse_catalog_text,
    validate_catalog,
)
from hostcompat.engine.catalog.schema import SCHEMA_VERSION
from hostcompat.errors import CatalogError
from tests.engine.catalog_documents import fact, minimal_document


@pytest.fixture(scope="module")
def bundled() -> Catalog:
    return load_catalog()


def test_the_json_schema_rejects_what_the_validator_rejects_for_common_mistakes() -> None:
    schema = json.loads(resources.files("hostcompat").joinpath("data/hosts.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    for mutate, _fragment in MALFORMED:
        document = minimal_document()
        mutate(document)
        with pytest.raises(CatalogError):
            validate_catalog(document, source_name="x.json")
        if mutate not in CROSS_FIELD_ONLY:
            assert list(validator.iter_errors(document)), mutate.__name__


# ---- malformed input ---------------------------------------------------------------------------------------------


def _drop_provenance(doc: dict[str, Any]) -> None:
    del doc["hosts"][0]["ui"]["formats"]["mcp-apps"]["provenance"]


def _bad_date(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["ui"]["formats"]["mcp-apps"]["date"] = "2026-13-01"


def _unknown_level(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["ui"]["formats"]["mcp-apps"]["value"] = "yes"


def _unknown_provenance(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["ui"]["formats"]["mcp-apps"]["provenance"] = "probed"


def _duplicate_id(doc: dict[str, Any]) -> None:
    doc["hosts"][1]["id"] = "alpha"


def _level_of_wrong_type(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["ui"]["formats"]["mcp-apps"]["value"] = 5


def _integer_given_as_boolean(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["server"]["limits"]["maxTools"]["value"] = True


def _hosts_not_a_list(doc: dict[str, Any]) -> None:
    doc["hosts"] = {"alpha": {}}


def _misspelt_host_key(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["vendr"] = fact("X")


def _unknown_fact_key(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["ui"]["formats"]["mcp-apps"]["confidence"] = "high"


def _unknown_feature(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["ui"]["formats"]["mcp-app"] = fact("supported")


def _alias_is_another_id(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["aliases"] = ["beta"]


def _newer_schema(doc: dict[str, Any]) -> None:
    doc["catalog"]["schemaVersion"] = SCHEMA_VERSION + 1


def _missing_display_name(doc: dict[str, Any]) -> None:
    del doc["hosts"][1]["displayName"]


def _bad_kind(doc: dict[str, Any]) -> None:
    doc["hosts"][1]["kind"] = "browser"


def _duplicate_quirk(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["quirks"].append(dict(doc["hosts"][0]["quirks"][0]))


def _bad_charset(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["server"]["limits"]["toolNameCharset"] = fact("a-z")


def _duplicate_list_items(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["server"]["protocolVersions"] = fact(["2025-06-18", "2025-06-18"])


def _bad_rule_link(doc: dict[str, Any]) -> None:
    doc["hosts"][0]["quirks"][0]["rule"] = "Bad Rule"


MALFORMED: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (_bad_rule_link, "quirks[0]: rule 'Bad Rule' must be a client rule id"),
    (_drop_provenance, "host 'alpha': ui.formats.mcp-apps: missing 'provenance'"),
    (_bad_date, "date '2026-13-01' is not a calendar date"),
    (_unknown_level, "value 'yes' is not one of supported, partial, unsupported, unknown"),
    (_unknown_provenance, "provenance 'probed' is not one of probe"),
    (_duplicate_id, "duplicate host id 'alpha'"),
    (_level_of_wrong_type, "value must be a string, not int"),
    (_integer_given_as_boolean, "maxTools: value must be an integer, not bool"),
    (_hosts_not_a_list, "'hosts' must be a list, not an object"),
    (_misspelt_host_key, "unknown key 'vendr'; did you mean 'vendor'?"),
    (_unknown_fact_key, "ui.formats.mcp-apps: unknown key 'confidence'"),
    (_unknown_feature, "unknown key 'mcp-app'; did you mean 'mcp-apps'?"),
    (_alias_is_another_id, "alias 'beta' is another host's id"),
    (_newer_schema, f"schemaVersion {SCHEMA_VERSION + 1} is not supported"),
    (_missing_display_name, "host 'beta': missing 'displayName'"),
    (_bad_kind, "kind 'browser' is not one of chat"),
    (_duplicate_quirk, "duplicate quirk id 'alpha-quirk'"),
    (_bad_charset, "toolNameCharset: value must be a regex class"),
    (_duplicate_list_items, "protocolVersions: value has duplicate items"),
]
CROSS_FIELD_ONLY = {_duplicate_id, _alias_is_another_id, _duplicate_quirk}


def test_the_minimal_document_used_below_is_valid() -> None:
    catalog = validate_catalog(minimal_document(), source_name="x.json")
    assert catalog.ids == ("alpha", "beta")
    assert catalog.get("alpha").level("ui.formats.mcp-apps") == "supported"


@pytest.mark.parametrize(("mutate", "fragment"), MALFORMED, ids=[mutate.__name__ for mutate, _ in MALFORMED])
def test_a_malformed_catalog_raises_a_catalog_error_naming_the_file_and_the_problem(
    mutate: Callable[[dict[str, Any]], None], fragment: str
) -> None:
    document = minimal_document()
    mutate(document)
    with pytest.raises(CatalogError) as caught:
        validate_catalog(document, source_name="my-hosts.json")
    assert caught.value.message.startswith("my-hosts.json: ")
    assert fragment in caught.value.message


def test_text_that_is_not_json_raises_naming_the_file_line_and_column() -> None:
    with pytest.raises(CatalogError, match=r"hosts\.json: not JSON: .* at line 3, column \d+"):
        parse_catalog_text('{\n  "hosts": [\n    oops\n  ]\n}', source_name="hosts.json")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
        ('{"a": NaN}', "NaN is not allowed"),
        ("[" * 100_000, "not usable JSON"),
        ("1" * 5000, "not usable JSON"),
    ],
)
def test_json_that_is_not_usable_raises_naming_the_file(text: str, fragment: str) -> None:
    with pytest.raises(CatalogError, match=re.escape("f.json: ")) as caught:
        parse_catalog_text(text, source_name="f.json")
    assert fragment in caught.value.message


def test_a_user_file_that_is_not_json_names_the_path_and_line(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text('{\n  "hosts": [,]\n}', encoding="utf-8")
    with pytest.raises(CatalogError, match=r"mine\.json: not JSON: .* at line 2"):
        load_catalog(overrides=[path])


def test_unreadable_and_undecodable_user_files_raise_catalog_errors(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="cannot read the catalog file") as caught:
        load_catalog(overrides=[tmp_path / "missing.json"])
    assert isinstance(caught.value.__cause__, OSError)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"hosts": ["\xff"]}')
    with pytest.raises(CatalogError, match="not UTF-8"):
        load_catalog(overrides=[latin])


def test_a_full_catalog_path_replaces_the_bundled_one(tmp_path: Path) -> None:
    path = tmp_path / "full.json"
    path.write_text(json.dumps(minimal_document()), encoding="utf-8")
    catalog = load_catalog(path)
    assert catalog.ids == ("alpha", "beta")
    assert catalog.sources == (str(path),)


# ---- user overrides ----------------------------------------------------------------------------------------------


def _write(tmp_path: Path, name: str, document: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_user_override_merges_field_by_field_with_the_users_provenance(bundled: Catalog, tmp_path: Path) -> None:
    before = copy.deepcopy(bundled.to_dict())
    user_fact = fact("unsupported")
    override = {"hosts": [{"id": "claude", "ui": {"mcpApps": {"features": {"downloadFile": user_fact}}}}]}
    merged = load_catalog(overrides=[_write(tmp_path, "mine.json", override)])
    claude = merged.get("claude")
    changed = claude.fact("ui.mcpApps.features.downloadFile")
    assert changed == Fact("unsupported", "observed", "a test", "2026-01-02")
    untouched = bundled.get("claude")
    for path, kept in untouched.facts.items():
        if path != "ui.mcpApps.features.downloadFile":
            assert claude.facts[path] == kept, path
    assert claude.quirks == untouched.quirks
    assert merged.sources == (BUNDLED_SOURCE_NAME, str(tmp_path / "mine.json"))
    assert bundled.to_dict() == before
    assert load_catalog().get("claude").level("ui.mcpApps.features.downloadFile") == "supported"


def test_a_user_fact_replaces_the_bundled_fact_whole_including_its_note(bundled: Catalog) -> None:
    original = bundled.get("claude").fact("ui.mcpApps.features.updateModelContext")
    assert original is not None and original.note
    override = {"hosts": [{"id": "claude", "ui": {"mcpApps": {"features": {"updateModelContext": fact("partial")}}}}]}
    merged = apply_overrides(bundled, override, source_name="mine.json").get("claude")
    assert merged.fact("ui.mcpApps.features.updateModelContext") == Fact("partial", "observed", "a test", "2026-01-02")


def test_a_conditional_fact_must_say_its_condition_in_a_note(bundled: Catalog) -> None:
    limits = {"schemaFeaturesRejectedConditionally": fact(["oneOf"])}
    override = {"hosts": [{"id": "claude", "server": {"limits": limits}}]}
    with pytest.raises(CatalogError, match="schemaFeaturesRejectedConditionally: missing 'note'"):
        apply_overrides(bundled, override, source_name="mine.json")
    limits["schemaFeaturesRejectedConditionally"]["note"] = "In strict mode."
    merged = apply_overrides(bundled, override, source_name="mine.json").get("claude")
    assert merged.fact("server.limits.schemaFeaturesRejectedConditionally") is not None


def test_user_aliases_are_added_and_user_quirks_replace_those_with_the_same_id(bundled: Catalog) -> None:
    quirk = {"id": "claude-images-collapsed", "text": "fixed", "provenance": "probe", "source": "me", "date": "2026-11"}
    new_quirk = {**quirk, "id": "my-quirk"}
    override = {"hosts": [{"id": "claude", "aliases": ["my-claude"], "quirks": [quirk, new_quirk]}]}
    merged = apply_overrides(bundled, override, source_name="mine.json")
    claude = merged.get("my-claude")
    assert claude.id == "claude"
    assert set(bundled.get("claude").aliases) < set(claude.aliases)
    texts = {item.id: item.text for item in claude.quirks}
    assert texts["claude-images-collapsed"] == "fixed"
    assert "my-quirk" in texts
    assert len(claude.quirks) == len(bundled.get("claude").quirks) + 1


def test_a_user_file_can_add_a_host_which_must_then_be_complete(bundled: Catalog) -> None:
    new_host = {
        "id": "my-host",
        "displayName": "Mine",
        "kind": "cli",
        "server": {"features": {"tools": fact("supported")}},
    }
    merged = apply_overrides(bundled, {"hosts": [new_host]}, source_name="mine.json")
    assert merged.ids[-1] == "my-host"
    assert merged.get("my-host").level("server.features.tools") == "supported"
    incomplete = {"id": "my-host", "kind": "cli"}
    with pytest.raises(CatalogError, match=re.escape("mine.json: host 'my-host': missing 'displayName'")):
        apply_overrides(bundled, {"hosts": [incomplete]}, source_name="mine.json")


def test_user_overrides_apply_in_order_and_a_single_path_is_accepted(tmp_path: Path) -> None:
    first = _write(tmp_path, "a.json", {"hosts": [{"id": "goose", "displayName": "First"}]})
    second = _write(tmp_path, "b.json", {"hosts": [{"id": "goose", "displayName": "Second"}]})
    assert load_catalog(overrides=[first, second]).get("goose").display_name == "Second"
    assert load_catalog(overrides=first).get("goose").display_name == "First"


@pytest.mark.parametrize(
    ("override", "fragment"),
    [
        ({"hosts": [{"id": "claude", "vendr": fact("x")}]}, "mine.json: host 'claude': unknown key 'vendr'"),
        ({"hosts": [{"id": "claude-desktop", "displayName": "D"}]}, "is an alias of 'claude'"),
        ({"hosts": [{"id": "claude"}, {"id": "claude"}]}, "duplicate host id 'claude'"),
        (
            {"hosts": [{"id": "claude", "ui": {"formats": {"mcp-apps": {"value": "supported"}}}}]},
            "missing 'provenance'",
        ),
        ({"hosts": [{"id": "claude", "ui": 3}]}, "host 'claude': ui must be an object, not an integer"),
        ({"hosts": [{"id": "Claude"}]}, "id 'Claude' must be lowercase"),
        ({"catalog": {"schemaVersion": 99, "date": "2026-01-01"}, "hosts": []}, "schemaVersion 99"),
        ({"hosts": [{"id": "claude", "aliases": [["x"]]}]}, "alias a list must be"),
        ({"hosts": [{"id": "claude", "quirks": [{"id": ["x"]}]}]}, "quirks[0]: id a list must be"),
        ([], "the document must be an object, not a list"),
    ],
)
def test_a_bad_user_override_raises_naming_the_file_and_the_problem(
    bundled: Catalog, override: object, fragment: str
) -> None:
    before = copy.deepcopy(override)
    with pytest.raises(CatalogError) as caught:
        apply_overrides(bundled, override, source_name="mine.json")
    assert fragment in caught.value.message
    assert caught.value.message.startswith("mine.json")
    assert override == before
