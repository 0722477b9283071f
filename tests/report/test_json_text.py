"""`json_text` writes exactly what `json.dumps(value, indent=2, ensure_ascii=False)` writes, newline added."""

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.report.indented_json import json_text

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
keys = st.text() | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.lists(children, max_size=3).map(tuple)
        | st.dictionaries(keys, children, max_size=4)
    ),
    max_leaves=25,
)


def standard(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


@given(values)
def test_the_text_is_json_dumps_with_two_space_indent(value: Any) -> None:
    assert json_text(value) == standard(value)


@pytest.mark.parametrize(
    "value",
    [
        {},
        [],
        {"a": [], "b": {}, "c": [{}], "d": [[[]]]},
        {"é": "naïve ✓ \u2028 \x00 \ud800", "n": [math.nan, math.inf, -math.inf, -0.0, 1e300, 10**40]},
        [True, False, None, 1, 1.5, "x"],
    ],
)
def test_edge_cases_match(value: Any) -> None:
    assert json_text(value) == standard(value)


def test_what_json_cannot_write_fails_as_in_json_dumps() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        json_text({"a": {1, 2}})
    cycle: list[Any] = []
    cycle.append(cycle)
    with pytest.raises(ValueError, match="Circular reference"):
        json_text(cycle)
