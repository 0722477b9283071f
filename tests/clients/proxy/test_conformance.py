"""The MCP conformance suite against the proxy's HTTP front: nothing may fail that passes without the proxy."""

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest

from hostcompat.clients.proxy.config import ProxyConfig, http_upstream, stdio_upstream
from hostcompat.clients.proxy.serve import http_proxy
from tests.clients.proxy._interop import conformance_cli, everything_over_http, everything_server
from tests.clients.proxy._support import BUNDLED

pytestmark = [pytest.mark.anyio, pytest.mark.interop]

BASELINE = json.loads(Path(__file__).with_name("conformance-baseline.json").read_text(encoding="utf-8"))
RESULT_FOLDER = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$")


async def run_suite(url: str, results: Path) -> dict[str, dict[str, str]]:
    """Scenario -> check id -> status, from one run of the server suite against `url`."""
    await anyio.run_process([*conformance_cli(), "server", "--url", url, "-o", str(results)], check=False)
    out: dict[str, dict[str, str]] = {}
    for checks in results.glob("*/checks.json"):
        match = RESULT_FOLDER.match(checks.parent.name)
        assert match is not None, checks.parent.name
        statuses = {check["id"]: check["status"] for check in json.loads(checks.read_text(encoding="utf-8"))}
        out[match["scenario"]] = statuses
    return out


def failures(run: dict[str, dict[str, str]]) -> dict[str, list[str]]:
    found = {
        scenario: sorted(i for i, status in checks.items() if status == "FAILURE") for scenario, checks in run.items()
    }
    return {scenario: ids for scenario, ids in sorted(found.items()) if ids}


@asynccontextmanager
async def upstream_config(back: str) -> AsyncIterator[ProxyConfig]:
    if back == "stdio":
        yield ProxyConfig(stdio_upstream(everything_server()), rules=BUNDLED)
        return
    async with everything_over_http() as url:
        yield ProxyConfig(http_upstream(url), rules=BUNDLED)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("back", ["stdio", "http"])
async def test_no_conformance_check_fails_through_the_proxy_that_passes_directly(back: str, tmp_path: Path) -> None:
    async with upstream_config(back) as config, http_proxy(config) as proxy:
        run = await run_suite(proxy.url, tmp_path)
    assert sorted(run) == BASELINE["scenarios"]
    new_failures = {
        scenario: [check for check in ids if check not in BASELINE["failures"].get(scenario, [])]
        for scenario, ids in failures(run).items()
    }
    assert {scenario: ids for scenario, ids in new_failures.items() if ids} == {}
    passed = sum(status == "SUCCESS" for checks in run.values() for status in checks.values())
    assert passed >= 14


@pytest.mark.timeout(300)
async def test_the_baseline_lists_what_server_everything_fails_on_its_own(tmp_path: Path) -> None:
    async with everything_over_http() as url:
        run = await run_suite(url, tmp_path)
    assert sorted(run) == BASELINE["scenarios"]
    assert failures(run) == BASELINE["failures"]
