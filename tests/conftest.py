from collections.abc import Iterator

import pytest

from tests.report import schema_check


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
