"""Shared fixtures; puts the repository root on `sys.path` so the tests import `testkit` (shared with bench/)."""

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Generation speed and per-example deadlines measure the machine, not the code: on two busy workers under branch
# tracing they fail tests that are right. Tests that set their own `deadline` keep it.
settings.register_profile("hostcompat", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hostcompat")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
