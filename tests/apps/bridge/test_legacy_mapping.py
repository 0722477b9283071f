import copy
import json
from typing import Any

import pytest

from hostcompat.apps.bridge import codes
from hostcompat.apps.bridge import legacy as lg
from hostcompat.apps.bridge import legacy_params as lp
from hostcompat.apps.bridge import methods as m
from hostcompat.apps.bridge.context import HostContext
from hostcompat.apps.bridge.handshake import HostCapabilities, Implementation, UiInitializeResult
from hostcompat.apps.bridge.legacy_mapping import LEGACY_TO_OFFICIAL, from_official, to_official
from hostcompat.apps.bridge.messages import MessageParams, SizeChangedParams, ToolResultParams
from hostcompat.apps.bridge.parse import (
    BridgeNotification,
    BridgeRequest,
    BridgeResponse,
    parse_message,
    parse_result,
    serialize,
)
from hostcompat.apps.constants import LATEST_PROTOCOL_VERSION, LEGACY_ENVELOPE_VERSION
from hostcompat.errors import InvalidBridgeMessage
from tests.apps.bridge.examples import EXAMPLES, INITIALIZE_RESULT, LEGACY_EXAMPLES, LEGACY_URI

CONTEXT: dict[str, Any] = {"window_id": "w1", "resource_uri": LEGACY_URI}
NEEDS_ID = {"mcpui:tools-call", "mcpui:message", "mcpui:open-link", "mcpui:host-ready", "mcpui:teardown"}


def legacy(method: str, **changes: Any) -> lg.LegacyEnvelope:
    wire = copy.deepcopy(LEGACY_EXAMPLES[method])
    wire["params"].update(changes)
    wire["params"] = {key: value for key, value in wire["params"].items() if value is not None}
    return lg.parse_legacy_envelope(wire)


def test_the_mapping_table_is_the_spec_table() -> None:
    assert dict(LEGACY_TO_OFFICIAL) == {
        "mcpui:host-ready": "ui/initialize",
        "mcpui:tool-input": "ui/notifications/tool-input",
        "mcpui:tool-input-partial": "ui/notifications/tool-input-partial",
        "mcpui:tool-result": "ui/notifications/tool-result",
        "mcpui:teardown": "ui/resource-teardown",
        "mcpui:size-changed": "ui/notifications/size-changed",
        "mcpui:tools-call": "tools/call",
        "mcpui:message": "ui/message",
        "mcpui:open-link": "ui/open-link",
    }


@pytest.mark.parametrize("method", lg.LEGACY_METHODS)
def test_every_legacy_envelope_maps_to_a_valid_official_message_of_its_method(method: str) -> None:
    official = to_official(legacy(method), request_id=5)
    message = parse_message(official)
    if method == lg.LEGACY_HOST_READY:
        assert isinstance(message, BridgeResponse)
        assert message.id == 5
        assert isinstance(parse_result(m.UI_INITIALIZE, message.result), UiInitializeResult)
    else:
        assert isinstance(message, (BridgeRequest, BridgeNotification))
        assert message.method == LEGACY_TO_OFFICIAL[method]
        assert isinstance(message, BridgeRequest) is (method in NEEDS_ID)


@pytest.mark.parametrize("method", sorted(NEEDS_ID))
def test_a_legacy_message_that_becomes_a_request_or_reply_needs_a_request_id(method: str) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        to_official(legacy(method))
    assert caught.value.rule_id == codes.BRIDGE_NEEDS_REQUEST_ID


def test_host_ready_becomes_the_initialize_reply_at_the_latest_view_protocol_version() -> None:
    official = to_official(legacy(lg.LEGACY_HOST_READY), request_id="init-1")
    result = parse_result(m.UI_INITIALIZE, official["result"])
    assert isinstance(result, UiInitializeResult)
    assert result.protocol_version == LATEST_PROTOCOL_VERSION
    assert result.host_info == Implementation(name="mcpui", version="1.0.0")
    assert result.host_capabilities == HostCapabilities()
    assert result.host_context == HostContext()


def test_host_ready_takes_the_host_info_capabilities_and_context_given() -> None:
    given = UiInitializeResult.from_wire(INITIALIZE_RESULT)
    official = to_official(
        legacy(lg.LEGACY_HOST_READY),
        request_id=1,
        host_info=given.host_info,
        host_capabilities=given.host_capabilities,
        host_context=given.host_context,
    )
    assert official["result"] == INITIALIZE_RESULT


def test_a2_tools_call_becomes_a_standard_tools_call_request() -> None:
    assert to_official(legacy(lg.LEGACY_TOOLS_CALL), request_id=9) == {
        "jsonrpc": "2.0",
        "id": 9,
        "method": "tools/call",
        "params": {"name": "ui/window:get", "arguments": {"windowId": "w1"}},
    }


def test_a4_tool_result_becomes_a_call_tool_result_notification() -> None:
    official = to_official(legacy(lg.LEGACY_TOOL_RESULT))
    assert official == {
        "jsonrpc": "2.0",
        "method": "ui/notifications/tool-result",
        "params": {
            "content": [{"type": "text", "text": "ok"}],
            "structuredContent": {"ok": True},
            "_meta": {"source": "test"},
        },
    }


def test_a_legacy_message_text_becomes_one_text_block() -> None:
    message = parse_message(to_official(legacy(lg.LEGACY_MESSAGE), request_id=1))
    assert isinstance(message, BridgeRequest)
    assert message.params == MessageParams(content=({"type": "text", "text": "Add to order"},))


@pytest.mark.parametrize(
    ("content", "blocks"),
    [("done", [{"type": "text", "text": "done"}]), (None, [])],
    ids=["string", "absent"],
)
def test_a_string_or_absent_tool_result_content_becomes_a_block_list(content: Any, blocks: list[Any]) -> None:
    official = to_official(legacy(lg.LEGACY_TOOL_RESULT, content=content))
    assert official["params"]["content"] == blocks


@pytest.mark.parametrize(
    ("content", "rule"),
    [
        ({"type": "text", "text": "x"}, codes.BRIDGE_NO_EQUIVALENT),
        (3, codes.BRIDGE_NO_EQUIVALENT),
        (True, codes.BRIDGE_NO_EQUIVALENT),
        ([1], codes.BRIDGE_BAD_FIELD),
        ([{"text": "no type"}], codes.BRIDGE_BAD_FIELD),
    ],
)
def test_tool_result_content_with_no_call_tool_result_form_is_refused(content: Any, rule: str) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        to_official(legacy(lg.LEGACY_TOOL_RESULT, content=content))
    assert caught.value.rule_id == rule


@pytest.mark.parametrize("method", sorted(set(lg.LEGACY_METHODS) - {lg.LEGACY_MESSAGE}))
def test_legacy_to_official_and_back_is_the_identity_given_the_session_context(method: str) -> None:
    envelope = legacy(method)
    params = envelope.params
    tool_name = getattr(params, "tool_name", "")
    allowed = getattr(params, "allowed_tools", None)
    back = from_official(to_official(envelope, request_id=1), **CONTEXT, tool_name=tool_name, allowed_tools=allowed)
    assert back == envelope


def test_a_legacy_message_comes_back_without_its_metadata() -> None:
    envelope = legacy(lg.LEGACY_MESSAGE)
    back = from_official(to_official(envelope, request_id=1), **CONTEXT)
    assert isinstance(back.params, lp.LegacyMessage)
    assert back.params.content == "Add to order"
    assert back.params.metadata is None


def test_from_official_accepts_typed_messages_text_and_mappings_alike() -> None:
    wire = EXAMPLES[(m.UI_OPEN_LINK, m.Direction.VIEW_TO_HOST)]
    typed = parse_message(wire)
    assert (
        from_official(typed, **CONTEXT) == from_official(wire, **CONTEXT) == from_official(json.dumps(wire), **CONTEXT)
    )


def test_a_fractional_official_size_rounds_up_to_whole_legacy_pixels() -> None:
    official = BridgeNotification(method=m.UI_SIZE_CHANGED, params=SizeChangedParams(width=640.2, height=480))
    back = from_official(official, **CONTEXT)
    assert back.params == lp.LegacySizeChanged(window_id="w1", resource_uri=LEGACY_URI, width=641, height=480)


@pytest.mark.parametrize(
    "message",
    [
        EXAMPLES[(m.UI_REQUEST_DISPLAY_MODE, m.Direction.VIEW_TO_HOST)],
        EXAMPLES[(m.UI_UPDATE_MODEL_CONTEXT, m.Direction.VIEW_TO_HOST)],
        EXAMPLES[(m.UI_INITIALIZE, m.Direction.VIEW_TO_HOST)],
        EXAMPLES[(m.PING, m.Direction.VIEW_TO_HOST)],
        {"jsonrpc": "2.0", "id": 1, "method": "ui/message", "params": {"role": "user", "content": []}},
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "ui/message",
            "params": {"role": "user", "content": [{"type": "image", "data": "AA==", "mimeType": "image/png"}]},
        },
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "denied"}},
    ],
    ids=["display-mode", "model-context", "initialize", "ping", "message-empty", "message-image", "error"],
)
def test_an_official_message_with_no_legacy_form_is_refused(message: dict[str, Any]) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        from_official(message, **CONTEXT)
    assert caught.value.rule_id == codes.BRIDGE_NO_EQUIVALENT


def test_a_tool_result_flagged_as_an_error_is_refused_rather_than_reported_as_success() -> None:
    failed = BridgeNotification(method=m.UI_TOOL_RESULT, params=ToolResultParams(content=(), is_error=True))
    with pytest.raises(InvalidBridgeMessage) as caught:
        from_official(failed, **CONTEXT, tool_name="show_order")
    assert caught.value.rule_id == codes.BRIDGE_NO_EQUIVALENT


def test_from_official_checks_the_session_context_it_is_given() -> None:
    notification = serialize(parse_message(EXAMPLES[(m.UI_TOOL_INPUT, m.Direction.HOST_TO_VIEW)]))
    with pytest.raises(InvalidBridgeMessage) as no_tool:
        from_official(notification, **CONTEXT)
    assert no_tool.value.message.startswith("params.toolName:")
    with pytest.raises(InvalidBridgeMessage) as bad_uri:
        from_official(notification, window_id="w1", resource_uri="https://x", tool_name="t")
    assert bad_uri.value.rule_id == codes.BRIDGE_LEGACY_URI
    with pytest.raises(InvalidBridgeMessage) as no_window:
        from_official(notification, window_id="", resource_uri=LEGACY_URI, tool_name="t")
    assert no_window.value.message.startswith("params.windowId:")


def test_the_initialize_reply_becomes_host_ready_with_the_given_allowed_tools() -> None:
    reply = {"jsonrpc": "2.0", "id": 1, "result": INITIALIZE_RESULT}
    back = from_official(reply, **CONTEXT, allowed_tools=["chat.reply"])
    assert back.method == lg.LEGACY_HOST_READY
    assert back.params == lp.LegacyHostReady(
        window_id="w1", resource_uri=LEGACY_URI, protocol_version=LEGACY_ENVELOPE_VERSION, allowed_tools=("chat.reply",)
    )
    with pytest.raises(InvalidBridgeMessage):
        from_official({"jsonrpc": "2.0", "id": 1, "result": {"contents": []}}, **CONTEXT)


def test_official_messages_without_params_map_to_legacy_envelopes_without_the_optional_fields() -> None:
    teardown = from_official({"jsonrpc": "2.0", "id": 1, "method": m.UI_RESOURCE_TEARDOWN}, **CONTEXT)
    assert teardown.params == lp.LegacyTeardown(window_id="w1", resource_uri=LEGACY_URI)
    tool_input = from_official({"jsonrpc": "2.0", "method": m.UI_TOOL_INPUT}, **CONTEXT, tool_name="show_order")
    assert tool_input.params == lp.LegacyToolInput(
        window_id="w1", resource_uri=LEGACY_URI, tool_name="show_order", protocol_version=LEGACY_ENVELOPE_VERSION
    )
    typed = BridgeNotification(method=m.UI_SIZE_CHANGED)
    assert from_official(typed, **CONTEXT).params == lp.LegacySizeChanged(window_id="w1", resource_uri=LEGACY_URI)
