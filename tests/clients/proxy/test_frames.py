import copy
import json
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.clients.proxy.pipe.frames import (
    ERROR,
    NOTIFICATION,
    REQUEST,
    RESULT,
    Frame,
    dump_line,
    error_line,
    notification_line,
    read_frame,
    with_member,
)
from hostcompat.errors import InvalidMessage

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
ids = st.integers(min_value=-(2**53), max_value=2**53) | st.text(max_size=10)


@pytest.mark.parametrize(
    ("line", "kind", "request_id", "method"),
    [
        (b'{"jsonrpc":"2.0","id":1,"method":"ping"}', REQUEST, 1, "ping"),
        (b'{"jsonrpc":"2.0","method":"notifications/initialized"}', NOTIFICATION, None, "notifications/initialized"),
        (b'{"jsonrpc":"2.0","id":"a","result":{}}', RESULT, "a", ""),
        (b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}', ERROR, None, ""),
    ],
)
def test_each_kind_of_message_is_known_by_its_envelope(line: bytes, kind: str, request_id: Any, method: str) -> None:
    frame = read_frame(line)
    assert isinstance(frame, Frame)
    assert (frame.kind, frame.id, frame.method) == (kind, request_id, method)
    assert frame.body == json.loads(line)


@pytest.mark.parametrize(
    "line",
    [
        b"not json",
        b"[1, 2]",
        b'{"hello": "world"}',
        b'{"jsonrpc":"1.0","id":1,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":true,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}',
        b'{"jsonrpc":"2.0","id":1,"result":[]}',
        b'{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}',
        b"\xff\xfe\xfa",
        b'{"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping"}x',
        b'{"jsonrpc":"2.0","id":1,"method":"ping"}\x0b',
        b'{"jsonrpc":"2.0","id":1,"method":"ping"',
        b"{",
    ],
)
def test_a_line_that_is_not_json_rpc_raises_invalid_message_quoting_it(line: bytes) -> None:
    with pytest.raises(InvalidMessage) as raised:
        read_frame(line)
    assert "not a JSON-RPC message" in raised.value.message
    assert raised.value.value == line[:120].decode("utf-8", "replace")


def test_a_patched_member_keeps_the_other_members_in_their_order() -> None:
    frame = read_frame(b'{"x-first":1,"jsonrpc":"2.0","id":7,"result":{"a":1},"x-last":2}')
    assert isinstance(frame, Frame)
    patched = with_member(frame, "result", MappingProxyType({"a": 2}))
    assert list(patched) == ["x-first", "jsonrpc", "id", "result", "x-last"]
    assert dump_line(patched) == b'{"x-first":1,"jsonrpc":"2.0","id":7,"result":{"a":2},"x-last":2}\n'
    assert frame.body["result"] == {"a": 1}


def test_the_lines_the_proxy_writes_itself_are_compact_json_rpc() -> None:
    assert json.loads(error_line(3, {"code": -32000, "message": "gone"})) == {
        "jsonrpc": "2.0",
        "id": 3,
        "error": {"code": -32000, "message": "gone"},
    }
    assert json.loads(error_line(None, {"code": -1, "message": "m", "data": {"k": [1]}}))["error"]["data"] == {"k": [1]}
    assert notification_line("notifications/cancelled", {"requestId": 1}) == (
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n'
    )


def test_text_is_written_as_utf8_and_a_lone_surrogate_stays_escaped() -> None:
    assert dump_line({"t": "é"}) == '{"t":"é"}\n'.encode()
    assert dump_line({"t": "\ud800"}) == b'{"t":"\\ud800"}\n'


@pytest.mark.parametrize("value", [float("nan"), float("inf"), object()])
def test_what_json_cannot_carry_is_an_invalid_message(value: object) -> None:
    with pytest.raises(InvalidMessage):
        dump_line({"result": {"v": value}})


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200) | json_values.map(lambda value: json.dumps(value).encode()))
def test_any_line_is_a_frame_or_raises_invalid_message(line: bytes) -> None:
    try:
        frame = read_frame(line)
    except InvalidMessage:
        return
    assert isinstance(frame, Frame)


def test_json_whitespace_around_the_object_is_allowed_as_json_loads_allows_it() -> None:
    for line in (b'{"jsonrpc":"2.0","id":1,"method":"ping"} \t\r\n', b'  {"jsonrpc":"2.0","id":1,"method":"ping"}\n'):
        frame = read_frame(line)
        assert isinstance(frame, Frame) and frame.body == json.loads(line)


def _loads(line: bytes) -> object:
    try:
        return json.loads(line)
    except ValueError:
        return InvalidMessage


messages = st.fixed_dictionaries(
    {"jsonrpc": st.just("2.0"), "id": ids, "method": st.text(min_size=1, max_size=8)},
    optional={"params": st.dictionaries(st.text(max_size=8), json_values, max_size=3)},
)


@settings(max_examples=300, deadline=None)
@given(messages.map(lambda body: json.dumps(body).encode()), st.binary(max_size=6))
def test_a_line_reads_as_json_loads_reads_it_whatever_follows_the_object(line: bytes, tail: bytes) -> None:
    """The fast path (a line starting with `{`) must accept and refuse exactly what `json.loads` does."""
    expected = _loads(line + tail)
    if expected is InvalidMessage:
        with pytest.raises(InvalidMessage):
            read_frame(line + tail)
    else:
        frame = read_frame(line + tail)
        assert isinstance(frame, Frame) and frame.body == expected


@settings(max_examples=300, deadline=None)
@given(ids, st.text(min_size=1, max_size=20), st.dictionaries(st.text(max_size=8), json_values, max_size=5))
def test_a_request_survives_the_round_trip_with_every_param(request_id: Any, method: str, params: Any) -> None:
    body = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
    before = copy.deepcopy(body)
    frame = read_frame(json.dumps(body).encode())
    assert isinstance(frame, Frame)
    assert (frame.kind, frame.id, frame.method) == (REQUEST, request_id, method)
    again = read_frame(dump_line(frame.body).rstrip(b"\n"))
    assert isinstance(again, Frame) and again.body == body
    assert body == before


_absent = object()
envelope_parts = st.fixed_dictionaries(
    {
        "jsonrpc": st.sampled_from(["2.0", "1.0", 2.0, _absent]),
        "id": st.sampled_from([1, -7, "a", "", True, None, 1.5, [1], _absent]),
        "method": st.sampled_from(["ping", "", None, 1, _absent]),
        "params": st.sampled_from([{}, {"a": 1}, [1], None, "x", _absent]),
        "result": st.sampled_from([{}, {"a": 1}, [], None, 0, _absent]),
        "error": st.sampled_from([{"code": 1, "message": "m"}, {"code": True, "message": "m"}, {}, None, _absent]),
    }
)


def _reference(body: dict[str, Any]) -> tuple[str, Any, str] | None:
    """What read_frame made of a decoded object before its fast path: the envelope check, then the kind."""
    from hostcompat.clients.proxy.pipe.frames import _envelope_problem

    if _envelope_problem(body) is not None:
        return None
    if body.get("method") is not None:
        return (REQUEST, body["id"], body["method"]) if "id" in body else (NOTIFICATION, None, body["method"])
    return (RESULT, body["id"], "") if "result" in body else (ERROR, body.get("id"), "")


@settings(max_examples=500)
@given(envelope_parts, st.permutations(["jsonrpc", "id", "method", "params", "result", "error"]))
def test_the_common_shapes_read_fast_exactly_as_the_envelope_check_reads_them(
    parts: dict[str, Any], order: list[str]
) -> None:
    body = {key: parts[key] for key in order if parts[key] is not _absent}
    line = json.dumps(body).encode() + b"\n"
    expected = _reference(json.loads(line))
    if expected is None:
        with pytest.raises(InvalidMessage):
            read_frame(line)
    else:
        frame = read_frame(line)
        assert type(frame) is Frame and (frame.kind, frame.id, frame.method) == expected
