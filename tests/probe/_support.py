"""Helpers shared by the probe tests: hostile server targets, tight limits, ports and process checks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from hostcompat.probe import Limits, StdioTarget

REPO = Path(__file__).resolve().parents[2]

TIGHT = Limits(
    connect_timeout=3.0,
    step_timeout=1.5,
    total_timeout=8.0,
    shutdown_grace=0.5,
    max_pages=25,
    max_items=5_000,
    max_message_bytes=4 * 1024 * 1024,
    max_bytes_per_resource=1024 * 1024,
    max_stderr_bytes=4096,
)
"""Small limits so hostile servers hit them fast."""

SHUTDOWN_BOUND = 2 * TIGHT.shutdown_grace + 1.0 + 1.0
"""The longest a stop may take: two grace periods, the reap wait, and a second of scheduling slack."""


def hostile(name: str, *args: str) -> StdioTarget:
    """The hostile test server `tests/probe/servers/<name>.py`, run with this interpreter."""
    return StdioTarget(sys.executable, ["-m", f"tests.probe.servers.{name}", *args], cwd=str(REPO))


def process_gone(pid: int) -> bool:
    """True when neither the process nor anything in its process group is left."""
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return True
    return False


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 20.0) -> None:
    """Block until something accepts connections on `port`, or fail if the process dies or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as conn:
            conn.settimeout(0.2)
            if conn.connect_ex(("127.0.0.1", port)) == 0:
                return
        try:  # between attempts, wait on the process itself: its early death ends the wait at once
            process.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            continue
        raise RuntimeError(f"server exited with {process.returncode} before listening on {port}")
    raise RuntimeError(f"nothing listened on port {port} within {timeout} s")


@contextmanager
def running(argv: list[str], port: int, *, env: dict[str, str] | None = None, cwd: Path = REPO) -> Iterator[None]:
    """Run a server process listening on `port` for the duration of the block; always kill its group."""
    process = subprocess.Popen(
        argv,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for_port(port, process)
        yield
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, 9)
        process.wait(timeout=10)
