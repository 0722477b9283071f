import copy
import json
from collections.abc import Mapping
from typing import Any

import pytest

from hostcompat.apps.bridge import codes
from hostcompat.apps.bridge import methods as m
from hostcompat.apps.bridge.handshake import UiInitializeParams, UiInitializeResult
from hostcompat.apps.bridge.messages import (
    EmptyParams,
    EmptyResult,
    MessageParams,
    OpenLinkParams,
    RequestDisplayModeResult,
    SizeChangedParams,
)
from hostcompat.apps.bridge.methods import Direction, MessageKind
from hostcompat.apps.bridge.parse import (
    PARAMS_MODELS,
    RESULT_MODELS,
    BridgeError,
    BridgeNotification,
    BridgeRequest,
    BridgeResponse,
    error_reply,
    parse_message,
    parse_params,
    parse_result,
    serialize,
)
from hostcompat.errors import InvalidBridgeMessage
from tests.apps.bridge.examples import EXAMPLES, RESULTS, notification, request

ROWS = sorted(EXAMPLES, key=lambda row: (row[0], row[1].value))


def written(method: str, wire: dict[str, Any]) -> dict[str, Any]:
    """What serialize writes for `wire`: the same, with `params: {}` added to a modelled method without any."""
    return {**wire, "params": wire.get("params", {})} if method in PARAMS_MODELS else wire


def rule_of(data: Any, **options: Any) -> str | None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        parse_message(data, **options)
    return caught.value.rule_id


def test_every_row_of_the_method_table_has_an_example() -> None:
    assert {(spec.name, spec.direction) for spec in m.METHODS} == set(EXAMPLES)


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row[0]}:{row[1].value}")
def test_every_method_parses_in_its_direction_and_serialises_back_exactly(row: tuple[str, Direction]) -> None:
    method, direction = row
    wire = EXAMPLES[row]
    message = parse_message(json.dumps(wire), direction=direction)
    expected_type = BridgeRequest if m.method_kind(method) is MessageKind.REQUEST else BridgeNotification
    assert type(message) is expected_type
    assert isinstance(message, (BridgeRequest, BridgeNotification))
    assert message.method == method
    assert serialize(message) == written(method, wire)


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row[0]}:{row[1].value}")
def test_modelled_methods_get_their_typed_params_and_standard_ones_keep_a_mapping(row: tuple[str, Direction]) -> None:
    method, _ = row
    message = parse_message(EXAMPLES[row])
    assert isinstance(message, (BridgeRequest, BridgeNotification))
    if method in PARAMS_MODELS:
        assert not isinstance(message.params, Mapping)
        assert message.params == PARAMS_MODELS[method](EXAMPLES[row].get("params", {}), "params")
    else:
        assert message.params is None or isinstance(message.params, Mapping)


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row[0]}:{row[1].value}")
def test_a_method_sent_in_a_direction_it_is_not_defined_for_is_rejected(row: tuple[str, Direction]) -> None:
    method, _ = row
    wrong = [direction for direction in Direction if direction not in m.method_directions(method)]
    for direction in wrong:
        assert rule_of(EXAMPLES[row], direction=direction) == codes.BRIDGE_WRONG_DIRECTION


def test_text_bytes_and_mapping_inputs_parse_to_the_same_message() -> None:
    wire = EXAMPLES[(m.UI_INITIALIZE, Direction.VIEW_TO_HOST)]
    text = json.dumps(wire)
    assert parse_message(text) == parse_message(text.encode()) == parse_message(wire)


def test_initialize_params_are_read_into_the_typed_model() -> None:
    message = parse_message(EXAMPLES[(m.UI_INITIALIZE, Direction.VIEW_TO_HOST)])
    assert isinstance(message, BridgeRequest)
    params = message.params
    assert isinstance(params, UiInitializeParams)
    assert params.app_info.name == "weather-view"
    assert params.app_info.extra == {"title": "Weather"}
    assert params.app_capabilities.available_display_modes == ("inline", "fullscreen")
    assert params.protocol_version == "2026-01-26"


def test_a_single_message_block_is_normalised_to_a_list() -> None:
    block = {"type": "text", "text": "hello"}
    message = parse_message(request(m.UI_MESSAGE, {"role": "user", "content": block}))
    assert isinstance(message, BridgeRequest)
    assert isinstance(message.params, MessageParams)
    assert message.params.content == (block,)
    assert serialize(message)["params"]["content"] == [block]


def test_unknown_keys_in_params_survive_a_round_trip() -> None:
    wire = request(m.UI_OPEN_LINK, {"url": "https://example.com", "_meta": {"trace": "t1"}, "futureKey": [1, 2]})
    message = parse_message(wire)
    assert isinstance(message, BridgeRequest)
    assert isinstance(message.params, OpenLinkParams)
    assert message.params.extra == {"_meta": {"trace": "t1"}, "futureKey": [1, 2]}
    assert serialize(message) == wire


def test_parsing_never_mutates_a_mapping_input_nor_aliases_it() -> None:
    wire = EXAMPLES[(m.UI_TOOL_RESULT, Direction.HOST_TO_VIEW)]
    before = copy.deepcopy(wire)
    message = parse_message(wire)
    assert wire == before
    out = serialize(message)
    out["params"]["structuredContent"]["temperature"] = -1
    assert serialize(parse_message(wire)) == before
    assert serialize(message) == before


def test_a_message_of_exactly_max_bytes_is_accepted_and_one_more_byte_is_not() -> None:
    text = json.dumps(notification(m.UI_INITIALIZED, {}))
    assert isinstance(parse_message(text, max_bytes=len(text)), BridgeNotification)
    assert rule_of(text, max_bytes=len(text) - 1) == codes.BRIDGE_TOO_LARGE
    assert rule_of(text.encode(), max_bytes=len(text) - 1) == codes.BRIDGE_TOO_LARGE


def test_the_size_limit_counts_utf8_bytes_not_characters() -> None:
    text = json.dumps(request(m.UI_OPEN_LINK, {"url": "https://example.com/é"}), ensure_ascii=False)
    assert len(text) < len(text.encode())
    assert rule_of(text, max_bytes=len(text)) == codes.BRIDGE_TOO_LARGE
    assert isinstance(parse_message(text, max_bytes=len(text.encode())), BridgeRequest)


def test_the_default_limit_is_four_mebibytes() -> None:
    padding = "x" * (4 * 1024 * 1024)
    assert rule_of(json.dumps(notification(m.UI_INITIALIZED, {"pad": padding}))) == codes.BRIDGE_TOO_LARGE


@pytest.mark.parametrize(
    "data",
    [
        "{",
        "",
        b"\xff\xfe{}",
        '{"jsonrpc": "2.0", "method": "ping", "id": NaN}',
        '{"jsonrpc": "2.0", "method": "ui/notifications/size-changed", "params": {"width": Infinity}}',
        '{"jsonrpc": "2.0", "jsonrpc": "2.0", "method": "ping", "id": 1}',
        '{"jsonrpc": "2.0", "id": 1, "result": {"big": 1e999}}',
        '{"jsonrpc": "2.0", "id": 1, "result": {"deep": ' + "[" * 200 + "]" * 200 + "}}",
        "[" * 100_000,
        12,
        None,
    ],
    ids=[
        "truncated",
        "empty",
        "not-utf8",
        "nan",
        "infinity",
        "duplicate-key",
        "overflowing-float",
        "too-deep",
        "recursion",
        "an-int",
        "none",
    ],
)
def test_input_that_is_not_strict_json_is_rejected(data: Any) -> None:
    assert rule_of(data) == codes.BRIDGE_NOT_JSON


@pytest.mark.parametrize(
    "value",
    [{1, 2}, object(), b"bytes", float("nan"), {1: "non-string key"}],
    ids=["set", "object", "bytes", "nan", "int-key"],
)
def test_a_mapping_input_holding_a_non_json_value_is_rejected(value: Any) -> None:
    wire = request(m.TOOLS_CALL, {"name": "t", "arguments": {"v": value}})
    assert rule_of(wire) == codes.BRIDGE_NOT_JSON


@pytest.mark.parametrize(
    "wire",
    [
        [request(m.PING)],
        "just a string",
        {"id": 1, "method": "ping"},
        {"jsonrpc": "1.0", "id": 1, "method": "ping"},
        {"jsonrpc": 2.0, "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": 1, "method": "ping", "extra": True},
        {"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "x"}},
        {"jsonrpc": "2.0", "id": 1},
        {"jsonrpc": "2.0", "id": 1, "method": 7},
        {"jsonrpc": "2.0", "id": 1, "method": ""},
        {"jsonrpc": "2.0", "id": 1, "result": [1]},
        {"jsonrpc": "2.0", "id": 1, "result": {}, "params": {}},
        {"jsonrpc": "2.0", "id": 1, "error": "boom"},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": True, "message": "x"}},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": 1.5, "message": "x"}},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -1, "message": "x", "hint": "no"}},
    ],
    ids=[
        "array",
        "string",
        "no-jsonrpc",
        "jsonrpc-1.0",
        "jsonrpc-number",
        "unknown-member",
        "result-and-error",
        "neither",
        "method-not-string",
        "method-empty",
        "result-not-object",
        "result-with-params",
        "error-not-object",
        "error-code-bool",
        "error-code-fraction",
        "error-unknown-member",
    ],
)
def test_a_message_that_is_not_json_rpc_2_is_rejected(wire: Any) -> None:
    data = wire if isinstance(wire, Mapping) else json.dumps(wire)
    assert rule_of(data) == codes.BRIDGE_NOT_JSONRPC


@pytest.mark.parametrize("bad_id", [1.5, True, None, [1], {"id": 1}])
def test_a_request_id_must_be_a_string_or_an_integer(bad_id: Any) -> None:
    assert rule_of({"jsonrpc": "2.0", "id": bad_id, "method": "ping"}) == codes.BRIDGE_BAD_ID
    assert rule_of({"jsonrpc": "2.0", "id": bad_id, "result": {}}) == codes.BRIDGE_BAD_ID


def test_a_reply_without_an_id_is_rejected() -> None:
    assert rule_of({"jsonrpc": "2.0", "result": {}}) == codes.BRIDGE_BAD_ID
    assert rule_of({"jsonrpc": "2.0", "error": {"code": -32700, "message": "x"}}) == codes.BRIDGE_BAD_ID


def test_an_error_reply_may_have_a_null_id() -> None:
    wire = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
    message = parse_message(wire)
    assert message == BridgeError(id=None, code=-32700, message="Parse error")
    assert serialize(message) == wire


def test_an_error_reply_keeps_its_data() -> None:
    wire = {"jsonrpc": "2.0", "id": "x", "error": {"code": -32000, "message": "Link denied", "data": {"u": 1}}}
    assert serialize(parse_message(wire)) == wire


def test_an_unknown_method_is_rejected_naming_it() -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        parse_message(request("prompts/get", {"name": "p"}))
    assert caught.value.rule_id == codes.BRIDGE_UNKNOWN_METHOD
    assert caught.value.value == "prompts/get"
    assert "prompts/get" in caught.value.message


@pytest.mark.parametrize(("old", "new"), sorted(m.LEGACY_METHOD_RENAMES.items()))
def test_an_early_draft_method_name_is_rejected_naming_its_stable_name(old: str, new: str) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        parse_message(notification(old, {}))
    assert caught.value.rule_id == codes.BRIDGE_UNKNOWN_METHOD
    assert new in caught.value.message


def test_allow_unknown_accepts_a_standard_method_and_keeps_its_params_as_a_mapping() -> None:
    wire = request("prompts/get", {"name": "summary", "arguments": {"topic": "weather"}}, "p-1")
    message = parse_message(wire, allow_unknown=True, direction=Direction.VIEW_TO_HOST)
    assert message == BridgeRequest(id="p-1", method="prompts/get", params=wire["params"])
    assert serialize(message) == wire


def test_allow_unknown_takes_the_kind_of_an_unknown_method_from_the_id() -> None:
    wire = notification("notifications/progress", {"progressToken": 1, "progress": 0.5})
    assert parse_message(wire, allow_unknown=True) == BridgeNotification("notifications/progress", wire["params"])


def test_allow_unknown_still_requires_object_params() -> None:
    assert rule_of(request("prompts/get", None) | {"params": [1]}, allow_unknown=True) == codes.BRIDGE_BAD_FIELD


@pytest.mark.parametrize(
    "wire",
    [
        notification(m.UI_OPEN_LINK, {"url": "https://example.com"}),
        notification(m.TOOLS_CALL, {"name": "t"}),
        notification(m.PING),
    ],
    ids=["open-link", "tools-call", "ping"],
)
def test_a_request_method_without_an_id_is_rejected(wire: dict[str, Any]) -> None:
    assert rule_of(wire) == codes.BRIDGE_WRONG_KIND


@pytest.mark.parametrize("method", [m.UI_INITIALIZED, m.UI_SIZE_CHANGED, m.UI_TOOL_RESULT, m.LOGGING_MESSAGE])
def test_a_notification_method_with_an_id_is_rejected(method: str) -> None:
    assert rule_of(request(method, {})) == codes.BRIDGE_WRONG_KIND


@pytest.mark.parametrize(
    ("wire", "field"),
    [
        (request(m.UI_OPEN_LINK, {"url": 1}), "params.url"),
        (request(m.UI_OPEN_LINK, {}), "params.url"),
        (request(m.UI_OPEN_LINK), "params.url"),
        (request(m.UI_OPEN_LINK, {"url": None}), "params.url"),
        (request(m.UI_INITIALIZE, {"appInfo": {"version": "1"}}), "params.appInfo.name"),
        (
            request(
                m.UI_INITIALIZE,
                {"appInfo": {"name": "a", "version": "1"}, "appCapabilities": {"tools": {"listChanged": "yes"}}},
            ),
            "params.appCapabilities.tools.listChanged",
        ),
        (request(m.UI_MESSAGE, {"role": "assistant", "content": []}), "params.role"),
        (request(m.UI_MESSAGE, {"role": "user", "content": "hi"}), "params.content"),
        (request(m.UI_MESSAGE, {"role": "user", "content": [{"text": "hi"}]}), "params.content[0].type"),
        (request(m.UI_MESSAGE, {"role": "user", "content": [1]}), "params.content[0]"),
        (request(m.UI_DOWNLOAD_FILE, {"contents": [{"type": "text", "text": "x"}]}), "params.contents[0].type"),
        (request(m.UI_UPDATE_MODEL_CONTEXT, {"structuredContent": [1]}), "params.structuredContent"),
        (request(m.UI_REQUEST_DISPLAY_MODE, {"mode": ["pip"]}), "params.mode"),
        (notification(m.UI_SIZE_CHANGED, {"width": -1}), "params.width"),
        (notification(m.UI_SIZE_CHANGED, {"height": True}), "params.height"),
        (notification(m.UI_SIZE_CHANGED, {"height": "480px"}), "params.height"),
        (notification(m.UI_TOOL_INPUT, {"arguments": "city=Paris"}), "params.arguments"),
        (notification(m.UI_TOOL_RESULT, {"structuredContent": {}}), "params.content"),
        (notification(m.UI_TOOL_RESULT, {"content": [], "isError": "no"}), "params.isError"),
        (notification(m.UI_TOOL_CANCELLED, {"reason": 3}), "params.reason"),
        (notification(m.UI_HOST_CONTEXT_CHANGED, {"theme": 1}), "params.theme"),
        (
            notification(m.UI_HOST_CONTEXT_CHANGED, {"availableDisplayModes": ["inline", 2]}),
            "params.availableDisplayModes[1]",
        ),
        (request(m.UI_RESOURCE_TEARDOWN, {"reason": False}), "params.reason"),
        (notification(m.UI_SANDBOX_RESOURCE_READY, {"sandbox": "allow-scripts"}), "params.html"),
        (notification(m.UI_SANDBOX_RESOURCE_READY, {"html": "<p>", "csp": "default-src 'none'"}), "params.csp"),
        (notification(m.UI_INITIALIZED) | {"params": []}, "params"),
        (notification(m.UI_INITIALIZED) | {"params": None}, "params"),
        (request(m.TOOLS_CALL, None) | {"params": "get_weather"}, "params"),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_params_of_the_wrong_shape_are_rejected_naming_the_field(wire: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        parse_message(wire)
    assert caught.value.rule_id == codes.BRIDGE_BAD_FIELD
    assert caught.value.message.startswith(f"{field}:")


def test_size_changed_keeps_an_integer_an_integer_and_a_fraction_a_float() -> None:
    message = parse_message(notification(m.UI_SIZE_CHANGED, {"width": 640, "height": 480.5}))
    assert isinstance(message, BridgeNotification)
    assert message.params == SizeChangedParams(width=640, height=480.5)
    assert isinstance(message.params.width, int)


def test_a_modelled_method_without_params_reads_them_as_an_empty_object() -> None:
    message = parse_message(request(m.PING))
    assert message == BridgeRequest(id=1, method=m.PING, params=EmptyParams())
    assert serialize(message) == request(m.PING, {})


def test_a_modelled_method_whose_params_have_a_required_field_needs_them() -> None:
    assert rule_of(request(m.UI_OPEN_LINK)) == codes.BRIDGE_BAD_FIELD


def test_a_standard_method_without_params_keeps_them_absent() -> None:
    wire = request(m.RESOURCES_LIST)
    message = parse_message(wire)
    assert message == BridgeRequest(id=1, method=m.RESOURCES_LIST)
    assert serialize(message) == wire


@pytest.mark.parametrize("method", sorted(RESULTS))
def test_each_result_is_read_into_its_typed_model(method: str) -> None:
    result = parse_result(method, RESULTS[method])
    assert not isinstance(result, Mapping)
    assert result == RESULT_MODELS[method](RESULTS[method], "result")
    assert result.to_wire() == RESULTS[method]


def test_the_initialize_result_and_the_display_mode_result_have_their_own_models() -> None:
    assert isinstance(parse_result(m.UI_INITIALIZE, RESULTS[m.UI_INITIALIZE]), UiInitializeResult)
    assert parse_result(m.UI_REQUEST_DISPLAY_MODE, {"mode": "pip"}) == RequestDisplayModeResult(mode="pip")
    assert parse_result(m.UI_OPEN_LINK, {"isError": True}) == EmptyResult(is_error=True)


def test_a_reply_to_a_standard_request_stays_a_mapping_and_round_trips() -> None:
    result = {"contents": [{"uri": "ui://weather/view.html", "mimeType": "text/html;profile=mcp-app", "text": "<p>"}]}
    wire = {"jsonrpc": "2.0", "id": 4, "result": result}
    message = parse_message(wire)
    assert message == BridgeResponse(id=4, result=result)
    assert parse_result(m.RESOURCES_READ, result) == result
    assert serialize(message) == wire


def test_a_result_of_the_wrong_shape_is_rejected_naming_the_field() -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        parse_result(m.UI_INITIALIZE, {"protocolVersion": "2026-01-26", "hostInfo": {"name": "h", "version": "1"}})
    assert caught.value.rule_id == codes.BRIDGE_BAD_FIELD
    assert caught.value.message.startswith("result.hostCapabilities:")
    with pytest.raises(InvalidBridgeMessage):
        parse_result(m.TOOLS_CALL, ["not", "an", "object"])


def test_parse_params_reads_an_object_into_the_methods_model_and_rejects_anything_else() -> None:
    assert parse_params(m.UI_SIZE_CHANGED, {}) == SizeChangedParams()
    assert parse_params(m.TOOLS_CALL, {"name": "t"}) == {"name": "t"}
    bad_params: tuple[object, ...] = (None, [], "x")
    for params in bad_params:
        with pytest.raises(InvalidBridgeMessage):
            parse_params(m.UI_SIZE_CHANGED, params)
        with pytest.raises(InvalidBridgeMessage):
            parse_params(m.TOOLS_CALL, params)


def test_an_error_reply_for_a_rejected_message_carries_the_json_rpc_code_and_the_rule() -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        parse_message(request("nope/nothing"))
    reply = error_reply(caught.value, 1)
    assert reply.code == codes.METHOD_NOT_FOUND
    assert reply.data == {"ruleId": codes.BRIDGE_UNKNOWN_METHOD}
    assert parse_message(serialize(reply)) == reply


def test_serialize_writes_a_fresh_json_rpc_object_for_each_kind_of_message() -> None:
    request_message = BridgeRequest(id=3, method=m.UI_OPEN_LINK, params=OpenLinkParams(url="https://x.example"))
    assert serialize(request_message) == request(m.UI_OPEN_LINK, {"url": "https://x.example"}, 3)
    assert serialize(BridgeNotification(method=m.UI_INITIALIZED)) == notification(m.UI_INITIALIZED)
    assert serialize(BridgeResponse(id="r", result={})) == {"jsonrpc": "2.0", "id": "r", "result": {}}
    assert serialize(BridgeError(id=None, code=-1, message="m")) == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -1, "message": "m"},
    }
