"""Stdio servers started before the SDK import (`_spawn.started_early`), or before the event loop runs
(`_early.start_now`): the probe takes each one and captures the same thing; a child no probe took is stopped; the
environment is the SDK's."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from mcp.client.stdio import get_default_environment

from hostcompat.probe import Limits, StdioTarget, capture
from hostcompat.probe._early import start_now, stop_now
from hostcompat.probe._spawn import _EARLY, inherited_environment, started_early, take

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parents[2]
FAST = Limits(connect_timeout=20.0, step_timeout=10.0, total_timeout=40.0, shutdown_grace=1.0)


def board() -> StdioTarget:
    return StdioTarget(sys.executable, ["-m", "hostcompat.examples.board"], cwd=str(REPO))


def test_the_inherited_environment_is_the_sdks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHELL", "() { :; }")  # a function: neither passes it on
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("LOGNAME", raising=False)
    assert inherited_environment() == get_default_environment()


async def test_a_server_started_early_is_taken_and_captured_alike() -> None:
    plain = await capture(board(), limits=FAST)
    target = board()
    async with started_early([target, "not a stdio target"]):
        early = await capture(target, limits=FAST)
        assert take(target) is None  # taken once, by the probe
    assert early.server_info == plain.server_info
    assert [tool["name"] for tool in early.tools] == [tool["name"] for tool in plain.tools]
    assert early.ui_resources.keys() == plain.ui_resources.keys()
    assert [event.code for event in early.events] == [event.code for event in plain.events]
    assert early.process is not None and plain.process is not None
    assert early.process["ended"] == plain.process["ended"]


async def test_an_untaken_child_is_killed_when_the_block_ends() -> None:
    target = board()
    async with started_early([target]):
        held = _EARLY.get()
        assert held is not None
        child = held[id(target)]
        assert not isinstance(child, OSError)
    assert child.returncode is not None  # killed and reaped
    with pytest.raises(ProcessLookupError):
        os.kill(child.pid, 0)


async def test_a_command_that_cannot_start_is_told_as_the_probe_would() -> None:
    missing = StdioTarget("/no/such/command-hostcompat")
    plain = await capture(missing, limits=FAST)
    async with started_early([missing]):
        early = await capture(missing, limits=FAST)
    assert [(event.code, event.message) for event in early.events] == [
        (event.code, event.message) for event in plain.events
    ]


needs_posix = pytest.mark.skipif(sys.platform == "win32", reason="start_now starts nothing on Windows")


@needs_posix
async def test_a_server_started_before_the_event_loop_is_taken_and_captured_alike() -> None:
    plain = await capture(board(), limits=FAST)
    target = board()
    started = start_now([target, "not a stdio target"])
    try:
        async with started_early([target], started):
            assert started == {}  # taken over
            early = await capture(target, limits=FAST)
            assert take(target) is None
    finally:
        stop_now(started)
    assert early.server_info == plain.server_info
    assert [tool["name"] for tool in early.tools] == [tool["name"] for tool in plain.tools]
    assert early.ui_resources.keys() == plain.ui_resources.keys()
    assert [event.code for event in early.events] == [event.code for event in plain.events]
    assert early.process is not None and plain.process is not None
    assert (early.process["ended"], early.process["exitCode"]) == (plain.process["ended"], plain.process["exitCode"])


@needs_posix
def test_a_server_started_before_the_event_loop_and_never_probed_is_stopped() -> None:
    target = board()
    started = start_now([target])
    child = started[id(target)]
    assert not isinstance(child, OSError)
    stop_now(started)
    assert started == {} and child.returncode is not None
    with pytest.raises(ProcessLookupError):
        os.kill(child.pid, 0)


@needs_posix
async def test_a_command_started_before_the_event_loop_that_cannot_start_is_told_as_the_probe_would() -> None:
    missing = StdioTarget("/no/such/command-hostcompat")
    plain = await capture(missing, limits=FAST)
    started = start_now([missing])
    assert isinstance(started[id(missing)], OSError)
    async with started_early([missing], started):
        early = await capture(missing, limits=FAST)
    assert [(event.code, event.message) for event in early.events] == [
        (event.code, event.message) for event in plain.events
    ]
