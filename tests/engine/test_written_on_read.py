"""A host's findings are decided when it is judged and written when first read: the same report either way.

`evaluate_all_hosts` works out each report's verdict, lanes and provenance at once and writes the findings (texts,
evidence, sources) on their first read. These tests pin what that must not change: the findings are the same value
however often and whenever they are read, a copy carries them, a host's plans (worked out once per
profile) never carry one server's verdict into another's, and an evaluation leaves no reference cycle behind.
"""

import copy
import dataclasses
import gc
from typing import Any

import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.catalog.model import Catalog, HostProfile
from hostcompat.engine.findings.model import Evidence, Finding, Verdict
from hostcompat.engine.server.digest import digest_server
from hostcompat.engine.server.lazy_map import LazyMapping
from hostcompat.engine.server.tool_set import ToolSet
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts, evaluate_host_compat
from hostcompat.engine.verdicts.model import Evaluation, HostReport
from tests.engine.evaluate_support import NEW, OLD, mcp_tool, openai_tool, plain_tool

CATALOG = load_catalog()

WIDGETS = [mcp_tool("show", visibility=["app"]), openai_tool("chart"), mcp_tool("pay")]
TOOLS: list[Any] = [
    *WIDGETS,
    plain_tool("group.a-tool-with-a-name-long-enough-for-the-hosts-that-limit-names-to-sixty-characters"),
    {"name": "typed", "inputSchema": {"type": "object", "properties": {"x": {"type": ["string", "null"]}}}},
    {"name": "refs", "inputSchema": {"type": "object", "$defs": {"A": {"type": "string"}}, "properties": {}}},
]
OPTIONS: dict[str, Any] = {
    "widget_usage": {
        "serverTools": ["show", "pay"],
        "openLinks": ["chart", "pay"],
        "downloadFile": ["pay"],
        "guardedCalls": {"downloadFile": ["pay"]},
    },
    "connection_facts": {"protocolVersion": OLD, "serverInfo": {"name": "written-on-read"}},
    "call_results": {"typed": {"content": [{"type": "resource_link", "uri": "file:///x", "name": "x"}]}},
}


def fresh(catalog: Catalog) -> list[HostProfile]:
    """The catalog's hosts as new profiles: equal values, with nothing worked out yet (an empty `memo`)."""
    return [dataclasses.replace(profile) for profile in catalog.hosts]


def test_findings_are_the_same_value_however_often_they_are_read() -> None:
    evaluation = evaluate_all_hosts(TOOLS, CATALOG, **OPTIONS)
    first = [report.findings for report in evaluation.reports]
    assert any(first), "the server must give findings on some host"
    assert [report.findings for report in evaluation.reports] == first
    assert all(again.findings is found for again, found in zip(evaluation.reports, first, strict=True))
    assert all(isinstance(finding, Finding) for found in first for finding in found)


def test_a_report_read_late_equals_one_read_at_once() -> None:
    early = evaluate_all_hosts(TOOLS, CATALOG, **OPTIONS)
    early_dicts = early.to_dict()
    late = evaluate_all_hosts(TOOLS, CATALOG, **OPTIONS)
    evaluate_all_hosts([plain_tool("other")], CATALOG)  # another server judged in between
    assert late.to_dict() == early_dicts
    assert late == early


def test_verdicts_do_not_wait_for_the_findings() -> None:
    evaluation = evaluate_all_hosts(TOOLS, CATALOG, **OPTIONS)
    verdicts = dict(evaluation.verdicts)
    lanes = {report.host_id: (report.apps.verdict, report.server.verdict) for report in evaluation.reports}
    assert "_pending" in vars(evaluation.reports[0]) or not evaluation.reports[0].findings
    for report in evaluation.reports:
        worst = max((finding.verdict for finding in report.findings), key=lambda v: v.rank, default=Verdict.WORKS)
        assert worst.rank <= report.verdict.rank
        assert verdicts[report.host_id] is report.verdict
        assert lanes[report.host_id] == (report.apps.verdict, report.server.verdict)


def test_a_copy_of_an_unread_report_carries_its_findings() -> None:
    report = evaluate_all_hosts(TOOLS, CATALOG, **OPTIONS).report("claude")
    cloned = copy.copy(report)
    assert isinstance(cloned, HostReport)
    assert cloned.findings == report.findings and cloned.findings
    assert cloned.to_dict() == report.to_dict()


def test_a_report_made_by_hand_keeps_its_constructor() -> None:
    report = evaluate_all_hosts(TOOLS, CATALOG, **OPTIONS).report("claude")
    by_hand = HostReport(report.host_id, report.host_label, report.verdict, report.lanes, report.findings)
    assert by_hand.findings == report.findings
    assert dataclasses.replace(report, findings=()).findings == ()
    assert HostReport("h", "H", Verdict.WORKS, report.lanes).findings == ()
    with pytest.raises(AttributeError):
        _ = report.no_such_field  # type: ignore[attr-defined]


def test_a_hosts_plans_carry_no_server_into_another() -> None:
    servers: list[tuple[list[Any], dict[str, Any]]] = [
        (TOOLS, OPTIONS),
        ([plain_tool("a"), plain_tool("b")], {"connection_facts": {"protocolVersion": NEW}}),
        (WIDGETS[1:], {"widget_usage": {"message": ["chart"]}}),
        ([*WIDGETS, plain_tool("x")], {}),
    ]
    used = fresh(CATALOG)  # these profiles judge every server in turn, keeping what they work out
    for tools, options in servers:
        again = evaluate_all_hosts(tools, used, **options)
        alone = evaluate_all_hosts(tools, fresh(CATALOG), **options)
        assert again.to_dict() == alone.to_dict()


def test_one_host_alone_is_judged_as_among_all() -> None:
    evaluation = evaluate_all_hosts(TOOLS, CATALOG, **OPTIONS)
    for report, profile in zip(evaluation.reports, fresh(CATALOG), strict=True):
        alone = evaluate_host_compat(evaluation.requirements, profile, surface=evaluation.surface)
        assert alone.to_dict() == report.to_dict()


def test_an_evaluation_leaves_no_reference_cycle() -> None:
    evaluate_all_hosts(TOOLS, CATALOG, **OPTIONS).to_dict()  # the plans every host keeps are made once
    gc.collect()
    gc.disable()
    try:
        evaluation: Evaluation | None = evaluate_all_hosts(TOOLS, CATALOG, **OPTIONS)
        assert evaluation is not None
        evaluation.to_dict()
        unread = evaluate_all_hosts(TOOLS, CATALOG, **OPTIONS)
        del evaluation, unread
        assert gc.collect() == 0, "whatever an evaluation makes is freed when it is dropped, without the collector"
    finally:
        gc.enable()


def test_a_digest_reads_as_its_eager_values() -> None:
    digest = digest_server(TOOLS, **OPTIONS)
    assert set(digest.trigger_outcomes) == set(digest.trigger_outcomes.keys())
    assert len(digest.schema_uses) == len(digest.surface.schema_uses)
    for feature, uses in digest.surface.schema_uses.items():
        assert digest.schema_uses[feature].tools == tuple(tool for tool, _ in uses)
        assert all(isinstance(item, Evidence) for item in digest.schema_uses[feature].evidence)
    assert digest.schema_uses.get("no-such-construct") is None
    for key, selected in digest.render_selections.items():
        assert selected.tools and selected.text.startswith(("MCP Apps", "OpenAI Apps SDK"))
        assert key[0] in range(4)
    assert digest == digest_server(TOOLS, **OPTIONS)


def test_a_lazy_mapping_computes_each_value_once_and_only_for_its_keys() -> None:
    calls: list[str] = []

    def compute(key: str) -> int:
        calls.append(key)
        return len(key)

    mapping = LazyMapping(["a", "bb", "ccc"], compute)
    assert "bb" in mapping and "d" not in mapping and not calls
    assert mapping["bb"] == 2 and mapping.get("bb") == 2 and calls == ["bb"]
    assert mapping.get("d") is None and mapping.get("d", -1) == -1
    with pytest.raises(KeyError):
        mapping["d"]
    assert list(mapping) == ["a", "bb", "ccc"] and len(mapping) == 3
    assert dict(mapping) == {"a": 1, "bb": 2, "ccc": 3} and calls == ["bb", "a", "ccc"]
    assert "ccc" in repr(mapping)


def test_a_deferred_tool_set_equals_the_one_made_at_once() -> None:
    evidence = (Evidence("tools/list:a", detail="x"),)
    made: list[int] = []

    def late() -> tuple[Evidence, ...]:
        made.append(1)
        return evidence

    deferred = ToolSet.deferred(["a", "b"], late)
    assert deferred.tools == ("a", "b") and not made
    assert deferred == ToolSet.of(["a", "b"], evidence) and hash(deferred) == hash(ToolSet.of(["a", "b"], evidence))
    assert deferred.evidence is deferred.evidence and made == [1]
    assert ToolSet.deferred(["a"], tuple, lambda: "named").text == "named"
    assert "ToolSet(tools=('a', 'b')" in repr(deferred)
