import copy
from typing import Any

import mcp_types
import pytest

from hostcompat.apps import constants
from hostcompat.apps.meta.access import (
    CSPPolicy,
    ResourceCSP,
    ResourcePermissions,
    ResourceUI,
    ToolUI,
    clear_embedded_resource_ui,
    clear_resource_ui,
    get_embedded_resource_ui,
    get_resource_ui,
    resolve_resource_ui,
    set_embedded_resource_ui,
    set_resource_ui,
)
from hostcompat.errors import InvalidUIMeta

M6_RESOURCE_UI = ResourceUI(
    allowed_tools=("chat.reply",),
    allowed_tool_bundles=("mcp_ui_preview_queue",),
    content_hash="sha256:abc",
    protocol_version="1.0.0",
    renderer_url="/mcp-ui-forge-window.html?windowKey=order",
    sandbox="allow-scripts allow-same-origin",
    csp_policy=CSPPolicy(
        script_src=("https://cdn.example",), connect_src=("https://api.example",), script_strict_dynamic=True
    ),
    legacy_csp="default-src 'none'; script-src 'nonce-{{nonce}}'",
)


def contents(meta: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"uri": "ui://x/demo/y", "mimeType": constants.RESOURCE_MIME_TYPE, "text": "<html></html>"}
    if meta is not None:
        out["_meta"] = meta
    return out


# --- strictness -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ui", "key"),
    [
        ({"prefersBorder": "false"}, "prefersBorder"),
        ({"csp": 5}, "csp"),
        ({"csp": {"connectDomains": "https://a"}}, "connectDomains"),
        ({"csp": {"wasmUnsafeEval": 1}}, "wasmUnsafeEval"),
        ({"permissions": {"camera": True}}, "camera"),
        ({"permissions": []}, "permissions"),
        ({"cspPolicy": {"scriptStrictDynamic": "yes"}}, "scriptStrictDynamic"),
        ({"cspPolicy": {"imgSrc": [None]}}, "imgSrc"),
        ({"linkTrustedDomains": "https://a"}, "linkTrustedDomains"),
        ({"domain": ["a"]}, "domain"),
    ],
)
def test_a_resource_ui_field_of_the_wrong_type_is_an_error_naming_the_key(ui: dict[str, Any], key: str) -> None:
    with pytest.raises(InvalidUIMeta) as caught:
        get_resource_ui(contents({"ui": ui}))
    assert key in str(caught.value)


# --- M6 to M11: resources ---------------------------------------------------------------------------------------


def test_the_viant_resource_example_round_trips_exactly() -> None:
    written = set_resource_ui({"uri": "ui://x/demo/y", "name": "demo"}, M6_RESOURCE_UI)
    assert written["_meta"]["ui"] == {
        "csp": "default-src 'none'; script-src 'nonce-{{nonce}}'",
        "allowedTools": ["chat.reply"],
        "allowedToolBundles": ["mcp_ui_preview_queue"],
        "contentHash": "sha256:abc",
        "protocolVersion": "1.0.0",
        "rendererUrl": "/mcp-ui-forge-window.html?windowKey=order",
        "sandbox": "allow-scripts allow-same-origin",
        "cspPolicy": {
            "scriptSrc": ["https://cdn.example"],
            "connectSrc": ["https://api.example"],
            "scriptStrictDynamic": True,
        },
    }
    assert get_resource_ui(written) == M6_RESOURCE_UI


def test_resource_ui_round_trips_on_a_contents_item() -> None:
    ui = ResourceUI(allowed_tool_bundles=("ui_host_bundle",), content_hash="sha256:deadbeef", protocol_version="1.0.0")
    assert get_resource_ui(set_resource_ui(contents(), ui)) == ui


def test_setting_a_resource_ui_keeps_foreign_meta_and_unknown_ui_keys() -> None:
    original = contents({"vendor.other/feature": "keep", "ui": {"unrelated": 1}})
    written = set_resource_ui(original, ResourceUI(content_hash="sha256:1"))
    assert written["_meta"] == {"vendor.other/feature": "keep", "ui": {"unrelated": 1, "contentHash": "sha256:1"}}
    assert original["_meta"]["ui"] == {"unrelated": 1}


def test_clearing_a_resource_ui_removes_it() -> None:
    cleared = clear_resource_ui(contents({"ui": {"contentHash": "sha256:1"}}))
    assert "_meta" not in cleared
    assert get_resource_ui(cleared) is None


def test_a_legacy_csp_string_is_written_verbatim_and_left_out_when_unset() -> None:
    legacy = "default-src 'none'; script-src 'nonce-{nonce}'"
    written = set_resource_ui(contents(), ResourceUI(legacy_csp=legacy))
    assert written["_meta"]["ui"]["csp"] == legacy
    read = get_resource_ui(written)
    assert read is not None
    assert read.legacy_csp == legacy
    assert read.csp is None
    assert "csp" not in ResourceUI(legacy_csp="").to_wire()
    assert ResourceUI().legacy_csp is None


def test_the_csp_object_wins_over_the_legacy_string_on_write() -> None:
    wire = ResourceUI(csp=ResourceCSP(connect_domains=("https://a",)), legacy_csp="default-src 'none'").to_wire()
    assert wire["csp"] == {"connectDomains": ["https://a"]}


def test_a_full_csp_policy_round_trips() -> None:
    policy = CSPPolicy(("s",), ("st",), ("c",), ("i",), ("f",), script_strict_dynamic=True)
    written = set_resource_ui(contents(), ResourceUI(csp_policy=policy))
    assert set(written["_meta"]["ui"]["cspPolicy"]) == {
        "scriptSrc",
        "styleSrc",
        "connectSrc",
        "imgSrc",
        "fontSrc",
        "scriptStrictDynamic",
    }
    read = get_resource_ui(written)
    assert read is not None
    assert read.csp_policy == policy


def test_allowed_tools_given_as_a_json_list_parse_to_strings() -> None:
    read = get_resource_ui(contents({"ui": {"allowedTools": ["a", "b"]}}))
    assert read is not None
    assert read.allowed_tools == ("a", "b")
    assert ToolUI.from_wire({"allowedTools": ("a", "b")}).allowed_tools == ("a", "b")


# --- M13 and case 10: official resource keys --------------------------------------------------------------------


def test_an_official_csp_object_round_trips_and_prefers_border_false_is_kept() -> None:
    ui = ResourceUI(
        csp=ResourceCSP(connect_domains=("https://api.example",), frame_domains=("https://frame.example",)),
        prefers_border=False,
    )
    written = set_resource_ui(contents(), ui)
    assert written["_meta"]["ui"] == {
        "csp": {"connectDomains": ["https://api.example"], "frameDomains": ["https://frame.example"]},
        "prefersBorder": False,
    }
    assert get_resource_ui(written) == ui


def test_the_csp_object_writes_only_non_empty_lists() -> None:
    assert ResourceCSP().to_wire() == {}
    assert ResourceUI(csp=ResourceCSP()).to_wire() == {"csp": {}}
    assert ResourceCSP(base_uri_domains=("https://b",)).to_wire() == {"baseUriDomains": ["https://b"]}


def test_wasm_unsafe_eval_and_link_trusted_domains_round_trip() -> None:
    ui = ResourceUI(csp=ResourceCSP(wasm_unsafe_eval=False), link_trusted_domains=())
    assert ui.to_wire() == {"csp": {"wasmUnsafeEval": False}, "linkTrustedDomains": []}
    assert ResourceUI.from_wire(ui.to_wire()) == ui


# --- M14 and case 11: permissions -------------------------------------------------------------------------------


def test_requested_permissions_round_trip_and_a_later_set_without_them_removes_them() -> None:
    ui = ResourceUI(permissions=ResourcePermissions(camera=True, clipboard_write=True))
    written = set_resource_ui(contents(), ui)
    assert written["_meta"]["ui"]["permissions"] == {"camera": {}, "clipboardWrite": {}}
    assert get_resource_ui(written) == ui
    rewritten = set_resource_ui(written, ResourceUI(domain="sandbox.example"))
    assert rewritten["_meta"]["ui"] == {"domain": "sandbox.example"}


def test_an_empty_permissions_object_is_written_as_an_empty_object() -> None:
    assert ResourceUI(permissions=ResourcePermissions()).to_wire() == {"permissions": {}}


# --- case 28: metadata location ---------------------------------------------------------------------------------


def test_the_content_item_ui_beats_the_listing_entry_ui() -> None:
    item = contents({"ui": {"domain": "item.example"}})
    listing = {"uri": "ui://x/demo/y", "name": "y", "_meta": {"ui": {"domain": "listing.example", "sandbox": "s"}}}
    assert resolve_resource_ui(item, listing) == ResourceUI(domain="item.example")


def test_the_listing_entry_ui_is_used_only_when_the_item_has_none() -> None:
    listing = {"uri": "ui://x/demo/y", "name": "y", "_meta": {"ui": {"domain": "listing.example"}}}
    assert resolve_resource_ui(contents(), listing) == ResourceUI(domain="listing.example")
    assert resolve_resource_ui(contents({"ui": {}}), listing) == ResourceUI()
    assert resolve_resource_ui(contents()) is None
    assert resolve_resource_ui(contents(), {"uri": "ui://x"}) is None


# --- embedded resource blocks -----------------------------------------------------------------------------------


def test_setting_an_embedded_resource_ui_writes_both_locations() -> None:
    block = {"type": "resource", "resource": contents()}
    snapshot = copy.deepcopy(block)
    ui = ResourceUI(fallback=constants.FALLBACK_EMBEDDED, content_hash="sha256:1")
    written = set_embedded_resource_ui(block, ui)
    assert block == snapshot
    assert written["_meta"]["ui"] == written["resource"]["_meta"]["ui"] == ui.to_wire()
    assert get_embedded_resource_ui(written) == ui


def test_reading_an_embedded_resource_prefers_the_inner_resource_then_the_block() -> None:
    inner = {"type": "resource", "resource": contents({"ui": {"domain": "inner"}}), "_meta": {"ui": {"domain": "o"}}}
    assert get_embedded_resource_ui(inner) == ResourceUI(domain="inner")
    outer = {"type": "resource", "resource": contents(), "_meta": {"ui": {"domain": "outer"}}}
    assert get_embedded_resource_ui(outer) == ResourceUI(domain="outer")
    assert get_embedded_resource_ui({"type": "resource", "resource": contents()}) is None


def test_clearing_an_embedded_resource_ui_clears_both_locations() -> None:
    written = set_embedded_resource_ui({"type": "resource", "resource": contents()}, ResourceUI(domain="d"))
    cleared = clear_embedded_resource_ui(written)
    assert "_meta" not in cleared
    assert "_meta" not in cleared["resource"]


@pytest.mark.parametrize(
    "block",
    [{"type": "text", "text": "hi"}, {"resource": {"uri": "ui://a"}}, {"type": "resource"}],
    ids=["text-block", "no-type", "no-resource"],
)
def test_something_that_is_not_an_embedded_resource_block_is_an_error(block: dict[str, Any]) -> None:
    with pytest.raises(InvalidUIMeta):
        get_embedded_resource_ui(block)
    with pytest.raises(InvalidUIMeta):
        set_embedded_resource_ui(block, ResourceUI())


# --- pydantic models from the SDK --------------------------------------------------------------------------------


def test_resource_ui_round_trips_on_sdk_resource_and_contents_models() -> None:
    ui = ResourceUI(csp=ResourceCSP(resource_domains=("https://cdn.example",)), prefers_border=True)
    resource = mcp_types.Resource(uri="ui://x/demo/y", name="y", mime_type=constants.RESOURCE_MIME_TYPE)
    written_resource = set_resource_ui(resource, ui)
    assert isinstance(written_resource, mcp_types.Resource)
    assert resource.meta is None
    assert get_resource_ui(written_resource) == ui
    item = mcp_types.TextResourceContents(uri="ui://x/demo/y", text="<html></html>")
    written_item = set_resource_ui(item, ui)
    assert isinstance(written_item, mcp_types.TextResourceContents)
    assert written_item.model_dump(by_alias=True, exclude_none=True)["_meta"] == {"ui": ui.to_wire()}
    assert resolve_resource_ui(written_item, written_resource) == ui


def test_embedded_resource_ui_round_trips_on_an_sdk_model() -> None:
    block = mcp_types.EmbeddedResource(
        type="resource", resource=mcp_types.TextResourceContents(uri="ui://a/b", text="<html></html>")
    )
    ui = ResourceUI(fallback=constants.FALLBACK_EMBEDDED)
    written = set_embedded_resource_ui(block, ui)
    assert isinstance(written, mcp_types.EmbeddedResource)
    assert block.meta is None
    assert block.resource.meta is None
    assert written.meta == written.resource.meta == {"ui": {"fallback": "embedded"}}
    assert get_embedded_resource_ui(written) == ui
