"""Shared fixtures; puts the repository root on `sys.path` so the tests import `testkit` (shared with bench/)."""

import sys
from collections.abc import Iterator
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

from tests.report import schema_check  # noqa: E402  (after the path set-up above)

pytest_plugins = ["pytester"]  # tests/testing runs the hostcompat pytest plugin in pytest sessions of its own


def pytest_configure(config: pytest.Config) -> None:
    schema_check.install()  # before any test module imports the builder


def pytest_unconfigure(config: pytest.Config) -> None:
    schema_check.uninstall()


@pytest.fixture(autouse=True)
def _report_documents_match_their_schema() -> Iterator[None]:
    """A test that builds a report document (through a check, in any format) fails when it does not match
    `report.schema.json`.
    """
    schema_check.take_problems()
    yield
    problems = schema_check.take_problems()
    assert not problems, "a report document does not match report.schema.json:\n" + "\n".join(problems[:20])


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
