import contextlib
import copy
import dataclasses
import json
from collections.abc import Callable
from typing import Any

import mcp_types
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.apps.constants import RESOURCE_URI_META_KEY
from hostcompat.apps.meta.access import (
    RESOURCE_UI_FIELDS,
    TOOL_UI_FIELDS,
    CSPPolicy,
    ResourceCSP,
    ResourcePermissions,
    ResourceUI,
    ToolUI,
    clear_resource_ui,
    clear_tool_ui,
    get_embedded_resource_ui,
    get_resource_ui,
    get_tool_ui,
    is_app_only,
    is_model_only,
    resolve_resource_ui,
    set_embedded_resource_ui,
    set_resource_ui,
    set_tool_ui,
    tool_ui_resource_uri,
)
from hostcompat.apps.meta.sandbox import CSP_FIELDS, CSP_POLICY_FIELDS, PERMISSION_FIELDS
from hostcompat.errors import HostCompatError

# --- strategies -------------------------------------------------------------------------------------------------

json_scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=16,
)
short_texts = st.text(max_size=12)
text_tuples = st.lists(short_texts, max_size=3).map(tuple)
nested_keys = st.sampled_from(CSP_FIELDS + PERMISSION_FIELDS + CSP_POLICY_FIELDS) | st.text(max_size=6)
plausible_values = (
    json_values
    | st.lists(short_texts, max_size=3)
    | st.dictionaries(nested_keys, json_values | st.lists(short_texts, max_size=2) | st.just({}), max_size=5)
)
ui_objects = st.dictionaries(
    st.sampled_from(TOOL_UI_FIELDS + RESOURCE_UI_FIELDS) | st.text(max_size=8), plausible_values, max_size=6
)
metas = json_values | st.dictionaries(
    st.sampled_from(["ui", RESOURCE_URI_META_KEY]) | st.text(max_size=8),
    ui_objects | json_values | short_texts.map(lambda text: "ui://" + text),
    max_size=4,
)


def extras(modeled: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.text(max_size=8).filter(lambda key: key not in modeled), json_values, max_size=3)


tool_uis = st.builds(
    ToolUI,
    resource_uri=st.none() | short_texts,
    visibility=st.none() | text_tuples,
    allowed_tools=text_tuples,
    fallback=st.none() | short_texts,
    extra=extras(TOOL_UI_FIELDS),
)
resource_csps = st.builds(
    ResourceCSP,
    connect_domains=text_tuples,
    resource_domains=text_tuples,
    frame_domains=text_tuples,
    base_uri_domains=text_tuples,
    wasm_unsafe_eval=st.none() | st.booleans(),
    extra=extras(CSP_FIELDS),
)
resource_permissions = st.builds(
    ResourcePermissions,
    camera=st.booleans(),
    microphone=st.booleans(),
    geolocation=st.booleans(),
    clipboard_write=st.booleans(),
    extra=extras(PERMISSION_FIELDS),
)
csp_policies = st.builds(
    CSPPolicy,
    script_src=text_tuples,
    style_src=text_tuples,
    connect_src=text_tuples,
    img_src=text_tuples,
    font_src=text_tuples,
    script_strict_dynamic=st.booleans(),
    extra=extras(CSP_POLICY_FIELDS),
)
resource_uis = st.builds(
    ResourceUI,
    csp=st.none() | resource_csps,
    permissions=st.none() | resource_permissions,
    domain=st.none() | short_texts,
    prefers_border=st.none() | st.booleans(),
    link_trusted_domains=st.none() | text_tuples,
    allowed_tools=text_tuples,
    allowed_tool_bundles=text_tuples,
    content_hash=st.none() | short_texts,
    protocol_version=st.none() | short_texts,
    renderer_url=st.none() | short_texts,
    sandbox=st.none() | short_texts,
    legacy_csp=st.none() | short_texts,
    csp_policy=st.none() | csp_policies,
    fallback=st.none() | short_texts,
    extra=extras(RESOURCE_UI_FIELDS),
)
settable_holders = st.builds(
    lambda meta, ui: {"name": "t", "_meta": meta if ui is None else {**meta, "ui": ui}},
    st.dictionaries(st.text(max_size=8).filter(lambda key: key != "ui"), json_values, max_size=3),
    st.none() | st.dictionaries(st.text(max_size=8), json_values, max_size=3),
)


def expected_after_set(holder: dict[str, Any], ui: Any, modeled: tuple[str, ...]) -> Any:
    old_ui = holder["_meta"].get("ui") or {}
    kept = {key: value for key, value in old_ui.items() if key not in modeled}
    return dataclasses.replace(ui, extra={**kept, **ui.extra})


def value_or_hostcompat_error(read: Callable[[Any], object], holder: Any) -> None:
    with contextlib.suppress(HostCompatError):
        read(holder)


# --- arbitrary input: a value or a HostCompatError --------------------------------------------------------------


@given(metas)
def test_every_reader_gives_a_value_or_a_hostcompat_error_for_any_json_meta(meta: Any) -> None:
    holder = {"name": "t", "_meta": meta}
    block = {"type": "resource", "resource": {"uri": "ui://a", "_meta": meta}, "_meta": meta}
    for read in (get_tool_ui, get_resource_ui, tool_ui_resource_uri, is_app_only, is_model_only):
        value_or_hostcompat_error(read, holder)
    value_or_hostcompat_error(get_embedded_resource_ui, block)
    value_or_hostcompat_error(lambda item: resolve_resource_ui(item, holder), holder)


@given(json_values)
def test_any_json_value_as_a_holder_gives_a_value_or_a_hostcompat_error(value: Any) -> None:
    for read in (get_tool_ui, get_resource_ui, get_embedded_resource_ui, tool_ui_resource_uri):
        value_or_hostcompat_error(read, value)


@given(metas, tool_uis, resource_uis)
def test_setting_never_mutates_the_input_even_when_it_fails(
    meta: Any, tool_ui: ToolUI, resource_ui: ResourceUI
) -> None:
    holder = {"name": "t", "_meta": meta}
    snapshot = copy.deepcopy(holder)
    for write in (
        lambda h: set_tool_ui(h, tool_ui),
        lambda h: set_resource_ui(h, resource_ui),
        clear_tool_ui,
        clear_resource_ui,
    ):
        value_or_hostcompat_error(write, holder)
        assert holder == snapshot


@given(metas)
def test_a_parsed_ui_writes_back_to_the_same_typed_value(meta: Any) -> None:
    holder = {"name": "t", "_meta": meta}
    for read, parse in ((get_tool_ui, ToolUI.from_wire), (get_resource_ui, ResourceUI.from_wire)):
        try:
            parsed = read(holder)
        except HostCompatError:
            continue
        if parsed is not None:
            wire = parsed.to_wire()
            json.dumps(wire)
            assert parse(wire) == parsed


# --- typed values: round trips ----------------------------------------------------------------------------------


@given(tool_uis)
def test_tool_ui_survives_to_wire_and_back(ui: ToolUI) -> None:
    assert ToolUI.from_wire(ui.to_wire()) == ui


@given(resource_uis)
def test_resource_ui_survives_to_wire_and_back_with_the_csp_object_winning(ui: ResourceUI) -> None:
    expected = ui if ui.csp is None else dataclasses.replace(ui, legacy_csp=None)
    assert ResourceUI.from_wire(ui.to_wire()) == expected


@given(settable_holders, tool_uis, st.booleans())
def test_getting_after_setting_a_tool_ui_gives_it_back(holder: dict[str, Any], ui: ToolUI, flat: bool) -> None:
    snapshot = copy.deepcopy(holder)
    written = set_tool_ui(holder, ui, write_flat_key=flat)
    assert holder == snapshot
    assert get_tool_ui(written) == expected_after_set(holder, ui, TOOL_UI_FIELDS)
    assert (RESOURCE_URI_META_KEY in written["_meta"]) is (flat and ui.resource_uri is not None)
    json.dumps(written)
    assert get_tool_ui(clear_tool_ui(written)) is None


@given(settable_holders, resource_uis)
def test_getting_after_setting_a_resource_ui_gives_it_back(holder: dict[str, Any], ui: ResourceUI) -> None:
    snapshot = copy.deepcopy(holder)
    written = set_resource_ui(holder, ui)
    assert holder == snapshot
    stored = ui if ui.csp is None else dataclasses.replace(ui, legacy_csp=None)
    assert get_resource_ui(written) == expected_after_set(holder, stored, RESOURCE_UI_FIELDS)
    assert resolve_resource_ui(written, {"_meta": {"ui": {"domain": "listing"}}}) == get_resource_ui(written)
    assert get_resource_ui(clear_resource_ui(written)) is None


@given(resource_uis)
def test_getting_after_setting_an_embedded_resource_ui_gives_it_back(ui: ResourceUI) -> None:
    block = {"type": "resource", "resource": {"uri": "ui://a", "text": "<html></html>"}}
    written = set_embedded_resource_ui(block, ui)
    stored = ui if ui.csp is None else dataclasses.replace(ui, legacy_csp=None)
    assert get_embedded_resource_ui(written) == stored
    assert written["_meta"] == written["resource"]["_meta"]


@given(tool_uis, st.dictionaries(st.text(max_size=8).filter(lambda key: key != "ui"), json_values, max_size=3))
def test_getting_after_setting_a_tool_ui_on_an_sdk_model_gives_it_back(ui: ToolUI, meta: dict[str, Any]) -> None:
    model = mcp_types.Tool(name="t", input_schema={"type": "object"}, _meta=meta or None)
    snapshot = model.model_dump(by_alias=True)
    written = set_tool_ui(model, ui)
    assert model.model_dump(by_alias=True) == snapshot
    assert get_tool_ui(written) == ui
