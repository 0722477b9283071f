"""Requirements derived once: completed later with the widgets' needs and the connection's facts, and handed to
`evaluate_all_hosts` as they are (the check pipeline's path), equal to deriving them all at once.
"""

from __future__ import annotations

from typing import Any

import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.server.facts import ConnectionFacts, WidgetUsage
from hostcompat.engine.server.requirements import derive_server_requirements
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


def test_given_requirements_are_evaluated_as_they_are() -> None:
    catalog = load_catalog()
    tools = [WIDGET, PLAIN]
    derived = derive_server_requirements(tools, USAGE, FACTS)
    given = evaluate_all_hosts(tools, catalog, requirements=derived)
    assert given.requirements is derived
    assert given == evaluate_all_hosts(tools, catalog, widget_usage=USAGE, connection_facts=FACTS)


@pytest.mark.parametrize(
    "extra", [{"widget_usage": USAGE}, {"connection_facts": FACTS}, {"tools_truncated": True}, {"tools_metadata": {}}]
)
def test_requirements_and_what_they_derive_from_are_not_both_given(extra: dict[str, Any]) -> None:
    derived = derive_server_requirements([WIDGET])
    with pytest.raises(InvalidInput, match="not both"):
        evaluate_all_hosts([WIDGET], load_catalog(), requirements=derived, **extra)
    with pytest.raises(InvalidInput, match="ServerRequirements"):
        evaluate_all_hosts([WIDGET], load_catalog(), requirements={"widgets": {}})  # type: ignore[arg-type]
