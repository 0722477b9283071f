"""Text for a person fits the terminal: `COLUMNS=80` gives no line over 80 columns in `check` text and `hosts`
output (wrapped at spaces, nothing cut); rich output on a real terminal keeps the verdict counts, the "Server
hygiene" heading and the summary across servers that plain text has."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.report import render_rich, render_text
from tests.cli._support import run, run_on_terminal
from tests.cli.test_targets import BOARD
from tests.report.sample import document

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


@pytest.fixture(scope="module")
def board_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("board") / "snap_demo.json"
    code, _, err = run("snapshot", "-o", str(path), "--", *BOARD)
    assert code == 0, err
    return path


def too_wide(text: str, width: int = 80) -> list[str]:
    return [line for line in text.splitlines() if len(line) > width]


def test_check_text_fits_80_columns(board_snapshot: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run("check", str(board_snapshot), str(board_snapshot))
    assert code == 0
    assert too_wide(out) == []
    assert "Calling server tools from the widget: unavailable on" in out  # wrapped, not cut


def test_hosts_and_every_host_fit_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    _, listing, _ = run("hosts")
    assert too_wide(listing) == []
    _, every, _ = run("hosts", *(host.id for host in load_catalog().hosts))
    assert too_wide(every) == []
    assert "MCPJam/inspector" in every


def test_wider_columns_give_longer_lines(board_snapshot: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    _, out, _ = run("check", str(board_snapshot))
    assert max(len(line) for line in out.splitlines()) > 80


class Terminal(io.StringIO):
    """A stream rich takes for a terminal."""

    def isatty(self) -> bool:
        return True


def test_rich_on_a_terminal_keeps_the_counts_the_hygiene_heading_and_the_summary() -> None:
    doc = document("works", "degraded")
    doc["servers"].append(doc["servers"][0])
    stream = Terminal()
    assert render_rich(doc, stream, width=80)
    shown = ANSI.sub("", stream.getvalue())
    assert "\x1b" in stream.getvalue()  # rich took it for a terminal
    assert "1 works, 1 degraded, 0 blocked, 0 unknown" in shown
    assert "Server hygiene:" in shown
    assert "Across 2 servers" in shown
    assert too_wide(shown) == []


def test_check_on_a_real_terminal_at_80_columns(board_snapshot: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, err = run_on_terminal("check", str(board_snapshot), str(board_snapshot))
    assert code == 0, err
    shown = ANSI.sub("", out.replace("\r\n", "\n"))
    assert too_wide(shown) == []
    assert " works, " in shown and "Across 2 servers" in shown


def test_summary_is_the_same_in_text_and_rich() -> None:
    doc = document("works", "degraded")
    doc["servers"].append(doc["servers"][0])
    text = render_text(doc, width=80)
    stream = Terminal()
    render_rich(doc, stream, width=80)
    rich = ANSI.sub("", stream.getvalue())
    tail = text[text.index("Across 2 servers") :].split()
    assert rich[rich.index("Across 2 servers") :].split() == tail


def test_text_ends_with_each_host_across_the_servers() -> None:
    doc = document("works", "degraded")
    doc["servers"].append(doc["servers"][0])
    lines = render_text(doc, width=80).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Across 2 servers (2 checked, 0 could not be)"))
    assert lines[start + 1].split() == ["host", "works", "degraded", "blocked", "unknown"]
    assert lines[start + 2].split() == ["Host0", "2", "0", "0", "0"]
    assert lines[start + 3].split() == ["Host1", "0", "2", "0", "0"]


def test_one_server_has_no_summary_across_servers() -> None:
    assert "Across" not in render_text(document("works"), width=80)
