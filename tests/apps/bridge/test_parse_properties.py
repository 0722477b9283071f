import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.apps.bridge.methods import Direction
from hostcompat.apps.bridge.parse import BridgeMessage, parse_message, serialize
from hostcompat.errors import InvalidBridgeMessage
from tests.apps.bridge.strategies import json_values, official_messages


def parse_or_none(data: Any, **options: Any) -> BridgeMessage | None:
    try:
        return parse_message(data, **options)
    except InvalidBridgeMessage:
        return None


def assert_round_trips(message: BridgeMessage, **options: Any) -> None:
    wire = serialize(message)
    assert parse_message(wire, **options) == message
    assert parse_message(json.dumps(wire), **options) == message
    assert serialize(parse_message(wire, **options)) == wire


@given(json_values)
def test_arbitrary_json_text_parses_to_a_message_or_raises_invalid_bridge_message(value: Any) -> None:
    message = parse_or_none(json.dumps(value))
    if message is not None:
        assert_round_trips(message)


@given(json_values)
def test_an_arbitrary_decoded_value_is_parsed_without_being_mutated(value: Any) -> None:
    before = copy.deepcopy(value)
    parse_or_none(value, allow_unknown=True)
    assert value == before


@given(st.binary(max_size=200) | st.text(max_size=200))
def test_arbitrary_bytes_or_text_parse_or_raise_invalid_bridge_message(data: bytes | str) -> None:
    message = parse_or_none(data)
    if message is not None:
        assert_round_trips(message)


@settings(max_examples=400)
@given(official_messages, st.booleans(), st.sampled_from([None, *Direction]))
def test_a_near_valid_message_parses_and_round_trips_or_raises_invalid_bridge_message(
    wire: dict[str, Any], allow_unknown: bool, direction: Direction | None
) -> None:
    before = copy.deepcopy(wire)
    message = parse_or_none(wire, allow_unknown=allow_unknown, direction=direction)
    assert wire == before
    if message is not None:
        assert_round_trips(message, allow_unknown=allow_unknown, direction=direction)
        assert parse_message(json.dumps(wire), allow_unknown=allow_unknown, direction=direction) == message


@given(official_messages)
def test_a_parsed_message_does_not_change_when_its_input_is_mutated_afterwards(wire: dict[str, Any]) -> None:
    message = parse_or_none(wire, allow_unknown=True)
    if message is None:
        return
    snapshot = serialize(message)
    for value in wire.values():
        if isinstance(value, dict):
            value.clear()
    assert serialize(message) == snapshot
