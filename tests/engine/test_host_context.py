"""Facts keyed by host context: an OS, a registration path or a feature gate; the common path is judged by default."""

from typing import Any

import pytest

from hostcompat.engine.catalog.host_context import COMMON, HostContext, in_context, other_contexts, parse_host_context
from hostcompat.engine.catalog.load import load_catalog, validate_catalog
from hostcompat.engine.catalog.model import Catalog
from hostcompat.engine.findings.model import Severity, Verdict
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts
from hostcompat.errors import CatalogError, InvalidInput
from tests.engine.catalog_documents import fact, minimal_document

WIDGET = {"name": "show", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://w/v.html"}}}


def _catalog(**alpha: Any) -> Catalog:
    document = minimal_document()
    document["hosts"][0].update(alpha)
    return validate_catalog(document, source_name="t.json")


WINDOWS_TEXT_ONLY = {"path": "ui.formats.mcp-apps", **fact("unsupported", os=["windows"], note="text only")}


def test_parse_host_context() -> None:
    assert parse_host_context("os=windows,registration=plugin") == (None, HostContext("windows", "plugin"))
    assert parse_host_context("claude:os=macos") == ("claude", HostContext("macos"))
    assert parse_host_context("cursor:gate=a,gate=b")[1].gates == frozenset({"a", "b"})
    assert parse_host_context(" os = linux ")[1].describe() == "os=linux"
    for bad, words in (
        ("os=dos", "not one of windows"),
        ("platform=web", "unknown key 'platform'"),
        ("os", "expected key=value"),
        ("os=windows,os=macos", "given twice"),
        ("gate=Not A Gate", "not a gate name"),
        ("", "host context must be text"),
    ):
        with pytest.raises(InvalidInput, match=words):
            parse_host_context(bad)


def test_a_variant_replaces_the_common_fact_only_in_its_context() -> None:
    host = _catalog(variants=[WINDOWS_TEXT_ONLY]).get("alpha")
    assert in_context(host, COMMON).level("ui.formats.mcp-apps") == "supported"
    assert in_context(host, HostContext("windows")).level("ui.formats.mcp-apps") == "unsupported"
    assert in_context(host, HostContext("macos")).level("ui.formats.mcp-apps") == "supported"
    (context, items), *_ = other_contexts(host, COMMON)
    assert context == HostContext("windows") and items[0][0] == "variants.ui.formats.mcp-apps"
    assert other_contexts(host, HostContext("windows")) == ()


def test_the_most_specific_variant_wins_and_a_scoped_fact_is_absent_on_the_common_path() -> None:
    both = {"path": "ui.formats.mcp-apps", **fact("partial", os=["windows"], registration=["plugin"], infoOnly=True)}
    host = _catalog(variants=[both, WINDOWS_TEXT_ONLY]).get("alpha")
    assert in_context(host, HostContext("windows", "plugin")).level("ui.formats.mcp-apps") == "partial"
    gated = _catalog(ui={"formats": {"mcp-apps": fact("supported", gate=["flag"])}}).get("alpha")
    assert in_context(gated, COMMON).level("ui.formats.mcp-apps") == "unknown"
    assert in_context(gated, HostContext(gates=frozenset({"flag"}))).level("ui.formats.mcp-apps") == "supported"


def test_the_common_path_is_judged_and_another_context_is_an_info_finding_naming_it() -> None:
    catalog = _catalog(variants=[WINDOWS_TEXT_ONLY])
    report = evaluate_all_hosts([WIDGET], catalog, host_ids="alpha").reports[0]
    assert report.verdict is not Verdict.DEGRADED  # the minimal host leaves other facts unknown
    (finding,) = [f for f in report.findings if f.rule_id == "APPS-CONTEXT-001"]
    assert finding.severity is Severity.INFO
    assert "os=windows" in finding.detail and "degraded" in finding.detail and "text only" in finding.detail
    assert finding.tools == ("show",) and "--host-context alpha:os=windows" in (finding.remediation or "")
    windows: dict[str | None, HostContext] = {"alpha": HostContext("windows")}
    judged = evaluate_all_hosts([WIDGET], catalog, host_ids="alpha", host_contexts=windows).reports[0]
    assert judged.verdict is Verdict.DEGRADED and "APPS-RENDER-002" in judged.rule_ids
    assert "APPS-CONTEXT-001" not in judged.rule_ids
    everywhere = evaluate_all_hosts([WIDGET], catalog, host_contexts={None: HostContext("windows")})
    assert everywhere.verdicts["alpha"] is Verdict.DEGRADED
    # a server the context does not touch gets no finding
    plain = {"name": "plain", "inputSchema": {"type": "object"}}
    assert "APPS-CONTEXT-001" not in evaluate_all_hosts([plain], catalog, host_ids="alpha").reports[0].rule_ids


def test_a_quirk_limited_to_a_context_bites_only_there() -> None:
    quirk = {
        "id": "q",
        "text": "loses images on Linux",
        "provenance": "observed",
        "source": "s",
        "date": "2026",
        "trigger": "result-content-image",
        "os": ["linux"],
    }
    catalog = _catalog(quirks=[quirk])
    results = {"t": {"content": [{"type": "image", "data": "AA==", "mimeType": "image/png"}]}}
    tools = [{"name": "t", "inputSchema": {"type": "object"}}]
    common = evaluate_all_hosts(tools, catalog, host_ids="alpha", call_results=results).reports[0]
    assert common.server.verdict is not Verdict.DEGRADED and "SERVER-CONTEXT-001" in common.rule_ids
    linux = evaluate_all_hosts(
        tools, catalog, host_ids="alpha", call_results=results, host_contexts={"alpha": HostContext("linux")}
    ).reports[0]
    assert linux.verdict is Verdict.DEGRADED and "SERVER-QUIRK-001" in linux.rule_ids


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        ({"path": "ui.formats.mcp-apps", **fact("unsupported")}, "must name the host context"),
        ({"path": "ui.formats.mcp-app", **fact("unsupported", os=["windows"])}, "did you mean ui.formats.mcp-apps"),
        ({"path": "ui.formats.mcp-apps", **fact("nope", os=["windows"])}, "value 'nope' is not one of"),
        ({"path": "ui.formats.mcp-apps", **fact("unsupported", os=["dos"])}, "os 'dos' is not one of"),
        ({"path": "ui.formats.mcp-apps", **fact("unsupported", registration=[])}, "non-empty list"),
        ({"path": "ui.formats.mcp-apps", **fact("unsupported", gate=["A B"])}, "gate 'A B'"),
        ({"path": "server.limits.maxTools", **fact("40", os=["windows"])}, "must be an integer"),
    ],
)
def test_a_malformed_variant_is_refused_with_the_field(variant: dict[str, Any], words: str) -> None:
    with pytest.raises(CatalogError, match=words):
        _catalog(variants=[variant])


def test_variants_and_contexts_round_trip_and_merge_from_a_user_file() -> None:
    catalog = _catalog(variants=[WINDOWS_TEXT_ONLY])
    assert validate_catalog(catalog.to_dict(), source_name="again.json") == catalog
    bundled = load_catalog()
    claude = bundled.get("claude")
    paths = {(v.path, v.fact.os, v.fact.registration) for v in claude.variants}
    assert ("ui.formats.mcp-apps", ("windows",), ()) in paths
    assert ("ui.formats.mcp-apps", (), ("plugin", "project-config")) in paths
    cursor = bundled.get("cursor")
    assert cursor.level("ui.formats.mcp-apps") == "unsupported"
    assert in_context(cursor, HostContext(gates=frozenset({"mcp-apps-rendering"}))).level("ui.formats.mcp-apps") == (
        "supported"
    )


def test_every_partial_variant_has_a_trigger_or_is_info_only() -> None:
    loose = [
        f"{host.id}: {variant.path}"
        for host in load_catalog().hosts
        for variant in host.variants
        if variant.fact.value == "partial" and variant.fact.trigger is None and not variant.fact.info_only
    ]
    assert loose == []
