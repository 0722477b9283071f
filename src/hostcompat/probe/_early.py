"""Start stdio servers at once, before any event loop runs and before anything heavy is imported: `hostcompat check`
starts its live stdio servers as soon as its arguments are checked, so their start-up (a Node server's takes about
0.2 s) overlaps the imports, the catalog and the event loop instead of following them.

`start_now` starts each child as `open_stdio` would (same command, directory, environment, its own session and
process group) with pipes on its stdio, and only imports `subprocess`; `_spawn.started_early` hands the children
to the probes, driven from the event loop by `_pipes`. `stop_now` ends those no probe took, whatever happened in
between. POSIX only: on Windows nothing is started here, and the probes start their servers as before.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, Any, Final

from hostcompat.probe.target import StdioTarget

if TYPE_CHECKING:
    import subprocess

INHERITED_ENVIRONMENT: Final = (
    (
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PATHEXT",
        "PROCESSOR_ARCHITECTURE",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
    )
    if sys.platform == "win32"
    else ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
)
"""The variables the SDK's `get_default_environment` passes on (a test keeps the two the same)."""

Started = dict[int, "subprocess.Popen[bytes] | OSError"]
"""Children started by `start_now`, by the `id` of their target (or why one could not start)."""


def process_options(target: StdioTarget, environment: dict[str, str]) -> dict[str, Any]:
    """How a stdio server is started, early or not: its command with pipes on its stdio, in its own session (so
    the whole group can be stopped), with `environment` under the target's own variables.
    """
    import subprocess

    return {
        "args": [target.command, *target.args],
        "stdin": subprocess.PIPE,
        "stdout": subprocess.PIPE,
        "stderr": subprocess.PIPE,
        "cwd": target.cwd,
        "env": environment | dict(target.env),
        "start_new_session": True,
    }


def inherited_environment() -> dict[str, str]:
    """What the SDK's `mcp.client.stdio.get_default_environment` returns, without importing the SDK."""
    return {
        key: value
        for key in INHERITED_ENVIRONMENT
        if (value := os.environ.get(key)) is not None and not value.startswith("()")
    }


def start_now(targets: Sequence[object]) -> Started:
    """Start the child of each stdio target in `targets` now (none on Windows)."""
    started: Started = {}
    if sys.platform == "win32":  # pragma: no cover - no non-blocking pipes for the event loop
        return started
    import subprocess

    environment = inherited_environment()
    for target in targets:
        if isinstance(target, StdioTarget) and id(target) not in started:
            try:
                started[id(target)] = subprocess.Popen(**process_options(target, environment), bufsize=0)
            except OSError as error:
                started[id(target)] = error
    return started


def stop_now(started: Started) -> None:
    """Kill the process group of each child left in `started` (those no probe took) and reap it."""
    for child in started.values():
        if not isinstance(child, OSError) and child.poll() is None:
            with suppress(ProcessLookupError, PermissionError, OSError):
                os.killpg(child.pid, signal.SIGKILL)
            with suppress(OSError):
                child.wait()
        if not isinstance(child, OSError):
            for pipe in (child.stdin, child.stdout, child.stderr):
                if pipe is not None:
                    with suppress(OSError):
                        pipe.close()
    started.clear()


__all__ = ["INHERITED_ENVIRONMENT", "Started", "inherited_environment", "start_now", "stop_now"]
