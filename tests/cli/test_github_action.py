"""The GitHub Action's script, run as the action runs it, against the built-in example server: valid SARIF 2.1.0, a
Markdown job summary, the step outputs, and the exit code `--fail-on` asks for."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]

import hostcompat
from tests.cli._support import REPO

SCRIPT = REPO / "scripts" / "github_action.py"
SARIF_SCHEMA = REPO / "interop/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"


def run_action(tmp_path: Path, **inputs: str) -> tuple[int, dict[str, str], str, str]:
    """The script with a fake runner: exit code, step outputs, the job summary, standard error."""
    summary, outputs = tmp_path / "summary.md", tmp_path / "outputs.txt"
    source = Path(hostcompat.__file__).resolve().parents[1]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(source), str(REPO)]),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(outputs),
        **{f"HOSTCOMPAT_{name.upper()}": value for name, value in inputs.items()},
    }
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180, check=False
    )
    pairs = dict(line.split("=", 1) for line in outputs.read_text("utf-8").splitlines()) if outputs.exists() else {}
    return done.returncode, pairs, summary.read_text("utf-8") if summary.exists() else "", done.stderr


def test_the_action_checks_the_example_server_and_writes_sarif_and_a_summary(tmp_path: Path) -> None:
    code, outputs, summary, err = run_action(tmp_path, demo="true", fail_on="degraded")
    assert code == 1, err  # the demo is degraded on some hosts: --fail-on degraded fails
    assert outputs["exit-code"] == "1" and outputs["servers"] == "1" and outputs["not-checked"] == "0"
    sarif = json.loads((tmp_path / outputs["sarif"]).read_text("utf-8"))
    assert sarif["version"] == "2.1.0"
    rule_ids = {result["ruleId"] for result in sarif["runs"][0]["results"]}
    report = json.loads((tmp_path / outputs["report"]).read_text("utf-8"))
    finding_ids = {f["ruleId"] for host in report["servers"][0]["hosts"] for f in host["findings"]}
    assert finding_ids and finding_ids <= rule_ids
    if SARIF_SCHEMA.exists():
        import jsonschema

        jsonschema.validate(sarif, json.loads(SARIF_SCHEMA.read_text("utf-8")))
    elif os.environ.get("CI") == "true":
        pytest.fail(f"the SARIF 2.1.0 schema is missing in CI: {SARIF_SCHEMA}")
    assert summary.startswith("# hostcompat\n\n**failed** (`--fail-on degraded`): 1 server(s) checked")
    degraded = [host for host in report["servers"][0]["hosts"] if host["verdict"] == "degraded"]
    row = f"| {degraded[0]['hostLabel']} | 0 | 1 | 0 | 0 |"
    assert row in summary.splitlines()
    assert "## task-board" in summary and "### Findings" in summary


def test_the_action_passes_on_blocked_and_can_defer_its_exit(tmp_path: Path) -> None:
    code, outputs, summary, _ = run_action(tmp_path, demo="true", defer_exit="true", hosts="claude, goose")
    assert code == 0 and outputs["exit-code"] == "0"
    assert "**passed** (`--fail-on blocked`)" in summary
    table = [line for line in summary.splitlines() if line.startswith("| ") and "works" not in line]
    assert [line.split(" | ")[0] for line in table[:2]] == ["| Claude", "| Goose"]


def test_an_unusable_input_is_exit_2_with_no_sarif_and_says_so(tmp_path: Path) -> None:
    code, outputs, summary, err = run_action(tmp_path, target="missing.json")
    assert code == 2 and outputs["exit-code"] == "2" and "sarif" not in outputs
    assert "could not run" in summary and "missing.json" in err


def test_the_command_input_is_a_shell_split_command_line(tmp_path: Path) -> None:
    code, outputs, _, err = run_action(
        tmp_path, command=f"{sys.executable} -m hostcompat.examples.board", hosts="claude", fail_on="never"
    )
    assert code == 0, err
    report = json.loads((tmp_path / outputs["report"]).read_text("utf-8"))
    assert "hostcompat.examples.board" in report["servers"][0]["target"]["display"]


def test_action_yml_runs_the_script_and_fails_by_its_exit_code() -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text("utf-8"))
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    check = next(step for step in steps if step.get("id") == "check")
    assert "scripts/github_action.py" in check["run"] and check["env"]["HOSTCOMPAT_DEFER_EXIT"] == "true"
    names = {key.removeprefix("HOSTCOMPAT_").lower().replace("_", "-") for key in check["env"]} - {"defer-exit"}
    assert names <= set(action["inputs"])
    assert steps[-1]["if"] == "${{ steps.check.outputs.exit-code != '0' }}"
