"""`check --config`: an entry that cannot be resolved is that server's error in the report, the other servers of
the file are still checked, `--input NAME=VALUE` gives VS Code inputs, and the run fails when a server was not
checked."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.cli._support import run

BOARD = [sys.executable, "-m", "hostcompat.examples.board"]


def vscode_config(tmp_path: Path, servers: dict[str, object]) -> Path:
    folder = tmp_path / ".vscode"
    folder.mkdir()
    config = folder / "mcp.json"
    config.write_text(json.dumps({"inputs": [{"id": "token", "type": "promptString"}], "servers": servers}), "utf-8")
    return config


def by_name(out: str) -> dict[str, Any]:
    return {str(server["target"]["display"]).split(" ")[0]: server for server in json.loads(out)["servers"]}


def test_unresolvable_entries_are_their_servers_errors_and_the_others_are_checked(tmp_path: Path) -> None:
    config = vscode_config(
        tmp_path,
        {
            "needs-input": {"command": BOARD[0], "args": [*BOARD[1:], "--token", "${input:token}"]},
            "not-installed": {"command": "hostcompat-no-such-server-binary", "args": []},
            "odd-variable": {"command": BOARD[0], "args": ["${command:pickFile}"]},
            "broken": {"command": BOARD[0], "args": "not a list"},
            "board": {"command": BOARD[0], "args": BOARD[1:]},
        },
    )
    for fail_on in ("blocked", "never"):
        code, out, err = run(
            "check", "--config", str(config), "--host", "claude", "--format", "json", "--fail-on", fail_on
        )
        assert code == 1, err  # some servers could not be checked, whatever --fail-on says
        servers = by_name(out)
        assert list(servers) == ["needs-input", "not-installed", "odd-variable", "broken", "board"]
        assert "--input token=VALUE" in str(servers["needs-input"]["error"])
        assert "not found on PATH" in str(servers["not-installed"]["error"])
        assert "${command:pickFile}" in str(servers["odd-variable"]["error"])
        assert "args must be a list of strings" in str(servers["broken"]["error"])
        for name in ("needs-input", "not-installed", "odd-variable", "broken"):
            assert servers[name]["hosts"] == [] and servers[name]["target"]["config"] == str(config)
        assert servers["board"]["error"] is None
        assert [host["verdict"] for host in servers["board"]["hosts"]] == ["works"]


def test_the_text_report_names_each_unchecked_server(tmp_path: Path) -> None:
    config = vscode_config(
        tmp_path,
        {
            "needs-input": {"command": BOARD[0], "args": ["${input:token}"]},
            "board": {"command": BOARD[0], "args": BOARD[1:]},
        },
    )
    code, out, _ = run("check", "--config", str(config), "--host", "claude")
    assert code == 1
    assert "could not be checked:" in out and "uses ${input:token}" in out
    assert "ok Claude" in out


def test_input_values_resolve_inputs_and_never_reach_the_report(tmp_path: Path) -> None:
    secret = "tok-0123456789-secret"
    config = vscode_config(
        tmp_path,
        {"board": {"command": BOARD[0], "args": [*BOARD[1:], "--label", "${input:token}"]}},
    )
    code, out, err = run(
        "check", "--config", str(config), "--host", "claude", "--format", "json", "--input", f"token={secret}"
    )
    assert code == 0, err
    (server,) = json.loads(out)["servers"]
    assert server["error"] is None and server["server"]["name"] == "task-board"
    assert secret not in out


def test_a_sarif_report_carries_the_unchecked_servers_as_error_notifications(tmp_path: Path) -> None:
    config = vscode_config(tmp_path, {"needs-input": {"command": "x", "args": ["${input:token}"]}})
    code, out, _ = run("check", "--config", str(config), "--format", "sarif")
    assert code == 1
    (invocation,) = json.loads(out)["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    (notification,) = invocation["toolExecutionNotifications"]
    assert notification["level"] == "error" and "${input:token}" in notification["message"]["text"]
