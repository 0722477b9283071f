"""The pure parts of observed runs: the emulated bridge read from the catalog, the page a frame gets, the rules over
a record, and the engine citing runs. No browser."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hostcompat.apps.constants import SUPPORTED_PROTOCOL_VERSIONS
from hostcompat.engine.catalog.host_context import HostContext
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.catalog.model import QuirkRef
from hostcompat.engine.findings.rules import RULES
from hostcompat.engine.server.facts import WidgetUsage
from hostcompat.engine.server.observed import ObservedIssue, ObservedRun
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts
from hostcompat.errors import InvalidInput
from hostcompat.observe.host_profile import emulate_host, replays
from hostcompat.observe.record import RunRecord
from hostcompat.observe.rules import EXT_APPS_CHECKS, judge_run, offered_needs, origin_declared, timings
from hostcompat.observe.runner import host_page
from hostcompat.observe.session import captured_results
from hostcompat.observe.widget import sample_value, widget_jobs, with_csp
from hostcompat.pipeline import check_snapshot, with_observed_needs
from hostcompat.probe.calls import CallRecord
from tests.observe.support import make_snapshot, widget_tool

CATALOG = load_catalog()


def test_goose_refuses_server_tools_and_claude_proxies_them() -> None:
    goose, claude = emulate_host(CATALOG.get("goose")), emulate_host(CATALOG.get("claude"))
    assert goose.policy["tools/call"] == "refuse" and "serverTools" not in goose.host_capabilities
    assert goose.host_capabilities == {"openLinks": {}}
    assert claude.policy["tools/call"] == "answer" and "serverTools" in claude.host_capabilities
    assert claude.display_modes == ("inline", "fullscreen")
    assert claude.signature != goose.signature


def test_a_host_the_catalog_knows_little_of_is_unknown_not_guessed() -> None:
    host = emulate_host(CATALOG.get("archestra"))
    assert host.policy["tools/call"] == "unknown" and "serverTools" in host.unknown
    assert host.host_capabilities == {} and host.assumed[:2] == ("displayModes", "protocolVersion")
    assert host.protocol_versions == SUPPORTED_PROTOCOL_VERSIONS  # the spec's, said as assumed
    run = judge_run(RunRecord(), host, uri="ui://a", tools=("t",))
    assert any("so assumed: display modes" in note and "protocol version" in note for note in run.notes)


def test_quirks_are_replayed_for_the_versions_and_context_their_sources_show() -> None:
    claude = CATALOG.get("claude")
    strip = "claude-desktop-tool-result-strips-structured"
    assert strip in emulate_host(claude).replayed  # the current version: nothing says it was fixed
    assert strip in emulate_host(claude, version="1.22209.0").replayed
    before = emulate_host(claude, version="1.18000.0")
    assert strip not in before.replayed and "stripStructuredContent" not in before.knobs
    assert before.signature != emulate_host(claude).signature  # a different bridge: run on its own
    quirk = next(q for q in claude.quirks if q.id == strip)
    assert emulate_host(claude).sources[strip].startswith(quirk.source)
    fixed = replace(quirk, fixed_in="1.30000.0")
    assert replays(fixed, "1.22209.0", HostContext()) and not replays(fixed, "1.30000.0", HostContext())
    assert not replays(fixed, None, HostContext())  # fixed: the current version does not have it
    on_mac = replace(quirk, os=("macos",))
    assert not replays(on_mac, None, HostContext()) and replays(on_mac, None, HostContext(os="macos"))


def test_the_csp_meta_goes_before_the_widgets_own_markup_and_the_page_config_cannot_close_its_script() -> None:
    meta = '<meta http-equiv="Content-Security-Policy" content="default-src &#x27;none&#x27;">'
    assert with_csp("<html><head><title>x</title>", "default-src 'none'") == meta + "<html><head><title>x</title>"
    assert with_csp("<p>no head</p>", "default-src 'none'").startswith(meta)
    # a <head> in a comment (or a script) must not take the policy: it would be inert there
    assert with_csp("<!-- <head> --><html><head>", "default-src 'none'") == meta + "<!-- <head> --><html><head>"
    # the doctype stays first, or the page would render in quirks mode
    assert with_csp(" <!DOCTYPE html>\n<html>", "default-src 'none'") == " <!DOCTYPE html>" + meta + "\n<html>"
    page = host_page({"srcdoc": "</script><script>alert(1)</script>"})
    assert "</script><script>alert(1)" not in page
    start = page.index('type="application/json">') + len('type="application/json">')
    assert json.loads(page[start : page.index("</script>", start)])["srcdoc"].startswith("</script>")


def test_widget_jobs_build_the_csp_allow_and_result_from_the_metadata() -> None:
    ui = {"csp": {"connectDomains": ["https://api.example.com"]}, "permissions": {"microphone": {}}}
    item = {"uri": "ui://w/a.html", "mimeType": "text/html;profile=mcp-app", "text": "<p>x</p>", "_meta": {"ui": ui}}
    tool = widget_tool(
        "show", "ui://w/a.html", outputSchema={"type": "object", "properties": {"n": {"type": "integer"}}}
    )
    jobs, skipped = widget_jobs(make_snapshot([tool], {"ui://w/a.html": item}))
    assert not skipped
    job = jobs[0]
    assert "connect-src 'self' https://api.example.com" in job.csp and job.allow == "microphone"
    assert job.tool_result is not None and job.tool_result["structuredContent"] == {"n": 1}
    assert sample_value({"type": "object", "properties": {"a": {"enum": ["x"]}, "b": {"type": "array"}}}) == {
        "a": "x",
        "b": [],
    }


def test_origins_match_exactly_or_by_wildcard_subdomain() -> None:
    assert origin_declared("https://api.example.com/x", ["https://api.example.com"])
    assert origin_declared("https://a.cdn.example.com/x", ["https://*.cdn.example.com"])
    assert not origin_declared("https://cdn.example.com/x", ["https://*.cdn.example.com"])
    assert not origin_declared("https://evil.example/x", ["https://api.example.com"])


def _record(*messages: tuple[str, dict[str, Any]], **flags: Any) -> RunRecord:
    record = RunRecord(seconds=3.0, painted=True)
    for at, (direction, message) in enumerate(messages):
        summary: dict[str, Any] = {"shape": "object", "json": True, **message}
        if "params" in summary:
            summary["params"] = json.dumps(summary["params"])
        record.add_message(direction, at * 10, json.dumps(summary))
    for key, value in flags.items():
        setattr(record, key, value)
    return record


GOOD = (
    ("in", {"jsonrpc": "2.0", "id": 1, "method": "ui/initialize", "params": {"appCapabilities": {}}}),
    ("out", {"jsonrpc": "2.0", "id": 1, "result": "{}"}),
    ("in", {"jsonrpc": "2.0", "method": "ui/notifications/initialized"}),
    ("in", {"jsonrpc": "2.0", "method": "ui/notifications/size-changed", "params": {"height": 10}}),
)


def test_a_well_behaved_record_fires_no_rule() -> None:
    run = judge_run(_record(*GOOD), emulate_host(CATALOG.get("claude")), uri="ui://w", tools=("t",))
    assert run.status == "rendered" and run.issues == ()
    assert run.methods == ("ui/initialize", "ui/notifications/initialized", "ui/notifications/size-changed")


def test_an_initialize_without_app_capabilities_fires_its_own_rule_and_rules_name_their_validator_check() -> None:
    bare = ("in", {"jsonrpc": "2.0", "id": 1, "method": "ui/initialize", "params": {"protocolVersion": "2026-01-26"}})
    run = judge_run(_record(bare, *GOOD[1:]), emulate_host(CATALOG.get("claude")), uri="ui://w", tools=("t",))
    assert [issue.rule_id for issue in run.issues] == ["OBS-INIT-003"]
    assert EXT_APPS_CHECKS["OBS-INIT-003"].startswith("APP-100") and EXT_APPS_CHECKS["OBS-MODE-001"].startswith("APP-1")
    assert all(rule_id in RULES for rule_id in EXT_APPS_CHECKS)
    record = _record(*GOOD)
    record.first_paint_ms = 42
    assert timings(record) == {"initialize": 0, "initialized": 20, "sizeChanged": 30, "firstPaint": 42}


def test_each_rule_fires_on_its_bad_behaviour() -> None:
    claude = emulate_host(CATALOG.get("claude"))
    bad = _record(
        (
            "in",
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "ui/initialize",
                "params": {"appCapabilities": {"tools": {}, "availableDisplayModes": ["inline"]}},
            },
        ),
        ("in", {"jsonrpc": "1.0", "method": "x"}),
        ("in", {"jsonrpc": "2.0", "id": 2, "method": "ui/request-display-mode", "params": {"mode": "pip"}}),
        ("in", {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "secret"}}),
        ("out", {"jsonrpc": "2.0", "id": 3, "error": "{}"}),
        painted=False,
    )
    bad.page_errors.append((45, "TypeError: boom"))
    bad.network.append("https://evil.example/x")
    run = judge_run(bad, emulate_host(CATALOG.get("goose")), uri="ui://w", tools=("t",), model_only_tools=("secret",))
    fired = {issue.rule_id for issue in run.issues}
    assert fired == {
        "OBS-INIT-002",
        "OBS-APPTOOLS-001",
        "OBS-JSONRPC-001",
        "OBS-MODE-001",
        "OBS-VIS-001",
        "OBS-REFUSE-001",
        "OBS-RENDER-001",
        "OBS-NET-001",
    }
    assert run.refused == ("serverTools",) and run.status == "blank"
    served = judge_run(bad, claude, uri="ui://w", tools=("t",), model_only_tools=("secret",))
    assert served.refused == () and "OBS-REFUSE-001" not in {i.rule_id for i in served.issues}  # the server erred
    assert any(note.startswith("The server side answered tools/call with an error") for note in served.notes)
    silent = judge_run(RunRecord(seconds=2.0, painted=True), claude, uri="ui://w", tools=("t",))
    assert [issue.rule_id for issue in silent.issues] == ["OBS-INIT-001"]
    hung = judge_run(RunRecord(seconds=20.0, timed_out=True), claude, uri="ui://w", tools=("t",))
    assert hung.status == "timeout" and [i.rule_id for i in hung.issues] == ["OBS-HOSTILE-001"]


def test_observed_runs_round_trip_and_reject_bad_values() -> None:
    run = ObservedRun(
        "claude", "ui://w", ("t",), 1.5, "rendered", ("ui/initialize",), issues=(ObservedIssue("OBS-SIZE-001", "x"),)
    )
    assert ObservedRun.from_dict(json.loads(json.dumps(run.to_dict()))) == run
    for bad in (
        {**run.to_dict(), "status": "fine"},
        {**run.to_dict(), "seconds": "1"},
        {**run.to_dict(), "tools": "t"},
    ):
        with pytest.raises(InvalidInput):
            ObservedRun.from_dict(bad)


def _evaluate(observed: tuple[ObservedRun, ...], usage: WidgetUsage) -> Any:
    tools = [widget_tool("show", "ui://w/a.html")]
    return evaluate_all_hosts(tools, CATALOG, widget_usage=usage, host_ids=["goose", "claude"], observed=observed)


def test_the_engine_cites_runs_per_host_and_says_what_a_run_never_reached() -> None:
    usage = WidgetUsage(needs={"serverTools": ("show",), "downloadFile": ("show",)})
    runs = tuple(
        ObservedRun(
            host,
            "ui://w/a.html",
            ("show",),
            4.0,
            "rendered",
            ("ui/initialize", "tools/call"),
            ("serverTools",),
            ("serverTools",) if host == "goose" else (),
            explored=True,
        )
        for host in ("goose", "claude")
    )
    goose = _evaluate(runs, usage).report("goose")
    cap = next(
        f
        for f in goose.findings
        if f.rule_id == "APPS-CAP-001" and "serverTools" in f.detail + f.title + str(f.remediation)
    )
    observed = [e.detail for e in cap.evidence if e.source.startswith("observed:")]
    assert observed == ["observed: the view used serverTools within 4.0 s under Goose and the host refused it"]
    download = next(f for f in goose.findings if f.rule_id == "APPS-CAP-001" and "downloadFile" in str(f.remediation))
    assert "static: downloadFile in code; not reached in 4.0 s of running under Goose" in str(
        [e.detail for e in download.evidence]
    )
    assert [f.rule_id for f in goose.findings].count("OBS-RUN-001") == 1
    without = _evaluate((), usage).report("goose")
    assert "OBS-RUN-001" not in without.rule_ids


def test_a_need_only_the_run_reached_counts_like_a_scanned_one() -> None:
    usage = WidgetUsage(needs={"openLinks": ("show",)})
    run = ObservedRun("goose", "ui://w/a.html", ("show",), 2.0, "rendered", ("ui/message",), ("message",), ("message",))
    merged = with_observed_needs(usage, (run,))
    assert (
        merged is not None and merged.tools_for("message") == ("show",) and merged.tools_for("openLinks") == ("show",)
    )
    assert with_observed_needs(None, (run,)) is None


def test_catalog_quirks_are_replayed_when_no_fixed_version_is_known() -> None:
    bare = dataclasses.replace(CATALOG.get("claude"), quirks=())

    def quirk(quirk_id: str, **extra: Any) -> QuirkRef:
        return QuirkRef(quirk_id, "text", "observed", "a source", "2026-07-30", **extra)

    strips = dataclasses.replace(
        bare,
        quirks=(
            quirk("claude-desktop-tool-result-strips-structured", since="1.18286.2"),
            quirk("claude-update-model-context-dropped"),
            quirk("chatgpt-first-widget-no-tool-result", fixed_in="9.0"),
        ),
    )
    host = emulate_host(strips)
    assert host.replayed == ("claude-desktop-tool-result-strips-structured", "claude-update-model-context-dropped")
    assert host.knobs == {"stripStructuredContent": True, "dropUpdateModelContext": True}
    assert host.policy["ui/update-model-context"] == "drop"
    assert emulate_host(bare).policy["ui/update-model-context"] == "answer" and emulate_host(bare).replayed == ()
    assert host.signature != emulate_host(bare).signature
    run = judge_run(_record(*GOOD), host, uri="ui://w", tools=("t",))
    assert any("Replayed Claude's catalog quirks" in note for note in run.notes)


def test_the_bundled_catalog_quirks_that_are_replayed() -> None:
    replayed = {host: emulate_host(CATALOG.get(host)).replayed for host in ("claude", "chatgpt", "vscode", "goose")}
    assert set(replayed["claude"]) == {
        "claude-desktop-tool-result-strips-structured",
        "claude-update-model-context-dropped",
    }
    assert replayed["chatgpt"] == ("chatgpt-first-widget-no-tool-result",)
    assert replayed["vscode"] == ("vscode-ui-message-prefills-input",)
    assert replayed["goose"] == ()


def test_an_observed_update_model_context_fires_the_catalog_quirk_that_waits_for_it() -> None:
    tools = [widget_tool("show", "ui://w/a.html")]
    run = ObservedRun(
        "claude", "ui://w/a.html", ("show",), 3.0, "rendered", ("ui/update-model-context",), ("updateModelContext",)
    )
    scanned = WidgetUsage(needs={})
    before = evaluate_all_hosts(tools, CATALOG, widget_usage=scanned, host_ids=["claude"]).report("claude")
    merged = with_observed_needs(scanned, (run,))
    after = evaluate_all_hosts(tools, CATALOG, widget_usage=merged, host_ids=["claude"], observed=(run,))
    quirk_text = "update-model-context"
    assert not any(quirk_text in f.detail for f in before.findings)
    assert any(quirk_text in f.detail and f.rule_id != "OBS-RUN-001" for f in after.report("claude").findings)


WRAPPER_PAGE = (Path(__file__).parent / "pages" / "wrapper_never_reached.html").read_text(encoding="utf-8")


def _wrapper_run(host: str, *, explored: bool = True, reached: tuple[str, ...] = ()) -> ObservedRun:
    methods = ("ui/initialize", "ui/notifications/initialized", "ui/notifications/size-changed")
    offered = offered_needs(emulate_host(CATALOG.get(host)))
    return ObservedRun(
        host, "ui://w/a.html", ("show",), 5.0, "rendered", methods, reached, (), (), explored, (), offered
    )


def _download_findings(runs: tuple[ObservedRun, ...]) -> tuple[dict[str, Any], list[str]]:
    snapshot = make_snapshot([widget_tool("show", "ui://w/a.html")], {"ui://w/a.html": WRAPPER_PAGE})
    entry = check_snapshot(snapshot, CATALOG, host_ids=["claude", "goose"], observed=runs)
    requirements: Any = entry["requirements"]
    needs = {key: value for key, value in requirements["widgetUsage"].items() if not key.startswith("sandbox")}
    return needs, [event["message"] for event in entry["events"] if event["code"] == "CHECK-OBSERVE-UNREACHED"]


def test_a_wrapper_need_no_run_reached_stops_counting_once_a_run_covers_the_entry_paths() -> None:
    needs, notes = _download_findings(())
    assert needs.get("downloadFile") == ["show"] and notes == []  # static only: the wrapper's method is called
    needs, notes = _download_findings((_wrapper_run("claude"), _wrapper_run("goose")))
    assert "downloadFile" not in needs and "sizeChanged" in needs
    assert notes == [
        "static: downloadFile in code through a bundled wrapper; not reached in 5.0 s of running under claude with "
        "its buttons pressed, so it does not count for show"
    ]
    # no run covered the entry paths with downloadFile on offer (Goose does not offer it; buttons not pressed)
    needs, notes = _download_findings((_wrapper_run("goose"), _wrapper_run("claude", explored=False)))
    assert needs.get("downloadFile") == ["show"] and notes == []
    # a run that reached it keeps it
    needs, _ = _download_findings((_wrapper_run("claude", reached=("downloadFile",)),))
    assert needs.get("downloadFile") == ["show"]


def test_a_replayed_quirk_is_said_only_when_the_view_triggers_it() -> None:
    vscode, chatgpt = emulate_host(CATALOG.get("vscode")), emulate_host(CATALOG.get("chatgpt"))
    message = ("in", {"jsonrpc": "2.0", "id": 2, "method": "ui/message", "params": {"role": "user", "content": []}})
    sent = judge_run(_record(*GOOD, message), vscode, uri="ui://w", tools=("t",))
    assert any(note.startswith("Replayed quirk vscode-ui-message-prefills-input") for note in sent.notes)
    quiet = judge_run(_record(*GOOD), vscode, uri="ui://w", tools=("t",))
    assert not any(note.startswith("Replayed quirk vscode") for note in quiet.notes)
    waited = judge_run(_record(*GOOD), chatgpt, uri="ui://w", tools=("t",))
    assert "Replayed quirk chatgpt-first-widget-no-tool-result: the view got no tool result." in waited.notes


def test_the_view_gets_the_result_the_probe_captured_else_one_built_from_the_output_schema() -> None:
    tool = widget_tool(
        "show", "ui://w/a.html", outputSchema={"type": "object", "properties": {"n": {"type": "integer"}}}
    )
    captured = {"content": [{"type": "text", "text": "7"}], "structuredContent": {"n": 7}}
    calls = (
        CallRecord("show", {"n": 7}, "explicit", "ok", result=captured),
        CallRecord("other", {}, "auto", "tool-error", result={"content": [], "isError": True}),
    )
    snapshot = dataclasses.replace(make_snapshot([tool], {"ui://w/a.html": "<p>x</p>"}), calls=calls)
    assert captured_results(snapshot) == {"show": captured}  # a tool error is no result a host would show
    (job,), _ = widget_jobs(snapshot, call_results=captured_results(snapshot), call_arguments={"show": {"n": 7}})
    assert job.tool_result == captured and job.tool_input == {"n": 7}
    (sampled,), _ = widget_jobs(snapshot)
    assert sampled.tool_result == {"content": [{"type": "text", "text": '{"n": 1}'}], "structuredContent": {"n": 1}}
