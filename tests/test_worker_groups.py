"""The suite's `xdist_group` marks take effect under `scripts/check` (`pytest -n 2 --dist loadgroup`): tests that share
a slow session fixture or must not run beside each other (the `timing` group) go to one worker.

pytest 9.2 with pytest-xdist 3.8 drops the marks without a word (pytest-dev/pytest-xdist#1386: xdist still tags the
group onto `item._nodeid`, which pytest 9.2's structured node ids no longer read), so every test was scheduled alone:
the conformance runs of `tests/clients/proxy/era` happened once per worker (about 150 s each) and timing tests ran
side by side. `requirements/dev.lock` pins pytest 9.1.1 until xdist follows; this test fails if the grouping is lost
again.
"""

from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.xdist_group("timing")


def test_a_grouped_test_is_scheduled_by_its_group(request: pytest.FixtureRequest) -> None:
    grouping = os.environ.get("PYTEST_XDIST_WORKER") is not None and request.config.getoption("loadgroup", False)
    if not grouping:
        pytest.skip("runs under pytest-xdist with --dist loadgroup, as scripts/check runs the tests")
    assert request.node.nodeid.endswith("@timing"), (
        f"pytest-xdist ignored this test's xdist_group mark (node id {request.node.nodeid!r}): with pytest "
        f"{pytest.__version__} its loadgroup scheduling is broken (pytest-dev/pytest-xdist#1386); install the pytest "
        "pinned in requirements/dev.lock"
    )
