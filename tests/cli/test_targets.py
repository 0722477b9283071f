"""Positional targets are what they look like (a URL or a snapshot file); only what follows `--` is run; a server
that could not be probed fails the check; bad input is exit 2 with a message, never a traceback."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.cli._support import hostile_server, run

BOARD = [sys.executable, "-m", "hostcompat.examples.board"]


@pytest.fixture(scope="module")
def board_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("board") / "board.json"
    code, _, err = run("snapshot", "-o", str(path), "--", *BOARD)
    assert code == 0, err
    return path


def executable(path: Path, marker: Path) -> Path:
    """An executable script at `path` that leaves `marker` behind when it runs."""
    path.write_text(f"#!/bin/sh\ntouch '{marker}'\n", "utf-8")
    path.chmod(0o755)
    return path


@pytest.mark.parametrize("name", ["README.md", "foo", "server.py", "snapshot.txt"])
def test_a_lone_argument_that_is_neither_a_url_nor_a_snapshot_is_never_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    marker = tmp_path / "ran"
    executable(tmp_path / name, marker)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{tmp_path}:{Path(sys.executable).parent}:/usr/bin:/bin")
    for argument in (f"./{name}", name):
        code, _, err = run("check", argument, "--timeout", "5")
        assert code == 2, err
        assert "put the command after `--`" in err and f"hostcompat check -- {argument}" in err
    assert not marker.exists(), "an argument before `--` was run as a command"


def test_a_directory_is_not_a_target(tmp_path: Path) -> None:
    code, _, err = run("check", str(tmp_path))
    assert code == 2 and "is a directory" in err


def test_two_snapshot_files_are_two_servers(board_snapshot: Path, tmp_path: Path) -> None:
    other = tmp_path / "copy.json"
    other.write_bytes(board_snapshot.read_bytes())
    code, out, err = run("check", str(board_snapshot), str(other), "--host", "claude", "--format", "json")
    assert code == 0, err
    servers = json.loads(out)["servers"]
    assert [server["target"]["snapshot"] for server in servers] == [str(board_snapshot), str(other)]


def test_a_snapshot_file_and_a_command_are_two_servers(board_snapshot: Path) -> None:
    code, out, err = run("check", str(board_snapshot), "--host", "claude", "--format", "json", "--", *BOARD)
    assert code == 0, err
    first, second = json.loads(out)["servers"]
    assert first["target"]["snapshot"] == str(board_snapshot)
    assert second["target"]["kind"] == "stdio" and second["server"]["name"] == "task-board"


def test_options_after_the_double_dash_belong_to_the_server(board_snapshot: Path) -> None:
    code, out, err = run("check", "--host", "claude", "--format", "json", "--", *BOARD, "--format", "text")
    assert code == 0, err
    (server,) = json.loads(out)["servers"]
    assert server["target"]["args"][-2:] == ["--format", "text"]


def test_a_bad_snapshot_file_fails_before_any_probe(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "nope"}', "utf-8")
    marker = tmp_path / "ran"
    code, _, err = run("check", str(bad), "--", sys.executable, "-c", f"open({str(marker)!r}, 'w')")
    assert code == 2 and "bad.json" in err
    assert not marker.exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "http://[::1"], "not a usable URL"),
        (["check", "http://[::1]:99999/mcp"], "not a usable URL"),
        (["snapshot", "-o", "x.json", "http://[::1"], "not a usable URL"),
        (["check", "--"], "nothing after `--`"),
        (["snapshot", "-o", "x.json", "https://a.example/mcp", "--", "node", "s.js"], "exactly one live server"),
        (["check", "--input", "token=x", "--demo"], "no --config"),
        (["check", "--config", "c.json", "--input", "token"], "NAME=VALUE"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # nothing may be written, but if something were, it would land here
    code, _, err = run(*argv)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_an_unparseable_url_among_a_servers_arguments_is_redacted_not_a_traceback() -> None:
    argv = ["--", sys.executable, "-c", "pass", "http://user:pw-2f9c1d@[::1", "ftp://[x"]
    code, out, err = run("check", "--format", "json", "--timeout", "10", "--host", "claude", *argv)
    assert code == 1, err  # the server exits at once: it could not be checked
    (server,) = json.loads(out)["servers"]
    assert server["target"]["args"][-1] == "ftp://[x"
    assert "pw-2f9c1d" not in out and "Traceback" not in err


@pytest.mark.parametrize(
    ("server", "fail_on", "why"),
    [
        ("tests.probe.servers.crash_mid_list", "never", "exited (code 3) during tools/list"),
        ("tests.probe.servers.crash_mid_list", "blocked", "exited (code 3) during tools/list"),
        ("tests.probe.servers.hang_mid_list", "never", "ran out of its 3 s"),
        ("tests.probe.servers.exit_at_start", "never", "could not connect"),
    ],
)
def test_a_server_that_could_not_be_probed_fails_the_check_whatever_fail_on_says(
    server: str, fail_on: str, why: str
) -> None:
    argv = ["check", "--format", "json", "--timeout", "3", "--fail-on", fail_on, *hostile_server(server)]
    code, out, _ = run(*argv)
    assert code == 1
    (entry,) = json.loads(out)["servers"]
    assert why in entry["error"]


def test_a_snapshot_of_a_crashed_server_fails_the_check_offline_too(tmp_path: Path) -> None:
    path = tmp_path / "crashed.json"
    code, _, err = run(
        "snapshot", "-o", str(path), "--timeout", "10", *hostile_server("tests.probe.servers.crash_mid_list")
    )
    assert code == 0, err
    code, out, _ = run("check", str(path), "--fail-on", "never")
    assert code == 1
    assert "could not be checked: the probe did not complete" in out


def test_a_server_probed_to_its_end_is_not_an_error(board_snapshot: Path) -> None:
    code, out, _ = run("check", str(board_snapshot), "--format", "json", "--host", "claude")
    assert code == 0
    assert json.loads(out)["servers"][0]["error"] is None


@pytest.mark.parametrize("depth", [990, 100_000])
def test_deeply_nested_config_rules_and_catalog_files_exit_2(tmp_path: Path, depth: int) -> None:
    nested = "[" * depth + "]" * depth
    files = {
        "mcp.json": '{"mcpServers": ' + nested + "}",
        "config.toml": '[mcp_servers.a]\ncommand = "x"\nargs = ' + nested + "\n",
        "rules.json": '{"format": 1, "rules": ' + nested + "}",
        "catalog.json": '{"catalog": ' + nested + "}",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, "utf-8")
    for argv in (
        ["check", "--config", str(tmp_path / "mcp.json")],
        ["check", "--config", str(tmp_path / "config.toml")],
        ["clients", "--rules", str(tmp_path / "rules.json")],
        ["check", "--demo", "--catalog", str(tmp_path / "catalog.json")],
    ):
        code, _, err = run(*argv)
        assert code == 2, (argv, err)
        assert "nested too deeply" in err or "recursion" in err, (argv, err)
        assert "Traceback" not in err
