"""The MCP project's example servers' widgets (as they really serve them, from the captured corpus) run in headless
Chromium under emulated hosts: the methods each one is seen to send, what a host without serverTools does to it,
and that no behavioural rule fires on them."""

from __future__ import annotations

import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.server.observed import ObservedRun
from hostcompat.observe.runner import RunLimits
from hostcompat.observe.session import Observation, observe_snapshot
from tests.observe.support import corpus_snapshot, require_browser

CATALOG = load_catalog()
LIMITS = RunLimits(settle=1.5, run=20.0, explore=6.0, hard=45.0)
pytestmark = pytest.mark.timeout(240)


def _observe(package: str, hosts: tuple[str, ...], *, explore: bool = True) -> Observation:
    require_browser()
    return observe_snapshot(
        corpus_snapshot(package), [CATALOG.get(host) for host in hosts], limits=LIMITS, explore=explore
    )


def _run(observation: Observation, host: str) -> ObservedRun:
    return next(run for run in observation.runs if run.host_id == host)


@pytest.fixture(scope="module")
def basic_react() -> Observation:
    return _observe("server-basic-react", ("claude", "goose"))


def test_basic_react_initialises_and_calls_its_server_when_its_button_is_pressed(basic_react: Observation) -> None:
    run = _run(basic_react, "claude")
    assert run.methods[:2] == ("ui/initialize", "ui/notifications/initialized")
    assert {"tools/call", "ui/message", "ui/open-link", "ui/notifications/size-changed"} <= set(run.methods)
    assert run.status == "rendered" and run.explored and run.refused == ()
    assert run.issues == ()


def test_under_goose_the_refusal_shows_and_what_the_view_did_next(basic_react: Observation) -> None:
    run = _run(basic_react, "goose")
    assert "tools/call" in run.methods and set(run.refused) == {"serverTools", "message"}
    assert any(note.startswith("After tools/call was refused the view") for note in run.notes)
    assert "OBS-REFUSE-001" not in {issue.rule_id for issue in run.issues}  # it logs the error and goes on
    _, _, record = next(item for item in basic_react.records if item[1] == "goose")
    errors = [message for message in record.messages if message.direction == "out" and message.is_error]
    assert errors and "-32601" in str(errors[0].summary)


def test_a_widget_that_only_listens_for_results_is_seen_to_use_nothing_else() -> None:
    run = _run(_observe("server-scenario-modeler", ("claude",), explore=False), "claude")
    assert set(run.methods) == {"ui/initialize", "ui/notifications/initialized", "ui/notifications/size-changed"}
    assert run.reached == ("sizeChanged",) and run.issues == ()


def test_system_monitor_polls_its_server_without_being_touched() -> None:
    # Mistral: no replayed quirk. Under Claude the replayed tool-result stripping (ext-apps #696) leaves the view
    # without the structuredContent it starts from, and it was seen not to poll at all.
    observation = _observe("server-system-monitor", ("mistral", "claude"), explore=False)
    run = _run(observation, "mistral")
    assert "tools/call" in run.methods and run.issues == ()
    claude = _run(observation, "claude")
    assert any("claude-desktop-tool-result-strips-structured" in note for note in claude.notes)


def test_shadertoy_requests_fullscreen_when_its_button_is_pressed_and_answers_tools_list() -> None:
    observation = _observe("server-shadertoy", ("claude",))
    run = _run(observation, "claude")
    assert "ui/request-display-mode" in run.methods and run.explored
    assert "OBS-APPTOOLS-001" not in {issue.rule_id for issue in run.issues}
    assert run.issues == ()


def test_budget_allocator_answers_the_hosts_tools_list_and_sizes_itself() -> None:
    # the scan says appTools and sizeChanged; the run sees both (it answers the host's tools/list) and nothing else
    run = _run(_observe("server-budget-allocator", ("goose",), explore=False), "goose")
    assert run.methods == ("ui/initialize", "ui/notifications/initialized", "ui/notifications/size-changed")
    assert set(run.reached) == {"sizeChanged", "appTools"} and run.issues == () and run.status == "rendered"


def test_the_map_waits_for_its_declared_cdn_and_offline_that_is_undecided_not_a_broken_bridge() -> None:
    observation = _observe("server-map", ("claude",), explore=False)
    run = _run(observation, "claude")
    assert run.methods == () and run.issues == ()  # no OBS-INIT-001: what needs cesium.com was not seen offline
    assert any("origins it declares (https://cesium.com" in note for note in run.notes), run.notes
    _, _, record = observation.records[0]
    assert any("cesium.com" in url for url in record.network)


def test_the_pdf_viewer_fetches_its_bytes_through_the_host_unless_the_result_is_stripped() -> None:
    observation = _observe("server-pdf", ("mistral", "claude"), explore=False)
    mistral, claude = _run(observation, "mistral"), _run(observation, "claude")
    assert mistral.methods[:2] == ("ui/initialize", "ui/notifications/initialized") and "tools/call" in mistral.methods
    records = {host: record for _, host, record in observation.records}
    calls = [m.params() for m in records["mistral"].sent() if m.method == "tools/call"]
    assert calls and calls[0]["name"] == "read_pdf_bytes"  # an app-only tool: the view may call it
    assert not {"OBS-VIS-001", "OBS-INIT-001", "OBS-INIT-002", "OBS-REFUSE-001"} & {i.rule_id for i in mistral.issues}
    # Claude's replayed stripping (ext-apps #696) leaves the viewer without the structuredContent naming its PDF
    assert "tools/call" not in claude.methods and "appTools" in claude.reached
