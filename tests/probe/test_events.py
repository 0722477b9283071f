"""Probe events: stable codes, checked fields, bounded messages, plain-data round trips."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given

from hostcompat.errors import InvalidInput
from hostcompat.probe import ProbeEvent, timeout_code
from hostcompat.probe.events import STEPS, is_event_code
from tests.probe.strategies import events, json_values


@pytest.mark.parametrize(
    ("step", "code"),
    [
        ("initialize", "PROBE-TIMEOUT-INITIALIZE"),
        ("tools/list", "PROBE-TIMEOUT-TOOLS-LIST"),
        ("resources/templates/list", "PROBE-TIMEOUT-RESOURCES-TEMPLATES-LIST"),
        ("resources/read", "PROBE-TIMEOUT-RESOURCES-READ"),
    ],
)
def test_timeout_codes_name_the_step(step: Any, code: str) -> None:
    assert timeout_code(step) == code


def test_every_step_has_a_well_formed_timeout_code() -> None:
    assert all(is_event_code(timeout_code(step)) for step in STEPS)


@pytest.mark.parametrize(
    "fields",
    [
        {"code": "timeout"},
        {"code": "PROBE-"},
        {"severity": "fatal"},
        {"step": "prompts/get"},
        {"message": 42},
        {"detail": {"x": object()}},
        {"detail": {"x": float("nan")}},
        {"detail": ["not", "an", "object"]},
    ],
)
def test_a_malformed_event_is_invalid_input(fields: dict[str, Any]) -> None:
    arguments: dict[str, Any] = {"code": "PROBE-X", "severity": "info", "step": "probe", "message": "m", **fields}
    with pytest.raises(InvalidInput):
        ProbeEvent(**arguments)


def test_a_long_message_is_cut_and_the_detail_is_a_private_copy() -> None:
    detail: dict[str, Any] = {"lines": [1, 2]}
    event = ProbeEvent("PROBE-X", "info", "probe", "m" * 5000, detail)
    detail["lines"].append(3)
    assert len(event.message) == 2000 and event.message.endswith("…")
    assert event.detail == {"lines": [1, 2]}


@given(events)
def test_any_event_round_trips(event: ProbeEvent) -> None:
    assert ProbeEvent.from_dict(event.to_dict()) == event


@given(json_values)
def test_arbitrary_json_is_an_event_or_invalid_input(data: Any) -> None:
    before = copy.deepcopy(data)
    try:
        event = ProbeEvent.from_dict(data)
    except InvalidInput:
        pass
    else:
        assert is_event_code(event.code)
    assert data == before
