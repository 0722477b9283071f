"""`POST /api/check` with a host config file: every enabled server in it is probed and checked, only with the token,
and no secret of the config (env and header values, inputs, the environment values it names) reaches the report,
the run or its events."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.web.support import Served

ENV_SECRET = "env-secret-5f0c2a9e7d"
PLAIN_SECRET = "plain-secret-81b3d6"
HEADER_SECRET = "header-secret-c47a10"
INPUT_SECRET = "input-secret-3e99f2"
BOARD_ARGS = ["-m", "hostcompat.examples.board"]


def _claude_desktop(marker: Path | None = None) -> str:
    servers: dict[str, object] = {
        "board": {"command": sys.executable, "args": [*BOARD_ARGS, "${env:HC_WEB_SECRET}"]},
        "board-with-env": {"command": sys.executable, "args": BOARD_ARGS, "env": {"API_KEY": PLAIN_SECRET}},
        "remote": {"url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": f"Bearer {HEADER_SECRET}"}},
        "missing": {"command": "hostcompat-no-such-command-here"},
        "off": {"command": sys.executable, "args": BOARD_ARGS, "disabled": True},
    }
    if marker is not None:
        servers = {"touch": {"command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w').close()"]}}
    return json.dumps({"mcpServers": servers})


def test_a_config_checks_each_enabled_server_and_no_secret_reaches_the_run(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HC_WEB_SECRET", ENV_SECRET)
    body = {"config": {"name": "claude_desktop_config.json", "text": _claude_desktop()}}
    status, started = served.post_json("/api/check", body, {"X-Hostcompat-Token": served.token})
    assert status == 202, started
    run = served.wait_report(started["id"], timeout=120)
    assert run["status"] == "done", run.get("error")  # some rows failed, not the check
    servers = run["report"]["servers"]
    labels = [server["target"]["display"] for server in servers]
    assert labels == [
        "board (claude_desktop_config.json)",
        "board-with-env (claude_desktop_config.json)",
        "remote (claude_desktop_config.json)",
        "missing (claude_desktop_config.json)",
    ]
    assert all(server["target"]["config"] == "claude_desktop_config.json" for server in servers)
    board, with_env, remote, missing = servers
    assert len(board["hosts"]) > 10 and len(with_env["hosts"]) > 10 and not board.get("error")
    assert "not found on PATH" in missing["error"]
    assert remote["error"]
    _, events = served.request("GET", f"/api/reports/{run['id']}/events")
    assert "(1 of 4)" in events and "event: done" in events
    everything = json.dumps(run) + events
    for secret in (ENV_SECRET, PLAIN_SECRET, HEADER_SECRET):
        assert secret not in everything


def test_a_vscode_config_takes_inputs_and_keeps_them_out_of_the_report(served: Served) -> None:
    server = {"type": "stdio", "command": sys.executable, "args": [*BOARD_ARGS, "--token=${input:token}"]}
    config = (  # VS Code writes comments and trailing commas
        '{\n  // the servers\n  "inputs": [{"id": "token", "type": "promptString", "password": true}],\n'
        f'  "servers": {{"board": {json.dumps(server)},}},\n}}'
    )
    body = {"config": {"name": "mcp.json", "text": config}, "inputs": {"token": INPUT_SECRET}, "hosts": ["claude"]}
    run = served.check(body, {"X-Hostcompat-Token": served.token})
    assert run["status"] == "done", run.get("error")
    (server,) = run["report"]["servers"]
    assert [host["hostId"] for host in server["hosts"]] == ["claude"]
    assert INPUT_SECRET not in json.dumps(run)


def test_an_unresolved_input_is_that_servers_error(served: Served) -> None:
    config = json.dumps({"servers": {"board": {"command": sys.executable, "args": ["${input:token}"]}}})
    run = served.check({"config": {"name": "mcp.json", "text": config}}, {"X-Hostcompat-Token": served.token})
    assert run["status"] == "failed"
    assert "${input:token}" in run["report"]["servers"][0]["error"]


def test_a_config_without_the_token_is_refused_and_starts_nothing(served: Served, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    body = {"config": {"name": ".mcp.json", "text": _claude_desktop(marker)}}
    for headers in ({}, {"X-Hostcompat-Token": "wrong"}):
        status, answer = served.post_json("/api/check", body, headers)
        assert status == 403 and answer["error"]["code"] == "token-required"
        assert "config" in answer["error"]["message"]
    assert not marker.exists()


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"config": {"name": "mcp.json", "text": "{not json"}}, "not valid JSON at line 1"),
        ({"config": {"name": "mcp.json", "text": '{"other": {}}'}}, "no server list found"),
        ({"config": {"name": "config.toml", "text": "[[oops"}}, "not valid TOML"),
        ({"config": {"name": "mcp.json", "text": '{"mcpServers": {}}'}}, "lists no enabled server"),
        ({"config": "{}"}, "'config' must be an object"),
        ({"config": {"text": "{}", "path": "/etc"}}, "only 'text' and 'name'"),
        ({"command": "true", "inputs": {"a": "b"}}, "no 'config' is given"),
        ({"config": {"text": '{"mcpServers": {}}'}, "inputs": ["x"]}, "'inputs' must be an object"),
    ],
)
def test_a_bad_config_request_names_the_problem(served: Served, body: dict[str, object], words: str) -> None:
    status, answer = served.post_json("/api/check", body, {"X-Hostcompat-Token": served.token})
    assert status == 400, answer
    assert words in answer["error"]["message"]


def test_a_config_name_is_only_a_file_name(served: Served) -> None:
    text = json.dumps({"mcpServers": {"missing": {"command": "hostcompat-no-such-command-here"}}})
    body = {"config": {"name": "/home/someone/.cursor/mcp.json", "text": text}}
    run = served.check(body, {"X-Hostcompat-Token": served.token})
    assert run["report"]["servers"][0]["target"]["display"] == "missing (mcp.json)"
    assert "/home/someone" not in json.dumps(run)
