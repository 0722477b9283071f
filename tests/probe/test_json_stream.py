"""The piecewise JSON reader behind snapshot files: `json.loads`'s results in a fraction of its memory."""

from __future__ import annotations

import io
import json
import math
import tracemalloc
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.probe._json_stream import JSONTooLarge, load_json, load_json_capped

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
values: st.SearchStrategy[Any] = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=6), children, max_size=5),
    max_leaves=40,
)
spacing = st.sampled_from([None, 0, 2])


@settings(max_examples=200, deadline=None)
@given(value=values, indent=spacing, chunk=st.integers(min_value=1, max_value=64))
def test_reads_what_json_loads_reads_whatever_the_pieces(value: Any, indent: int | None, chunk: int) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    data = text.encode("utf-8", "surrogatepass")
    assert load_json(io.BytesIO(data), max_bytes=len(data), chunk=chunk) == json.loads(text)
    assert load_json(text, max_bytes=len(text)) == json.loads(text)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=40), chunk=st.integers(min_value=1, max_value=8))
def test_refuses_what_json_loads_refuses(text: str, chunk: int) -> None:
    data = text.encode("utf-8", "surrogatepass")
    if text.startswith("\ufeff"):
        return  # a file may start with a byte order mark (as `json.loads` reads bytes); this compares with a str
    try:
        expected = json.loads(text)
    except (ValueError, RecursionError):
        with pytest.raises(ValueError):
            load_json(io.BytesIO(data), max_bytes=1000, chunk=chunk)
        return
    if isinstance(expected, float) and not math.isfinite(expected):
        return  # "1e999" is infinity to json.loads too; the snapshot checks refuse it later
    if "NaN" in text or "Infinity" in text:
        return  # refused here on purpose
    assert load_json(io.BytesIO(data), max_bytes=1000, chunk=chunk) == expected


def test_nan_and_infinities_are_refused() -> None:
    for text in ("NaN", "[Infinity]", '{"a": -Infinity}'):
        with pytest.raises(ValueError):
            load_json(text, max_bytes=100)


def test_reads_no_more_than_its_limit() -> None:
    with pytest.raises(JSONTooLarge):
        load_json(io.BytesIO(b"[" + b"1," * 1000 + b"1]"), max_bytes=100)


def test_a_big_document_never_exists_as_text_beside_its_tree() -> None:
    items = [{"name": f"tool_{n}", "description": "d" * 200} for n in range(20_000)]
    data = json.dumps({"tools": items}).encode()
    tracemalloc.start()
    tree = load_json(io.BytesIO(data), max_bytes=len(data))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(tree["tools"]) == 20_000
    text_and_tree = len(data) + sum(len(item["description"]) + 300 for item in tree["tools"])
    assert peak < text_and_tree, (peak, text_and_tree)


def test_capped_lists_keep_their_first_items_and_count_the_rest() -> None:
    message = {"jsonrpc": "2.0", "id": 7, "result": {"tools": [{"name": str(n)} for n in range(100)], "x": [1, 2]}}
    value, dropped = load_json_capped(json.dumps(message), depth=2, max_items=3)
    assert value["result"]["tools"] == [{"name": "0"}, {"name": "1"}, {"name": "2"}]
    assert value["result"]["x"] == [1, 2] and value["id"] == 7
    assert dropped == 97
