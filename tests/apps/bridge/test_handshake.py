import copy
from typing import Any

import pytest

from hostcompat.apps.bridge import codes
from hostcompat.apps.bridge.context import HostContext
from hostcompat.apps.bridge.handshake import (
    AppCapabilities,
    ContentModalities,
    HostCapabilities,
    Implementation,
    ListChangedCapability,
    SamplingCapability,
    SandboxCapability,
    UiInitializeParams,
    UiInitializeResult,
)
from hostcompat.errors import InvalidBridgeMessage
from tests.apps.bridge.examples import HOST_CAPABILITIES, INITIALIZE_PARAMS, INITIALIZE_RESULT


def test_every_host_capability_is_read_into_its_field() -> None:
    capabilities = HostCapabilities.from_wire(HOST_CAPABILITIES)
    assert capabilities == HostCapabilities(
        experimental={"vendor.example/feature": {}},
        open_links={},
        server_tools=ListChangedCapability(list_changed=True),
        server_resources=ListChangedCapability(list_changed=False),
        logging={},
        sandbox=SandboxCapability(
            permissions={"clipboardWrite": {}}, csp={"connectDomains": ["https://api.example.com"]}
        ),
        download_file={},
        update_model_context=ContentModalities(text={}, image={}, structured_content={}),
        message=ContentModalities(text={}, resource_link={}),
        sampling=SamplingCapability(tools={}),
    )
    assert capabilities.to_wire() == HOST_CAPABILITIES


def test_an_empty_host_capabilities_object_declares_nothing() -> None:
    capabilities = HostCapabilities.from_wire({})
    assert capabilities == HostCapabilities()
    assert capabilities.to_wire() == {}
    assert not capabilities.declares("openLinks")


def test_declares_follows_dotted_keys_and_treats_false_flags_as_undeclared() -> None:
    capabilities = HostCapabilities.from_wire(HOST_CAPABILITIES)
    assert capabilities.declares("serverTools.listChanged")
    assert capabilities.declares("serverResources")
    assert not capabilities.declares("serverResources.listChanged")
    assert capabilities.declares("sampling.tools")
    assert not capabilities.declares("message.image")
    assert not capabilities.declares("openLinks.nothing")


def test_unknown_capabilities_and_subkeys_are_kept() -> None:
    wire = {"openLinks": {"confirm": True}, "serverTools": {"listChanged": True, "paged": {}}, "future": {"x": 1}}
    capabilities = HostCapabilities.from_wire(wire)
    assert capabilities.extra == {"future": {"x": 1}}
    assert capabilities.server_tools == ListChangedCapability(list_changed=True, extra={"paged": {}})
    assert capabilities.to_wire() == wire
    assert capabilities.declares("future")


@pytest.mark.parametrize(
    ("wire", "field"),
    [
        ({"openLinks": True}, "hostCapabilities.openLinks"),
        ({"serverTools": {"listChanged": 1}}, "hostCapabilities.serverTools.listChanged"),
        ({"sandbox": {"csp": ["https://x"]}}, "hostCapabilities.sandbox.csp"),
        ({"message": {"image": True}}, "hostCapabilities.message.image"),
        ({"sampling": []}, "hostCapabilities.sampling"),
        ([], "hostCapabilities"),
    ],
)
def test_a_capability_of_the_wrong_type_is_rejected_naming_it(wire: Any, field: str) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        HostCapabilities.from_wire(wire)
    assert caught.value.rule_id == codes.BRIDGE_BAD_FIELD
    assert caught.value.message.startswith(f"{field}:")


def test_app_capabilities_read_tools_display_modes_and_experimental() -> None:
    capabilities = AppCapabilities.from_wire(INITIALIZE_PARAMS["appCapabilities"])
    assert capabilities.tools == ListChangedCapability(list_changed=True)
    assert capabilities.available_display_modes == ("inline", "fullscreen")
    assert capabilities.declares("tools.listChanged")
    assert capabilities.to_wire() == INITIALIZE_PARAMS["appCapabilities"]


def test_an_empty_display_mode_list_stays_distinct_from_an_absent_one() -> None:
    assert AppCapabilities.from_wire({"availableDisplayModes": []}).available_display_modes == ()
    assert AppCapabilities.from_wire({}).available_display_modes is None
    assert AppCapabilities(available_display_modes=()).to_wire() == {"availableDisplayModes": []}


def test_initialize_params_round_trip_exactly() -> None:
    params = UiInitializeParams.from_wire(INITIALIZE_PARAMS)
    assert params.app_info == Implementation(name="weather-view", version="1.4.0", extra={"title": "Weather"})
    assert params.to_wire() == INITIALIZE_PARAMS


@pytest.mark.parametrize("missing", ["appInfo", "appCapabilities", "protocolVersion"])
def test_initialize_params_require_all_three_fields(missing: str) -> None:
    wire = {key: value for key, value in INITIALIZE_PARAMS.items() if key != missing}
    with pytest.raises(InvalidBridgeMessage) as caught:
        UiInitializeParams.from_wire(wire)
    assert caught.value.message.startswith(f"params.{missing}:")


def test_initialize_result_round_trips_exactly() -> None:
    result = UiInitializeResult.from_wire(INITIALIZE_RESULT)
    assert result.protocol_version == "2026-01-26"
    assert result.host_info == Implementation(name="ExampleHost", version="2.1.0")
    assert result.host_context == HostContext.from_wire(INITIALIZE_RESULT["hostContext"])
    assert result.to_wire() == INITIALIZE_RESULT


@pytest.mark.parametrize("missing", ["protocolVersion", "hostInfo", "hostCapabilities", "hostContext"])
def test_initialize_result_requires_all_four_fields(missing: str) -> None:
    wire = {key: value for key, value in INITIALIZE_RESULT.items() if key != missing}
    with pytest.raises(InvalidBridgeMessage) as caught:
        UiInitializeResult.from_wire(wire)
    assert caught.value.message.startswith(f"result.{missing}:")


def test_an_implementation_needs_string_name_and_version() -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        Implementation.from_wire({"name": "x", "version": 1}, "result.hostInfo")
    assert caught.value.message.startswith("result.hostInfo.version:")


def test_reading_and_writing_never_share_objects_with_the_caller() -> None:
    wire = copy.deepcopy(HOST_CAPABILITIES)
    capabilities = HostCapabilities.from_wire(wire)
    wire["sandbox"]["permissions"]["camera"] = {}
    assert capabilities.to_wire() == HOST_CAPABILITIES
    out = capabilities.to_wire()
    out["experimental"]["vendor.example/feature"]["x"] = 1
    assert capabilities.to_wire() == HOST_CAPABILITIES
