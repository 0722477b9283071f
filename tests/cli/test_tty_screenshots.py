"""`hostcompat check --demo` in a real terminal (tmux) at 80 and 120 columns, kept as screenshots under artifacts/tty/:
the pane as ANSI (`tmux capture-pane -e -p`), as plain text, as HTML, and as a PNG when a browser is at hand.

What a person sees must fit: the report wraps itself to the terminal, so joining the lines tmux wrapped (`-J`)
changes nothing, and the rich output keeps the summary, the "Server hygiene" heading and the per-host table.
tmux missing: skipped with a message outside CI, a failure under CI=true (.ci/run installs it).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

import hostcompat
from tests.cli._support import REPO

ARTIFACTS = REPO / "artifacts" / "tty"
DONE = "[hostcompat exited "


def need_tmux() -> str:
    found = shutil.which("tmux")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("tmux is missing in CI (.ci/run installs it): the terminal screenshots cannot be taken")
        pytest.skip("tmux is not installed: no terminal screenshots")
    return found


@pytest.fixture
def tmux() -> Iterator[list[str]]:
    """A tmux server of this test's own (its own socket, no user config), killed afterwards."""
    command = [need_tmux(), "-L", f"hostcompat-test-{uuid.uuid4().hex[:12]}", "-f", os.devnull]
    yield command
    subprocess.run([*command, "kill-server"], capture_output=True, check=False)


def run_in_pane(tmux: list[str], width: int, *argvs: list[str]) -> tuple[str, str, str]:
    """Run `hostcompat ARGV` for each ARGV, one after another, in a pane `width` columns wide; the pane as ANSI, as
    text, and as text with tmux's own line wraps joined."""
    source = Path(hostcompat.__file__).resolve().parents[1]
    env = f"env -u COLUMNS -u LINES PYTHONPATH={os.pathsep.join([str(source), str(REPO)])} TERM=xterm-256color"
    runs = " && ".join(f"{env} {shlex.join([sys.executable, '-m', 'hostcompat', *argv])}" for argv in argvs)
    shell = f"cd {shlex.quote(str(REPO))} && {runs}; echo '{DONE}'$?']'; sleep 300"
    subprocess.run([*tmux, "new-session", "-d", "-x", str(width), "-y", "50", shell], check=True)
    subprocess.run([*tmux, "set-option", "-g", "history-limit", "20000"], check=True)

    def capture(*options: str) -> str:
        done = subprocess.run([*tmux, "capture-pane", "-p", "-S", "-", "-E", "-", *options], capture_output=True)
        return done.stdout.decode("utf-8", "replace")

    deadline = time.monotonic() + 150
    while DONE not in capture() and time.monotonic() < deadline:
        time.sleep(0.5)
    text = "\n".join(line.rstrip() for line in capture().splitlines()) + "\n"
    assert DONE in text, f"hostcompat did not finish in the pane:\n{text[-2000:]}"
    joined = "\n".join(line.rstrip() for line in capture("-J").splitlines())  # -J keeps trailing spaces
    return capture("-e"), text, joined + "\n"


def keep(name: str, ansi: str, text: str, width: int) -> Path:
    """The screenshot as .ansi, .txt and .html (and .png with a browser); the HTML's path."""
    from rich.console import Console
    from rich.text import Text

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.ansi").write_text(ansi, "utf-8")
    (ARTIFACTS / f"{name}.txt").write_text(text, "utf-8")
    with open(os.devnull, "w") as sink:
        console = Console(record=True, width=width, force_terminal=True, color_system="truecolor", file=sink)
        console.print(Text.from_ansi(ansi.rstrip("\n")), soft_wrap=True)
    html = ARTIFACTS / f"{name}.html"
    html.write_text(console.export_html(inline_styles=True), "utf-8")
    return html


def png(html: Path, width: int) -> None:
    from hostcompat.observe.browser import browser_status

    if browser_status() is not None:
        return  # the .ansi, .txt and .html are the screenshots then
    from tests.web.browser import chromium

    with chromium() as browser:
        page = browser.new_page(viewport={"width": width * 9 + 40, "height": 1000})
        page.goto(html.as_uri())
        page.screenshot(path=str(html.with_suffix(".png")))  # the first screenful, as a person sees it


@pytest.mark.parametrize("width", [80, 120])
def test_check_demo_in_a_terminal_fits_and_keeps_every_part(tmux: list[str], width: int) -> None:
    ansi, text, joined = run_in_pane(tmux, width, ["check", "--demo"])
    html = keep(f"check-demo-{width}", ansi, text, width)
    png(html, width)
    assert f"{DONE}0]" in text
    assert "\x1b[" in ansi  # rich drew it: colour on a terminal
    assert joined == text, "a line was wider than the terminal and tmux wrapped it"
    lines = text.splitlines()
    assert any(line.startswith("task-board") for line in lines)
    for part in ("Claude", "ChatGPT", "Goose", "Why unknown:", "APPS-CAP-001", "fix:", "host fact:"):
        assert part in text, part
    assert any("works" in line and "degraded" in line and "blocked" in line for line in lines)  # the summary line


def test_scan_and_hosts_in_a_terminal_fit_80_columns(tmux: list[str]) -> None:
    widget = REPO / "src" / "hostcompat" / "examples" / "board.html"
    ansi, text, joined = run_in_pane(tmux, 80, ["hosts", "claude"], ["scan", str(widget)])
    keep("hosts-claude-and-scan-80", ansi, text, 80)
    assert joined == text, "a line was wider than the terminal and tmux wrapped it"
    assert "Claude" in text and f"{DONE}0]" in text
