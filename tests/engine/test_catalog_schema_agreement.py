"""The generated JSON Schemas and the Python validators agree, document by document, and the committed schemas are
the generated ones. (The validators are hand-written for start-up time; the schemas come from the same vocabulary.)
"""

import copy
import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest

from hostcompat.engine.catalog.json_schema import catalog_schema
from hostcompat.engine.catalog.load import validate_catalog
from hostcompat.engine.catalog.schema import FACT_FIELDS
from hostcompat.engine.findings.rule_data import bundled_rows, validate_rule_document
from hostcompat.engine.findings.rule_schema import finding_rules_schema
from hostcompat.errors import CatalogError, InvalidInput
from tests.engine.catalog_documents import fact, minimal_document

ROOT = Path(__file__).resolve().parents[2]
Mutation = Callable[[dict[str, Any]], None]


def load_script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_committed_schemas_are_the_generated_ones() -> None:
    gen_schemas = load_script("gen_schemas")
    assert gen_schemas.stale() == []
    for file_name in gen_schemas.GENERATORS:
        jsonschema.Draft202012Validator.check_schema(json.loads(gen_schemas.generated(file_name)))


def test_the_check_names_a_stale_schema_file_and_fails(tmp_path: Path) -> None:
    gen_schemas = load_script("gen_schemas")
    for file_name in gen_schemas.GENERATORS:
        (tmp_path / file_name).write_text(gen_schemas.generated(file_name), encoding="utf-8")
    assert gen_schemas.stale(tmp_path) == []
    (tmp_path / "hosts.schema.json").write_text("{}\n", encoding="utf-8")
    assert gen_schemas.stale(tmp_path) == [tmp_path / "hosts.schema.json"]
    gen_schemas.write_atomically(tmp_path / "hosts.schema.json", gen_schemas.generated("hosts.schema.json"))
    assert gen_schemas.stale(tmp_path) == []
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".")] == []


# ---- host catalog --------------------------------------------------------------------------------------------------


def _host(doc: dict[str, Any]) -> dict[str, Any]:
    host: dict[str, Any] = doc["hosts"][0]
    return host


def _set_fact(path: str, value: Any, **extra: Any) -> Mutation:
    def mutate(doc: dict[str, Any]) -> None:
        *groups, leaf = path.split(".")
        node = _host(doc)
        for group in groups:
            node = node.setdefault(group, {})
        node[leaf] = fact(value, **extra)

    mutate.__name__ = f"{path}={value!r}{extra or ''}"
    return mutate


def _change(name: str, change: Callable[[dict[str, Any]], None]) -> Mutation:
    change.__name__ = name
    return change


VALID_CATALOGS: list[Mutation] = [
    _change("as is", lambda doc: None),
    _set_fact("vendor", "Acme"),
    _set_fact("platforms", ["web", "desktop"]),
    _set_fact("clientInfoNames", ["acme", "acme-cli"]),
    _set_fact("server.protocolVersions", ["2025-06-18", "2025-11-25"]),
    _set_fact("server.limits.maxTools", 0),
    _set_fact("server.limits.toolNameCharset", "[A-Za-z0-9_-]"),
    _set_fact("server.limits.toolNamePrefixCounts", True),
    _set_fact("server.limits.toolNameFormat", "{server}__{tool}"),
    _set_fact("server.limits.schemaFeaturesRejectedConditionally", ["oneOf"], note="on strict models"),
    _set_fact("ui.formats.mcp-apps", "partial", trigger="tool-output-schema", since="1.2.3", fixedIn="1.4"),
    _set_fact("ui.formats.mcp-apps", "partial", infoOnly=True, os=["windows"], gate=["new-ui"]),
    _set_fact("ui.formats.mcp-apps", "partial", trigger="tool-output-schema", infoOnly=False),
    _change("a variant", lambda doc: _host(doc).update(variants=[{"path": "vendor", **fact("X"), "os": ["macos"]}])),
    _change("a quirk covers a fact", lambda doc: _host(doc)["quirks"][0].update(covers="server.features.images")),
    _change("header description", lambda doc: doc["catalog"].update(description="d")),
]

INVALID_CATALOGS: list[Mutation] = [
    _set_fact("vendor", " "),
    _set_fact("vendor", "x" * 201),
    _set_fact("platforms", ["web", "web"]),
    _set_fact("platforms", ["moon"]),
    _set_fact("server.protocolVersions", ["2025-6-18"]),
    _set_fact("server.limits.maxTools", -1),
    _set_fact("server.limits.maxTools", True),
    _set_fact("server.limits.maxTools", 1_000_000_001),
    _set_fact("server.limits.toolNameCharset", "A-Z"),
    _set_fact("server.limits.toolNamePrefixCounts", "yes"),
    _set_fact("server.limits.toolNameFormat", "{server}__tool"),
    _set_fact("server.limits.toolNameFormat", "{tool}{tool}"),
    _set_fact("server.limits.toolNameFormat", "{host}.{tool}"),
    _set_fact("server.limits.schemaFeaturesRejectedConditionally", ["oneOf"]),
    _set_fact("ui.formats.mcp-apps", "yes"),
    _set_fact("ui.formats.mcp-apps", "partial", trigger="no-such-trigger"),
    _set_fact("ui.formats.mcp-apps", "partial", trigger="tool-output-schema", infoOnly=True),
    _set_fact("ui.formats.mcp-apps", "partial", since="1 2"),
    _set_fact("ui.formats.mcp-apps", "partial", os=[]),
    _set_fact("ui.formats.mcp-apps", "partial", os=["beos"]),
    _set_fact("ui.formats.mcp-apps", "partial", registration=["config-file", "config-file"]),
    _set_fact("ui.formats.mcp-apps", "partial", gate=["Not A Gate"]),
    _set_fact("ui.formats.mcp-apps", "partial", note=None),
    _set_fact("ui.formats.mcp-apps", "partial", note=""),
    _set_fact("ui.formats.mcp-apps", "partial", colour="blue"),
    _change("fact without a date", lambda doc: _host(doc)["ui"]["formats"]["mcp-apps"].pop("date")),
    _change("date of thirteen months", lambda doc: _host(doc)["ui"]["formats"]["mcp-apps"].update(date="2026-13")),
    _change("source too long", lambda doc: _host(doc)["ui"]["formats"]["mcp-apps"].update(source="s" * 501)),
    _change("unknown group", lambda doc: _host(doc)["ui"].update(colours={})),
    _change("unknown host key", lambda doc: _host(doc).update(colour="blue")),
    _change("bad host id", lambda doc: _host(doc).update(id="Alpha")),
    _change("bad kind", lambda doc: _host(doc).update(kind="robot")),
    _change("bad alias", lambda doc: _host(doc).update(aliases=["Alpha Desktop"])),
    _change("variant without context", lambda doc: _host(doc).update(variants=[{"path": "vendor", **fact("X")}])),
    _change(
        "variant value of the wrong kind",
        lambda doc: _host(doc).update(variants=[{"path": "vendor", **fact(3), "os": ["macos"]}]),
    ),
    _change(
        "variant of an unknown path",
        lambda doc: _host(doc).update(variants=[{"path": "ui.colour", **fact("X"), "os": ["macos"]}]),
    ),
    _change("quirk covers no fact", lambda doc: _host(doc)["quirks"][0].update(covers="ui.colour")),
    _change("quirk with a bad rule id", lambda doc: _host(doc)["quirks"][0].update(rule="Bad Rule")),
    _change("quirk with a bad id", lambda doc: _host(doc)["quirks"][0].update(id="Quirk")),
    _change("schema version 2", lambda doc: doc["catalog"].update(schemaVersion=2)),
    _change("header date of a month", lambda doc: doc["catalog"].update(date="2026-12")),
    _change("hosts not a list", lambda doc: doc.update(hosts={})),
    _change("unknown top key", lambda doc: doc.update(extra=1)),
]

VALIDATOR_ONLY: list[Mutation] = [
    _set_fact("server.protocolVersions", ["2025-02-30"]),
    _set_fact("server.limits.toolNameCharset", "[z-a]"),
    _change("duplicate host id", lambda doc: doc["hosts"][1].update(id="alpha")),
    _change("alias is another host", lambda doc: _host(doc).update(aliases=["beta"])),
    _change("duplicate quirk", lambda doc: _host(doc)["quirks"].append(copy.deepcopy(_host(doc)["quirks"][0]))),
    _change("February 30", lambda doc: _host(doc)["ui"]["formats"]["mcp-apps"].update(date="2026-02-30")),
]
"""What only the validator can refuse: the calendar, a class that compiles, ids unique across the document."""


@pytest.fixture(scope="module")
def host_schema() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(catalog_schema())


def _catalog_verdicts(mutate: Mutation, schema: jsonschema.Draft202012Validator) -> tuple[bool, bool]:
    document = minimal_document()
    mutate(document)
    try:
        validate_catalog(document, source_name="x.json")
        python_accepts = True
    except CatalogError:
        python_accepts = False
    return python_accepts, not list(schema.iter_errors(document))


@pytest.mark.parametrize("mutate", VALID_CATALOGS, ids=lambda mutate: mutate.__name__)
def test_both_accept_a_valid_catalog(mutate: Mutation, host_schema: jsonschema.Draft202012Validator) -> None:
    assert _catalog_verdicts(mutate, host_schema) == (True, True)


@pytest.mark.parametrize("mutate", INVALID_CATALOGS, ids=lambda mutate: mutate.__name__)
def test_both_refuse_an_invalid_catalog(mutate: Mutation, host_schema: jsonschema.Draft202012Validator) -> None:
    assert _catalog_verdicts(mutate, host_schema) == (False, False)


@pytest.mark.parametrize("mutate", VALIDATOR_ONLY, ids=lambda mutate: mutate.__name__)
def test_only_the_validator_refuses_what_a_schema_cannot_say(
    mutate: Mutation, host_schema: jsonschema.Draft202012Validator
) -> None:
    assert _catalog_verdicts(mutate, host_schema) == (False, True)


def test_every_fact_path_has_a_valid_example_both_accept(host_schema: jsonschema.Draft202012Validator) -> None:
    examples = {
        "level": "supported",
        "text": "t",
        "integer": 3,
        "boolean": False,
        "text-list": ["a"],
        "versions": ["2025-06-18"],
        "charset": "[a-z]",
        "name-format": "{tool}",
    }
    for path, spec in FACT_FIELDS.items():
        value = list(spec.choices[:1]) if spec.kind == "choices" else examples[spec.kind]
        extra = {"note": "n"} if spec.note_required else {}
        assert _catalog_verdicts(_set_fact(path, value, **extra), host_schema) == (True, True), path
        bad = _set_fact(path, {"an": "object"}, **extra)
        assert _catalog_verdicts(bad, host_schema) == (False, False), path


# ---- finding rules -------------------------------------------------------------------------------------------------


def _rule_document() -> dict[str, Any]:
    rule = {"id": "A-001", "title": "t", "severity": "info", "lane": "apps", "description": "d", "source": "s"}
    return {"format": 1, "rules": [rule]}


FINDING_RULE_CASES: list[tuple[str, Mutation, bool]] = [
    ("as is", lambda doc: None, True),
    ("with $schema and description", lambda doc: doc.update({"$schema": "x", "description": "d"}), True),
    ("lower-case id", lambda doc: doc["rules"][0].update(id="a-001"), False),
    ("unknown severity", lambda doc: doc["rules"][0].update(severity="fatal"), False),
    ("unknown lane", lambda doc: doc["rules"][0].update(lane="ui"), False),
    ("blank title", lambda doc: doc["rules"][0].update(title=" "), False),
    ("long source", lambda doc: doc["rules"][0].update(source="s" * 501), False),
    ("missing description", lambda doc: doc["rules"][0].pop("description"), False),
    ("extra key", lambda doc: doc["rules"][0].update(date="2026"), False),
    ("format 2", lambda doc: doc.update(format=2), False),
    ("no rules", lambda doc: doc.pop("rules"), False),
]


@pytest.mark.parametrize(
    ("mutate", "valid"), [case[1:] for case in FINDING_RULE_CASES], ids=[case[0] for case in FINDING_RULE_CASES]
)
def test_the_finding_rules_schema_and_validator_agree(mutate: Mutation, valid: bool) -> None:
    document = _rule_document()
    mutate(document)
    try:
        validate_rule_document(document, source_name="rules.json")
        python_accepts = True
    except InvalidInput:
        python_accepts = False
    schema_accepts = not list(jsonschema.Draft202012Validator(finding_rules_schema()).iter_errors(document))
    assert (python_accepts, schema_accepts) == (valid, valid)


def test_only_the_finding_rules_validator_refuses_a_repeated_id() -> None:
    document = _rule_document()
    document["rules"].append(dict(document["rules"][0]))
    assert not list(jsonschema.Draft202012Validator(finding_rules_schema()).iter_errors(document))
    with pytest.raises(InvalidInput, match=r"rules\[1\]: id 'A-001' is registered twice"):
        validate_rule_document(document, source_name="rules.json")


def test_the_bundled_finding_rules_validate_against_the_schema() -> None:
    text = (ROOT / "src" / "hostcompat" / "data" / "finding-rules.json").read_text(encoding="utf-8")
    jsonschema.Draft202012Validator(finding_rules_schema()).validate(json.loads(text))
    assert len(bundled_rows()) == len(json.loads(text)["rules"])


# ---- the validator's short path for usual facts ------------------------------------------------------------------


def _outcome(document: dict[str, Any]) -> object:
    try:
        return validate_catalog(document, source_name="x.json")
    except CatalogError as error:
        return error.message


@pytest.mark.parametrize(
    "mutate", VALID_CATALOGS + INVALID_CATALOGS + VALIDATOR_ONLY, ids=lambda mutate: mutate.__name__
)
def test_the_short_path_reaches_the_long_paths_result(mutate: Mutation, monkeypatch: pytest.MonkeyPatch) -> None:
    from hostcompat.engine.catalog import validate

    document = minimal_document()
    mutate(document)
    short = _outcome(copy.deepcopy(document))
    monkeypatch.setattr(validate, "_usual_fact", lambda raw, spec: None)
    assert _outcome(document) == short


def test_the_bundled_catalog_is_the_same_on_the_long_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from hostcompat.engine.catalog import validate

    text = (ROOT / "src" / "hostcompat" / "data" / "hosts.json").read_text(encoding="utf-8")
    short = validate.validate_catalog(validate.parse_catalog_text(text, source_name="h"), source_name="h")
    monkeypatch.setattr(validate, "_usual_fact", lambda raw, spec: None)
    long = validate.validate_catalog(validate.parse_catalog_text(text, source_name="h"), source_name="h")
    assert repr(long) == repr(short)


def test_the_check_exits_non_zero_naming_the_stale_file_and_a_run_rewrites_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    gen_schemas = load_script("gen_schemas")
    monkeypatch.setattr(gen_schemas, "DATA", tmp_path)
    assert gen_schemas.main(["--check"]) == 1  # every file is missing
    assert gen_schemas.main([]) == 0
    assert gen_schemas.main(["--check"]) == 0
    (tmp_path / "client-rules.schema.json").write_text("{}\n", encoding="utf-8")
    capsys.readouterr()
    assert gen_schemas.main(["--check"]) == 1
    assert capsys.readouterr().err == (
        f"{tmp_path / 'client-rules.schema.json'}: differs from what scripts/gen_schemas.py generates; "
        "run python scripts/gen_schemas.py\n"
    )
