"""Requirements derived once: completed later with the widgets' needs and the connection's facts, and handed to
`evaluate_all_hosts` in a digest (the check pipeline's path), equal to deriving them all at once.
"""

from __future__ import annotations

from typing import Any

import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.server.digest import digest_read_tools, digest_server
from hostcompat.engine.server.facts import ConnectionFacts, WidgetUsage
from hostcompat.engine.server.requirements import derive_server_requirements, read_server_tools
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts
from hostcompat.errors import InvalidInput

WIDGET: dict[str, Any] = {"name": "show", "_meta": {"ui": {"resourceUri": "ui://s/w.html"}}}
PLAIN: dict[str, Any] = {"name": "plain", "inputSchema": {"type": "object"}}
BROKEN: dict[str, Any] = {"name": "odd", "_meta": {"ui": 3}}
USAGE = WidgetUsage.from_tool_uses([("show", "serverTools", False), ("show", "openLinks", True)])
FACTS = ConnectionFacts("2024-11-05", "stdio", "s", "1")


@pytest.mark.parametrize("tools", [None, [], [PLAIN], [WIDGET, PLAIN], [BROKEN, WIDGET]])
@pytest.mark.parametrize("usage", [None, USAGE])
@pytest.mark.parametrize("facts", [None, FACTS])
@pytest.mark.parametrize("truncated", [False, True])
def test_completing_the_tool_requirements_equals_deriving_them_with_everything(
    tools: list[dict[str, Any]] | None, usage: WidgetUsage | None, facts: ConnectionFacts | None, truncated: bool
) -> None:
    once = derive_server_requirements(tools, tools_truncated=truncated).with_facts(usage, facts)
    assert once == derive_server_requirements(tools, usage, facts, tools_truncated=truncated)


@pytest.mark.parametrize("tools", [None, [], [WIDGET, PLAIN], [BROKEN, WIDGET]])
def test_a_digest_of_tools_read_once_equals_the_digest_of_everything(tools: list[dict[str, Any]] | None) -> None:
    catalog = load_catalog()
    results = {"plain": {"content": [{"type": "text", "text": "hi"}], "structuredContent": {"a": 1}}}
    read = read_server_tools(tools, tools_truncated=False)
    once = digest_read_tools(read, tools, widget_usage=USAGE, connection_facts=FACTS, call_results=results)
    whole = digest_server(tools, widget_usage=USAGE, connection_facts=FACTS, call_results=results)
    assert once.requirements == whole.requirements
    given = evaluate_all_hosts(None, catalog, digest=once)
    assert given.requirements is once.requirements
    assert given == evaluate_all_hosts(tools, catalog, widget_usage=USAGE, connection_facts=FACTS, call_results=results)


def test_a_digest_is_read_only_from_server_tools() -> None:
    with pytest.raises(InvalidInput, match="ServerTools"):
        digest_read_tools(derive_server_requirements([WIDGET]), [WIDGET])  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="ServerDigest"):
        evaluate_all_hosts([WIDGET], load_catalog(), digest={"widgets": {}})  # type: ignore[arg-type]
