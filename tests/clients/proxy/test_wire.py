import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp.shared.message import ClientMessageMetadata, ServerMessageMetadata, SessionMessage
from mcp_types import JSONRPCResponse

from hostcompat.clients.proxy.config import stdio_upstream
from hostcompat.clients.proxy.session.wire import (
    encode,
    error_message,
    has_invalid_id,
    notification,
    parse_line,
    stream_item,
    to_client,
    to_server,
)
from hostcompat.clients.proxy.unreadable import UnreadableMessage
from hostcompat.errors import InvalidInput, InvalidMessage

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
ids = st.integers(min_value=-(2**53), max_value=2**53) | st.text(max_size=10)


def test_a_line_that_is_not_json_rpc_raises_invalid_message_quoting_it() -> None:
    with pytest.raises(InvalidMessage) as raised:
        parse_line(b'{"hello": "world"}')
    assert isinstance(raised.value, UnreadableMessage)
    assert "hello" in raised.value.message


def test_as_a_stream_item_an_unreadable_line_is_the_error_itself() -> None:
    item = stream_item(b'{"hello": "world"}')
    assert isinstance(item, UnreadableMessage) and "hello" in item.message
    assert isinstance(stream_item(b'{"jsonrpc":"2.0","id":1,"method":"ping"}'), SessionMessage)


@pytest.mark.parametrize("bad", ["1.5", "true", "null", "[1]", "{}"])
def test_a_request_whose_id_the_sdk_would_drop_is_unreadable_not_a_notification(bad: str) -> None:
    """The SDK's envelope models read `{"id": 1.5, "method": …}` as a notification: relayed so, nobody answers it."""
    line = b'{"jsonrpc":"2.0","id":' + bad.encode() + b',"method":"tools/list"}'
    assert has_invalid_id(line)
    with pytest.raises(UnreadableMessage, match="neither a string nor an integer"):
        parse_line(line)
    assert not has_invalid_id(b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}')  # a response
    assert not has_invalid_id(b'{"jsonrpc":"2.0","method":"notifications/x","params":{"id":1.5}}')  # not top level
    assert isinstance(parse_line(b'{"jsonrpc":"2.0","method":"n","params":{"id":true}}'), SessionMessage)


def test_an_error_without_data_has_no_data_member_on_the_wire() -> None:
    wire = json.loads(encode(error_message(3, {"code": -32000, "message": "gone"})))
    assert wire == {"jsonrpc": "2.0", "id": 3, "error": {"code": -32000, "message": "gone"}}


def test_a_notification_without_params_is_sent_without_params() -> None:
    wire = json.loads(encode(notification("notifications/initialized", {})))
    assert wire == {"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}}


def test_framing_for_each_side_carries_routing_and_the_version_header() -> None:
    message = JSONRPCResponse(jsonrpc="2.0", id=1, result={})
    related = to_client(message, 7).metadata
    assert isinstance(related, ServerMessageMetadata) and related.related_request_id == 7
    assert to_client(message).metadata is None
    stamped = to_server(message, "2025-06-18", stamp=True).metadata
    assert isinstance(stamped, ClientMessageMetadata)
    assert stamped.headers == {MCP_PROTOCOL_VERSION_HEADER: "2025-06-18"}
    assert to_server(message, "2025-06-18", stamp=False).metadata is None
    assert to_server(message, None, stamp=True).metadata is None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200) | json_values.map(lambda value: json.dumps(value).encode()))
def test_any_line_is_a_message_or_an_invalid_message(line: bytes) -> None:
    assert isinstance(stream_item(line), (SessionMessage, InvalidMessage))


@settings(max_examples=300, deadline=None)
@given(ids, st.text(min_size=1, max_size=20), st.dictionaries(st.text(max_size=8), json_values, max_size=5))
def test_a_request_survives_the_round_trip_with_every_param(request_id: Any, method: str, params: Any) -> None:
    line = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).encode()
    parsed = parse_line(line)
    assert isinstance(parsed, SessionMessage)
    assert json.loads(encode(parsed.message)) == json.loads(line)


@settings(max_examples=200)
@given(st.lists(st.text(max_size=10), max_size=4))
def test_any_argument_list_is_an_upstream_or_invalid_input(argv: list[str]) -> None:
    try:
        upstream = stdio_upstream(argv)
    except InvalidInput:
        return
    assert [upstream.command, *upstream.args] == argv
