"""`report.schema.json`: generated from the report TypedDicts, shipped with the package, and every report a check
writes matches it (the demo server, saved snapshots, a server that could not be checked).

Beyond these, `tests/report/schema_check.py` validates every document any test builds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_type_hints

import jsonschema
import pytest

from hostcompat.report import ReportDocument, report_document, server_entry
from hostcompat.report.json_schema import report_schema
from hostcompat.report.model import EXTRA_KEYS
from tests.cli._support import run
from tests.report import schema_check
from tests.report.sample import document

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "probe" / "fixtures"


def test_the_schema_file_is_what_the_typed_dicts_give() -> None:
    assert schema_check.report_schema() == report_schema()  # scripts/gen_schemas.py writes it
    jsonschema.Draft202012Validator.check_schema(report_schema())


def test_the_schema_names_every_key_of_every_part() -> None:
    schema = schema_check.report_schema()
    parts = {"ReportDocument": schema, **schema["$defs"]}
    seen = {"ReportDocument"}
    pending: list[Any] = [ReportDocument]
    while pending:
        typed = pending.pop()
        hints = get_type_hints(typed)
        definition = parts[typed.__name__]
        assert set(definition["properties"]) == set(hints), typed.__name__
        assert set(definition["required"]) == set(typed.__required_keys__), typed.__name__
        assert (definition["additionalProperties"] is not False) == (typed.__name__ in EXTRA_KEYS)
        for hint in hints.values():
            for inner in _typed_dicts(hint):
                if inner.__name__ not in seen:
                    seen.add(inner.__name__)
                    pending.append(inner)
    assert seen == set(parts)


def _typed_dicts(hint: Any) -> list[Any]:
    if isinstance(hint, type) and hasattr(hint, "__required_keys__"):
        return [hint]
    return [inner for arg in getattr(hint, "__args__", ()) for inner in _typed_dicts(arg)]


def checked_json(*argv: str) -> Any:
    code, out, err = run("check", *argv, "--format", "json", "--fail-on", "never")
    assert code in (0, 1), err
    return json.loads(out)


@pytest.mark.parametrize("snapshot", sorted(FIXTURES.glob("*snapshot*.json")), ids=lambda path: path.name)
def test_a_check_of_a_saved_snapshot_matches_the_schema(snapshot: Path) -> None:
    report = checked_json(str(snapshot))
    assert report["servers"][0]["hosts"]
    assert schema_check.problems_of(report) == []


def test_a_check_of_the_demo_server_matches_the_schema() -> None:
    report = checked_json("--demo")
    assert report["servers"][0]["hosts"]
    assert schema_check.problems_of(report) == []


def test_a_server_that_could_not_be_checked_matches_the_schema(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"gone": {"command": str(tmp_path / "no-such-server")}}}), "utf-8")
    report = checked_json("--config", str(config))
    assert report["servers"][0]["error"]
    assert schema_check.problems_of(report) == []


def test_the_sample_documents_match_the_schema() -> None:
    for verdicts in (("works",), ("works", "degraded", "blocked", "unknown")):
        assert schema_check.problems_of(document(*verdicts)) == []


def test_a_document_of_another_shape_does_not_match() -> None:
    odd = report_document([server_entry(target={"display": 3}, server=None, hosts=[{"hostId": "h"}])])
    problems = schema_check.take_problems()  # the builder's own check saw it too: taken, so this test passes
    assert problems == schema_check.problems_of(odd)
    assert any("display" in problem for problem in problems)
    assert any("hostLabel" in problem for problem in problems)
