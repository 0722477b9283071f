"""Fixtures of the web tests: one served app per module, and the example board server's snapshot."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

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

    return anyio.run(take)
