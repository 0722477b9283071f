import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.apps.bridge import legacy as lg
from hostcompat.apps.bridge.legacy_mapping import from_official, to_official
from hostcompat.apps.bridge.parse import parse_message
from hostcompat.errors import InvalidBridgeMessage
from tests.apps.bridge.strategies import json_values, legacy_envelopes


def parse_or_none(data: Any) -> lg.LegacyEnvelope | None:
    try:
        return lg.parse_legacy_envelope(data)
    except InvalidBridgeMessage:
        return None


@given(json_values)
def test_arbitrary_json_parses_to_an_envelope_or_raises_invalid_bridge_message(value: Any) -> None:
    before = copy.deepcopy(value)
    envelope = parse_or_none(json.dumps(value))
    assert parse_or_none(value) == envelope
    assert value == before


@settings(max_examples=300)
@given(legacy_envelopes)
def test_a_near_valid_envelope_round_trips_or_raises_invalid_bridge_message(wire: dict[str, Any]) -> None:
    before = copy.deepcopy(wire)
    envelope = parse_or_none(wire)
    assert wire == before
    if envelope is None:
        return
    written = envelope.to_wire()
    assert lg.parse_legacy_envelope(written) == envelope
    assert lg.parse_legacy_envelope(json.dumps(written)) == envelope
    assert lg.parse_legacy_envelope(written).to_wire() == written


@settings(max_examples=300)
@given(legacy_envelopes, st.integers() | st.text(max_size=5))
def test_a_valid_envelope_maps_to_a_parseable_official_message_or_says_it_has_no_equivalent(
    wire: dict[str, Any], request_id: int | str
) -> None:
    envelope = parse_or_none(wire)
    if envelope is None:
        return
    try:
        official = to_official(envelope, request_id=request_id)
    except InvalidBridgeMessage:
        return
    message = parse_message(official)
    params = envelope.params
    try:
        back = from_official(
            message,
            window_id=params.window_id,
            resource_uri=params.resource_uri,
            tool_name=getattr(params, "tool_name", ""),
            allowed_tools=getattr(params, "allowed_tools", None),
        )
    except InvalidBridgeMessage:
        return
    assert back.method == envelope.method
