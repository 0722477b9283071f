import copy
from typing import Any

import pytest

from hostcompat.apps.bridge import codes
from hostcompat.apps.bridge import methods as m
from hostcompat.apps.bridge.handshake import HostCapabilities, ListChangedCapability
from hostcompat.apps.bridge.negotiate import (
    ViewSession,
    after_view_message,
    check_app_tool_call,
    forward_to_server,
    forward_to_view,
    may_send_to_view,
    negotiate_protocol_version,
)
from hostcompat.apps.constants import LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS
from hostcompat.errors import InvalidBridgeMessage

BOTH = HostCapabilities(server_tools=ListChangedCapability(), server_resources=ListChangedCapability())


# Case 29


def test_a_supported_view_protocol_version_is_echoed() -> None:
    assert negotiate_protocol_version("2026-01-26") == "2026-01-26"
    for version in SUPPORTED_PROTOCOL_VERSIONS:
        assert negotiate_protocol_version(version) == version


@pytest.mark.parametrize("requested", ["2099-01-01", "2025-11-25", "", "1.0.0", None])
def test_an_unsupported_view_protocol_version_is_answered_with_the_latest(requested: str | None) -> None:
    assert negotiate_protocol_version(requested) == LATEST_PROTOCOL_VERSION == "2026-01-26"


# Case 30


@pytest.mark.parametrize(
    "method", [m.UI_SANDBOX_PROXY_READY, m.UI_SANDBOX_RESOURCE_READY, "ui/notifications/sandbox-x"]
)
def test_a_sandbox_proxy_never_forwards_its_own_handshake_to_the_view(method: str) -> None:
    assert not forward_to_view(method)


@pytest.mark.parametrize(
    "method",
    sorted({spec.name for spec in m.METHODS if not spec.name.startswith(m.SANDBOX_NOTIFICATION_PREFIX)}),
)
def test_a_sandbox_proxy_forwards_every_other_method(method: str) -> None:
    assert forward_to_view(method)


@pytest.mark.parametrize(
    ("method", "capabilities", "expected"),
    [
        (m.TOOLS_CALL, BOTH, True),
        (m.TOOLS_LIST, BOTH, True),
        (m.RESOURCES_READ, BOTH, True),
        (m.RESOURCES_LIST, BOTH, True),
        (m.RESOURCES_TEMPLATES_LIST, BOTH, True),
        (m.TOOLS_CALL, HostCapabilities(server_resources=ListChangedCapability()), False),
        (m.RESOURCES_READ, HostCapabilities(server_tools=ListChangedCapability()), False),
        (m.TOOLS_CALL, HostCapabilities(), False),
        (m.UI_OPEN_LINK, BOTH, False),
        (m.UI_MESSAGE, BOTH, False),
        (m.UI_INITIALIZE, BOTH, False),
        ("ui/tools/call", BOTH, False),
        (m.PING, BOTH, False),
        (m.LOGGING_MESSAGE, BOTH, False),
        (m.SAMPLING_CREATE_MESSAGE, BOTH, False),
        (m.TOOLS_LIST_CHANGED, BOTH, False),
        ("prompts/get", BOTH, False),
    ],
)
def test_a_host_forwards_to_the_server_only_non_ui_methods_its_capabilities_allow(
    method: str, capabilities: HostCapabilities, expected: bool
) -> None:
    assert forward_to_server(method, capabilities) is expected


def test_forward_to_server_accepts_capabilities_as_a_wire_mapping() -> None:
    assert forward_to_server(m.TOOLS_CALL, {"serverTools": {}})
    assert not forward_to_server(m.TOOLS_CALL, {"serverResources": {}})
    with pytest.raises(InvalidBridgeMessage):
        forward_to_server(m.TOOLS_CALL, {"serverTools": True})


def test_nothing_may_be_sent_to_the_view_before_it_is_initialized() -> None:
    session = ViewSession()
    for spec in m.METHODS:
        assert not may_send_to_view(session, spec.name)


def test_the_initialized_notification_opens_the_session_and_other_messages_do_not() -> None:
    session = ViewSession()
    for method in (m.UI_INITIALIZE, m.UI_SIZE_CHANGED, m.PING):
        session = after_view_message(session, method)
        assert not session.initialized
    opened = after_view_message(session, m.UI_INITIALIZED)
    assert opened.initialized
    assert not session.initialized
    assert after_view_message(opened, m.UI_SIZE_CHANGED) is opened


def test_after_initialized_the_host_may_send_exactly_its_host_to_view_methods() -> None:
    session = ViewSession(initialized=True)
    host_to_view = {spec.name for spec in m.METHODS if spec.direction is m.Direction.HOST_TO_VIEW}
    for spec in m.METHODS:
        assert may_send_to_view(session, spec.name) is (spec.name in host_to_view)
    assert may_send_to_view(session, m.UI_TOOL_RESULT)
    assert not may_send_to_view(session, m.UI_SANDBOX_RESOURCE_READY)
    assert not may_send_to_view(session, m.UI_OPEN_LINK)
    assert not may_send_to_view(session, "ui/notifications/unknown")


# Case 31


def tool(visibility: Any = None, *, has_visibility: bool = True) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": "refresh", "inputSchema": {"type": "object"}}
    if has_visibility:
        entry["_meta"] = {"ui": {"resourceUri": "ui://weather/view.html", "visibility": visibility}}
    return entry


@pytest.mark.parametrize(
    "entry",
    [
        tool(["app"]),
        tool(["model", "app"]),
        tool(("app", "model")),
        tool(has_visibility=False),
        {"name": "refresh", "_meta": {"ui": {"resourceUri": "ui://weather/view.html"}}},
        {"name": "refresh", "_meta": {"other": 1}},
    ],
    ids=["app", "model-app", "tuple", "no-meta", "no-visibility", "no-ui"],
)
def test_a_view_may_call_a_tool_of_its_own_connection_visible_to_apps(entry: dict[str, Any]) -> None:
    before = copy.deepcopy(entry)
    check_app_tool_call(entry, same_connection=True)
    assert entry == before


@pytest.mark.parametrize("visibility", [["model"], [], ["Model", "APP"]])
def test_a_view_may_not_call_a_tool_whose_visibility_lacks_app(visibility: list[str]) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        check_app_tool_call(tool(visibility), same_connection=True)
    assert caught.value.rule_id == codes.BRIDGE_TOOL_NOT_FOR_APP
    assert caught.value.value == "refresh"


@pytest.mark.parametrize("visibility", [["app"], ["model"], None])
def test_a_view_may_never_call_a_tool_of_another_connection(visibility: list[str] | None) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        check_app_tool_call(tool(visibility, has_visibility=visibility is not None), same_connection=False)
    assert caught.value.rule_id == codes.BRIDGE_TOOL_OTHER_CONNECTION


@pytest.mark.parametrize(
    "entry",
    [
        tool("app"),
        tool(None),
        tool(["app", 1]),
        {"name": "refresh", "_meta": "ui"},
        {"name": "refresh", "_meta": {"ui": ["app"]}},
    ],
    ids=["string", "null", "non-string-item", "meta-not-object", "ui-not-object"],
)
def test_a_malformed_visibility_refuses_the_call(entry: dict[str, Any]) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        check_app_tool_call(entry, same_connection=True)
    assert caught.value.rule_id == codes.BRIDGE_TOOL_NOT_FOR_APP


def test_a_refused_tool_call_is_answered_with_the_denial_code() -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        check_app_tool_call(tool(["model"]), same_connection=True)
    assert codes.jsonrpc_error_code(caught.value) == codes.DENIED
