"""`hostcompat check` with the client rules in front: the fixed verdict, computed by rewriting the captured data."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from hostcompat.clients.detect import parse_client_spec
from hostcompat.clients.rewrite import plan_rewrites
from hostcompat.clients.rules import load_bundled_rules
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.pipeline import check_snapshot
from hostcompat.probe.calls import CallRecord
from hostcompat.probe.snapshot import Snapshot
from hostcompat.report import render_report, report_document
from hostcompat.with_proxy import proxied_snapshot
from testkit.snapshots import make_snapshot, widget_tool

RULES = load_bundled_rules()
CATALOG = load_catalog()
PAGE = "<!doctype html><html><body><script>console.log(1)</script></body></html>"
NOTES_TOOL = {"name": "read_notes", "inputSchema": {"type": "object"}}
CODEX_BREAKS = {
    "content": [
        {"type": "text", "text": "Issue #42", "annotations": {"audience": ["user"], "priority": 0.6}},
        {"type": "resource_link", "uri": "file:///notes.md", "name": "notes"},
    ]
}


def _snapshot(result: dict[str, Any]) -> Snapshot:
    call = CallRecord(tool="read_notes", arguments={}, reason="auto", outcome="ok", result=result)
    return dataclasses.replace(make_snapshot([NOTES_TOOL], {}), calls=(call,))


def _hosts(snapshot: Snapshot, *host_ids: str, rules: Any = RULES) -> dict[str, Any]:
    entry = check_snapshot(snapshot, CATALOG, host_ids=host_ids, client_rules=rules)
    return {host["hostId"]: host for host in entry["hosts"]}


def test_codex_broken_by_a_result_works_with_the_proxy_in_front_and_says_which_rules_fix_it() -> None:
    hosts = _hosts(_snapshot(CODEX_BREAKS), "codex", "claude")
    codex = hosts["codex"]
    assert codex["verdict"] in ("degraded", "blocked")
    proxy = codex["withProxy"]
    assert proxy["verdict"] == "works"
    assert proxy["client"].startswith("codex-mcp-client")
    assert set(proxy["rules"]) == {"codex.round-annotation-priority", "codex.resource-link-to-text"}
    assert set(proxy["fixed"]) <= {finding["ruleId"] for finding in codex["findings"]} and proxy["fixed"]
    assert "withProxy" not in hosts["claude"]


def test_no_fixed_verdict_without_client_rules_or_when_the_data_needs_no_rewrite() -> None:
    assert "withProxy" not in _hosts(_snapshot(CODEX_BREAKS), "codex", rules=())["codex"]
    clean = {"content": [{"type": "text", "text": "Issue #42", "annotations": {"priority": 1}}]}
    assert "withProxy" not in _hosts(_snapshot(clean), "codex")["codex"]


def test_the_rewritten_snapshot_is_the_original_when_no_rule_applies_and_never_changes_the_original() -> None:
    snapshot = _snapshot(CODEX_BREAKS)
    claude_code = plan_rewrites(parse_client_spec("claude-code@2.1.226"), RULES)
    assert proxied_snapshot(snapshot, claude_code) == (snapshot, ())
    codex = plan_rewrites(parse_client_spec("codex-mcp-client@0.150.0"), RULES)
    rewritten, applied = proxied_snapshot(snapshot, codex)
    assert applied == ("codex.round-annotation-priority", "codex.resource-link-to-text")
    assert rewritten.calls[0].result is not None
    assert [block["type"] for block in rewritten.calls[0].result["content"]] == ["text", "text"]
    assert (
        snapshot.calls[0].result is not None
        and snapshot.calls[0].result["content"][0]["annotations"]["priority"] == 0.6
    )


def test_a_renamed_tool_keeps_its_captured_call() -> None:
    dotted = {"name": "notes.read", "inputSchema": {"type": "object"}}
    call = CallRecord(tool="notes.read", arguments={}, reason="auto", outcome="ok", result=CODEX_BREAKS)
    snapshot = dataclasses.replace(make_snapshot([dotted], {}), calls=(call,))
    rewritten, applied = proxied_snapshot(snapshot, plan_rewrites(parse_client_spec("codex-mcp-client@0.150.0"), RULES))
    assert "codex.sanitize-tool-names" in applied
    assert [tool["name"] for tool in rewritten.tools] == [rewritten.calls[0].tool] == ["notes_read"]


def test_the_text_report_says_the_verdict_with_the_proxy_in_front() -> None:
    entry = check_snapshot(_snapshot(CODEX_BREAKS), CATALOG, host_ids=("codex",), client_rules=RULES)
    text = render_report(report_document([entry]), "text")
    assert "with `hostcompat proxy` in front, Codex: works" in text
    markdown = render_report(report_document([entry]), "markdown")
    assert "hostcompat proxy" in markdown and "Codex" in markdown


def test_every_format_names_the_rules_that_fix_each_finding_and_the_fixed_verdict() -> None:
    entry = check_snapshot(_snapshot(CODEX_BREAKS), CATALOG, host_ids=("codex", "claude"), client_rules=RULES)
    document = report_document([entry])
    fixed = entry["hosts"][0]["withProxy"]["fixed"]
    assert fixed and entry["hosts"][0]["verdict"] != "works"
    for fmt in ("text", "markdown"):
        flat = " ".join(render_report(document, fmt).split())  # the text report wraps its lines
        assert "with `hostcompat proxy` in front, Codex: works" in flat.replace("\\", ""), fmt
        for rule in ("codex.round-annotation-priority", "codex.resource-link-to-text", *fixed):
            assert rule in flat.replace("\\", ""), (fmt, rule)
        assert "middleware in a Python server" in flat, fmt
        assert "in front, Claude" not in flat, fmt  # no recommendation for a host the rules do not change
    codex = json.loads(render_report(document, "json"))["servers"][0]["hosts"]
    with_proxy = {host["hostId"]: host.get("withProxy") for host in codex}
    assert with_proxy["claude"] is None
    assert with_proxy["codex"]["verdict"] == "works"
    assert set(with_proxy["codex"]["rules"]) == {"codex.round-annotation-priority", "codex.resource-link-to-text"}
    assert with_proxy["codex"]["fixed"] == fixed


def test_claude_desktop_blanking_a_widget_works_with_the_structured_content_mirrored() -> None:
    """The catalog quirk of ext-apps #696 fires on the captured result; the linked client rule makes it go away."""
    snapshot = make_snapshot([widget_tool("show_chart", "ui://chart/view.html")], {"ui://chart/view.html": PAGE})
    result = {"content": [{"type": "text", "text": "Chart ready"}], "structuredContent": {"points": [1, 2]}}
    call = CallRecord(tool="show_chart", arguments={}, reason="auto", outcome="ok", result=result)
    claude = _hosts(dataclasses.replace(snapshot, calls=(call,)), "claude")["claude"]
    assert claude["verdict"] == "degraded"
    assert claude["withProxy"]["verdict"] == "works"
    assert claude["withProxy"]["rules"] == ["claude-desktop.mirror-structured-content"]
    assert claude["withProxy"]["fixed"] == ["SERVER-QUIRK-001"]
