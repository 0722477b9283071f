"""A view's server requests forwarded to the real server: basic-react's widget, run under emulated hosts, with the
npm example server behind the test host on stdio. What Claude forwards reaches the server (its answer is the
server's, not the snapshot's); what Goose refuses never does; a server that cannot start leaves the snapshot to
answer, and the observation says so."""

from __future__ import annotations

import json

import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.observe.runner import RunLimits
from hostcompat.observe.session import observe_snapshot
from hostcompat.probe.target import StdioTarget
from tests.clients.proxy._interop import node, package
from tests.observe.support import corpus_snapshot, require_browser

CATALOG = load_catalog()
LIMITS = RunLimits(settle=1.5, run=15.0, explore=6.0, hard=40.0)
pytestmark = pytest.mark.timeout(240)


def _server() -> StdioTarget:
    return StdioTarget(
        node(), (str(package("@modelcontextprotocol/server-basic-react") / "dist" / "index.js"), "--stdio")
    )


def test_the_views_tools_call_reaches_the_live_server_where_the_host_forwards_it() -> None:
    require_browser()
    snapshot = corpus_snapshot("server-basic-react")
    hosts = [CATALOG.get("claude"), CATALOG.get("goose")]
    observation = observe_snapshot(snapshot, hosts, limits=LIMITS, live=_server())
    assert observation.notes == ("The view's tools/call and resources/read went to the live server.",)
    records = {host: record for _, host, record in observation.records}
    answers = [m for m in records["claude"].messages if m.direction == "out" and "result" in (m.summary or {})]
    texts = [json.loads(m.summary["result"]) for m in answers if m.summary and "content" in m.summary["result"]]
    stamp = texts[0]["content"][0]["text"]
    assert stamp != "ok" and stamp[:2] == "20" and "T" in stamp  # the server's clock, not the snapshot's sample
    goose = next(run for run in observation.runs if run.host_id == "goose")
    assert "serverTools" in goose.refused  # refused by the host: nothing was forwarded


def test_a_server_that_does_not_start_leaves_the_snapshot_to_answer() -> None:
    require_browser()
    snapshot = corpus_snapshot("server-basic-react")
    target = StdioTarget(node(), ("-e", "process.exit(3)"))
    observation = observe_snapshot(snapshot, [CATALOG.get("claude")], limits=LIMITS, live=target, explore=False)
    assert len(observation.notes) == 1 and "could not be reached" in observation.notes[0]
    assert observation.runs[0].status == "rendered"
