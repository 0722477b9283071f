"""Fixtures of the web tests: one served app per module, the example board server's snapshot, and the npm example
servers' snapshots (probed once per session)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.web.browser import chromium
from tests.web.support import Served, serving

BOARD = [sys.executable, "-m", "hostcompat.examples.board"]


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    with serving() as s:
        yield s


@pytest.fixture(scope="module")
def board_snapshot() -> dict[str, Any]:
    import anyio

    from hostcompat.probe import capture
    from hostcompat.probe.target import parse_target

    async def take() -> dict[str, Any]:
        return (await capture(parse_target(BOARD))).to_dict()

    with ThreadPoolExecutor(1) as pool:  # its own thread: sync Playwright runs a loop in this one
        return pool.submit(anyio.run, take).result()


@pytest.fixture(scope="session")
def npm_example_snapshots() -> dict[str, dict[str, Any]]:
    from tests.web.examples import example_snapshots

    with ThreadPoolExecutor(1) as pool:  # its own thread: sync Playwright runs a loop in this one
        return pool.submit(example_snapshots).result()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b
