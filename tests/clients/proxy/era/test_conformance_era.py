"""The MCP conformance suite through the era gateway, in both directions: every scenario that passes directly passes
through the gateway, and every run matches the committed baseline (`conformance-era-baseline.json`), so a
regression on either side fails. The runs are described in `_conformance_runs`; they happen once per test session.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clients.proxy.era._conformance_runs import BASELINE, Run, all_runs, successes, verdicts

pytestmark = [pytest.mark.interop, pytest.mark.xdist_group("conformance-era"), pytest.mark.timeout(600)]

DIRECTIONS = [
    ("server", "legacy-client-to-modern-server"),
    ("server", "modern-client-to-legacy-server"),
    ("client", "modern-client-to-legacy-server"),
]


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Run]]:
    return all_runs(tmp_path_factory.mktemp("conformance-era"))


@pytest.mark.parametrize(("side", "through"), DIRECTIONS)
def test_every_scenario_passing_directly_passes_through_the_gateway(
    runs: dict[str, dict[str, Run]], side: str, through: str
) -> None:
    direct, gateway = runs[side]["direct"], runs[side][through]
    passing = {scenario for scenario, failed in verdicts(direct).items() if not failed}
    assert len(passing) >= (29 if side == "server" else 4)
    assert sorted(gateway) == sorted(direct)
    assert {scenario: failed for scenario, failed in verdicts(gateway).items() if scenario in passing and failed} == {}
    # no single check that succeeds directly fails through the gateway (a warning is allowed: timing checks vary)
    failing = {
        (scenario, check) for scenario, checks in gateway.items() for check in verdicts({scenario: checks})[scenario]
    }
    assert successes(direct) & failing == set()


def test_the_gateway_does_the_work(runs: dict[str, dict[str, Run]]) -> None:
    """Without the gateway the suite cannot use the 2026-07-28-only server at all."""
    assert verdicts(runs["server"]["modern-only-server-directly"]) == {"server-initialize": ["server-initialize"]}


def test_every_run_matches_the_baseline(runs: dict[str, dict[str, Run]]) -> None:
    found = {side: {name: verdicts(run) for name, run in by.items()} for side, by in runs.items()}
    baseline = json.loads(Path(BASELINE).read_text(encoding="utf-8"))
    assert found == baseline["runs"], json.dumps(found, indent=2, sort_keys=True)
