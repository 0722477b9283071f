import json
from typing import Any

import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.catalog.model import HostProfile
from hostcompat.engine.catalog.schema import FACT_FIELDS
from hostcompat.engine.findings.model import Lane, Provenance, Severity, Verdict
from hostcompat.engine.findings.rules import RULES
from hostcompat.engine.scan.needs import ALL_NEEDS
from hostcompat.engine.server.requirements import UNKNOWN_WIDGETS_NOT_ANALYZED, derive_server_requirements
from hostcompat.engine.verdicts.capabilities import (
    LEGACY_FORMAT,
    MCP_APPS_FORMAT,
    NEED_FACTS,
    NEED_LABELS,
    OPENAI_FORMAT,
    PERMISSION_ALLOW,
)
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts, evaluate_host_compat
from hostcompat.engine.verdicts.model import HostReport
from hostcompat.engine.verdicts.results import CONTENT_FACTS, OUTPUT_SCHEMA_FACT, STRUCTURED_CONTENT_FACT
from hostcompat.engine.verdicts.server import NAME_FORMAT_FACT, NAME_PREFIX_FACT, PROTOCOL_VERSIONS, TOOL_LIMIT_FACTS
from hostcompat.errors import CatalogError, InvalidInput
from tests.engine.evaluate_support import (
    NEW,
    OLD,
    dual_tool,
    fact,
    host,
    mcp_tool,
    openai_tool,
    plain_tool,
    text_host,
    widget_host,
)

CATALOG = load_catalog()


def one(tools: Any, profile: HostProfile, **options: Any) -> HostReport:
    return evaluate_all_hosts(tools, [profile], **options).reports[0]


def ids(report: HostReport, lane: Lane | None = None) -> set[str]:
    return {finding.rule_id for finding in report.findings if lane is None or finding.lane is lane}


# --- MCPJam's decision table (host-compat digest §5), one row per case ------------------------------------------

DECISION_TABLE = [
    # (case, tools, widget usage, host, apps verdict, rule ids)
    (
        "not rendered, app-only: degraded (MCPJam says blocked; see evaluate.py, difference 10)",
        [mcp_tool(visibility=["app"])],
        {},
        text_host(),
        "degraded",
        {"APPS-RENDER-001"},
    ),
    (
        "not rendered, app-only, no scan: still degraded (MCPJam: blocked)",
        [mcp_tool(visibility=["app"])],
        None,
        text_host(),
        "degraded",
        {"APPS-RENDER-001"},
    ),
    ("not rendered, not app-only: text fallback", [mcp_tool()], {}, text_host(), "degraded", {"APPS-RENDER-002"}),
    (
        "openai widget on an MCP-Apps-only host: text fallback",
        [openai_tool()],
        {},
        widget_host(),
        "degraded",
        {"APPS-RENDER-002"},
    ),
    ("dual widget on a text host: text fallback", [dual_tool()], {}, text_host(), "degraded", {"APPS-RENDER-002"}),
    ("rendered, not scanned: unknown", [mcp_tool()], None, widget_host(), "unknown", set()),
    (
        "rendered, lacks a used need: degraded",
        [mcp_tool()],
        {"downloadFile": ["w"]},
        widget_host(downloadFile="unsupported"),
        "degraded",
        {"APPS-CAP-001"},
    ),
    (
        "rendered, lacks only logging: works with info",
        [mcp_tool()],
        {"logging": ["w"]},
        widget_host(logging="unsupported"),
        "works",
        {"APPS-CAP-001"},
    ),
    (
        "rendered, lacks nothing used: works",
        [mcp_tool()],
        {"serverTools": ["w"], "downloadFile": []},
        widget_host(downloadFile="unsupported"),
        "works",
        set(),
    ),
    (
        "dual widget on an OpenAI-rendering host: works",
        [dual_tool()],
        {},
        host("oai", {"ui.formats.mcp-apps": "unsupported", "ui.formats.openai-apps-sdk": "supported"}),
        "works",
        set(),
    ),
    ("no widgets: works", [plain_tool()], None, text_host(), "works", set()),
]


@pytest.mark.parametrize(
    ("tools", "usage", "profile", "verdict", "rule_ids"),
    [row[1:] for row in DECISION_TABLE],
    ids=[row[0] for row in DECISION_TABLE],
)
def test_each_row_of_mcpjams_decision_table_gives_its_apps_verdict_and_rules(
    tools: list[Any], usage: Any, profile: HostProfile, verdict: str, rule_ids: set[str]
) -> None:
    report = one(tools, profile, widget_usage=usage)
    assert report.apps.verdict is Verdict(verdict)
    assert ids(report, Lane.APPS) == rule_ids


def test_only_logging_missing_is_an_info_finding() -> None:
    report = one([mcp_tool()], widget_host(logging="unsupported"), widget_usage={"logging": ["w"]})
    assert [finding.severity for finding in report.findings] == [Severity.INFO]
    assert report.verdict is Verdict.WORKS


def test_tools_not_loaded_leave_the_apps_lane_unknown() -> None:
    report = one(None, widget_host())
    assert report.apps.verdict is Verdict.UNKNOWN
    assert report.apps.unknown == ("widget usage (tools metadata not loaded)",)


def test_a_truncated_tool_list_leaves_a_server_without_widgets_unknown() -> None:
    report = one([plain_tool()], widget_host(), tools_truncated=True)
    assert (report.verdict, report.apps.verdict) == (Verdict.UNKNOWN, Verdict.UNKNOWN)
    assert report.findings == ()


@pytest.mark.parametrize(
    ("versions", "verdict", "rule_ids"),
    [([OLD], Verdict.UNKNOWN, {"SERVER-PROTO-001"}), ([OLD, NEW], Verdict.WORKS, set()), (None, Verdict.WORKS, set())],
)
def test_the_server_lane_is_unknown_when_the_protocol_version_is_not_in_the_hosts_list(
    versions: list[str] | None, verdict: Verdict, rule_ids: set[str]
) -> None:
    profile = host("h", {} if versions is None else {"server.protocolVersions": versions})
    report = one([plain_tool()], profile, connection_facts={"protocolVersion": NEW})
    assert report.server.verdict is verdict
    assert ids(report, Lane.SERVER) == rule_ids
    assert all(finding.severity is Severity.INFO for finding in report.findings)


def test_the_overall_verdict_is_the_worse_lane() -> None:
    profile = host("h", {"ui.formats.mcp-apps": "unsupported", "server.protocolVersions": [OLD]})
    report = one([mcp_tool()], profile, widget_usage={}, connection_facts={"protocolVersion": NEW})
    assert (report.apps.verdict, report.server.verdict, report.verdict) == (
        Verdict.DEGRADED,
        Verdict.UNKNOWN,
        Verdict.DEGRADED,
    )


# --- behaviours confirmed by running MCPJam's engine (digest §7), on the bundled catalog ------------------------

THE_FOUR = ["claude-code", "claude", "chatgpt", "goose"]


def verdicts(tools: Any, **options: Any) -> dict[str, Verdict]:
    return dict(evaluate_all_hosts(tools, CATALOG, host_ids=THE_FOUR, **options).verdicts)


def test_an_unscanned_widget_is_unknown_on_widget_hosts_and_degraded_on_claude_code() -> None:
    assert verdicts([mcp_tool()]) == {
        "claude-code": Verdict.DEGRADED,
        "claude": Verdict.UNKNOWN,
        "chatgpt": Verdict.UNKNOWN,
        "goose": Verdict.UNKNOWN,
    }
    report = evaluate_all_hosts([mcp_tool()], CATALOG, host_ids="claude").reports[0]
    assert UNKNOWN_WIDGETS_NOT_ANALYZED in report.apps.unknown


def test_a_clean_scan_works_on_widget_hosts_and_claude_code_still_falls_back_to_text() -> None:
    assert verdicts([mcp_tool()], widget_usage={}) == {
        "claude-code": Verdict.DEGRADED,
        "claude": Verdict.WORKS,
        "chatgpt": Verdict.WORKS,
        "goose": Verdict.WORKS,
    }


def test_an_app_only_widget_is_info_where_the_host_hides_app_only_tools() -> None:
    # Claude Code renders no MCP Apps but hides app-only tools (catalog fact appOnlyToolsHidden): nothing breaks
    report = evaluate_all_hosts([mcp_tool(visibility=["app"])], CATALOG, host_ids="claude-code", widget_usage={})
    (finding,) = report.reports[0].findings
    assert finding.rule_id == "APPS-RENDER-001"
    assert finding.severity is Severity.INFO
    assert "hides app-only tools" in finding.detail
    assert "model cannot call" not in finding.detail
    assert "visibility ['app']" in (finding.remediation or "")
    assert report.reports[0].verdict is Verdict.WORKS


def test_an_app_only_widget_is_degraded_not_blocked_where_the_host_may_list_it_to_the_model() -> None:
    report = evaluate_all_hosts([mcp_tool(visibility=["app"])], CATALOG, host_ids="zed", widget_usage={}).reports[0]
    assert report.verdict is Verdict.DEGRADED
    (finding,) = [finding for finding in report.findings if finding.rule_id == "APPS-RENDER-001"]
    assert finding.severity is Severity.DEGRADED
    assert "lists them to the model" in finding.detail
    assert "Keep _meta.ui.visibility ['app']" in (finding.remediation or "")


def test_an_app_and_model_visibility_is_not_app_only() -> None:
    report = evaluate_all_hosts([mcp_tool(visibility=["app", "model"])], CATALOG, host_ids="claude-code").reports[0]
    assert report.verdict is Verdict.DEGRADED


def test_an_openai_only_widget_falls_back_to_text_on_claude_and_goose_and_works_on_chatgpt() -> None:
    result = verdicts([openai_tool()], widget_usage={})
    assert (result["claude"], result["goose"], result["chatgpt"]) == (Verdict.DEGRADED, Verdict.DEGRADED, Verdict.WORKS)


def test_logging_alone_gives_goose_an_info_finding_and_it_still_works() -> None:
    report = evaluate_all_hosts([mcp_tool()], CATALOG, host_ids="goose", widget_usage={"logging": ["w"]}).reports[0]
    assert report.verdict is Verdict.WORKS
    assert [(f.rule_id, f.severity) for f in report.findings] == [("APPS-CAP-001", Severity.INFO)]


def test_a_truncated_list_makes_every_host_unknown() -> None:
    evaluation = evaluate_all_hosts([{"name": "lookup"}], CATALOG, tools_truncated=True)
    assert set(evaluation.verdicts.values()) == {Verdict.UNKNOWN}


def test_protocol_2025_11_25_is_unknown_on_goose_only() -> None:
    result = verdicts([plain_tool()], connection_facts={"protocolVersion": NEW})
    assert result == {
        "claude-code": Verdict.WORKS,
        "claude": Verdict.WORKS,
        "chatgpt": Verdict.WORKS,
        "goose": Verdict.UNKNOWN,
    }
    goose = evaluate_all_hosts([plain_tool()], CATALOG, host_ids="goose", connection_facts={"protocolVersion": NEW})
    assert ids(goose.reports[0]) == {"SERVER-PROTO-001"}


def test_a_camera_request_is_degraded_with_a_named_finding_on_claude_chatgpt_and_goose() -> None:
    usage = {
        "sandboxPermissions": ["w"],
        "sandboxPermissionNames": ["camera"],
        "sandboxPermissionTools": {"camera": ["w"]},
    }
    evaluation = evaluate_all_hosts([mcp_tool()], CATALOG, host_ids=THE_FOUR[1:], widget_usage=usage)
    for report in evaluation.reports:
        assert report.verdict is Verdict.DEGRADED, report.host_id
        assert [finding.title for finding in report.findings] == ["Camera access unavailable on this host"]


def test_a_permission_on_the_hosts_allowlist_is_fine() -> None:
    usage = {"sandboxPermissions": ["w"], "sandboxPermissionNames": ["clipboardWrite"]}
    report = evaluate_all_hosts([mcp_tool()], CATALOG, host_ids="claude", widget_usage=usage).reports[0]
    assert report.verdict is Verdict.WORKS


def test_widgets_that_request_no_permission_get_no_permission_finding() -> None:
    profile = host("h", {"ui.formats.mcp-apps": "supported", "ui.formats.openai-apps-sdk": "unsupported"})
    none_requested = one([mcp_tool()], profile, widget_usage={"serverTools": ["w"], "sandboxPermissionNames": []})
    assert not [finding for finding in none_requested.findings if "Sandbox" in finding.title]
    camera = {"sandboxPermissions": ["w"], "sandboxPermissionNames": ["camera"]}
    unknown = one([mcp_tool()], profile, widget_usage=camera)
    assert [(finding.rule_id, finding.tools) for finding in unknown.findings] == [("APPS-CAP-002", ("w",))]


# --- where hostcompat deliberately differs from MCPJam -----------------------------------------------------------


def test_an_unknown_capability_fact_gives_unknown_not_degraded() -> None:
    profile = host("h", {"ui.formats.mcp-apps": "supported", "ui.formats.openai-apps-sdk": "unsupported"})
    report = one([mcp_tool()], profile, widget_usage={"downloadFile": ["w"]})
    assert report.apps.verdict is Verdict.UNKNOWN
    assert ids(report) == {"APPS-CAP-002"}
    assert report.apps.unknown == ("whether H supports downloadFile",)


def test_an_unknown_render_fact_gives_unknown_not_a_text_fallback() -> None:
    report = one([mcp_tool(visibility=["app"])], host("h"), widget_usage={})
    assert report.verdict is Verdict.UNKNOWN
    assert ids(report) == {"APPS-RENDER-003"}
    assert report.findings[0].evidence[-1].snippet == "no fact in the catalog"


def test_a_guarded_call_is_info_and_an_unguarded_one_degraded() -> None:
    usage = {"downloadFile": ["a", "b"], "guardedCalls": {"downloadFile": ["b"]}}
    profile = widget_host(downloadFile="unsupported")
    report = one([mcp_tool("a"), mcp_tool("b")], profile, widget_usage=usage)
    assert [(f.rule_id, f.severity, f.tools) for f in report.findings] == [
        ("APPS-CAP-001", Severity.DEGRADED, ("a",)),
        ("APPS-CAP-003", Severity.INFO, ("b",)),
    ]
    only_guarded = one(
        [mcp_tool("b")], profile, widget_usage={"downloadFile": ["b"], "guardedCalls": {"downloadFile": ["b"]}}
    )
    assert only_guarded.verdict is Verdict.WORKS


def test_a_guarded_call_of_an_unknown_capability_does_not_make_the_verdict_unknown() -> None:
    profile = host("h", {"ui.formats.mcp-apps": "supported"})
    usage = {"message": ["w"], "guardedCalls": {"message": ["w"]}}
    report = one([mcp_tool()], profile, widget_usage=usage)
    assert report.verdict is Verdict.WORKS
    assert ids(report) == {"APPS-CAP-002"}


def test_an_unrenderable_tool_gets_no_capability_findings_on_that_host() -> None:
    profile = widget_host(downloadFile="unsupported")
    report = one([mcp_tool("m"), openai_tool("o")], profile, widget_usage={"downloadFile": ["m", "o"]})
    assert [(f.rule_id, f.tools) for f in report.findings] == [("APPS-RENDER-002", ("o",)), ("APPS-CAP-001", ("m",))]
    text = text_host()
    assert ids(one([mcp_tool()], text, widget_usage={"downloadFile": ["w"]})) == {"APPS-RENDER-002"}


def test_partial_support_is_degraded_and_carries_the_facts_note() -> None:
    partial = fact("partial", note="only in fullscreen")
    profile = host("h", {"ui.formats.mcp-apps": "supported", "ui.mcpApps.features.openLinks": partial})
    report = one([mcp_tool()], profile, widget_usage={"openLinks": ["w"]})
    assert report.verdict is Verdict.DEGRADED
    assert report.findings[0].rule_id == "APPS-CAP-001"
    assert "only in fullscreen" in report.findings[0].detail


def test_an_info_only_capability_fact_is_reported_never_a_verdict() -> None:
    # Codex's size-changed: a shrink seen ignored, growth never reported, so nothing here decides whether it bites
    partial = {**fact("partial", note="the frame keeps its height"), "infoOnly": True}
    profile = host("h", {"ui.formats.mcp-apps": "supported", "ui.mcpApps.features.sizeChanged": partial})
    report = one([mcp_tool()], profile, widget_usage={"sizeChanged": ["w"]})
    assert report.verdict is Verdict.WORKS
    assert [(f.rule_id, f.severity) for f in report.findings] == [("APPS-CAP-001", Severity.INFO)]
    assert "the frame keeps its height" in report.findings[0].detail
    plain = host("h", {"ui.formats.mcp-apps": "supported", "ui.mcpApps.features.sizeChanged": fact("partial")})
    degraded = one([mcp_tool()], plain, widget_usage={"sizeChanged": ["w"]})
    assert degraded.verdict is Verdict.DEGRADED


def test_partial_rendering_without_a_trigger_is_info_with_its_own_rule() -> None:
    # "limited support" names nothing this server's data can fire: information, never a degraded verdict
    profile = host("h", {"ui.formats.mcp-apps": fact("partial", note="limited support")})
    report = one([mcp_tool()], profile, widget_usage={})
    assert report.verdict is Verdict.WORKS
    assert ids(report) == {"APPS-RENDER-004"}
    assert report.findings[0].severity is Severity.INFO
    assert "limited support" in report.findings[0].detail


def test_needs_beyond_mcpjams_nine_are_checked_only_where_the_catalog_has_a_fact() -> None:
    usage = {"sizeChanged": ["w"], "requestDisplayMode": ["w"]}
    assert one([mcp_tool()], widget_host(), widget_usage=usage).findings == ()
    profile = host("h", {"ui.formats.mcp-apps": "supported", "ui.mcpApps.features.requestDisplayMode": "unsupported"})
    report = one([mcp_tool()], profile, widget_usage=usage)
    assert [(f.rule_id, f.severity) for f in report.findings] == [("APPS-CAP-001", Severity.DEGRADED)]


def test_the_openai_runtime_need_reads_the_openai_format_fact() -> None:
    report = one([mcp_tool()], widget_host(), widget_usage={"openaiApps": ["w"]})
    assert ids(report) == {"APPS-CAP-001"}
    assert report.findings[0].evidence[-1].detail == "ui.formats.openai-apps-sdk"
    assert one([mcp_tool()], widget_host(openai="supported"), widget_usage={"openaiApps": ["w"]}).findings == ()


def test_hosts_that_render_no_widgets_get_no_capability_checks() -> None:
    report = one([mcp_tool()], text_host(), widget_usage={need: ["w"] for need in ("message", "sizeChanged")})
    assert ids(report) == {"APPS-RENDER-002"}
    assert report.apps.unknown == ()


def test_a_malformed_meta_is_a_server_lane_finding_on_every_host_and_the_rest_is_evaluated() -> None:
    tools = [{"name": "bad", "_meta": "oops"}, mcp_tool()]
    evaluation = evaluate_all_hosts(tools, [widget_host(), text_host()], widget_usage={})
    for report in evaluation.reports:
        shape = [finding for finding in report.findings if finding.rule_id == "META-SHAPE-001"]
        assert [finding.lane for finding in shape] == [Lane.SERVER]
    assert evaluation.report("apps").server.verdict is Verdict.DEGRADED  # the host reads _meta.ui: that widget breaks
    assert evaluation.report("text").server.verdict is Verdict.WORKS  # a host that renders nothing never reads it
    assert evaluation.report("apps").apps.verdict is Verdict.WORKS
    assert evaluation.report("text").apps.verdict is Verdict.DEGRADED


# --- provenance, shape and selection -----------------------------------------------------------------------------


def test_each_finding_carries_the_source_and_date_of_the_host_fact_it_used() -> None:
    profile = host("h", {"ui.formats.mcp-apps": fact("unsupported", provenance="vendor-doc")})
    finding = one([mcp_tool()], profile, widget_usage={}).findings[0]
    assert (finding.provenance, finding.fact_source, finding.fact_date) == (
        Provenance.VENDOR_DOC,
        "test source for 'unsupported'",
        "2026-01-02",
    )
    assert finding.tools == ("w",)
    assert [item.source for item in finding.evidence] == ["tool:_meta", "catalog:h"]


def test_a_lanes_provenance_is_its_weakest_consulted_fact() -> None:
    profile = host(
        "h",
        {
            "ui.formats.mcp-apps": fact("supported", provenance="vendor-doc"),
            "ui.formats.openai-apps-sdk": fact("unsupported", provenance="vendor-doc"),
            "ui.mcpApps.features.message": fact("supported", provenance="assumed"),
            "server.protocolVersions": fact([NEW], provenance="probe"),
        },
    )
    report = one([mcp_tool()], profile, widget_usage={"message": ["w"]}, connection_facts={"protocolVersion": NEW})
    assert (report.apps.provenance, report.server.provenance) == (Provenance.ASSUMED, Provenance.PROBE)
    assert report.provenance is Provenance.ASSUMED
    assert one([plain_tool()], host("bare")).provenance is None


def test_render_findings_come_one_per_rule_over_every_bridge() -> None:
    report = one([mcp_tool("m"), openai_tool("o"), dual_tool("d")], text_host(), widget_usage={})
    assert [(f.rule_id, f.tools) for f in report.findings] == [("APPS-RENDER-002", ("m", "o", "d"))]


def test_the_remediation_points_at_what_the_host_renders() -> None:
    oai_only = host("h", {"ui.formats.mcp-apps": "unsupported", "ui.formats.openai-apps-sdk": "supported"})
    assert "openai/outputTemplate" in str(one([mcp_tool()], oai_only, widget_usage={}).findings[0].remediation)
    assert "_meta.ui.resourceUri" in str(one([openai_tool()], widget_host(), widget_usage={}).findings[0].remediation)
    legacy = host("l", {"ui.formats.mcp-apps": "unsupported", "ui.formats.mcp-ui-legacy": "partial"})
    assert "embedded" in str(one([mcp_tool()], legacy, widget_usage={}).findings[0].remediation)


def test_a_report_serialises_to_json_with_lanes_and_findings() -> None:
    report = one([mcp_tool(visibility=["app"])], text_host(), widget_usage={})
    data = json.loads(json.dumps(report.to_dict()))
    assert data["hostId"] == "text"
    assert data["verdict"] == "degraded"
    assert data["lanes"]["apps"] == {"verdict": "degraded", "provenance": "observed", "unknown": []}
    assert data["lanes"]["server"]["verdict"] == "works"
    assert data["findings"][0]["ruleId"] == "APPS-RENDER-001"


def test_every_rule_id_reported_on_the_bundled_catalog_is_registered() -> None:
    tools = [mcp_tool(visibility=["app"]), openai_tool(), dual_tool(), plain_tool("a.b" * 40)]
    usage = {need: ["w", "o", "d"] for need in ("message", "downloadFile", "logging", "cspResourceDomains")}
    evaluation = evaluate_all_hosts(tools, CATALOG, widget_usage=usage, connection_facts={"protocolVersion": OLD})
    assert len(evaluation.reports) == len(CATALOG.hosts)
    assert all(finding.rule_id in RULES for report in evaluation.reports for finding in report.findings)
    json.dumps(evaluation.to_dict())


def test_host_ids_select_by_id_or_alias_in_the_given_order_once_each() -> None:
    evaluation = evaluate_all_hosts([plain_tool()], CATALOG, host_ids=["goose", "Claude Desktop", "claude"])
    assert [report.host_id for report in evaluation.reports] == ["goose", "claude"]


def test_an_unknown_host_id_is_a_catalog_error_naming_it() -> None:
    with pytest.raises(CatalogError, match="unknown host 'clade'") as caught:
        evaluate_all_hosts([], CATALOG, host_ids=["clade"])
    assert caught.value.value == "clade"


def test_a_report_lookup_of_an_unevaluated_host_is_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        evaluate_all_hosts([], CATALOG, host_ids=["claude"]).report("goose")


@pytest.mark.parametrize("profiles", [["claude"], "claude", {"id": "x"}, 7])
def test_profiles_that_are_not_host_profiles_are_invalid_input(profiles: Any) -> None:
    with pytest.raises(InvalidInput):
        evaluate_all_hosts([], profiles)


def test_evaluate_host_compat_checks_its_arguments() -> None:
    requirements = derive_server_requirements([])
    with pytest.raises(InvalidInput):
        evaluate_host_compat(requirements, "claude")  # type: ignore[arg-type]  # the bad value under test
    with pytest.raises(InvalidInput):
        evaluate_host_compat({"tools": []}, widget_host())  # type: ignore[arg-type]  # the bad value under test


def test_evaluate_host_compat_agrees_with_evaluate_all_hosts() -> None:
    tools = [mcp_tool(), openai_tool()]
    requirements = derive_server_requirements(tools, {"message": ["w"]})
    for profile in (widget_host(message="unsupported"), text_host()):
        assert evaluate_host_compat(requirements, profile) == one(tools, profile, widget_usage={"message": ["w"]})


def test_every_catalog_path_the_evaluator_reads_is_a_catalog_fact() -> None:
    paths = {
        *NEED_FACTS.values(),
        MCP_APPS_FORMAT,
        OPENAI_FORMAT,
        LEGACY_FORMAT,
        PERMISSION_ALLOW,
        *TOOL_LIMIT_FACTS,
        PROTOCOL_VERSIONS,
        NAME_PREFIX_FACT,
        NAME_FORMAT_FACT,
        OUTPUT_SCHEMA_FACT,
        STRUCTURED_CONTENT_FACT,
        *CONTENT_FACTS.values(),
    }
    assert paths <= set(FACT_FIELDS)
    assert set(NEED_LABELS) == set(NEED_FACTS)


def test_every_need_the_scanner_reports_has_a_host_fact_to_check() -> None:
    assert set(ALL_NEEDS) <= set(NEED_FACTS)


def test_a_bad_resource_uri_is_degraded_where_widgets_render_and_info_where_they_do_not() -> None:
    tools = [{"name": "bad", "_meta": {"ui": {"resourceUri": "https://x.example/app.html"}}}, plain_tool()]
    evaluation = evaluate_all_hosts(tools, [widget_host(), text_host()], widget_usage={})
    severities = {
        report.host_id: [f.severity for f in report.findings if f.rule_id == "META-URI-001"]
        for report in evaluation.reports
    }
    assert severities == {"apps": [Severity.DEGRADED], "text": [Severity.INFO]}
    assert [report.verdict for report in evaluation.reports] == [Verdict.DEGRADED, Verdict.WORKS]
