"""Legacy mcp-ui actions mean what the adapter in the page makes of them, on the real @mcp-ui/server pages."""

from typing import Any

import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.findings.model import Severity
from hostcompat.engine.scan.widget import scan_widget_content
from hostcompat.engine.scan.widget_needs import attributed_needs
from hostcompat.engine.server.facts import WidgetUsage
from hostcompat.engine.server.surface import describe_server_surface
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts
from hostcompat.engine.verdicts.triggers import TriggerState, evaluate_trigger
from tests.engine.test_scan_corpus import captured

CATALOG = load_catalog()
PAGE = "@mcp-ui/server ui://hostcompat-corpus/actions/{}"


def _needs(variant: str) -> set[str]:
    content, _ = captured()[PAGE.format(variant)]
    return {need for need, _ in attributed_needs(scan_widget_content(content))}


def test_actions_with_the_mcp_apps_adapter_are_mcp_apps_needs() -> None:
    assert _needs("mcp-apps-adapter") == {"serverTools", "message", "openLinks", "sizeChanged"}


def test_actions_with_the_apps_sdk_adapter_also_need_the_openai_runtime() -> None:
    assert _needs("apps-sdk-adapter") == {"serverTools", "message", "openLinks", "sizeChanged", "openaiApps"}


def test_actions_without_an_adapter_need_a_host_that_answers_legacy_mcp_ui_actions() -> None:
    assert _needs("plain") == {"mcpUiActions"}


def _tool() -> dict[str, Any]:
    return {"name": "page", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://p/a.html"}}}


@pytest.mark.parametrize(
    ("needs", "host", "rule", "severity"),
    [
        ({"mcpUiActions": ("page",)}, "chatgpt", "APPS-CAP-001", Severity.DEGRADED),  # renders, UI actions not
        ({"serverTools": ("page",), "openaiApps": ("page",)}, "claude", "APPS-CAP-001", Severity.DEGRADED),
    ],
)
def test_the_attributed_needs_decide_the_verdict(
    needs: dict[str, tuple[str, ...]], host: str, rule: str, severity: Severity
) -> None:
    report = evaluate_all_hosts([_tool()], CATALOG, widget_usage=WidgetUsage(needs=needs), host_ids=host).reports[0]
    assert [(f.rule_id, f.severity) for f in report.findings if f.rule_id == rule] == [(rule, severity)]
    (finding,) = [f for f in report.findings if f.rule_id == rule]
    assert ("adapter" in (finding.remediation or "")) == ("mcpUiActions" in needs)


def test_the_mcp_ui_actions_trigger_fires_on_widget_usage_and_not_without_it() -> None:
    surface = describe_server_surface([_tool()])
    fired = evaluate_trigger("widget-mcp-ui-actions", surface, WidgetUsage(needs={"mcpUiActions": ("page",)}))
    assert (fired.state, fired.fired) == (TriggerState.FIRED, ("page",))
    quiet = evaluate_trigger("widget-mcp-ui-actions", surface, WidgetUsage(needs={"serverTools": ("page",)}))
    assert quiet.state is TriggerState.ABSENT
