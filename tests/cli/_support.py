"""Helpers for the CLI tests: run `hostcompat` in this process or as a real process (on a terminal, too)."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
import tempfile
import tty
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import hostcompat
from hostcompat.cli import main

REPO = Path(__file__).resolve().parents[2]

FORBIDDEN = frozenset(
    [chr(code) for code in range(0x20) if chr(code) != "\n"]
    + [chr(code) for code in range(0x7F, 0xA0)]
    + [chr(code) for code in range(0x202A, 0x202F)]
    + [chr(code) for code in range(0x2066, 0x206A)]
)
"""What must never reach a terminal from a server: C0 controls but the line break, DEL, C1 (CSI U+009B among
them), the bidi embeddings, overrides and isolates."""


def run(*argv: str) -> tuple[int, str, str]:
    """`hostcompat ARGV…` in this process: exit code, standard output, standard error."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def hostile_server(module: str, *args: str) -> list[str]:
    """`--cwd REPO -- python -m MODULE ARGS…`: a hostile test server as the target of `check` or `snapshot`."""
    return ["--cwd", str(REPO), "--", sys.executable, "-m", module, *args]


def unsafe_in(text: str) -> list[str]:
    """The forbidden characters in `text`, for an assertion message."""
    return sorted({f"U+{ord(char):04X}" for char in text if char in FORBIDDEN})


def run_on_terminal(*argv: str, timeout: float = 120) -> tuple[int, str, str]:
    """`hostcompat ARGV…` as a process whose standard output is a terminal (a raw pty): exit code, output, errors."""
    master, slave = pty.openpty()
    tty.setraw(slave)  # no newline translation: the bytes read are the bytes written
    source = Path(hostcompat.__file__).resolve().parents[1]  # the package under test, wherever it is imported from
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(source), str(REPO)])}
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            [sys.executable, "-m", "hostcompat", *argv], stdout=slave, stderr=errors, cwd=REPO, env=env
        )
        os.close(slave)
        chunks: list[bytes] = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every writer closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(master)
        code = process.wait(timeout=timeout)
        errors.seek(0)
        return code, b"".join(chunks).decode("utf-8"), errors.read().decode("utf-8", "replace")
