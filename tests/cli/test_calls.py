"""`--call`, `--calls` and `--no-calls` on `check` and `snapshot`, against the example board server (a real process),
and a version-1 snapshot file still checked offline."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

import hostcompat
from hostcompat.cli import main
from hostcompat.probe import read_snapshot

SOURCE = str(Path(hostcompat.__file__).resolve().parents[1])
BOARD = ["--env", f"PYTHONPATH={SOURCE}", "--", sys.executable, "-m", "hostcompat.examples.board"]
"""The example server of this source tree (the one this test imports), wherever the interpreter installed one."""
V1_SNAPSHOT = Path(__file__).resolve().parents[1] / "probe" / "fixtures" / "board-snapshot-v1.json"
BOARD_TOOLS = ["show_board", "refresh_board", "board_summary", "count_tasks"]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def checked(*argv: str) -> dict[str, Any]:
    code, out, err = run("check", "--format", "json", "--fail-on", "never", *argv)
    assert code == 0, err
    (server,) = json.loads(out)["servers"]
    result: dict[str, Any] = server
    return result


def hygiene_rules(server: dict[str, Any]) -> list[str]:
    return [finding["ruleId"] for finding in server["hygiene"]]


def test_the_board_tools_are_read_only_so_their_results_are_checked_and_tool_content_002_is_gone() -> None:
    assert "TOOL-CONTENT-002" not in hygiene_rules(checked(*BOARD))


def test_without_calls_tool_content_002_says_how_to_capture_a_result() -> None:
    server = checked("--no-calls", *BOARD)
    (unchecked,) = [finding for finding in server["hygiene"] if finding["ruleId"] == "TOOL-CONTENT-002"]
    assert unchecked["tools"] == ["show_board", "refresh_board", "board_summary"]
    assert "--call TOOL=JSON" in unchecked["remediation"] and "--calls FILE" in unchecked["remediation"]
    named = checked("--no-calls", "--call", "show_board", "--call", "refresh_board={}", *BOARD)
    (still,) = [finding for finding in named["hygiene"] if finding["ruleId"] == "TOOL-CONTENT-002"]
    assert still["tools"] == ["board_summary"]  # only the tool left uncalled


def test_snapshot_records_named_and_automatic_calls_in_format_2(tmp_path: Path) -> None:
    calls = tmp_path / "calls.json"
    calls.write_text(json.dumps([{"tool": "count_tasks", "arguments": {}}]), "utf-8")
    path = tmp_path / "board.json"
    code, _, err = run("snapshot", "--calls", str(calls), "--call", "show_board", "-o", str(path), *BOARD)
    assert code == 0, err
    assert "4 tools, 4 tool calls" in err
    data = json.loads(path.read_text("utf-8"))
    assert data["schemaVersion"] == "hostcompat.snapshot/2"
    assert [(call["tool"], call["reason"], call["outcome"]) for call in data["calls"]] == [
        ("count_tasks", "explicit", "ok"),
        ("show_board", "explicit", "ok"),
        ("refresh_board", "auto", "ok"),
        ("board_summary", "auto", "ok"),
    ]
    assert data["calls"][1]["result"]["structuredContent"]["tasks"][0]["done"] is True
    assert "TOOL-CONTENT-002" not in hygiene_rules(checked(str(path)))
    code, _, err = run("snapshot", "--no-calls", "-o", str(path), *BOARD)
    assert code == 0 and read_snapshot(path).calls == ()


def test_a_version_1_snapshot_still_checks_offline() -> None:
    snapshot = read_snapshot(V1_SNAPSHOT)
    assert json.loads(V1_SNAPSHOT.read_text("utf-8"))["schemaVersion"] == "hostcompat.snapshot/1"
    assert snapshot.calls == () and snapshot.call_results == {} and len(snapshot.tools) == 4
    server = checked(str(V1_SNAPSHOT))
    assert server["server"]["name"] == "task-board" and server["hosts"]
    assert "TOOL-CONTENT-002" in hygiene_rules(server)  # no results were captured then


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--call", "show_board={"], "--call 'show_board={': the arguments of 'show_board' are not JSON"),
        (["--call", "show_board=[]"], "must be a JSON object"),
        (["--call", "=1"], "TOOL=JSON"),
        (["--calls", "missing.json"], "not a regular file"),
    ],
)
def test_a_bad_call_option_is_an_argument_error(argv: list[str], message: str) -> None:
    code, _, err = run("check", *argv, *BOARD)
    assert code == 2 and message in err


def test_a_malformed_calls_file_and_a_call_on_a_snapshot_are_argument_errors(tmp_path: Path) -> None:
    bad = tmp_path / "calls.json"
    bad.write_text('[{"tool": "a", "args": {}}]', "utf-8")
    code, _, err = run("check", "--calls", str(bad), *BOARD)
    assert code == 2 and "unknown keys ['args']" in err
    bad.write_text("{nope", "utf-8")
    assert run("check", "--calls", str(bad), *BOARD)[0] == 2
    code, _, err = run("check", str(V1_SNAPSHOT), "--call", "show_board")
    assert code == 2 and "apply to live servers" in err


def _demo_is_this_tree() -> bool:
    """True when `--demo` (which starts `python -m hostcompat.examples.board` with a clean environment) runs the
    hostcompat of this source tree: installed from it, as in CI."""
    probe = "import hostcompat, pathlib; print(pathlib.Path(hostcompat.__file__).resolve().parents[1])"
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=False)
    return done.stdout.strip() == SOURCE


@pytest.mark.skipif(not _demo_is_this_tree(), reason="--demo would start another installed hostcompat's board")
def test_the_demo_captures_its_ui_tools_results() -> None:
    with_calls, without = checked("--demo"), checked("--demo", "--no-calls")
    assert "TOOL-CONTENT-002" not in hygiene_rules(with_calls)
    assert "TOOL-CONTENT-002" in hygiene_rules(without)
