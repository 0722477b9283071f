import copy
from types import MappingProxyType
from typing import Any

import mcp_types
import pytest

from hostcompat.apps import constants
from hostcompat.apps.meta.access import (
    RESOURCE_UI_FIELDS,
    TOOL_UI_FIELDS,
    ResourceCSP,
    ResourcePermissions,
    ResourceUI,
    ToolUI,
    clear_tool_ui,
    get_resource_ui,
    get_tool_ui,
    is_app_only,
    is_model_only,
    set_resource_ui,
    set_tool_ui,
    tool_ui_resource_uri,
)
from hostcompat.apps.meta.codec import MAX_LIST_ITEMS, MAX_META_DEPTH
from hostcompat.errors import HostCompatError, InvalidUIMeta

FLAT = constants.RESOURCE_URI_META_KEY


def tool(meta: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": "show_widget", "inputSchema": {"type": "object"}}
    if meta is not None:
        out["_meta"] = meta
    return out


def contents(meta: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"uri": "ui://x/demo/y", "mimeType": constants.RESOURCE_MIME_TYPE, "text": "<html></html>"}
    if meta is not None:
        out["_meta"] = meta
    return out


# --- M1: key names --------------------------------------------------------------------------------------------


def test_modeled_key_names_match_the_spec_and_viant() -> None:
    assert set(TOOL_UI_FIELDS) == {"resourceUri", "visibility", "allowedTools", "fallback"}
    assert {"allowedTools", "allowedToolBundles", "contentHash", "protocolVersion", "rendererUrl", "sandbox"} <= set(
        RESOURCE_UI_FIELDS
    )
    assert {"csp", "cspPolicy", "fallback", "domain", "prefersBorder", "permissions"} <= set(RESOURCE_UI_FIELDS)


def test_a_full_tool_ui_writes_exactly_the_modeled_camel_case_keys() -> None:
    wire = ToolUI("ui://a/b", ("app",), ("t",), constants.FALLBACK_EMBEDDED).to_wire()
    assert set(wire) == set(TOOL_UI_FIELDS)


# --- M2, M3 and case 6: tools ---------------------------------------------------------------------------------


def test_tool_ui_round_trips_through_a_tool_dict() -> None:
    ui = ToolUI(
        resource_uri="ui://agently.wkabc/demo/show_widget",
        allowed_tools=("chat.reply", "ui/view"),
        fallback=constants.FALLBACK_EMBEDDED,
    )
    written = set_tool_ui(tool(), ui)
    assert written["_meta"]["ui"] == {
        "resourceUri": "ui://agently.wkabc/demo/show_widget",
        "allowedTools": ["chat.reply", "ui/view"],
        "fallback": "embedded",
    }
    assert get_tool_ui(written) == ui


def test_setting_a_tool_ui_keeps_foreign_meta_and_unknown_ui_keys_and_does_not_mutate_the_input() -> None:
    original = tool({"vendor.other/feature": {"k": "v"}, "ui": {"unrelatedFutureField": "stay"}})
    snapshot = copy.deepcopy(original)
    written = set_tool_ui(original, ToolUI(resource_uri="ui://x/demo/y"))
    assert original == snapshot
    assert written is not original
    assert written["_meta"]["vendor.other/feature"] == {"k": "v"}
    assert written["_meta"]["ui"]["unrelatedFutureField"] == "stay"
    assert written["_meta"]["ui"]["resourceUri"] == "ui://x/demo/y"
    written["_meta"]["vendor.other/feature"]["k"] = "changed"
    assert original["_meta"]["vendor.other/feature"] == {"k": "v"}


def test_extra_of_the_new_ui_wins_over_existing_unknown_keys() -> None:
    original = tool({"ui": {"future": 1, "other": 2}})
    written = set_tool_ui(original, ToolUI(extra={"future": 3}))
    assert written["_meta"]["ui"] == {"future": 3, "other": 2}


def test_setting_removes_modeled_keys_the_new_ui_leaves_unset() -> None:
    original = tool({"ui": {"resourceUri": "ui://a", "visibility": ["app"], "fallback": "embedded"}})
    written = set_tool_ui(original, ToolUI(resource_uri="ui://b"))
    assert written["_meta"]["ui"] == {"resourceUri": "ui://b"}


# --- M4, M5 and case 7: clearing and absence -------------------------------------------------------------------


def test_clearing_a_tool_ui_removes_the_nested_and_flat_keys_and_an_empty_meta() -> None:
    written = set_tool_ui(tool(), ToolUI(resource_uri="ui://x/demo/y"))
    cleared = clear_tool_ui(written)
    assert "_meta" not in cleared
    assert get_tool_ui(cleared) is None
    assert written["_meta"]["ui"] == {"resourceUri": "ui://x/demo/y"}


def test_clearing_a_tool_ui_keeps_other_meta_keys_and_drops_unknown_ui_keys() -> None:
    cleared = clear_tool_ui(tool({"ui": {"resourceUri": "ui://a", "future": 1}, FLAT: "ui://a", "other": 1}))
    assert cleared["_meta"] == {"other": 1}


def test_setting_an_empty_tool_ui_writes_an_empty_ui_object_instead_of_clearing() -> None:
    written = set_tool_ui(tool({"ui": {"resourceUri": "ui://a"}, FLAT: "ui://a"}), ToolUI())
    assert written["_meta"] == {"ui": {}}
    assert get_tool_ui(written) == ToolUI()


def test_setting_an_empty_tool_ui_keeps_unknown_ui_keys() -> None:
    written = set_tool_ui(tool({"ui": {"resourceUri": "ui://a", "future": [1]}}), ToolUI())
    assert written["_meta"]["ui"] == {"future": [1]}


@pytest.mark.parametrize(
    "holder",
    [tool(), tool({"other": 1}), {**tool(), "_meta": None}, tool({"ui": None})],
    ids=["no-meta", "foreign-meta-only", "null-meta", "null-ui"],
)
def test_a_tool_without_ui_meta_reads_as_absent(holder: dict[str, Any]) -> None:
    assert get_tool_ui(holder) is None
    assert tool_ui_resource_uri(holder) is None


@pytest.mark.parametrize("holder", [None, 42, "tool", ["_meta"]])
def test_a_holder_that_is_neither_mapping_nor_model_is_an_error_carrying_it(holder: Any) -> None:
    with pytest.raises(InvalidUIMeta) as caught:
        get_tool_ui(holder)
    assert caught.value.value == holder


@pytest.mark.parametrize("meta", [[1], "ui", 3])
def test_a_meta_that_is_not_a_mapping_is_an_error_carrying_it(meta: Any) -> None:
    for read in (get_tool_ui, get_resource_ui):
        with pytest.raises(InvalidUIMeta) as caught:
            read(tool(meta))
        assert caught.value.value == meta
    with pytest.raises(InvalidUIMeta):
        set_tool_ui(tool(meta), ToolUI())


def test_an_empty_ui_object_reads_as_present() -> None:
    assert get_tool_ui(tool({"ui": {}})) == ToolUI()
    assert get_resource_ui(contents({"ui": {}})) == ResourceUI()


# --- strictness -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ui", "key"),
    [
        ({"visibility": "app"}, "visibility"),
        ({"visibility": {"app": True}}, "visibility"),
        ({"visibility": ["app", 1]}, "visibility"),
        ({"resourceUri": 7}, "resourceUri"),
        ({"allowedTools": "a,b"}, "allowedTools"),
        ({"fallback": True}, "fallback"),
    ],
)
def test_a_tool_ui_field_of_the_wrong_type_is_an_error_naming_the_key(ui: dict[str, Any], key: str) -> None:
    with pytest.raises(InvalidUIMeta) as caught:
        get_tool_ui(tool({"ui": ui}))
    assert key in str(caught.value)
    assert caught.value.value == ui[key]


def test_typed_values_check_their_fields_on_construction() -> None:
    with pytest.raises(InvalidUIMeta):
        ToolUI(visibility="app")  # type: ignore[arg-type]  # the wrong type is the point of the test
    with pytest.raises(InvalidUIMeta):
        ResourceUI(csp={"connectDomains": []})  # type: ignore[arg-type]  # the wrong type is the point of the test
    with pytest.raises(InvalidUIMeta):
        ResourcePermissions(camera=None)  # type: ignore[arg-type]  # the wrong type is the point of the test
    with pytest.raises(InvalidUIMeta, match="resourceUri"):
        ToolUI(extra={"resourceUri": "ui://a"})


def test_typed_values_normalise_lists_to_tuples_and_empty_strings_to_unset() -> None:
    ui = ToolUI(resource_uri="", visibility=["app"], allowed_tools=["a"])  # type: ignore[arg-type]  # lists accepted
    assert ui == ToolUI(visibility=("app",), allowed_tools=("a",))
    assert ui.resource_uri is None


def test_typed_values_are_hashable_even_with_extra_keys() -> None:
    assert hash(ToolUI("ui://a", extra={"k": [1]})) == hash(ToolUI("ui://a", extra={"k": [1]}))
    assert len({ResourceUI(csp=ResourceCSP(("https://a",))), ResourceUI(csp=ResourceCSP(("https://a",)))}) == 1


def test_too_many_list_items_and_too_deep_nesting_are_errors() -> None:
    with pytest.raises(InvalidUIMeta, match="items"):
        get_tool_ui(tool({"ui": {"allowedTools": ["t"] * (MAX_LIST_ITEMS + 1)}}))
    deep: Any = "leaf"
    for _ in range(MAX_META_DEPTH + 2):
        deep = [deep]
    with pytest.raises(InvalidUIMeta, match="deeper"):
        get_tool_ui(tool({"ui": {"future": deep}}))
    with pytest.raises(InvalidUIMeta, match="deeper"):
        set_tool_ui(tool({"vendor": deep}), ToolUI())


def test_setting_with_a_value_of_the_wrong_type_is_an_error() -> None:
    with pytest.raises(InvalidUIMeta):
        set_tool_ui(tool(), ResourceUI())  # type: ignore[call-overload]  # the wrong type is the point of the test
    with pytest.raises(InvalidUIMeta):
        set_resource_ui(contents(), ToolUI())  # type: ignore[call-overload]  # the wrong type is the point of the test


def test_setting_over_a_ui_that_is_not_an_object_is_an_error_but_clearing_works() -> None:
    broken = tool({"ui": "ui://a"})
    with pytest.raises(InvalidUIMeta):
        set_tool_ui(broken, ToolUI())
    assert "_meta" not in clear_tool_ui(broken)


# --- M13 and case 9: visibility ----------------------------------------------------------------------------------


def test_an_empty_visibility_stays_distinct_from_an_omitted_one() -> None:
    explicit = get_tool_ui(set_tool_ui(tool(), ToolUI(visibility=())))
    assert explicit is not None
    assert explicit.visibility == ()
    assert explicit.effective_visibility == ()
    omitted = get_tool_ui(tool({"ui": {"resourceUri": "ui://a"}}))
    assert omitted is not None
    assert omitted.visibility is None
    assert omitted.effective_visibility == constants.DEFAULT_VISIBILITY
    assert ToolUI(visibility=()).to_wire() == {"visibility": []}


def test_an_app_visibility_round_trips() -> None:
    assert get_tool_ui(set_tool_ui(tool(), ToolUI(visibility=("app",)))) == ToolUI(visibility=("app",))


# --- cases 13 and 14: the flat resource URI key -----------------------------------------------------------------


def test_the_nested_resource_uri_wins_over_the_flat_key() -> None:
    assert tool_ui_resource_uri(tool({"ui": {"resourceUri": "ui://a/b"}, FLAT: "ui://c"})) == "ui://a/b"


def test_the_flat_resource_uri_key_is_the_fallback() -> None:
    holder = tool({FLAT: "ui://c"})
    assert tool_ui_resource_uri(holder) == "ui://c"
    assert get_tool_ui(holder) == ToolUI(resource_uri="ui://c")
    assert get_tool_ui(tool({"ui": {"visibility": ["app"]}, FLAT: "ui://c"})) == ToolUI("ui://c", ("app",))


@pytest.mark.parametrize(
    "meta",
    [{"ui": {"resourceUri": "https://x"}}, {FLAT: "http://x"}, {FLAT: 3}, {"ui": {"resourceUri": ""}}, {"ui": "x"}],
)
def test_a_present_resource_uri_that_is_not_a_ui_uri_is_an_error(meta: dict[str, Any]) -> None:
    with pytest.raises(InvalidUIMeta):
        tool_ui_resource_uri(tool(meta))


def test_a_flat_key_that_is_not_a_string_is_an_error_for_get_tool_ui_too() -> None:
    with pytest.raises(InvalidUIMeta, match="ui/resourceUri"):
        get_tool_ui(tool({FLAT: ["ui://a"]}))


def test_writing_puts_the_same_uri_under_the_nested_and_flat_keys_by_default() -> None:
    written = set_tool_ui(tool(), ToolUI(resource_uri="ui://x/demo/y"))
    assert written["_meta"]["ui"]["resourceUri"] == written["_meta"][FLAT] == "ui://x/demo/y"


def test_writing_only_the_nested_key_removes_a_stale_flat_key() -> None:
    written = set_tool_ui(tool({FLAT: "ui://old"}), ToolUI(resource_uri="ui://new"), write_flat_key=False)
    assert FLAT not in written["_meta"]
    assert tool_ui_resource_uri(written) == "ui://new"


def test_writing_a_ui_without_a_uri_removes_the_flat_key() -> None:
    written = set_tool_ui(tool({FLAT: "ui://old"}), ToolUI(visibility=("model",)))
    assert FLAT not in written["_meta"]
    assert get_tool_ui(written) == ToolUI(visibility=("model",))


# --- case 15: visibility helpers --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("visibility", "app_only", "model_only"),
    [(["app"], True, False), (["model"], False, True), (["model", "app"], False, False), ([], False, False)],
)
def test_app_only_and_model_only_need_exactly_one_audience(
    visibility: list[str], app_only: bool, model_only: bool
) -> None:
    holder = tool({"ui": {"visibility": visibility}})
    assert is_app_only(holder) is app_only
    assert is_model_only(holder) is model_only
    ui = get_tool_ui(holder)
    assert ui is not None
    assert is_app_only(ui) is app_only


def test_an_omitted_visibility_is_neither_app_only_nor_model_only() -> None:
    for holder in (tool(), tool({"ui": {"resourceUri": "ui://a"}})):
        assert not is_app_only(holder)
        assert not is_model_only(holder)


# --- pydantic models from the SDK ------------------------------------------------------------------------------


def test_tool_ui_round_trips_on_an_sdk_tool_model_without_mutating_it() -> None:
    model = mcp_types.Tool(name="t", input_schema={"type": "object"}, _meta={"vendor": {"k": 1}})
    snapshot = model.model_dump(by_alias=True)
    ui = ToolUI(resource_uri="ui://x/demo/y", visibility=("app",))
    written = set_tool_ui(model, ui)
    assert isinstance(written, mcp_types.Tool)
    assert model.model_dump(by_alias=True) == snapshot
    assert written.meta == {"vendor": {"k": 1}, "ui": ui.to_wire(), FLAT: "ui://x/demo/y"}
    assert get_tool_ui(written) == ui
    assert tool_ui_resource_uri(written) == "ui://x/demo/y"
    assert is_app_only(written)
    assert clear_tool_ui(written).meta == {"vendor": {"k": 1}}


def test_clearing_the_only_meta_of_a_model_sets_it_to_none() -> None:
    model = set_tool_ui(mcp_types.Tool(name="t", input_schema={"type": "object"}), ToolUI("ui://a"))
    assert clear_tool_ui(model).meta is None
    assert get_tool_ui(mcp_types.Tool(name="t", input_schema={"type": "object"})) is None


def test_a_read_only_mapping_holder_comes_back_as_a_new_dict() -> None:
    holder = MappingProxyType(tool({"ui": {"resourceUri": "ui://a"}}))
    written = set_tool_ui(holder, ToolUI("ui://b"))
    assert isinstance(written, dict)
    assert holder["_meta"]["ui"] == {"resourceUri": "ui://a"}
    assert get_tool_ui(written) == ToolUI("ui://b")


def test_every_error_raised_here_is_a_hostcompat_value_error() -> None:
    with pytest.raises(HostCompatError) as caught:
        get_tool_ui(tool({"ui": {"visibility": 1}}))
    assert isinstance(caught.value, ValueError)
    assert caught.value.value == 1
