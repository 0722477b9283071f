"""The finding rules' data file: its invariants, and the engine's code and the data naming the same rules."""

import ast
import json
from pathlib import Path

import pytest

import hostcompat
from hostcompat.engine.findings.model import RULE_ID_PATTERN
from hostcompat.engine.findings.rule_data import RULE_KEYS, bundled_rows, parse_rule_text
from hostcompat.engine.findings.rules import RULES
from hostcompat.errors import InvalidInput

PACKAGE = Path(hostcompat.__file__).parent
DATA = PACKAGE / "data" / "finding-rules.json"


def rule_ids_in_the_code() -> set[str]:
    """Every string constant of the package's code shaped like a rule id (`finding_for("APPS-CAP-001", ...)`)."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE_ID_PATTERN.match(node.value):
                found.add(node.value)
    return found


def test_every_rule_the_code_names_is_in_the_data_and_every_rule_in_the_data_is_used() -> None:
    in_code = rule_ids_in_the_code()
    in_data = {row[0] for row in bundled_rows()}
    assert sorted(in_code - in_data) == []
    assert sorted(in_data - in_code) == []


def test_the_data_file_has_unique_ids_and_every_field_set() -> None:
    document = json.loads(DATA.read_text(encoding="utf-8"))
    ids = [rule["id"] for rule in document["rules"]]
    assert len(ids) == len(set(ids))
    for rule in document["rules"]:
        assert tuple(rule) == RULE_KEYS, rule["id"]
        assert all(isinstance(value, str) and value.strip() for value in rule.values()), rule["id"]


def test_the_registry_is_the_data_file_in_order() -> None:
    document = json.loads(DATA.read_text(encoding="utf-8"))
    rows = [tuple(rule[key] for key in RULE_KEYS) for rule in document["rules"]]
    registry = [(r.rule_id, r.title, r.severity.value, r.lane.value, r.description, r.source) for r in RULES]
    assert registry == rows
    assert bundled_rows() is bundled_rows()  # read once


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not usable JSON"),
        ('{"format": 1, "rules": [], "rules": []}', "duplicate key 'rules'"),
        ('{"format": 1, "rules": [{"id": "A-001"}]}', "rules[0]: missing 'title'"),
        ('{"format": 1, "rules": [7]}', "rules[0] must be an object"),
        ('{"format": 1, "rules": [], "colour": 1}', "unknown key 'colour'"),
    ],
)
def test_a_broken_file_is_refused_naming_the_place(text: str, message: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_rule_text(text, source_name="rules.json")
    assert caught.value.message.startswith("rules.json: ")
    assert message in caught.value.message
