"""`hostcompat hosts --coverage` and `--stale DAYS` over the bundled catalog and a user override."""

import json
from pathlib import Path

import pytest

from hostcompat.engine.catalog.coverage import catalog_coverage, fact_age_days, stale_facts, used_cells
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.catalog.model import Fact
from tests.cli.test_check import run

TEN = ("claude", "claude-code", "chatgpt", "codex", "cursor", "vscode", "goose", "gemini-cli", "copilot-cli", "copilot")


def test_the_cells_read_depend_on_whether_the_host_renders_widgets() -> None:
    catalog = load_catalog()
    claude, claude_code = catalog.get("claude"), catalog.get("claude-code")
    assert "ui.mcpApps.features.serverTools" in used_cells(claude)
    assert "ui.mcpApps.features.serverTools" not in used_cells(claude_code)  # renders no widget format
    assert "server.limits.toolNameFormat" in used_cells(claude_code)  # it counts the server name


def test_coverage_counts_known_unknown_and_assumed_and_measures_age() -> None:
    catalog = load_catalog()
    assumed_host = next(host for host in catalog.hosts if any(f.provenance == "assumed" for f in host.facts.values()))
    (row,) = catalog_coverage(catalog, "2026-12-03", [assumed_host])
    inferred = [
        path for path in used_cells(assumed_host) if (f := assumed_host.facts.get(path)) and f.provenance == "assumed"
    ]
    assert row.count("assumed") == len(inferred)
    assert row.count("known") + row.count("unknown") + row.count("assumed") == len(row.cells)
    assert row.oldest_age is not None and row.median_age is not None and row.oldest_age >= row.median_age
    fact = Fact(value="unsupported", provenance="observed", source="an issue", date="2025-06-27")
    assert fact_age_days(fact, "2026-12-03") == 524
    assert fact_age_days(Fact(value=1, provenance="observed", source="x", date="2026-07"), "2026-07-31") == 30


def test_the_ten_hosts_users_ask_about_have_no_assumed_cell() -> None:
    catalog = load_catalog()
    rows = catalog_coverage(catalog, "2026-12-04", [catalog.get(name) for name in TEN])
    assert {row.host.id: row.count("assumed") for row in rows} == dict.fromkeys(TEN, 0)


def test_the_coverage_table_and_json_name_the_gaps(tmp_path: Path) -> None:
    code, out, _ = run("hosts", "--coverage", "--as-of", "2026-12-03", *TEN)
    assert code == 0 and out.splitlines()[0].startswith("host") and "total" in out
    code, out, _ = run("hosts", "--coverage", "--format", "json", "--as-of", "2026-12-03", "chatgpt")
    (chatgpt,) = json.loads(out)["hosts"]
    assert "ui.mcpApps.features.cspResourceDomains" not in chatgpt["unknownCells"]
    override = tmp_path / "override.json"
    fact = {"value": 100, "provenance": "probe", "source": "a probe of my own", "date": "2026-12-01"}
    override.write_text(json.dumps({"hosts": [{"id": "chatgpt", "server": {"limits": {"maxTools": fact}}}]}))
    code, out, _ = run("hosts", "--coverage", "--format", "json", "--catalog", str(override), "chatgpt")
    (after,) = json.loads(out)["hosts"]
    assert after["unknown"] == chatgpt["unknown"] - 1


def test_stale_lists_old_evidence_oldest_first_and_skips_fixed_history() -> None:
    catalog = load_catalog()
    found = stale_facts(catalog.hosts, "2026-12-03", 365)
    ages = [age for *_, age in found]
    assert ages == sorted(ages, reverse=True) and all(age > 365 for age in ages)
    assert all(fact.fixed_in is None for _, _, fact, _ in found)
    code, out, _ = run("hosts", "--stale", "365", "--as-of", "2026-12-03")
    assert code == 0 and f"{len(found)} fact(s) with evidence older than 365 days" in out
    with pytest.raises(SystemExit) as stopped:
        run("hosts", "--stale", "soon")
    assert stopped.value.code == 2
    assert run("hosts", "--coverage", "--as-of", "2026-13-40")[0] == 2
