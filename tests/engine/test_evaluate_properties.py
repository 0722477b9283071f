import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.findings.model import worst
from hostcompat.engine.findings.rules import RULES
from hostcompat.engine.server.facts import WIDGET_NEEDS
from hostcompat.engine.server.requirements import derive_server_requirements
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts
from hostcompat.errors import InvalidInput

CATALOG = load_catalog()
OPENAI = "openai/outputTemplate"

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)
names = st.sampled_from(["a", "b", "c.d", "x" * 70, ""]) | json_scalars
uris = st.sampled_from(["ui://s/a.html", "ui://s/b.html", "https://x", ""]) | json_scalars
ui_objects = st.fixed_dictionaries(
    {}, optional={"resourceUri": uris, "visibility": st.sampled_from([["app"], ["model", "app"], [], "app"])}
)
metas = st.none() | json_values | st.fixed_dictionaries({}, optional={"ui": ui_objects | json_values, OPENAI: uris})
schemas = json_values | st.fixed_dictionaries(
    {"type": st.sampled_from(["object", "string", ["string", "null"]])},
    optional={
        "properties": st.dictionaries(st.sampled_from(["p", "q"]), json_values, max_size=2),
        "$defs": json_values,
    },
)
tools_strategy = st.lists(
    st.fixed_dictionaries(
        {"name": names}, optional={"_meta": metas, "inputSchema": schemas, "outputSchema": json_values}
    )
    | json_values,
    max_size=6,
)
tool_names = st.sampled_from(["a", "b", "c.d", "zz"])
usages = st.none() | st.fixed_dictionaries(
    {},
    optional={
        **{need: st.lists(tool_names, max_size=2, unique=True) for need in (*WIDGET_NEEDS[:4], "sizeChanged")},
        "sandboxPermissionNames": st.lists(st.sampled_from(["camera", "clipboardWrite"]), unique=True, max_size=2),
    },
)
facts = st.none() | st.fixed_dictionaries(
    {},
    optional={"protocolVersion": st.sampled_from(["2025-03-26", "2025-11-25"]), "serverInfo": st.just({"name": "s"})},
)
results = st.none() | st.dictionaries(tool_names, json_values | st.just({"content": [{"type": "resource_link"}]}))


@settings(max_examples=60, deadline=None)
@given(tools_strategy, usages, facts, results, st.booleans())
def test_any_tools_and_meta_evaluate_deterministically_without_raising_or_mutating(
    tools: list[Any], usage: Any, connection: Any, call_results: Any, truncated: bool
) -> None:
    before = copy.deepcopy((tools, usage, connection, call_results))
    options = {
        "widget_usage": usage,
        "connection_facts": connection,
        "call_results": call_results,
        "tools_truncated": truncated,
    }
    first = evaluate_all_hosts(tools, CATALOG, **options)
    second = evaluate_all_hosts(tools, CATALOG, **options)
    assert (tools, usage, connection, call_results) == before
    assert first.to_dict() == second.to_dict()
    assert [report.host_id for report in first.reports] == list(CATALOG.ids)
    for report in first.reports:
        assert report.verdict is worst(lane.verdict for lane in report.lanes.values())
        assert all(finding.rule_id in RULES for finding in report.findings)
    json.dumps(first.to_dict())


@settings(max_examples=60, deadline=None)
@given(json_values)
def test_any_json_as_the_tool_list_gives_an_evaluation_or_invalid_input(tools: Any) -> None:
    before = copy.deepcopy(tools)
    try:
        evaluation = evaluate_all_hosts(tools, CATALOG, host_ids=["claude", "cursor", "codex"])
    except InvalidInput:
        assert not isinstance(tools, list)
    else:
        assert len(evaluation.reports) == 3
    assert tools == before


@given(tools_strategy)
def test_any_tool_list_derives_requirements_without_raising(tools: list[Any]) -> None:
    requirements = derive_server_requirements(tools)
    assert len(requirements.tool_names) <= len(tools)
