"""The README's Python examples run, each on its own: the docs cannot rot."""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def test_the_readme_has_examples() -> None:
    assert len(BLOCK.findall(README.read_text("utf-8"))) >= 6


@pytest.mark.parametrize("number", range(1, len(BLOCK.findall(README.read_text("utf-8"))) + 1))
def test_each_readme_example_runs_on_its_own(number: int) -> None:
    """Each block in a fresh namespace, as a reader pastes it: no block leans on a name an earlier one defined."""
    block = BLOCK.findall(README.read_text("utf-8"))[number - 1]
    exec(compile(block, f"README.md python block {number}", "exec"), {"__name__": "readme"})


JSON_BLOCK = re.compile(r"^```json\n(.*?)^```", re.DOTALL | re.MULTILINE)


def test_the_readme_catalog_override_example_loads_and_takes_effect(tmp_path: Path) -> None:
    from hostcompat.engine.catalog.load import load_catalog

    (example,) = [block for block in JSON_BLOCK.findall(README.read_text("utf-8")) if '"catalog"' in block]
    path = tmp_path / "hosts.json"
    path.write_text(example, "utf-8")
    fact = load_catalog(overrides=[str(path)]).get("codex").fact("server.features.structuredContent")
    assert fact is not None
    assert (fact.trigger, fact.since) == ("result-structured-replaces-content", "0.151.0")


def test_the_minimal_override_the_unknown_verdicts_point_to_is_documented_and_loads(tmp_path: Path) -> None:
    from hostcompat.engine.catalog.load import load_catalog
    from hostcompat.engine.findings.fixes import OVERRIDE_HELP, record_fact_fix

    text = README.read_text("utf-8")
    (example,) = [block for block in JSON_BLOCK.findall(text) if '"postman"' in block]
    path = tmp_path / "mine.json"
    path.write_text(example, "utf-8")
    catalog = load_catalog(overrides=[str(path)])
    fact = catalog.get("postman").fact("ui.mcpApps.features.serverTools")
    assert fact is not None and fact.value == "supported"
    fix = record_fact_fix(catalog.get("postman"), "ui.mcpApps.features.serverTools", "the widget")
    assert "ui.mcpApps.features.serverTools of host 'postman'" in fix and OVERRIDE_HELP in fix
    assert "**Your own host facts** (`--catalog FILE`" in text  # the section the fix names


REPORT_PARTS = (
    "ServerEntry",
    "HostEntry",
    "FindingEntry",
    "EvidenceEntry",
    "WidgetEntry",
    "NeedUseEntry",
    "WithProxyEntry",
)


def test_every_key_of_the_report_document_is_documented() -> None:
    """The README names each key of the report's top level, servers, hosts, findings, widgets and `withProxy` in
    code, as the JSON Schema defines them: a key added to the document (`factSince`, `hostKind` …) is documented."""
    from hostcompat.report.json_schema import report_schema

    schema = report_schema()
    text = README.read_text("utf-8")
    keys = set(schema["properties"])
    for part in REPORT_PARTS:
        keys |= set(schema["$defs"][part]["properties"])
    missing = sorted(key for key in keys if f"`{key}`" not in text)
    assert missing == [], f"README does not document these report keys: {missing}"
