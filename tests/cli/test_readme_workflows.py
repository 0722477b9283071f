"""The README's CI and batch workflows run as written, in a fresh folder, each command as a user types it."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from tests.cli._support import REPO, run
from tests.report.xsd_rules import problems

SECTION = "## In CI and in batch: JUnit, baselines, shards"
BASH = re.compile(r"^```bash\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _commands() -> list[list[str]]:
    text = (REPO / "README.md").read_text("utf-8")
    section = text[text.index(SECTION) :]
    section = section[: section.index("\n## ", len(SECTION))]
    lines = [line for block in BASH.findall(section) for line in block.splitlines()]
    return [shlex.split(line, comments=True) for line in lines if line.startswith("hostcompat ")]


def test_the_ci_and_batch_workflows_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    board = [sys.executable, "-m", "hostcompat.examples.board"]
    servers = {"mcpServers": {name: {"command": board[0], "args": board[1:]} for name in ("board", "again", "third")}}
    Path("servers.json").write_text(json.dumps(servers), "utf-8")
    commands = _commands()
    names = ["snapshot", "check", "check", "check", "check", "diff", "check", "check", "merge"]
    assert [command[1] for command in commands] == names
    for command in commands:
        code, _, err = run(*command[1:])
        expected = 1 if "junit" in command else 0  # the demo is degraded on some hosts: --fail-on degraded fails
        assert code == expected, (command, err)
    assert problems(Path("junit.xml").read_text("utf-8")) == []
    merged = json.loads(Path("merged.json").read_text("utf-8"))
    assert [server["target"]["display"] for server in merged["servers"]] == [
        "board (servers.json)",
        "again (servers.json)",
        "third (servers.json)",
    ]
    assert merged["notChecked"] == 0 and merged["hostSummary"]
