"""`hostcompat hosts --merge FILE --catalog MINE`: a probe file folded into a user catalog, fact by fact, and the
result written atomically only when it loads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hostcompat.cli.command_line import main
from hostcompat.engine.catalog.fold import fold_documents
from hostcompat.engine.catalog.load import load_catalog

DATE = "2026-12-04"


def _fact(value: Any, **extra: Any) -> dict[str, Any]:
    return {
        "value": value,
        "provenance": "probe",
        "source": "hostcompat probe-host in goose 1.30.0",
        "date": DATE,
        **extra,
    }


def _probe_file(path: Path) -> Path:
    bundled = load_catalog().get("goose")
    document = {
        "catalog": {"schemaVersion": 1, "date": DATE},
        "hosts": [
            {
                "id": "goose",
                "ui": {"mcpApps": {"features": {"openLinks": _fact(bundled.level("ui.mcpApps.features.openLinks"))}}},
                "variants": [
                    {"path": "ui.mcpApps.features.serverTools", **_fact("supported", os=["linux"])},
                    {"path": "ui.mcpApps.features.toolInput", **_fact("supported", os=["linux"])},
                ],
            }
        ],
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_merge_shows_each_fact_added_changed_or_unchanged_and_writes_the_catalog(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    probe, mine = _probe_file(tmp_path / "probe.json"), tmp_path / "mine.json"
    assert main(["hosts", "--merge", str(probe), "--catalog", str(mine)]) == 0
    out = capsys.readouterr().out
    assert f"Created {mine}" in out
    changed = 'changed goose ui.mcpApps.features.serverTools [os=linux]: "unsupported" (probe) → "supported" (probe)'
    assert changed in out
    assert "unchanged goose ui.mcpApps.features.openLinks" in out
    assert "3 facts: 1 added, 1 changed, 1 unchanged." in out
    catalog = load_catalog(overrides=[mine])
    assert catalog.get("goose").variants[-1].fact.provenance == "probe"
    assert main(["hosts", "--merge", str(probe), "--catalog", str(mine), "--format", "json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["created"] is False and {change["change"] for change in again["changes"]} == {"unchanged"}
    assert len(json.loads(mine.read_text())["hosts"]) == 1  # folded into the same host, not appended


def test_a_bad_probe_file_or_no_target_is_an_error_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    probe, mine = _probe_file(tmp_path / "probe.json"), tmp_path / "mine.json"
    assert main(["hosts", "--merge", str(probe)]) == 2
    assert "add --catalog FILE" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"hosts": [{"id": "goose", "ui": {"mcpApps": {"features": {"openLinks": 1}}}}]}))
    assert main(["hosts", "--merge", str(bad), "--catalog", str(mine)]) == 2
    assert "openLinks" in capsys.readouterr().err and not mine.exists()


def test_folding_keeps_the_users_own_hosts_and_header() -> None:
    user = {"catalog": {"schemaVersion": 1, "date": "2026-01-01"}, "hosts": [{"id": "zed", "aliases": ["zed-x"]}]}
    folded = {"catalog": {"schemaVersion": 1, "date": DATE}, "hosts": [{"id": "goose", "aliases": ["g2"]}]}
    merged = fold_documents(user, folded)
    assert merged["catalog"] == user["catalog"] and [host["id"] for host in merged["hosts"]] == ["zed", "goose"]
    assert fold_documents(None, folded)["catalog"] == {"schemaVersion": 1, "date": DATE}
