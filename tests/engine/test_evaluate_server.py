from typing import Any

import pytest

from hostcompat.engine.catalog.load import load_catalog, validate_catalog
from hostcompat.engine.catalog.model import HostProfile
from hostcompat.engine.findings.model import Finding, Lane, Provenance, Severity, Verdict
from hostcompat.engine.server.requirements import derive_server_requirements
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts, evaluate_host_compat
from hostcompat.engine.verdicts.model import HostReport
from hostcompat.errors import CatalogError
from tests.engine.catalog_documents import minimal_document
from tests.engine.evaluate_support import fact, host, plain_tool

LINK = {"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]}


def server(tools: list[Any], profile: HostProfile, **options: Any) -> HostReport:
    return evaluate_all_hosts(tools, [profile], **options).reports[0]


def found(report: HostReport, rule_id: str) -> list[Finding]:
    return [finding for finding in report.findings if finding.rule_id == rule_id]


def named(*names: str, **extra: Any) -> list[dict[str, Any]]:
    return [plain_tool(name, **extra) for name in names]


# --- tool count ---------------------------------------------------------------------------------------------------


def test_more_tools_than_the_hosts_cap_is_degraded_naming_the_tools_left_out() -> None:
    profile = host("cap", {"server.limits.maxTools": 3}, quirk_rules=("cap.cap-tool-count", "cap.other-rewrite"))
    report = server(named("a", "b", "c", "d"), profile)
    (finding,) = found(report, "SERVER-LIMIT-001")
    assert finding.tools == ("d",)
    assert finding.lane is Lane.SERVER
    assert report.server.verdict is Verdict.DEGRADED
    assert "cap.cap-tool-count rewrites this" in str(finding.remediation)
    assert "cap.other-rewrite" not in str(finding.remediation)


def test_a_tool_count_at_the_cap_or_without_a_cap_fact_is_fine() -> None:
    assert server(named("a", "b", "c"), host("cap", {"server.limits.maxTools": 3})).findings == ()
    assert server(named(*"abcdefgh"), host("nocap")).findings == ()


# --- tool names ---------------------------------------------------------------------------------------------------

CLAUDE_CODE_LIKE = {
    "server.limits.toolNameMaxLength": 20,
    "server.limits.toolNamePrefixCounts": True,
    "server.limits.toolNameFormat": "mcp__{server}__{tool}",
}


def test_a_name_over_the_limit_counting_the_hosts_prefix_is_degraded() -> None:
    profile = host("cc", CLAUDE_CODE_LIKE, quirk_rules=("cc.truncate-tool-names",))
    facts = {"serverInfo": {"name": "srv"}}
    report = server(named("ten_chars_", "eleven_char"), profile, connection_facts=facts)
    (finding,) = found(report, "SERVER-NAME-001")
    assert finding.tools == ("eleven_char",)
    assert finding.evidence[0].snippet == "mcp__srv__eleven_char"
    assert finding.evidence[0].detail == "21 characters as counted"
    assert "cc.truncate-tool-names" in str(finding.remediation)
    assert "at most 10 characters" in str(finding.remediation)


def test_without_a_format_the_server_name_counts_without_separators() -> None:
    profile = host("cursor", {"server.limits.toolNameMaxLength": 10, "server.limits.toolNamePrefixCounts": True})
    report = server(named("abcdefgh", "abcdefg"), profile, connection_facts={"serverInfo": {"name": "srv"}})
    assert found(report, "SERVER-NAME-001")[0].tools == ("abcdefgh",)


def test_an_unknown_server_name_is_not_counted_so_only_definite_violations_are_reported() -> None:
    report = server(named("x" * 13, "x" * 14), host("cc", CLAUDE_CODE_LIKE))  # "mcp____" + name, at most 20
    (finding,) = found(report, "SERVER-NAME-001")
    assert finding.tools == ("x" * 14,)
    assert "server name was not known" in finding.detail


@pytest.mark.parametrize("prefix", [None, False])
def test_without_the_prefix_fact_only_the_bare_name_counts(prefix: bool | None) -> None:
    facts: dict[str, Any] = {"server.limits.toolNameMaxLength": 5}
    if prefix is not None:
        facts["server.limits.toolNamePrefixCounts"] = prefix
    report = server(named("abcde", "abcdef"), host("h", facts), connection_facts={"serverInfo": {"name": "long"}})
    assert found(report, "SERVER-NAME-001")[0].tools == ("abcdef",)


def test_names_within_the_limit_or_without_a_limit_fact_are_fine() -> None:
    facts = {"serverInfo": {"name": "srv"}}
    assert server(named("short"), host("cc", CLAUDE_CODE_LIKE), connection_facts=facts).findings == ()
    assert server(named("x" * 300), host("free"), connection_facts=facts).findings == ()


def test_a_name_outside_the_hosts_charset_is_degraded_showing_the_characters() -> None:
    profile = host(
        "cursor", {"server.limits.toolNameCharset": "[A-Za-z0-9_]"}, quirk_rules=("cursor.sanitize-tool-names",)
    )
    report = server(named("move.card", "move_card", "a-b"), profile)
    (finding,) = found(report, "SERVER-NAME-002")
    assert finding.tools == ("move.card", "a-b")
    assert finding.evidence[0].snippet == "offending: '.'"
    assert "cursor.sanitize-tool-names" in str(finding.remediation)


def test_names_inside_the_charset_or_without_a_charset_fact_are_fine() -> None:
    assert server(named("a-b", "c_d"), host("codex", {"server.limits.toolNameCharset": "[a-zA-Z0-9_-]"})).findings == ()
    assert server(named("a.b"), host("free")).findings == ()


# --- input schemas ------------------------------------------------------------------------------------------------

REF_SCHEMA = {"type": "object", "properties": {"x": {"$ref": "#/$defs/X"}}, "$defs": {"X": {"type": "string"}}}


def test_each_rejected_schema_construct_in_use_is_one_finding_with_its_path() -> None:
    profile = host(
        "vscode", {"server.limits.schemaFeaturesRejected": ["$ref", "$defs"]}, quirk_rules=("v.inline-schema-refs",)
    )
    report = server([plain_tool("a", inputSchema=REF_SCHEMA), plain_tool("b")], profile)
    findings = found(report, "SERVER-SCHEMA-001")
    assert [(f.title, f.tools) for f in findings] == [
        ("Input schema uses $ref, which this host rejects", ("a",)),
        ("Input schema uses $defs, which this host rejects", ("a",)),
    ]
    assert findings[0].evidence[0].detail == "inputSchema.properties.x"
    assert "v.inline-schema-refs" in str(findings[0].remediation)


def test_schema_constructs_the_host_accepts_are_fine() -> None:
    profile = host("h", {"server.limits.schemaFeaturesRejected": ["oneOf"]})
    assert server([plain_tool("a", inputSchema=REF_SCHEMA)], profile).findings == ()
    assert server([plain_tool("a", inputSchema=REF_SCHEMA)], host("free")).findings == ()


def test_without_a_surface_evaluate_host_compat_checks_names_but_not_schemas() -> None:
    profile = host("h", {"server.limits.schemaFeaturesRejected": ["$ref"], "server.limits.toolNameMaxLength": 3})
    requirements = derive_server_requirements([plain_tool("abcd", inputSchema=REF_SCHEMA)])
    assert [f.rule_id for f in evaluate_host_compat(requirements, profile).findings] == ["SERVER-NAME-001"]


# --- output schemas, structured content, content types --------------------------------------------------------

WITH_OUTPUT = plain_tool("typed", outputSchema={"type": "object"})


def test_an_output_schema_on_a_host_that_validates_strictly_degrades_only_when_a_result_lacks_structured() -> None:
    profile = host(
        "n8n",
        {"server.features.outputSchema": fact("partial", note="strict TS SDK validation")},
        quirk_rules=("n8n.drop-output-schema",),
    )
    missing = {"typed": {"content": [{"type": "text", "text": "hi"}]}}
    (finding,) = found(server([WITH_OUTPUT, plain_tool()], profile, call_results=missing), "SERVER-OUTPUT-001")
    assert (finding.severity, finding.tools) == (Severity.DEGRADED, ("typed",))
    assert finding.evidence[0].source == "call:typed"
    assert "strict TS SDK validation" in finding.detail
    assert "n8n.drop-output-schema" in str(finding.remediation)
    # not called: information that says how to decide it
    (undecided,) = found(server([WITH_OUTPUT, plain_tool()], profile), "SERVER-OUTPUT-001")
    assert (undecided.severity, undecided.tools) == (Severity.INFO, ("typed",))
    assert "--call TOOL=JSON" in undecided.detail
    # a result with conforming structuredContent: provably not affected
    good = {"typed": {"content": [{"type": "text", "text": "{}"}], "structuredContent": {}}}
    assert found(server([WITH_OUTPUT], profile, call_results=good), "SERVER-OUTPUT-001") == []


def test_a_construct_a_host_rejects_only_in_some_setups_is_info_with_the_condition() -> None:
    profile = host(
        "lc",
        {
            "server.limits.schemaFeaturesRejectedConditionally": fact(
                ["oneOf"], note="When the host runs an OpenAI model in strict mode."
            )
        },
    )
    tool = plain_tool("pick", inputSchema={"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}]}}})
    report = server([tool], profile)
    (finding,) = found(report, "SERVER-SCHEMA-002")
    assert (finding.severity, finding.tools) == (Severity.INFO, ("pick",))
    assert finding.title == "Input schema uses oneOf, which this host rejects in some setups"
    assert "strict mode" in finding.detail
    assert report.verdict is Verdict.WORKS
    assert found(report, "SERVER-SCHEMA-001") == []


def test_an_output_schema_a_host_ignores_is_info() -> None:
    (finding,) = found(
        server([WITH_OUTPUT], host("lc", {"server.features.outputSchema": "unsupported"})), "SERVER-OUTPUT-001"
    )
    assert finding.severity is Severity.INFO


def test_an_output_schema_on_a_host_that_supports_it_is_fine() -> None:
    assert server([WITH_OUTPUT], host("h", {"server.features.outputSchema": "supported"})).findings == ()


def test_structured_content_degrades_only_where_content_carries_more_than_structured() -> None:
    profile = host("cc", {"server.features.structuredContent": "partial"})
    same = {
        "typed": {"content": [{"type": "text", "text": '{"a": 1}'}], "structuredContent": {"a": 1}},
        "p": {"content": [], "structuredContent": {"a": 1}},
    }
    assert found(server([WITH_OUTPUT, plain_tool()], profile, call_results=same), "SERVER-OUTPUT-002") == []
    more = {"p": {"content": [{"type": "text", "text": "3 open tasks"}], "structuredContent": {"a": 1}}}
    (finding,) = found(server([WITH_OUTPUT, plain_tool()], profile, call_results=more), "SERVER-OUTPUT-002")
    assert (finding.severity, finding.tools) == (Severity.DEGRADED, ("p",))
    assert finding.evidence[0].source == "call:p"
    (undecided,) = found(server([WITH_OUTPUT, plain_tool()], profile), "SERVER-OUTPUT-002")
    assert (undecided.severity, undecided.tools) == (Severity.INFO, ("typed",))
    assert server([WITH_OUTPUT], host("h", {"server.features.structuredContent": "supported"})).findings == ()


def test_a_rule_that_fixes_only_results_with_images_is_named_with_that_condition() -> None:
    images_only = host(
        "cc",
        {"server.features.structuredContent": "partial"},
        quirk_rules=("claude-code.drop-structured-content-with-images",),
    )
    (finding,) = found(server([WITH_OUTPUT], images_only), "SERVER-OUTPUT-002")
    assert str(finding.remediation).endswith(
        "rule claude-code.drop-structured-content-with-images rewrites this for this host when a result also holds "
        "an image."
    )
    every = host("x", {"server.features.structuredContent": "partial"}, quirk_rules=("x.drop-structured-content",))
    (finding,) = found(server([WITH_OUTPUT], every), "SERVER-OUTPUT-002")
    assert str(finding.remediation).endswith("rule x.drop-structured-content rewrites this for this host.")


def test_a_resource_link_in_a_captured_result_is_degraded_where_the_host_mishandles_it() -> None:
    profile = host(
        "codex", {"server.features.resourceLink": "unsupported"}, quirk_rules=("codex.resource-link-to-text",)
    )
    report = server([plain_tool()], profile, call_results={"p": LINK})
    (finding,) = found(report, "SERVER-CONTENT-001")
    assert finding.title == "Host mishandles resource_link content"
    assert "codex.resource-link-to-text" in str(finding.remediation)


def test_result_checks_need_a_captured_result_and_a_mishandling_fact() -> None:
    assert server([plain_tool()], host("codex", {"server.features.resourceLink": "unsupported"})).findings == ()
    assert (
        server(
            [plain_tool()], host("h", {"server.features.resourceLink": "supported"}), call_results={"p": LINK}
        ).findings
        == ()
    )


# --- lane roll-up -----------------------------------------------------------------------------------------------


def test_an_incomplete_tool_list_leaves_the_server_lane_unknown_on_hosts_with_tool_limits() -> None:
    limited = server(named("a"), host("cap", {"server.limits.maxTools": 3}), tools_truncated=True)
    assert limited.server.verdict is Verdict.UNKNOWN
    unlimited = server(named("a"), host("free"), tools_truncated=True)
    assert unlimited.server.verdict is Verdict.WORKS


def test_the_server_lane_provenance_is_its_weakest_consulted_fact() -> None:
    profile = host("h", {"server.limits.maxTools": fact(5, provenance="assumed")})
    assert server(named("a"), profile).server.provenance is Provenance.ASSUMED


def test_the_bundled_catalog_flags_cursor_names_and_the_vscode_tool_cap() -> None:
    catalog = load_catalog()
    tools = [plain_tool(f"tool.{index}") for index in range(130)]
    evaluation = evaluate_all_hosts(tools, catalog, host_ids=["cursor", "vscode", "mcpjam"])
    assert {f.rule_id for f in evaluation.report("cursor").findings} == {"SERVER-LIMIT-001", "SERVER-NAME-002"}
    assert [f.rule_id for f in evaluation.report("vscode").findings] == ["SERVER-LIMIT-001"]
    assert evaluation.report("mcpjam").findings == ()


def test_a_host_needing_types_flags_an_untyped_property_but_not_pydantic_optionals() -> None:
    optional = {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "title": "Contains"}
    typed = plain_tool("git_branch", inputSchema={"type": "object", "properties": {"contains": optional}})
    untyped = plain_tool("config_set", inputSchema={"type": "object", "properties": {"value": {"title": "Value"}}})
    profile = host("codex-like", {"server.limits.schemaFeaturesRejected": ["missing-type"]})
    [finding] = found(server([typed, untyped], profile), "SERVER-SCHEMA-001")
    assert finding.tools == ("config_set",)
    assert finding.evidence[0].detail == "inputSchema.properties.value"


def test_a_limit_of_zero_says_the_host_sets_none_and_never_fires() -> None:
    many = named(*(f"tool_{index}_{'x' * 70}" for index in range(300)))
    unlimited = host("free", {"server.limits.maxTools": 0, "server.limits.toolNameMaxLength": 0})
    assert server(many, unlimited).findings == ()
    capped = host("cap", {"server.limits.maxTools": 3, "server.limits.toolNameMaxLength": 64})
    assert {f.rule_id for f in server(many, capped).findings} == {"SERVER-LIMIT-001", "SERVER-NAME-001"}
    document = minimal_document()
    document["hosts"][0]["server"]["limits"]["maxTools"]["value"] = 0
    assert validate_catalog(document, source_name="t.json").get("alpha").fact("server.limits.maxTools") is not None
    document["hosts"][0]["server"]["limits"]["maxTools"]["value"] = -1
    with pytest.raises(CatalogError, match="between 0"):
        validate_catalog(document, source_name="t.json")
