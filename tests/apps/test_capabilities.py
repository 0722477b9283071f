import copy
from typing import Any

import mcp.types as mcp_types
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from hostcompat.apps.capabilities.access import (
    UICapability,
    client_ui_capable,
    get_ui_capability,
    server_ui_capable,
    set_client_capability,
    set_server_capability,
)
from hostcompat.apps.constants import (
    EXTENSION_ID,
    LATEST_PROTOCOL_VERSION,
    RESOURCE_MIME_TYPE,
    RESOURCE_URI_META_KEY,
)
from hostcompat.errors import HostCompatError, InvalidCapability
from tests.apps.capability_strategies import (
    VENDOR,
    LegacyClientCapabilities,
    caps_values,
    json_values,
    mime_strings,
    ui_caps,
)


class ClosedCapabilities(BaseModel):
    """A capabilities model that has no `extensions` field and drops extra keys."""

    model_config = ConfigDict(extra="ignore")
    experimental: dict[str, dict[str, Any]] | None = None


# --- C1, acceptance case 1 -----------------------------------------------------------------------------


def test_pinned_identifiers_are_the_spec_values() -> None:
    assert EXTENSION_ID == "io.modelcontextprotocol/ui"
    assert RESOURCE_MIME_TYPE == "text/html;profile=mcp-app"
    assert RESOURCE_URI_META_KEY == "ui/resourceUri"
    assert LATEST_PROTOCOL_VERSION == "2026-01-26"


# --- reading: case 2, C5 -------------------------------------------------------------------------------


def test_get_reads_the_payload_under_extensions() -> None:
    capability = get_ui_capability(ui_caps({"mimeTypes": [RESOURCE_MIME_TYPE]}))
    assert capability == UICapability(mime_types=(RESOURCE_MIME_TYPE,))
    assert capability is not None
    assert capability.to_payload() == {"mimeTypes": [RESOURCE_MIME_TYPE]}
    assert capability.source == "extensions"
    assert not capability.non_standard


@pytest.mark.parametrize(
    "caps",
    [None, {}, {"extensions": {}}, {"extensions": None}, ui_caps(None), mcp_types.ClientCapabilities()],
)
def test_get_returns_none_when_no_capability_is_declared(caps: Any) -> None:
    assert get_ui_capability(caps) is None


def test_get_returns_none_for_empty_sdk_models_on_both_sides() -> None:
    assert get_ui_capability(mcp_types.ClientCapabilities()) is None
    assert get_ui_capability(mcp_types.ServerCapabilities()) is None
    assert not client_ui_capable(mcp_types.ClientCapabilities())
    assert not server_ui_capable(mcp_types.ServerCapabilities())


def test_get_keeps_unknown_payload_keys_as_read_only_extra() -> None:
    payload: dict[str, Any] = {"mimeTypes": [RESOURCE_MIME_TYPE], "features": {"x": [1]}, "sandboxPolicies": ["strict"]}
    capability = get_ui_capability(ui_caps(payload))
    assert capability is not None
    assert dict(capability.extra) == {"features": {"x": [1]}, "sandboxPolicies": ["strict"]}
    with pytest.raises(TypeError):
        capability.extra["features"] = None  # type: ignore[index]  # proving the mapping is read-only
    payload["features"]["x"].append(2)
    assert capability.extra["features"] == {"x": [1]}


def test_get_reads_the_legacy_protocol_version() -> None:
    capability = get_ui_capability(ui_caps({"mimeTypes": [], "protocolVersion": "1.0.0"}))
    assert capability is not None
    assert capability.protocol_version == "1.0.0"


def test_get_reads_an_mcp_2_client_capabilities_model() -> None:
    caps = mcp_types.ClientCapabilities(extensions={EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}})
    assert get_ui_capability(caps) == UICapability()
    assert client_ui_capable(caps)


def test_get_reads_extensions_kept_as_a_pydantic_extra_like_mcp_1() -> None:
    caps = LegacyClientCapabilities.model_validate(ui_caps({"mimeTypes": [RESOURCE_MIME_TYPE]}))
    assert caps.model_extra == ui_caps({"mimeTypes": [RESOURCE_MIME_TYPE]})
    assert get_ui_capability(caps) == UICapability()
    assert client_ui_capable(caps)


def test_get_unwraps_initialize_params_as_a_dict_and_as_an_sdk_model() -> None:
    params = {
        "protocolVersion": "2025-11-25",
        "capabilities": ui_caps({"mimeTypes": [RESOURCE_MIME_TYPE]}),
        "clientInfo": {"name": "probe", "version": "1"},
    }
    assert get_ui_capability(params) == UICapability()
    model = mcp_types.InitializeRequestParams.model_validate(params)
    assert get_ui_capability(model) == UICapability()
    assert client_ui_capable(model)


def test_experimental_is_ignored_unless_allowed_and_then_marked_non_standard() -> None:
    caps = ui_caps({"mimeTypes": [RESOURCE_MIME_TYPE]}, slot="experimental")
    assert get_ui_capability(caps) is None
    capability = get_ui_capability(caps, allow_experimental=True)
    assert capability is not None
    assert capability.source == "experimental"
    assert capability.non_standard
    assert not client_ui_capable(caps)


def test_extensions_wins_over_experimental_when_both_are_present() -> None:
    caps = {
        "extensions": {EXTENSION_ID: {"mimeTypes": ["a/b"]}},
        "experimental": {EXTENSION_ID: {"mimeTypes": ["c/d"]}},
    }
    capability = get_ui_capability(caps, allow_experimental=True)
    assert capability == UICapability(mime_types=("a/b",))


def test_experimental_is_read_from_an_sdk_model_when_allowed() -> None:
    caps = mcp_types.ClientCapabilities(experimental={EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}})
    capability = get_ui_capability(caps, allow_experimental=True)
    assert capability == UICapability(source="experimental")


@pytest.mark.parametrize(
    ("caps", "offending"),
    [
        ({"extensions": ["io.modelcontextprotocol/ui"]}, ["io.modelcontextprotocol/ui"]),
        (ui_caps(["text/html;profile=mcp-app"]), ["text/html;profile=mcp-app"]),
        (ui_caps({"mimeTypes": RESOURCE_MIME_TYPE}), RESOURCE_MIME_TYPE),
        (ui_caps({"mimeTypes": [RESOURCE_MIME_TYPE, 7]}), 7),
        (ui_caps({"mimeTypes": [], "protocolVersion": 1}), 1),
        ({"protocolVersion": "2025-11-25", "capabilities": "none"}, "none"),
        (42, 42),
        ("extensions", "extensions"),
    ],
)
def test_get_raises_invalid_capability_carrying_the_value_of_a_wrong_shape(caps: Any, offending: Any) -> None:
    with pytest.raises(InvalidCapability) as caught:
        get_ui_capability(caps)
    assert caught.value.value == offending


def test_get_refuses_an_absurd_number_of_mime_types() -> None:
    with pytest.raises(InvalidCapability, match="more than"):
        get_ui_capability(ui_caps({"mimeTypes": ["a/b"] * 10_000}))


# --- K1, K4, case 3 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mime_types",
    [None, [], ["text/html"], ["application/json"], [RESOURCE_MIME_TYPE.upper()], ["text/html; profile=mcp-app"]],
)
def test_client_is_not_capable_without_the_exact_mime_type(mime_types: Any) -> None:
    assert not client_ui_capable(ui_caps({"mimeTypes": mime_types}))


def test_client_capability_needs_the_extension_key_and_the_exact_mime_type() -> None:
    assert not client_ui_capable(None)
    assert not client_ui_capable({})
    assert not client_ui_capable(ui_caps({}))
    assert client_ui_capable(ui_caps({"mimeTypes": ["text/markdown", RESOURCE_MIME_TYPE]}))
    assert client_ui_capable(set_client_capability({}))


def test_server_capability_is_false_until_set() -> None:
    assert not server_ui_capable(None)
    assert server_ui_capable(set_server_capability(None))
    assert server_ui_capable(set_server_capability(mcp_types.ServerCapabilities()))


def test_a_malformed_payload_is_not_capable_but_a_non_object_caps_raises() -> None:
    assert not client_ui_capable(ui_caps("yes"))
    assert not client_ui_capable({"extensions": "yes"})
    assert not server_ui_capable(ui_caps({"mimeTypes": [RESOURCE_MIME_TYPE, None]}))
    with pytest.raises(InvalidCapability):
        client_ui_capable(["extensions"])


# --- writing: C2, C3, C4, C6, cases 4 and 5 ------------------------------------------------------------


def test_set_keeps_other_extensions_and_reads_back_what_was_set() -> None:
    caps = {"extensions": {VENDOR: {"hello": "world"}}}
    updated = set_client_capability(caps, mime_types=[RESOURCE_MIME_TYPE], protocol_version="1.0.0")
    assert updated["extensions"][VENDOR] == {"hello": "world"}
    assert get_ui_capability(updated) == UICapability((RESOURCE_MIME_TYPE,), "1.0.0")


def test_set_on_empty_or_no_caps_allocates_extensions() -> None:
    empty: tuple[dict[str, Any] | None, ...] = (None, {})
    for caps in empty:
        updated = set_client_capability(caps)
        assert updated == {"extensions": {EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}}}


def test_server_capability_round_trips_protocol_version_and_mime_types() -> None:
    wanted = UICapability((RESOURCE_MIME_TYPE, "text/markdown"), "1.2.3")
    as_dict = set_server_capability({}, mime_types=wanted.mime_types, protocol_version="1.2.3")
    as_model = set_server_capability(
        mcp_types.ServerCapabilities(), mime_types=wanted.mime_types, protocol_version="1.2.3"
    )
    assert get_ui_capability(as_dict) == wanted
    assert get_ui_capability(as_model) == wanted


def test_set_replaces_the_payload_wholesale_and_keeps_the_vendor_entry() -> None:
    caps = {"extensions": {EXTENSION_ID: {"legacy": True, "mimeTypes": ["x/y"]}, VENDOR: {"keep": 42}}}
    updated = set_client_capability(caps)
    assert updated["extensions"][EXTENSION_ID] == {"mimeTypes": [RESOURCE_MIME_TYPE]}
    assert updated["extensions"][VENDOR] == {"keep": 42}


def test_set_writes_no_protocol_version_unless_given() -> None:
    updated = set_client_capability({"extensions": {VENDOR: {"hello": "world"}}}, mime_types=[RESOURCE_MIME_TYPE])
    assert "protocolVersion" not in updated["extensions"][EXTENSION_ID]


def test_set_writes_extra_keys_beside_mime_types() -> None:
    updated = set_client_capability(None, extra={"features": {"x": True}})
    assert updated["extensions"][EXTENSION_ID] == {"mimeTypes": [RESOURCE_MIME_TYPE], "features": {"x": True}}


def test_set_on_a_dict_returns_a_deep_copy_and_leaves_the_input_alone() -> None:
    caps = {"extensions": {VENDOR: {"list": [1]}}, "experimental": {"x": {"k": 1}}, "sampling": {}}
    before = copy.deepcopy(caps)
    updated = set_client_capability(caps)
    assert caps == before
    updated["extensions"][VENDOR]["list"].append(2)
    updated["experimental"]["x"]["k"] = 2
    assert caps == before
    assert updated["sampling"] == {}


def test_set_on_an_sdk_model_returns_a_new_model_of_the_same_class() -> None:
    caps = mcp_types.ClientCapabilities(extensions={VENDOR: {"keep": 42}}, experimental={"x": {}})
    before = caps.model_dump()
    updated = set_client_capability(caps, protocol_version="1.0.0")
    assert type(updated) is mcp_types.ClientCapabilities
    assert caps.model_dump() == before
    assert updated.extensions == {
        VENDOR: {"keep": 42},
        EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE], "protocolVersion": "1.0.0"},
    }
    assert updated.experimental == {"x": {}}
    wire = updated.model_dump(by_alias=True, exclude_none=True)
    assert wire["extensions"][EXTENSION_ID]["mimeTypes"] == [RESOURCE_MIME_TYPE]


def test_set_on_an_mcp_1_like_model_writes_the_pydantic_extra() -> None:
    caps = LegacyClientCapabilities.model_validate({"extensions": {VENDOR: {"keep": 1}}})
    updated = set_client_capability(caps)
    assert type(updated) is LegacyClientCapabilities
    assert updated.model_extra == {
        "extensions": {VENDOR: {"keep": 1}, EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}}
    }
    assert caps.model_extra == {"extensions": {VENDOR: {"keep": 1}}}
    assert updated.model_dump()["extensions"][EXTENSION_ID] == {"mimeTypes": [RESOURCE_MIME_TYPE]}


def test_set_refuses_a_model_that_would_drop_extensions() -> None:
    caps = ClosedCapabilities()
    with pytest.raises(InvalidCapability, match="drops extra keys") as caught:
        set_server_capability(caps)
    assert caught.value.value is caps


def test_set_refuses_initialize_params_instead_of_capabilities() -> None:
    params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}
    with pytest.raises(InvalidCapability, match="initialize params"):
        set_client_capability(params)


@pytest.mark.parametrize(
    ("kwargs", "offending"),
    [
        ({"mime_types": RESOURCE_MIME_TYPE}, RESOURCE_MIME_TYPE),
        ({"mime_types": [RESOURCE_MIME_TYPE, 3]}, 3),
        ({"protocol_version": 1}, 1),
        ({"extra": {"mimeTypes": []}}, "mimeTypes"),
        ({"extra": {1: "x"}}, 1),
        ({"extra": ["features"]}, ["features"]),
    ],
)
def test_set_rejects_bad_arguments_with_the_value(kwargs: dict[str, Any], offending: Any) -> None:
    with pytest.raises(InvalidCapability) as caught:
        set_client_capability({}, **kwargs)
    assert caught.value.value == offending


def test_set_rejects_a_malformed_extensions_map_it_would_have_to_keep() -> None:
    with pytest.raises(InvalidCapability) as caught:
        set_client_capability({"extensions": ["vendor"]})
    assert caught.value.value == ["vendor"]


def test_set_leaves_experimental_alone() -> None:
    caps = ui_caps({"mimeTypes": ["old/x"]}, slot="experimental")
    updated = set_client_capability(caps)
    assert updated["experimental"] == caps["experimental"]
    assert client_ui_capable(updated)


def test_ui_capability_supports_compares_bytes_exactly() -> None:
    capability = UICapability(("Text/HTML;profile=mcp-app",))
    assert not capability.supports()
    assert capability.supports("Text/HTML;profile=mcp-app")
    with pytest.raises(InvalidCapability):
        UICapability(source="other")  # type: ignore[arg-type]  # proving the runtime check


# --- properties ----------------------------------------------------------------------------------------

extra_maps = st.dictionaries(
    st.text(max_size=8).filter(lambda key: key not in ("mimeTypes", "protocolVersion")), json_values, max_size=3
)
capabilities = st.builds(
    UICapability,
    mime_types=st.lists(mime_strings, max_size=4).map(tuple),
    protocol_version=st.none() | st.text(max_size=8),
    extra=extra_maps,
)


@given(caps_values, st.booleans())
def test_reading_arbitrary_json_gives_a_value_none_or_a_hostcompat_error(caps: Any, allow: bool) -> None:
    before = copy.deepcopy(caps)
    try:
        capability = get_ui_capability(caps, allow_experimental=allow)
    except HostCompatError:
        pass
    else:
        assert capability is None or isinstance(capability, UICapability)
    assert caps == before


@given(capabilities, st.one_of(st.none(), st.just({}), st.just({"extensions": {VENDOR: {"k": [1]}}})))
def test_get_after_set_gives_back_what_was_set(capability: UICapability, caps: Any) -> None:
    before = copy.deepcopy(caps)
    for setter in (set_client_capability, set_server_capability):
        updated = setter(
            caps,
            mime_types=capability.mime_types,
            protocol_version=capability.protocol_version,
            extra=capability.extra,
        )
        assert get_ui_capability(updated) == capability
    assert caps == before


@given(capabilities)
def test_get_after_set_round_trips_through_sdk_models(capability: UICapability) -> None:
    models = (
        mcp_types.ClientCapabilities(extensions={VENDOR: {}}),
        mcp_types.ServerCapabilities(),
        LegacyClientCapabilities(),
    )
    for caps in models:
        before = caps.model_dump()
        updated = set_server_capability(
            caps, mime_types=capability.mime_types, protocol_version=capability.protocol_version, extra=capability.extra
        )
        assert get_ui_capability(updated) == capability
        assert caps.model_dump() == before


@given(caps_values)
def test_set_never_mutates_and_raises_only_hostcompat_errors(caps: Any) -> None:
    before = copy.deepcopy(caps)
    try:
        updated = set_client_capability(caps)
    except HostCompatError:
        pass
    else:
        assert client_ui_capable(updated)
    assert caps == before
