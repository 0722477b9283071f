import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.apps.constants import RESOURCE_URI_META_KEY
from hostcompat.engine.findings.rules import RULES
from hostcompat.engine.server.facts import WIDGET_NEEDS
from hostcompat.engine.server.requirements import (
    UNKNOWN_TOOLS_NOT_LOADED,
    UNKNOWN_TOOLS_OVER_LIMIT,
    UNKNOWN_TOOLS_TRUNCATED,
    UNKNOWN_WIDGETS_NOT_ANALYZED,
    Bridge,
    ConnectionFacts,
    ServerRequirements,
    WidgetUsage,
    derive_server_requirements,
)
from hostcompat.engine.server.tool_meta import MAX_TOOLS, inspect_tool_meta
from hostcompat.errors import InvalidInput

OPENAI = "openai/outputTemplate"


def mcp_tool(name: str, uri: str = "ui://s/w.html", **ui: Any) -> dict[str, Any]:
    return {"name": name, "_meta": {"ui": {"resourceUri": uri, **ui}}}


def openai_tool(name: str, template: Any = "ui://s/o.html") -> dict[str, Any]:
    return {"name": name, "_meta": {OPENAI: template}}


def plain_tool(name: str) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object"}}


def rule_ids(requirements: ServerRequirements) -> list[str]:
    return [finding.rule_id for finding in requirements.tool_findings]


# --- bridge detection (MCPJam §4) -------------------------------------------------------------------------------


def test_tools_are_bucketed_by_the_bridge_they_declare() -> None:
    dual = {"name": "both", "_meta": {"ui": {"resourceUri": "ui://s/b.html"}, OPENAI: "ui://s/b.html"}}
    requirements = derive_server_requirements(
        [mcp_tool("apps"), openai_tool("openai"), dual, plain_tool("plain")], widget_usage={}
    )
    assert requirements.mcp_apps_only == ("apps",)
    assert requirements.openai_apps_only == ("openai",)
    assert requirements.dual == ("both",)
    assert requirements.has_widgets
    assert [tool.bridge for tool in requirements.widget_tools] == [Bridge.MCP_APPS, Bridge.OPENAI_SDK, Bridge.DUAL]
    assert requirements.tool_names == ("apps", "openai", "both", "plain")
    assert requirements.unknown_dimensions == ()


def test_the_flat_resource_uri_key_counts_only_when_the_nested_key_is_absent() -> None:
    flat_only = {"name": "flat", "_meta": {RESOURCE_URI_META_KEY: "ui://s/flat.html"}}
    inspection = inspect_tool_meta("flat", flat_only["_meta"])
    assert inspection.bridge is Bridge.MCP_APPS
    assert inspection.resource_uri == "ui://s/flat.html"


def test_the_nested_uri_wins_over_a_disagreeing_flat_one() -> None:
    meta = {"ui": {"resourceUri": "ui://s/nested.html"}, RESOURCE_URI_META_KEY: "ui://s/flat.html"}
    assert inspect_tool_meta("t", meta).resource_uri == "ui://s/nested.html"


def test_a_valid_nested_uri_masks_an_invalid_flat_one() -> None:
    meta = {"ui": {"resourceUri": "ui://s/nested.html"}, RESOURCE_URI_META_KEY: "http://x"}
    inspection = inspect_tool_meta("t", meta)
    assert inspection.bridge is Bridge.MCP_APPS
    assert inspection.findings == ()


def test_tools_metadata_wins_over_the_inline_meta() -> None:
    tools = [mcp_tool("a"), plain_tool("b")]
    requirements = derive_server_requirements(
        tools, tools_metadata={"a": None, "b": {OPENAI: "ui://s/b.html"}}, widget_usage={}
    )
    assert requirements.mcp_apps_only == ()
    assert requirements.openai_apps_only == ("b",)


@pytest.mark.parametrize("template", [{}, "", None, ["ui://s/x"], 3])
def test_an_openai_template_counts_only_as_a_non_empty_string(template: Any) -> None:
    assert inspect_tool_meta("t", {OPENAI: template}).bridge is None


def test_an_openai_template_needs_no_ui_scheme() -> None:
    inspection = inspect_tool_meta("t", {OPENAI: "https://cdn.example/widget.html"})
    assert inspection.bridge is Bridge.OPENAI_SDK
    assert inspection.widget_uri == "https://cdn.example/widget.html"


def test_a_present_but_unusable_openai_template_is_a_finding() -> None:
    assert [finding.rule_id for finding in inspect_tool_meta("t", {OPENAI: ""}).findings] == ["META-OPENAI-001"]
    assert inspect_tool_meta("t", {OPENAI: None}).findings == ()


# --- app-only ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("visibility", "app_only"),
    [(["app"], True), (["app", "model"], False), ([], False), (["app", "app"], False), (["model"], False)],
)
def test_a_widget_is_app_only_when_its_visibility_is_exactly_app(visibility: list[str], app_only: bool) -> None:
    requirements = derive_server_requirements([mcp_tool("w", visibility=visibility)], widget_usage={})
    assert requirements.app_only_widgets == (("w",) if app_only else ())


def test_an_app_only_tool_without_a_widget_is_never_listed() -> None:
    tool = {"name": "helper", "_meta": {"ui": {"visibility": ["app"]}}}
    requirements = derive_server_requirements([tool], widget_usage={})
    assert requirements.app_only_widgets == ()
    assert not requirements.has_widgets


def test_an_openai_widget_reads_app_only_from_the_same_metadata() -> None:
    tool = {"name": "o", "_meta": {OPENAI: "ui://s/o.html", "ui": {"visibility": ["app"]}}}
    assert derive_server_requirements([tool]).app_only_widgets == ("o",)


# --- unknown dimensions -----------------------------------------------------------------------------------------


def test_tools_not_loaded_is_the_single_unknown_dimension() -> None:
    requirements = derive_server_requirements(None)
    assert requirements.unknown_dimensions == (UNKNOWN_TOOLS_NOT_LOADED,)
    assert not requirements.has_widgets
    assert not requirements.tools_loaded
    assert (requirements.mcp_apps_only, requirements.openai_apps_only, requirements.dual) == ((), (), ())


def test_widgets_without_a_scan_leave_their_capabilities_unknown() -> None:
    assert derive_server_requirements([mcp_tool("w")]).unknown_dimensions == (UNKNOWN_WIDGETS_NOT_ANALYZED,)


def test_an_empty_widget_usage_means_scanned_and_clean() -> None:
    requirements = derive_server_requirements([mcp_tool("w")], widget_usage={})
    assert requirements.unknown_dimensions == ()
    assert requirements.widget_usage == WidgetUsage()


def test_a_server_without_widgets_needs_no_scan() -> None:
    assert derive_server_requirements([plain_tool("p")]).unknown_dimensions == ()


def test_a_truncated_tool_list_is_an_unknown_dimension_even_without_widgets() -> None:
    requirements = derive_server_requirements([plain_tool("p")], tools_truncated=True)
    assert requirements.unknown_dimensions == (UNKNOWN_TOOLS_TRUNCATED,)


def test_a_tool_list_over_the_limit_is_cut_and_recorded() -> None:
    tools = [plain_tool(f"t{index}") for index in range(MAX_TOOLS + 1)]
    requirements = derive_server_requirements(tools)
    assert len(requirements.tool_names) == MAX_TOOLS
    assert requirements.unknown_dimensions == (UNKNOWN_TOOLS_OVER_LIMIT,)


# --- pass-through -----------------------------------------------------------------------------------------------


def test_widget_usage_and_connection_facts_pass_through_in_either_form() -> None:
    usage = {"serverTools": ["w"], "sandboxPermissionNames": ["camera"], "sandboxPermissionTools": {"camera": ["w"]}}
    facts = {"protocolVersion": "2025-11-25", "transport": "stdio", "serverInfo": {"name": "s", "version": "1"}}
    from_json = derive_server_requirements([mcp_tool("w")], usage, facts)
    typed = derive_server_requirements(
        [mcp_tool("w")], WidgetUsage.from_dict(usage), ConnectionFacts("2025-11-25", "stdio", "s", "1")
    )
    assert from_json.widget_usage == typed.widget_usage
    assert from_json.connection_facts == typed.connection_facts
    assert from_json.widget_usage is not None
    assert from_json.widget_usage.tools_for("serverTools") == ("w",)
    assert from_json.widget_usage.tools_for("logging") == ()
    assert from_json.to_dict()["widgetUsage"] == usage
    assert from_json.to_dict()["connectionFacts"] == facts


def test_requirements_json_has_mcpjams_keys() -> None:
    data = derive_server_requirements([mcp_tool("w", visibility=["app"])], widget_usage={}).to_dict()
    assert data["widgets"] == {"mcpAppsOnly": ["w"], "openaiAppsOnly": [], "dual": []}
    assert data["appOnlyWidgets"] == ["w"]
    assert data["hasWidgets"] is True
    assert data["unknownDimensions"] == []
    json.dumps(data)


def test_widget_uris_and_visibility_are_recorded_per_tool_for_joining_scans() -> None:
    tools = [
        mcp_tool("a", "ui://s/shared.html", visibility=["app"]),
        mcp_tool("b", "ui://s/shared.html"),
        openai_tool("c", "ui://s/c.html"),
    ]
    requirements = derive_server_requirements(tools)
    assert dict(requirements.widget_resource_uris) == {
        "a": "ui://s/shared.html",
        "b": "ui://s/shared.html",
        "c": "ui://s/c.html",
    }
    assert dict(requirements.widget_tools_by_uri) == {"ui://s/shared.html": ("a", "b"), "ui://s/c.html": ("c",)}
    assert dict(requirements.widget_visibility) == {"a": ("app",), "b": None, "c": None}


# --- one malformed tool does not abort (§7 confirmed throws, now findings) --------------------------------------


@pytest.mark.parametrize(
    "meta",
    [
        {"ui": {"resourceUri": "https://x"}},
        {"ui": {"resourceUri": None}},
        {"ui": {"resourceUri": ""}},
        {"ui": {"resourceUri": 7}},
        {RESOURCE_URI_META_KEY: "http://x"},
        {RESOURCE_URI_META_KEY: None},
    ],
)
def test_an_invalid_ui_resource_uri_is_a_finding_on_that_tool_only(meta: dict[str, Any]) -> None:
    tools = [mcp_tool("before"), {"name": "bad", "_meta": meta}, openai_tool("after")]
    requirements = derive_server_requirements(tools, widget_usage={})
    assert rule_ids(requirements) == ["META-URI-001"]
    assert requirements.tool_findings[0].tools == ("bad",)
    assert requirements.mcp_apps_only == ("before",)
    assert requirements.openai_apps_only == ("after",)


def test_an_invalid_mcp_apps_uri_leaves_the_tools_openai_side_standing() -> None:
    tool = {"name": "t", "_meta": {"ui": {"resourceUri": "https://x"}, OPENAI: "ui://s/t.html"}}
    requirements = derive_server_requirements([tool])
    assert requirements.openai_apps_only == ("t",)
    assert rule_ids(requirements) == ["META-URI-001"]


@pytest.mark.parametrize("ui", ["ui://s/x", ["a"], 3, True])
def test_a_non_object_meta_ui_is_a_finding_and_the_flat_key_still_counts(ui: Any) -> None:
    tool = {"name": "t", "_meta": {"ui": ui, RESOURCE_URI_META_KEY: "ui://s/flat.html"}}
    requirements = derive_server_requirements([tool])
    assert rule_ids(requirements) == ["META-SHAPE-001"]
    assert requirements.mcp_apps_only == ("t",)


@pytest.mark.parametrize("meta", [["ui"], "ui://s/x", 3])
def test_a_non_object_meta_is_a_finding_and_no_widget(meta: Any) -> None:
    requirements = derive_server_requirements([{"name": "t", "_meta": meta}, mcp_tool("ok")])
    assert rule_ids(requirements) == ["META-SHAPE-001"]
    assert requirements.mcp_apps_only == ("ok",)


@pytest.mark.parametrize("visibility", ["app", {"app": True}, ["app", 1], 0])
def test_a_visibility_that_is_not_a_list_of_strings_is_a_finding_and_not_app_only(visibility: Any) -> None:
    requirements = derive_server_requirements([mcp_tool("w", visibility=visibility)])
    assert rule_ids(requirements) == ["META-VIS-001"]
    assert requirements.app_only_widgets == ()
    assert requirements.mcp_apps_only == ("w",)
    assert requirements.widget_visibility["w"] is None


def test_a_wrongly_typed_other_ui_field_is_a_shape_finding_that_keeps_the_widget() -> None:
    requirements = derive_server_requirements([mcp_tool("w", allowedTools="a"), mcp_tool("v", fallback=3)])
    assert rule_ids(requirements) == ["META-SHAPE-001", "META-SHAPE-001"]
    assert requirements.mcp_apps_only == ("w", "v")


def test_unusable_and_repeated_tool_entries_are_skipped_with_findings() -> None:
    tools = [7, {"title": "no name"}, {"name": ""}, mcp_tool("w"), mcp_tool("w", "ui://s/other.html")]
    requirements = derive_server_requirements(tools)
    assert rule_ids(requirements) == ["TOOL-SHAPE-001", "TOOL-SHAPE-001", "TOOL-SHAPE-001", "TOOL-SHAPE-002"]
    assert requirements.widget_resource_uris == {"w": "ui://s/w.html"}


def test_thousands_of_repeated_or_unusable_entries_give_a_bounded_number_of_findings() -> None:
    """Each finding is copied to every host's report: 10,000 repeats once made a 266 MB report of a 140 kB list."""
    requirements = derive_server_requirements([{"name": "t"}] * 5_000 + [{"x": 1}] * 5_000)
    ids = rule_ids(requirements)
    assert ids.count("TOOL-SHAPE-002") == 21 and ids.count("TOOL-SHAPE-001") == 21
    details = [finding.detail for finding in requirements.tool_findings if "more tool entries" in finding.detail]
    assert sorted(details) == [
        "4979 more tool entries repeat a name kept earlier, past the 20 shown; they were skipped too.",
        "4980 more tool entries are unusable (no non-empty string name), past the 20 shown; they were skipped too.",
    ]


def test_a_huge_tool_name_and_value_keep_findings_short() -> None:
    name = "n" * 100_000
    requirements = derive_server_requirements([{"name": name, "_meta": {"ui": {"resourceUri": "x" * 100_000}}}])
    finding = requirements.tool_findings[0]
    assert finding.tools == (name,)
    assert len(finding.detail) < 1000


def test_every_tool_finding_uses_a_registered_rule_and_names_evidence() -> None:
    tools = [{"name": "a", "_meta": {"ui": {"resourceUri": "x", "visibility": "app"}, OPENAI: {}}}, 3]
    requirements = derive_server_requirements(tools)
    assert len(requirements.tool_findings) == 4
    for finding in requirements.tool_findings:
        assert finding.rule_id in RULES
        assert finding.evidence
        assert finding.remediation


# --- bad containers ---------------------------------------------------------------------------------------------


def test_a_tool_list_that_is_not_a_list_is_invalid_input_naming_the_problem() -> None:
    with pytest.raises(InvalidInput) as caught:
        derive_server_requirements({"tools": []})  # type: ignore[arg-type]  # the bad value under test
    assert "not the whole result" in caught.value.message
    assert caught.value.value == {"tools": []}
    with pytest.raises(InvalidInput):
        derive_server_requirements("tools")  # a str is a Sequence, but not a tool list


@pytest.mark.parametrize(
    "kwargs",
    [
        {"tools_metadata": ["a"]},
        {"tools_truncated": 1},
        {"widget_usage": ["serverTools"]},
        {"widget_usage": {"serverTools": "w"}},
        {"widget_usage": {"": ["w"]}},
        {"connection_facts": {"protocolVersion": 20251125}},
        {"connection_facts": {"serverInfo": "s"}},
    ],
)
def test_malformed_options_are_invalid_input(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        derive_server_requirements([], **kwargs)


# --- the pass-through values ------------------------------------------------------------------------------------


def test_widget_usage_keeps_mcpjams_nine_needs_and_others() -> None:
    usage = WidgetUsage.from_dict({**{need: ["w"] for need in WIDGET_NEEDS}, "requestDisplayMode": ["w"]})
    assert set(usage.needs) == {*WIDGET_NEEDS, "requestDisplayMode"}
    assert usage.sandbox_permission_names is None


def test_connection_facts_ignore_unknown_keys_and_round_trip() -> None:
    facts = ConnectionFacts.from_dict({"protocolVersion": "2025-06-18", "extra": 1, "serverInfo": {"title": "x"}})
    assert facts == ConnectionFacts(protocol_version="2025-06-18")
    assert ConnectionFacts.from_dict(facts.to_dict()) == facts


# --- properties -------------------------------------------------------------------------------------------------

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)
uris = st.sampled_from(["ui://s/a.html", "ui://s/b.html", "https://x", "", "ui://"]) | json_scalars
visibilities = st.sampled_from([["app"], ["model"], ["app", "model"], [], "app"]) | json_values
ui_objects = st.fixed_dictionaries(
    {}, optional={"resourceUri": uris, "visibility": visibilities, "allowedTools": json_values, "csp": json_values}
)
metas = (
    st.none()
    | json_values
    | st.fixed_dictionaries(
        {},
        optional={
            "ui": ui_objects | json_values,
            RESOURCE_URI_META_KEY: uris,
            OPENAI: uris,
            "openai/widgetAccessible": json_values,
        },
    )
)
tools_strategy = st.lists(
    st.fixed_dictionaries({"name": st.sampled_from(["a", "b", "c", ""]) | json_scalars}, optional={"_meta": metas})
    | json_values,
    max_size=6,
)


@given(tools_strategy, st.none() | st.dictionaries(st.sampled_from(["a", "b", "z"]), metas, max_size=2))
def test_any_json_tool_list_gives_requirements_without_mutating_it(tools: list[Any], metadata: Any) -> None:
    before = copy.deepcopy((tools, metadata))
    requirements = derive_server_requirements(tools, tools_metadata=metadata)
    assert (tools, metadata) == before
    widgets = [tool.name for tool in requirements.widget_tools]
    buckets = [*requirements.mcp_apps_only, *requirements.openai_apps_only, *requirements.dual]
    assert sorted(buckets) == sorted(widgets)
    assert set(requirements.app_only_widgets) <= set(widgets)
    assert requirements.has_widgets == bool(widgets)
    assert (UNKNOWN_WIDGETS_NOT_ANALYZED in requirements.unknown_dimensions) == bool(widgets)
    assert all(finding.rule_id in RULES for finding in requirements.tool_findings)
    json.dumps(requirements.to_dict())


@given(json_values)
def test_any_json_value_as_a_tool_list_gives_requirements_or_invalid_input(tools: Any) -> None:
    before = copy.deepcopy(tools)
    try:
        derive_server_requirements(tools)
    except InvalidInput:
        assert tools is not None
        assert not isinstance(tools, list)
    assert tools == before


@given(json_values, json_values)
def test_any_json_usage_or_facts_parse_to_a_value_or_invalid_input(usage: Any, facts: Any) -> None:
    for parse in (WidgetUsage.from_dict, ConnectionFacts.from_dict):
        for raw in (usage, facts):
            try:
                value = parse(raw)
            except InvalidInput:
                continue
            assert parse(value.to_dict()) == value


@given(
    st.dictionaries(st.sampled_from([*WIDGET_NEEDS, "x.y"]), st.lists(st.text(min_size=1, max_size=5), max_size=3)),
    st.none() | st.lists(st.sampled_from(["camera", "microphone"]), max_size=2),
)
def test_widget_usage_survives_json_and_back(needs: dict[str, list[str]], names: list[str] | None) -> None:
    raw: dict[str, Any] = dict(needs)
    if names is not None:
        raw["sandboxPermissionNames"] = names
        raw["sandboxPermissionTools"] = {name: ["w"] for name in names}
    usage = WidgetUsage.from_dict(raw)
    assert usage.to_dict() == raw
    assert WidgetUsage.from_dict(json.loads(json.dumps(usage.to_dict()))) == usage
