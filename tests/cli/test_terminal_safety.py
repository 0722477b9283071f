"""Server text never drives the reader's terminal: the report in every format, events, errors and `scan`.

The hostile server (`tests/cli/servers/terminal_tricks.py`) puts ESC sequences, the 8-bit CSI, bidi overrides and a
forged output line in its name, tools, widget and stderr; it runs as a real process, and the CLI as well where its
standard output has to be a real terminal.
"""

from __future__ import annotations

import json
import os
import pty
import threading
import tty
from pathlib import Path

import pytest

from tests.cli._support import hostile_server, run, run_on_terminal, unsafe_in

TRICKS = "tests.cli.servers.terminal_tricks"


@pytest.fixture(scope="module")
def tricks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A snapshot of the hostile server, taken once."""
    path = tmp_path_factory.mktemp("tricks") / "tricks.json"
    code, _, err = run("snapshot", "-o", str(path), "--timeout", "30", *hostile_server(TRICKS))
    assert code == 0, err
    return path


@pytest.fixture(scope="module")
def crashed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A snapshot of the hostile server crashing during tools/list, and what `snapshot` printed meanwhile."""
    path = tmp_path_factory.mktemp("crashed") / "crashed.json"
    code, _, err = run("snapshot", "-o", str(path), "--timeout", "30", *hostile_server(TRICKS, "crash"))
    assert code == 0, err
    return path, err


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_the_text_and_markdown_reports_show_control_characters_without_sending_them(tricks: Path, fmt: str) -> None:
    code, out, _ = run("check", str(tricks), "--format", fmt, "--fail-on", "never")
    assert code == 0
    assert "tricks" in out and "show" in out
    assert not unsafe_in(out)
    assert "\\x1b" in out  # shown, so the reader sees that the server sent it
    assert not any(line.lstrip("#> ").startswith("hostcompat: every host works") for line in out.splitlines())


def test_snapshot_prints_the_servers_stderr_on_one_line_without_controls(crashed: tuple[Path, str]) -> None:
    _, printed = crashed
    assert "PROBE-SERVER-EXITED" in printed
    assert not unsafe_in(printed)
    assert not any(line.startswith("hostcompat: every host works") for line in printed.splitlines())


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_events_and_the_error_of_a_server_that_crashed_are_neutralised(crashed: tuple[Path, str], fmt: str) -> None:
    snapshot, _ = crashed
    code, out, _ = run("check", str(snapshot), "--format", fmt)
    assert code == 1
    assert "during tools/list" in out
    assert not unsafe_in(out)


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_on_a_terminal_escapes_control_characters_and_keeps_the_same_value(tricks: Path, fmt: str) -> None:
    _, piped, _ = run("check", str(tricks), "--format", fmt, "--fail-on", "never")
    assert "\u202e" in piped  # a pipe gets the text as it is: only a terminal needs the escapes
    code, shown, err = run_on_terminal("check", str(tricks), "--format", fmt, "--fail-on", "never")
    assert code == 0, err
    assert not unsafe_in(shown)
    assert json.loads(shown) == json.loads(piped)


def test_json_written_with_o_to_a_terminal_is_escaped(tricks: Path) -> None:
    master, slave = pty.openpty()
    tty.setraw(slave)
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        code, _, err = run("check", str(tricks), "--format", "json", "--fail-on", "never", "-o", os.ttyname(slave))
    finally:
        os.close(slave)
        reader.join(timeout=30)
        os.close(master)
    assert code == 0, err
    shown = b"".join(chunks).decode("utf-8")
    assert not unsafe_in(shown)
    assert json.loads(shown)["servers"][0]["server"]["name"].startswith("tricks\x1b[2J")


def test_error_messages_are_neutralised(tmp_path: Path) -> None:
    planted = tmp_path / "x\x1b]0;pwned\x07\x1bc\u202e.json"  # a name a glob over someone else's folder can yield
    code, _, err = run("check", "--config", str(planted))
    assert code == 2
    assert "cannot read it" in err
    assert not unsafe_in(err)


def test_scan_quotes_a_widget_without_its_control_characters(tmp_path: Path) -> None:
    widget = tmp_path / "widget.html"
    widget.write_text(
        "<!DOCTYPE html><html><body><script>\n"
        "window.openai.callTool('x\x1b[2J\u009b31m\u202e', {});\n"
        "fetch('https://api.example.com/\x1bc');\n"
        "window.openai.openExternal({href: 'https://\u202eexample.com\x07'});\n"
        "</script></body></html>",
        "utf-8",
    )
    code, out, _ = run("scan", str(widget), "--all")
    assert code == 0
    assert "serverTools" in out
    assert not unsafe_in(out)
    code, shown, err = run_on_terminal("scan", str(widget), "--format", "json")
    assert code == 0, err
    assert not unsafe_in(shown)
    _, piped, _ = run("scan", str(widget), "--format", "json")
    assert json.loads(shown) == json.loads(piped)
