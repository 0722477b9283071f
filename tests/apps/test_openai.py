import copy
from collections.abc import Callable
from typing import Any

import mcp.types as mcp_types
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.apps.constants import OPENAI_WIDGET_MIME_TYPE, RESOURCE_MIME_TYPE
from hostcompat.apps.meta.access import (
    ResourceCSP,
    ResourceUI,
    ToolUI,
    get_resource_ui,
    get_tool_ui,
    set_resource_ui,
    set_tool_ui,
)
from hostcompat.apps.openai.mapping import (
    OPENAI_FILE_PARAMS,
    OPENAI_INVOKED,
    OPENAI_INVOKING,
    OPENAI_OUTPUT_TEMPLATE,
    OPENAI_VISIBILITY,
    OPENAI_WIDGET_ACCESSIBLE,
    OPENAI_WIDGET_CSP,
    OPENAI_WIDGET_DESCRIPTION,
    OPENAI_WIDGET_DOMAIN,
    OPENAI_WIDGET_PREFERS_BORDER,
    dual_tool_meta,
    mime_type_for_mcp,
    mime_type_for_openai,
    openai_conflicts,
    resource_openai_from_ui,
    resource_ui_from_openai,
    tool_openai_from_ui,
    tool_ui_from_openai,
    with_openai_resource_meta,
    with_openai_tool_meta,
)
from hostcompat.errors import HostCompatError, InvalidOpenAIMeta, InvalidUIMeta, InvalidUIURI
from tests.apps.openai_strategies import MCP_RESOURCE_UI, OPENAI_RESOURCE_META, URI, domain_lists, metas


def test_key_constants_are_the_apps_sdk_spellings() -> None:
    assert OPENAI_OUTPUT_TEMPLATE == "openai/outputTemplate"
    assert OPENAI_WIDGET_ACCESSIBLE == "openai/widgetAccessible"
    assert OPENAI_VISIBILITY == "openai/visibility"
    assert OPENAI_INVOKING == "openai/toolInvocation/invoking"
    assert OPENAI_INVOKED == "openai/toolInvocation/invoked"
    assert OPENAI_FILE_PARAMS == "openai/fileParams"
    assert OPENAI_WIDGET_CSP == "openai/widgetCSP"
    assert OPENAI_WIDGET_DOMAIN == "openai/widgetDomain"
    assert OPENAI_WIDGET_PREFERS_BORDER == "openai/widgetPrefersBorder"
    assert OPENAI_WIDGET_DESCRIPTION == "openai/widgetDescription"


# --- tool rows, OpenAI -> MCP Apps ---------------------------------------------------------------------


def test_output_template_becomes_the_resource_uri() -> None:
    ui = tool_ui_from_openai({OPENAI_OUTPUT_TEMPLATE: URI})
    assert ui is not None
    assert ui.resource_uri == URI


@pytest.mark.parametrize(
    ("accessible", "visibility", "expected"),
    [
        (True, "public", ("model", "app")),
        (True, "private", ("app",)),
        (False, "public", ("model",)),
        (False, "private", ()),
        (None, None, ("model",)),
        (True, None, ("model", "app")),
        (None, "private", ()),
    ],
)
def test_widget_accessible_and_visibility_become_an_explicit_mcp_visibility(
    accessible: bool | None, visibility: str | None, expected: tuple[str, ...]
) -> None:
    meta: dict[str, Any] = {OPENAI_OUTPUT_TEMPLATE: URI}
    if accessible is not None:
        meta[OPENAI_WIDGET_ACCESSIBLE] = accessible
    if visibility is not None:
        meta[OPENAI_VISIBILITY] = visibility
    ui = tool_ui_from_openai(meta)
    assert ui is not None
    assert ui.visibility == expected


def test_a_tool_without_openai_tool_keys_has_no_openai_ui() -> None:
    assert tool_ui_from_openai(None) is None
    assert tool_ui_from_openai({}) is None
    assert tool_ui_from_openai({OPENAI_INVOKING: "Working…", "ui": {"resourceUri": URI}}) is None


def test_visibility_keys_alone_give_a_tool_ui_without_a_resource() -> None:
    ui = tool_ui_from_openai({OPENAI_VISIBILITY: "private", OPENAI_WIDGET_ACCESSIBLE: True})
    assert ui == ToolUI(visibility=("app",))


# --- tool rows, MCP Apps -> OpenAI ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("visibility", "accessible", "openai_visibility"),
    [
        (None, True, "public"),
        (("model", "app"), True, "public"),
        (("app",), True, "private"),
        (("model",), False, "public"),
        ((), False, "private"),
    ],
)
def test_mcp_visibility_becomes_widget_accessible_and_openai_visibility(
    visibility: tuple[str, ...] | None, accessible: bool, openai_visibility: str
) -> None:
    out = tool_openai_from_ui(ToolUI(resource_uri=URI, visibility=visibility))
    assert out == {
        OPENAI_OUTPUT_TEMPLATE: URI,
        OPENAI_WIDGET_ACCESSIBLE: accessible,
        OPENAI_VISIBILITY: openai_visibility,
    }


def test_a_tool_ui_without_resource_writes_no_output_template() -> None:
    assert OPENAI_OUTPUT_TEMPLATE not in tool_openai_from_ui(ToolUI(visibility=("app",)))


def test_converting_a_non_tool_ui_is_an_invalid_ui_meta_error() -> None:
    with pytest.raises(InvalidUIMeta):
        tool_openai_from_ui({"resourceUri": URI})  # type: ignore[arg-type]  # proving the runtime check
    with pytest.raises(InvalidUIMeta):
        resource_openai_from_ui(ToolUI())  # type: ignore[arg-type]  # proving the runtime check


# --- resource rows -------------------------------------------------------------------------------------


def test_openai_resource_keys_become_csp_link_trusted_domains_domain_and_border() -> None:
    assert resource_ui_from_openai(OPENAI_RESOURCE_META) == MCP_RESOURCE_UI


def test_resource_ui_becomes_the_openai_resource_keys() -> None:
    assert resource_openai_from_ui(MCP_RESOURCE_UI) == OPENAI_RESOURCE_META


def test_widget_csp_always_carries_connect_and_resource_domains_and_only_needed_extras() -> None:
    out = resource_openai_from_ui(ResourceUI(csp=ResourceCSP(connect_domains=("https://a",))))
    assert out == {OPENAI_WIDGET_CSP: {"connect_domains": ["https://a"], "resource_domains": []}}
    only_links = resource_openai_from_ui(ResourceUI(link_trusted_domains=("https://l",)))
    assert only_links[OPENAI_WIDGET_CSP]["redirect_domains"] == ["https://l"]


def test_prefers_border_true_and_a_missing_csp_map_directly() -> None:
    assert resource_openai_from_ui(ResourceUI(prefers_border=True)) == {OPENAI_WIDGET_PREFERS_BORDER: True}
    assert resource_ui_from_openai({OPENAI_WIDGET_PREFERS_BORDER: True}) == ResourceUI(prefers_border=True)
    assert resource_ui_from_openai({OPENAI_WIDGET_DOMAIN: "d.example"}) == ResourceUI(domain="d.example")


def test_a_resource_without_openai_resource_keys_has_no_openai_ui() -> None:
    assert resource_ui_from_openai(None) is None
    assert resource_ui_from_openai({OPENAI_WIDGET_DESCRIPTION: "A board"}) is None
    assert resource_openai_from_ui(ResourceUI(content_hash="sha256:00")) == {}


def test_widget_description_survives_adding_the_openai_keys() -> None:
    resource = {"uri": URI, "_meta": {"ui": {"prefersBorder": True}, OPENAI_WIDGET_DESCRIPTION: "A board"}}
    updated = with_openai_resource_meta(resource)
    assert updated["_meta"][OPENAI_WIDGET_DESCRIPTION] == "A board"
    assert updated["_meta"][OPENAI_WIDGET_PREFERS_BORDER] is True


# --- MIME ----------------------------------------------------------------------------------------------


def test_mime_types_map_both_ways_and_are_idempotent() -> None:
    assert mime_type_for_openai(RESOURCE_MIME_TYPE) == OPENAI_WIDGET_MIME_TYPE
    assert mime_type_for_mcp(OPENAI_WIDGET_MIME_TYPE) == RESOURCE_MIME_TYPE
    assert mime_type_for_openai(OPENAI_WIDGET_MIME_TYPE) == OPENAI_WIDGET_MIME_TYPE
    assert mime_type_for_mcp(RESOURCE_MIME_TYPE) == RESOURCE_MIME_TYPE


@pytest.mark.parametrize("mime", ["text/html", "text/html; profile=mcp-app", "TEXT/HTML+SKYBRIDGE", ""])
def test_other_mime_types_have_no_mapping(mime: str) -> None:
    with pytest.raises(InvalidOpenAIMeta) as caught:
        mime_type_for_openai(mime)
    assert caught.value.value == mime
    with pytest.raises(InvalidOpenAIMeta):
        mime_type_for_mcp(mime)


# --- wrong shapes --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meta", "offending"),
    [
        ({OPENAI_OUTPUT_TEMPLATE: 7}, 7),
        ({OPENAI_OUTPUT_TEMPLATE: "https://example.com/widget"}, "https://example.com/widget"),
        ({OPENAI_OUTPUT_TEMPLATE: ""}, ""),
        ({OPENAI_WIDGET_ACCESSIBLE: "true"}, "true"),
        ({OPENAI_WIDGET_ACCESSIBLE: 1}, 1),
        ({OPENAI_VISIBILITY: "hidden"}, "hidden"),
        ({OPENAI_VISIBILITY: True}, True),
        (["openai/outputTemplate"], ["openai/outputTemplate"]),
    ],
)
def test_wrong_tool_keys_raise_invalid_openai_meta_with_the_value(meta: Any, offending: Any) -> None:
    with pytest.raises(InvalidOpenAIMeta) as caught:
        tool_ui_from_openai(meta)
    assert caught.value.value == offending


@pytest.mark.parametrize(
    ("meta", "offending"),
    [
        ({OPENAI_WIDGET_CSP: ["https://a"]}, ["https://a"]),
        ({OPENAI_WIDGET_CSP: {"connect_domains": "https://a"}}, "https://a"),
        ({OPENAI_WIDGET_CSP: {"resource_domains": ["https://a", 3]}}, 3),
        ({OPENAI_WIDGET_DOMAIN: ["a"]}, ["a"]),
        ({OPENAI_WIDGET_PREFERS_BORDER: "no"}, "no"),
    ],
)
def test_wrong_resource_keys_raise_invalid_openai_meta_with_the_value(meta: Any, offending: Any) -> None:
    with pytest.raises(InvalidOpenAIMeta) as caught:
        resource_ui_from_openai(meta)
    assert caught.value.value == offending


def test_too_many_domains_are_refused() -> None:
    with pytest.raises(InvalidOpenAIMeta, match="at most"):
        resource_ui_from_openai({OPENAI_WIDGET_CSP: {"connect_domains": ["https://a"] * 5000}})


def test_passing_a_whole_tool_instead_of_its_meta_is_refused() -> None:
    with pytest.raises(InvalidOpenAIMeta, match="not the tool"):
        tool_ui_from_openai({"name": "x", "_meta": {OPENAI_OUTPUT_TEMPLATE: URI}})


# --- with_openai_*_meta --------------------------------------------------------------------------------


def test_with_openai_tool_meta_adds_the_keys_beside_meta_ui_without_mutating() -> None:
    tool: dict[str, Any] = {
        "name": "board",
        "_meta": {"ui": {"resourceUri": URI, "visibility": ["app"]}, "x.vendor/k": [1]},
    }
    before = copy.deepcopy(tool)
    updated = with_openai_tool_meta(tool)
    assert tool == before
    assert updated["_meta"] == {
        **before["_meta"],
        OPENAI_OUTPUT_TEMPLATE: URI,
        OPENAI_WIDGET_ACCESSIBLE: True,
        OPENAI_VISIBILITY: "private",
    }
    updated["_meta"]["x.vendor/k"].append(2)
    assert tool == before
    assert openai_conflicts(updated["_meta"]) == []


def test_with_openai_tool_meta_never_overwrites_a_disagreeing_key_and_conflicts_name_it() -> None:
    tool = {"name": "t", "_meta": {"ui": {"resourceUri": URI}, OPENAI_OUTPUT_TEMPLATE: "ui://widget/old.html"}}
    updated = with_openai_tool_meta(tool)
    assert updated["_meta"][OPENAI_OUTPUT_TEMPLATE] == "ui://widget/old.html"
    assert updated["_meta"][OPENAI_WIDGET_ACCESSIBLE] is True
    conflicts = openai_conflicts(updated["_meta"])
    assert [(c.openai_key, c.ui_key, c.openai_value, c.ui_value) for c in conflicts] == [
        (OPENAI_OUTPUT_TEMPLATE, "ui.resourceUri", "ui://widget/old.html", URI)
    ]
    assert "ui://widget/old.html" in conflicts[0].message


def test_with_openai_tool_meta_fills_a_null_key() -> None:
    tool = {"name": "t", "_meta": {"ui": {"resourceUri": URI}, OPENAI_OUTPUT_TEMPLATE: None}}
    assert with_openai_tool_meta(tool)["_meta"][OPENAI_OUTPUT_TEMPLATE] == URI


def test_with_openai_tool_meta_leaves_a_tool_without_ui_alone() -> None:
    plain = {"name": "plain"}
    updated = with_openai_tool_meta(plain)
    assert updated == plain
    assert updated is not plain
    assert with_openai_tool_meta({"name": "p", "_meta": {}}) == {"name": "p", "_meta": {}}


def test_with_openai_tool_meta_reads_the_flat_resource_uri_key() -> None:
    updated = with_openai_tool_meta({"name": "t", "_meta": {"ui/resourceUri": URI}})
    assert updated["_meta"][OPENAI_OUTPUT_TEMPLATE] == URI


def test_with_openai_tool_meta_refuses_a_wrong_typed_existing_key() -> None:
    with pytest.raises(InvalidOpenAIMeta) as caught:
        with_openai_tool_meta({"name": "t", "_meta": {"ui": {"resourceUri": URI}, OPENAI_VISIBILITY: "secret"}})
    assert caught.value.value == "secret"


def test_with_openai_tool_meta_works_on_sdk_tools() -> None:
    tool = mcp_types.Tool(name="board", input_schema={"type": "object"}, _meta={"ui": {"resourceUri": URI}})
    updated = with_openai_tool_meta(tool)
    assert type(updated) is mcp_types.Tool
    assert tool.meta == {"ui": {"resourceUri": URI}}
    assert updated.meta is not None
    assert updated.meta[OPENAI_OUTPUT_TEMPLATE] == URI
    wire = updated.model_dump(by_alias=True, exclude_none=True)
    assert wire["_meta"][OPENAI_VISIBILITY] == "public"


def test_with_openai_resource_meta_fills_widget_csp_entry_by_entry() -> None:
    resource = {
        "uri": URI,
        "_meta": {
            "ui": {"csp": {"connectDomains": ["https://api.example"], "resourceDomains": ["https://cdn.example"]}},
            OPENAI_WIDGET_CSP: {"connect_domains": ["https://old.example"]},
        },
    }
    before = copy.deepcopy(resource)
    updated = with_openai_resource_meta(resource)
    assert resource == before
    assert updated["_meta"][OPENAI_WIDGET_CSP] == {
        "connect_domains": ["https://old.example"],
        "resource_domains": ["https://cdn.example"],
    }
    conflicts = openai_conflicts(updated["_meta"])
    assert [(c.openai_key, c.ui_key) for c in conflicts] == [
        (f"{OPENAI_WIDGET_CSP}.connect_domains", "ui.csp.connectDomains")
    ]


def test_with_openai_resource_meta_works_on_sdk_resources() -> None:
    resource = mcp_types.Resource(
        name="board", uri=URI, mime_type=RESOURCE_MIME_TYPE, _meta={"ui": {"domain": "board.example"}}
    )
    updated = with_openai_resource_meta(resource)
    assert type(updated) is mcp_types.Resource
    assert resource.meta == {"ui": {"domain": "board.example"}}
    assert updated.meta == {"ui": {"domain": "board.example"}, OPENAI_WIDGET_DOMAIN: "board.example"}
    assert updated.mime_type == RESOURCE_MIME_TYPE


# --- dual_tool_meta ------------------------------------------------------------------------------------


def test_dual_tool_meta_serves_both_bridges() -> None:
    meta = dual_tool_meta(URI, visibility=["app"])
    assert get_tool_ui({"_meta": meta}) == ToolUI(resource_uri=URI, visibility=("app",))
    assert meta["ui/resourceUri"] == URI
    assert tool_ui_from_openai(meta) == ToolUI(resource_uri=URI, visibility=("app",))
    assert openai_conflicts(meta) == []


def test_dual_tool_meta_can_skip_the_flat_key_and_omit_visibility() -> None:
    meta = dual_tool_meta(URI, write_flat_key=False)
    assert "ui/resourceUri" not in meta
    assert meta["ui"] == {"resourceUri": URI}
    assert meta[OPENAI_WIDGET_ACCESSIBLE] is True


def test_dual_tool_meta_rejects_a_bad_uri_and_an_unknown_audience() -> None:
    with pytest.raises(InvalidUIURI):
        dual_tool_meta("https://example.com/w")
    with pytest.raises(InvalidUIMeta) as caught:
        dual_tool_meta(URI, visibility=["model", "agent"])
    assert caught.value.value == ["model", "agent"]


# --- properties ----------------------------------------------------------------------------------------

tool_uis = st.builds(
    ToolUI,
    resource_uri=st.none() | st.just(URI),
    visibility=st.none() | st.lists(st.sampled_from(["model", "app"]), max_size=2, unique=True).map(tuple),
)
resource_uis = st.builds(
    ResourceUI,
    csp=st.none()
    | st.builds(
        ResourceCSP,
        connect_domains=domain_lists.map(tuple),
        resource_domains=domain_lists.map(tuple),
        frame_domains=domain_lists.map(tuple),
    ),
    link_trusted_domains=st.none() | domain_lists.map(tuple),
    domain=st.none() | st.text(min_size=1, max_size=10),
    prefers_border=st.none() | st.booleans(),
)


@given(metas)
def test_arbitrary_meta_gives_values_or_hostcompat_errors_and_is_never_mutated(meta: dict[str, Any]) -> None:
    before = copy.deepcopy(meta)
    calls: list[tuple[Callable[[Any], object], Any]] = [
        (tool_ui_from_openai, meta),
        (resource_ui_from_openai, meta),
        (with_openai_tool_meta, {"name": "x", "_meta": meta}),
        (with_openai_resource_meta, {"uri": URI, "_meta": meta}),
    ]
    for function, argument in calls:
        outcome = attempt(function, argument)
        assert outcome is None or isinstance(outcome, HostCompatError)
    assert meta == before


def attempt(function: Callable[[Any], object], argument: Any) -> HostCompatError | None:
    try:
        function(argument)
    except HostCompatError as error:
        return error
    return None


@given(tool_uis)
def test_tool_ui_survives_a_trip_through_openai_keys(ui: ToolUI) -> None:
    back = tool_ui_from_openai(tool_openai_from_ui(ui))
    assert back is not None
    assert back.resource_uri == ui.resource_uri
    assert set(back.effective_visibility) == set(ui.effective_visibility)


@given(resource_uis)
def test_resource_ui_survives_a_trip_through_openai_keys(ui: ResourceUI) -> None:
    back = resource_ui_from_openai(resource_openai_from_ui(ui))
    if back is None:
        assert resource_openai_from_ui(ui) == {}
        return
    assert (back.domain, back.prefers_border) == (ui.domain, ui.prefers_border)
    assert back.link_trusted_domains == ui.link_trusted_domains
    expected_csp = ui.csp or ResourceCSP()
    actual_csp = back.csp or ResourceCSP()
    assert (actual_csp.connect_domains, actual_csp.resource_domains, actual_csp.frame_domains) == (
        expected_csp.connect_domains,
        expected_csp.resource_domains,
        expected_csp.frame_domains,
    )


@given(tool_uis)
def test_adding_openai_keys_to_a_clean_tool_yields_no_conflicts_and_is_idempotent(ui: ToolUI) -> None:
    tool = set_tool_ui({"name": "t"}, ui)
    once = with_openai_tool_meta(tool)
    assert openai_conflicts(once["_meta"]) == []
    assert with_openai_tool_meta(once) == once
    assert get_tool_ui(once) == get_tool_ui(tool)


@given(resource_uis)
def test_adding_openai_keys_to_a_clean_resource_yields_no_conflicts(ui: ResourceUI) -> None:
    resource = set_resource_ui({"uri": URI}, ui)
    once = with_openai_resource_meta(resource)
    assert openai_conflicts(once["_meta"]) == []
    assert with_openai_resource_meta(once) == once
    assert get_resource_ui(once) == get_resource_ui(resource)
