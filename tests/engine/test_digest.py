"""The server digest: built once, it gives the same verdicts and hygiene findings as the raw inputs."""

from typing import Any

import pytest

from hostcompat.engine import ServerDigest, digest_server
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.hygiene.check import check_server_hygiene
from hostcompat.engine.server.digest import digest_requirements
from hostcompat.engine.server.requirements import derive_server_requirements
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts
from hostcompat.errors import InvalidInput

CATALOG = load_catalog()


def _tool(index: int) -> dict[str, Any]:
    name = f"tool_{index}" if index % 3 else f"group.tool-with-a-rather-long-descriptive-name-{index}" * 2
    tool: dict[str, Any] = {"name": name, "inputSchema": {"type": "object", "properties": {}}}
    if index % 4 == 0:
        tool["inputSchema"]["$defs"] = {"X": {"type": "string"}}
        tool["inputSchema"]["properties"]["x"] = {"$ref": "#/$defs/X"}
    if index % 2 == 0:
        ui: dict[str, Any] = {"resourceUri": f"ui://w/{index}.html"}
        if index % 6 == 0:
            ui["visibility"] = ["app"]
        tool["_meta"] = {"ui": ui}
    elif index % 5 == 0:
        tool["_meta"] = {"openai/outputTemplate": f"ui://w/o{index}.html", "ui": {"resourceUri": 3}}
    if index % 7 == 0:
        tool["outputSchema"] = {"type": "object"}
    return tool


TOOLS = [_tool(index) for index in range(30)]
WIDGETS = [tool["name"] for tool in TOOLS if "_meta" in tool]
OPTIONS: dict[str, Any] = {
    "widget_usage": {"serverTools": WIDGETS, "message": WIDGETS[::2], "guardedCalls": {"serverTools": WIDGETS[::3]}},
    "connection_facts": {"protocolVersion": "2025-06-18", "serverInfo": {"name": "digest-server"}},
    "call_results": {TOOLS[0]["name"]: {"content": [{"type": "resource_link", "uri": "file:///x"}]}},
}


def test_a_given_digest_gives_the_same_evaluation() -> None:
    direct = evaluate_all_hosts(TOOLS, CATALOG, **OPTIONS)
    digest = digest_server(TOOLS, **OPTIONS)
    assert isinstance(digest, ServerDigest)
    given = evaluate_all_hosts(None, CATALOG, digest=digest)
    assert given.to_dict() == direct.to_dict()
    assert any(report.findings for report in given.reports)


def test_one_digest_serves_many_evaluations() -> None:
    digest = digest_server(TOOLS, **OPTIONS)
    first = evaluate_all_hosts(None, CATALOG, digest=digest, host_ids=["claude", "cursor"])
    again = evaluate_all_hosts(None, CATALOG, digest=digest, host_ids=["claude", "cursor"])
    assert first == again


def test_the_hygiene_check_takes_the_tool_list_from_the_digest() -> None:
    digest = digest_server(TOOLS, **OPTIONS)
    direct = check_server_hygiene(TOOLS, [], {}, call_results=OPTIONS["call_results"])
    from_digest = check_server_hygiene(None, [], {}, call_results=OPTIONS["call_results"], digest=digest)
    assert from_digest == direct
    assert from_digest


def test_a_digest_of_requirements_alone_leaves_the_hygiene_check_reading_tools() -> None:
    digest = digest_requirements(derive_server_requirements(TOOLS))
    assert digest.tool_list is None
    assert check_server_hygiene(TOOLS, [], {}, digest=digest) == check_server_hygiene(TOOLS, [], {})


def test_the_digest_is_host_independent_and_frozen() -> None:
    digest = digest_server(TOOLS, **OPTIONS)
    assert digest.widget_tool_names == frozenset(WIDGETS)
    assert digest.need_uses[0].need == "serverTools"
    with pytest.raises(AttributeError):
        digest.tools_complete = False  # type: ignore[misc]


def test_a_digest_that_is_not_one_is_refused() -> None:
    with pytest.raises(InvalidInput):
        evaluate_all_hosts(None, CATALOG, digest={"tools": TOOLS})  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        check_server_hygiene(None, None, None, digest="digest")  # type: ignore[arg-type]
