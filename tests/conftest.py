"""Shared fixtures; puts the repository root on `sys.path` so the tests import `testkit` (shared with bench/)."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
