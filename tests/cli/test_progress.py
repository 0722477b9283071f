"""Progress while servers are probed: the count done and the servers running, on standard error, only on a terminal."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys

import hostcompat
from hostcompat.cli._progress import Progress, progress_line
from tests.cli._support import REPO, run, unsafe_in
from tests.cli.test_targets import BOARD


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_line_counts_the_servers_done_and_names_the_running_ones() -> None:
    assert progress_line(2, 6, ["alpha", "beta"]) == "probing: 2/6 done, running: alpha, beta"
    assert progress_line(6, 6, []) == "probing: 6/6 done"


def test_the_line_fits_the_width_counting_the_names_it_leaves_out() -> None:
    names = [f"server-number-{index}" for index in range(6)]
    line = progress_line(0, 6, names, width=60)
    assert len(line) <= 59
    assert line.startswith("probing: 0/6 done, running: server-number-0")
    assert line.endswith("more)")


def test_a_servers_name_cannot_drive_the_terminal() -> None:
    assert unsafe_in(progress_line(0, 1, ["evil\x1b[2J\u202ename"])) == []


def test_progress_is_drawn_in_place_on_a_terminal_and_erased_at_the_end() -> None:
    stream = Terminal()
    progress = Progress(["a", "b"], stream, 80)
    progress.update(0, False)
    progress.update(1, False)
    progress.update(0, True)
    progress.close()
    text = stream.getvalue()
    assert "\r\x1b[Kprobing: 0/2 done, running: a, b" in text
    assert "\r\x1b[Kprobing: 1/2 done, running: b" in text
    assert text.endswith("\r\x1b[K")


def test_nothing_is_shown_when_standard_error_is_not_a_terminal() -> None:
    stream = io.StringIO()
    progress = Progress(["a"], stream, 80)
    progress.update(0, False)
    progress.update(0, True)
    progress.close()
    assert stream.getvalue() == ""
    code, _, err = run("check", "--demo", "--format", "json")
    assert code == 0
    assert "probing" not in err


def test_check_shows_progress_on_a_terminal() -> None:
    master, slave = pty.openpty()
    source = os.path.dirname(os.path.dirname(hostcompat.__file__))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([source, str(REPO)]), "COLUMNS": "100"}
    process = subprocess.Popen(
        [sys.executable, "-m", "hostcompat", "check", "--demo", "--format", "json", "--", *BOARD],
        stdout=subprocess.DEVNULL,  # a pipe nobody reads would fill and stall the run
        stderr=slave,
        cwd=REPO,
        env=env,
    )
    os.close(slave)
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert process.wait(timeout=120) == 0
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert "probing: 0/2 done, running: demo: python -m hostcompat.examples.board" in shown
    assert "probing: 1/2 done" in shown
    assert "probing: 2/2 done" in shown
