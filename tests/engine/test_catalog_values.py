"""Catalog values that break their schema raise `InvalidCatalogValue`, saying why (the reader adds where)."""

import pytest

from hostcompat.engine.catalog.schema import ValueSpec, check_date, check_text, check_value, date_problem
from hostcompat.errors import CatalogError, InvalidCatalogValue


@pytest.mark.parametrize(
    ("spec", "value", "reason"),
    [
        (ValueSpec("integer"), "3", "must be an integer, not str"),
        (ValueSpec("integer"), -1, "must be between 0 (no limit)"),
        (ValueSpec("boolean"), 1, "must be true or false"),
        (ValueSpec("level", ("supported", "unknown")), "maybe", "'maybe' is not one of supported, unknown"),
        (ValueSpec("choices", ("a", "b")), ["a", "a"], "has duplicate items"),
        (ValueSpec("choices", ("a", "b")), ["c"], "item 'c' is not one of a, b"),
        (ValueSpec("name-format"), "{server}", "with {tool} once"),
    ],
)
def test_a_bad_value_says_why(spec: ValueSpec, value: object, reason: str) -> None:
    with pytest.raises(InvalidCatalogValue) as caught:
        check_value(spec, value)
    assert reason in caught.value.message
    assert isinstance(caught.value, CatalogError)


def test_good_values_pass() -> None:
    check_value(ValueSpec("integer"), 64)
    check_value(ValueSpec("choices", ("a", "b")), ["a", "b"])
    check_text("some text")
    check_date("2026-01-02", full=True)


def test_dates() -> None:
    with pytest.raises(InvalidCatalogValue, match="calendar date"):
        check_date("2026-02-30")
    with pytest.raises(InvalidCatalogValue, match="YYYY-MM-DD"):
        check_date("2026", full=True)
    assert date_problem("2026") is None
    assert date_problem(3) == "must be a date string, not int"
