"""Sourced catalog facts bite through their triggers: top-level combinators on Claude Code, VS Code's text-only
replacement by structuredContent, Claude Desktop's isError validation, a quirk held behind a feature gate, and one
held only for the registration path its source shows.
"""

from typing import Any

from hostcompat.engine.catalog.host_context import COMMON, HostContext, in_context
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.findings.model import Severity
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts

CATALOG = load_catalog()
TYPED = {
    "name": "typed",
    "inputSchema": {"type": "object", "properties": {}},
    "outputSchema": {"type": "object", "required": ["n"], "properties": {"n": {"type": "number"}}},
}


def _findings(tools: list[dict[str, Any]], host: str, results: dict[str, Any] | None = None) -> dict[str, Severity]:
    report = evaluate_all_hosts(tools, CATALOG, call_results=results, host_ids=host).reports[0]
    return {finding.rule_id: finding.severity for finding in report.findings}


def test_a_top_level_any_of_degrades_claude_code_and_a_nested_one_does_not() -> None:
    root = {"name": "pick", "inputSchema": {"type": "object", "properties": {}, "anyOf": [{"required": []}]}}
    nested = {"name": "pick", "inputSchema": {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}]}}}}
    assert _findings([root], "claude-code").get("SERVER-SCHEMA-001") is Severity.DEGRADED
    assert "SERVER-SCHEMA-001" not in _findings([nested], "claude-code")
    assert "SERVER-SCHEMA-001" not in _findings([root], "mcpjam")


def test_vs_code_loses_a_summary_text_but_keeps_an_image_beside_structured_content() -> None:
    summary = {"typed": {"content": [{"type": "text", "text": "3 items"}], "structuredContent": {"n": 3}}}
    image = {
        "typed": {
            "content": [{"type": "text", "text": '{"n": 3}'}, {"type": "image", "data": "", "mimeType": "image/png"}],
            "structuredContent": {"n": 3},
        }
    }
    assert _findings([TYPED], "vscode", summary).get("SERVER-OUTPUT-002") is Severity.DEGRADED
    assert _findings([TYPED], "vscode", image).get("SERVER-OUTPUT-002") is not Severity.DEGRADED
    assert _findings([TYPED], "codex", image).get("SERVER-OUTPUT-002") is Severity.DEGRADED  # codex drops blocks


def test_claude_desktop_fails_an_error_result_with_structured_content_only() -> None:
    error = {"typed": {"content": [{"type": "text", "text": "no"}], "structuredContent": {"error": 1}, "isError": True}}
    plain = {"typed": {"content": [{"type": "text", "text": "no"}], "isError": True}}
    assert _findings([TYPED], "claude", error).get("SERVER-OUTPUT-001") is Severity.DEGRADED
    assert _findings([TYPED], "claude", plain).get("SERVER-OUTPUT-001") is not Severity.DEGRADED


def test_a_quirk_behind_a_feature_gate_holds_only_where_the_gate_is_on() -> None:
    claude_code = CATALOG.get("claude-code")
    gated = HostContext(gates=frozenset({"tengu-mcp-protocol-negotiation-stdio"}))
    assert "discover-then-legacy-initialize" not in {quirk.id for quirk in in_context(claude_code, COMMON).quirks}
    assert "discover-then-legacy-initialize" in {quirk.id for quirk in in_context(claude_code, gated).quirks}


def test_the_resource_link_failure_seen_in_chatgpt_desktop_holds_for_its_codex_runtime_not_for_connectors() -> None:
    """openai/codex #41280 saw the failure in Codex Desktop and in ChatGPT desktop's Codex runtime (rmcp, servers from
    ~/.codex/config.toml); MCPJam's probe saw a resource_link pass through a connector on the web.
    """
    link = {"typed": {"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]}}
    common = _findings([TYPED], "chatgpt", link)
    assert "SERVER-QUIRK-001" not in common and common.get("SERVER-CONTEXT-001") is Severity.INFO
    config_file: dict[str | None, HostContext] = {"chatgpt": HostContext(registration="config-file")}
    report = evaluate_all_hosts([TYPED], CATALOG, call_results=link, host_ids="chatgpt", host_contexts=config_file)
    assert {finding.rule_id: finding.severity for finding in report.reports[0].findings}.get(
        "SERVER-QUIRK-001"
    ) is Severity.DEGRADED
    assert _findings([TYPED], "codex", link).get("SERVER-CONTENT-001") is Severity.DEGRADED  # its resourceLink fact


def _degraded(tools: list[dict[str, Any]], host: str, results: dict[str, Any] | None = None, **kw: Any) -> set[str]:
    report = evaluate_all_hosts(tools, CATALOG, call_results=results, host_ids=host, **kw).reports[0]
    return {finding.rule_id for finding in report.findings if finding.severity is Severity.DEGRADED}


def test_claude_code_counts_its_whole_tool_name_against_128_and_claude_desktop_the_bare_name_against_64() -> None:
    """Claude Code's limit is the API's 128 characters for mcp__{server}__{tool} (a longer one made every request
    fail before 2.1.292, and is left out since); Claude Desktop and claude.ai hold the bare name to 64.
    """
    seventy = [{"name": "x" * 70, "inputSchema": {"type": "object"}}]
    over = [{"name": "x" * 125, "inputSchema": {"type": "object"}}]
    assert "SERVER-NAME-001" not in _degraded(seventy, "claude-code")
    assert "SERVER-NAME-001" in _degraded(over, "claude-code")
    assert "SERVER-NAME-001" in _degraded(seventy, "claude")


def test_facts_shown_only_for_another_product_or_fixed_since_no_longer_degrade() -> None:
    """Each of these was sourced from another client, or is fixed in a version the source names: a false
    "degraded" otherwise. Pinned to a version the source shows, the fixed ones still bite.
    """
    link = {"typed": {"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]}}
    assert "SERVER-CONTENT-001" not in _degraded([TYPED], "claude", link)  # the report was Claude Code's
    many = [{"name": f"t{n}", "inputSchema": {"type": "object"}} for n in range(140)]
    assert "SERVER-LIMIT-001" not in _degraded(many, "vscode")  # grouped into virtual tools since 1.103
    assert "SERVER-LIMIT-001" in _degraded(many, "vscode", host_versions={"vscode": "1.102.1"})
    both = {"name": "pick", "inputSchema": {"type": "object", "properties": {"a": {"type": "string", "anyOf": []}}}}
    assert "SERVER-SCHEMA-001" not in _degraded([both], "gemini-cli")  # gone with PR #4176
    refs = [{"name": "r", "inputSchema": {"type": "object", "$defs": {}}}]
    assert "SERVER-SCHEMA-001" not in _degraded(refs, "gemini-cli")  # discovery fixed in 0.19.0 (PR #13521)
    assert _findings(refs, "gemini-cli").get("SERVER-SCHEMA-002") is Severity.INFO  # said, with the versions shown
    dialect = {"type": "object", "$schema": "https://json-schema.org/draft/2020-12/schema"}
    assert "SERVER-SCHEMA-001" in _degraded([{"name": "d", "inputSchema": dialect}], "gemini-cli")
    assert "SERVER-SCHEMA-001" not in _degraded(refs, "vscode")  # Claude models only, fixed for VS Code 1.114
    assert "SERVER-SCHEMA-001" in _degraded(refs, "vscode", host_versions={"vscode": "1.113.0"})
    no_structured = {"typed": {"content": [{"type": "text", "text": "3"}]}}
    assert "SERVER-OUTPUT-001" not in _degraded([TYPED], "n8n", no_structured)  # the community node's reports
    long_name = [{"name": "x" * 70, "inputSchema": {"type": "object"}}]
    assert "SERVER-NAME-002" not in _degraded(long_name, "codex") and "SERVER-NAME-001" not in _degraded(
        long_name, "codex"
    )
