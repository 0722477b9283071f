"""Probe limits: sane defaults, every value checked, plain-data round trips."""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import pytest
from hypothesis import given

from hostcompat.errors import InvalidInput
from hostcompat.probe import DEFAULT_LIMITS, Limits
from tests.probe.strategies import json_values, limits


def test_the_defaults_fit_a_big_catalog_and_an_over_budget_widget() -> None:
    assert DEFAULT_LIMITS.max_items >= 10_000
    assert DEFAULT_LIMITS.max_bytes_per_resource > 1024 * 1024
    assert DEFAULT_LIMITS.step_timeout <= DEFAULT_LIMITS.connect_timeout <= DEFAULT_LIMITS.total_timeout


@pytest.mark.parametrize(
    "fields",
    [
        {"step_timeout": 0},
        {"step_timeout": -1.0},
        {"total_timeout": float("inf")},
        {"connect_timeout": "5"},
        {"max_pages": 0},
        {"max_items": 2.5},
        {"max_message_bytes": True},
        {"step_timeout": 100.0, "total_timeout": 10.0},
    ],
)
def test_a_bad_limit_is_invalid_input(fields: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        Limits(**fields)


def test_integer_seconds_are_accepted_as_floats() -> None:
    assert Limits(step_timeout=2).step_timeout == 2.0


def test_unknown_keys_in_a_file_are_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="unknown keys"):
        Limits.from_dict({"stepTimeout": 1, "maxWidgets": 3})
    assert Limits.from_dict({}) == DEFAULT_LIMITS


@given(limits)
def test_any_limits_round_trip(value: Limits) -> None:
    assert Limits.from_dict(value.to_dict()) == value


@given(json_values)
def test_arbitrary_json_is_limits_or_invalid_input(data: Any) -> None:
    before = copy.deepcopy(data)
    with contextlib.suppress(InvalidInput):
        Limits.from_dict(data)
    assert data == before
