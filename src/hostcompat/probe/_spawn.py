"""Start stdio servers before the SDK is imported, so their start-up (a Node server's takes about 0.2 s) overlaps the
import (about as long) instead of following it; without the SDK, so the caller can start them first.

`started_early(targets)` starts the child of each stdio target as `open_stdio` would (same command, directory,
environment, own process group) and hands it to the probe of that target: `open_stdio` takes it with `take` instead
of starting one. A child no probe took is stopped (its group killed) when the block ends. A command that cannot be
started is handed over as its error, which `open_stdio` raises where starting it would have. Children already
started by `_early.start_now` (before the event loop ran) are handed over the same way, as `_pipes.PipeProcess`.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from contextvars import ContextVar

import anyio
from anyio.abc import Process

from hostcompat.probe._early import INHERITED_ENVIRONMENT, Started, inherited_environment, process_options
from hostcompat.probe.target import StdioTarget

_EARLY: ContextVar[dict[int, Process | OSError] | None] = ContextVar("hostcompat_early_children", default=None)


async def start(target: StdioTarget, environment: dict[str, str]) -> Process:
    """Start `target`'s command with pipes on its stdio, in its own session (`open_stdio` stops the whole group).

    Raises:
        OSError: the command could not be started.
    """
    options = process_options(target, environment)
    return await anyio.open_process(options.pop("args"), **options)


def take(target: StdioTarget) -> Process | OSError | None:
    """The child started early for `target` (or why it could not start), once; None when none was."""
    early = _EARLY.get()
    return None if early is None else early.pop(id(target), None)


@asynccontextmanager
async def started_early(targets: Sequence[object], started: Started | None = None) -> AsyncIterator[None]:
    """Start the children of the stdio `targets` now, but for those `_early.start_now` started (`started`, which
    this takes over: it is emptied); stop, on the way out, those no probe took.
    """
    early: dict[int, Process | OSError] = {}
    if started:
        from hostcompat.probe._pipes import PipeProcess

        early.update(
            (key, child if isinstance(child, OSError) else PipeProcess(child)) for key, child in started.items()
        )
        started.clear()
    environment = inherited_environment()
    for target in targets:
        if isinstance(target, StdioTarget) and id(target) not in early:
            try:
                early[id(target)] = await start(target, environment)
            except OSError as error:
                early[id(target)] = error
    token = _EARLY.set(early)
    try:
        yield
    finally:
        _EARLY.reset(token)
        for process in early.values():
            if not isinstance(process, OSError):
                await _stop_untaken(process)


async def _stop_untaken(process: Process) -> None:
    with anyio.CancelScope(shield=True):
        with suppress(ProcessLookupError, PermissionError, OSError):
            if sys.platform == "win32":  # pragma: no cover - no process groups
                process.kill()
            else:
                os.killpg(process.pid, signal.SIGKILL)
        with anyio.move_on_after(1.0):
            await process.aclose()


__all__ = ["INHERITED_ENVIRONMENT", "inherited_environment", "start", "started_early", "take"]
