"""A whole document parsed by orjson (when installed) gives what the standard reader gives: values and errors."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.probe import _whole_json
from hostcompat.probe._json_stream import JSONTooLarge, load_json
from hostcompat.probe._whole_json import load_whole_json

has_orjson = _whole_json._orjson() is not None
needs_orjson = pytest.mark.skipif(not has_orjson, reason="orjson (the `fast` extra) is not installed")

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**62, max_value=2**80)  # around the 64-bit edges orjson stops at
    | st.integers(min_value=-(2**80), max_value=-(2**62))
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
values: st.SearchStrategy[Any] = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=6), children, max_size=5),
    max_leaves=40,
)


def standard(data: bytes) -> Any:
    """What the standard reader gives for a whole document (or the error it raises)."""
    return load_json(io.BytesIO(data), max_bytes=len(data), chunk=len(data) + 1)


def outcome(read: Any, data: bytes) -> tuple[str, Any]:
    try:
        value = read(data)
    except (ValueError, RecursionError) as error:
        return type(error).__name__, str(error)
    return "value", (repr(value), value)  # repr: 1 and 1.0, -0.0 and 0.0 told apart


@settings(max_examples=300, deadline=None)
@given(value=values, indent=st.sampled_from([None, 2]))
def test_values_are_the_standard_readers(value: Any, indent: int | None) -> None:
    data = json.dumps(value, indent=indent, ensure_ascii=False).encode("utf-8", "surrogatepass")
    assert outcome(lambda d: load_whole_json(d, max_bytes=len(d)), data) == outcome(standard, data)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from('{}[]",:0123456789.eE+- \\ud800tfalsenuNI\ufeff\x01'), max_size=30))
def test_errors_are_the_standard_readers(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    assert outcome(lambda d: load_whole_json(d, max_bytes=len(d)), data) == outcome(standard, data)


@needs_orjson
@pytest.mark.parametrize(
    "text",
    [
        "123456789012345678901234567890",  # orjson alone would give a float
        "[-9223372036854775809]",
        '{"a": 18446744073709551616}',
        "[1e400]",  # orjson refuses: infinity, as json reads it
        "NaN",
        '"\\ud800"',
        "[" * 2000 + "]" * 2000,
    ],
)
def test_what_orjson_would_read_otherwise_is_read_by_the_standard_reader(text: str) -> None:
    data = text.encode()
    assert outcome(lambda d: load_whole_json(d, max_bytes=len(d)), data) == outcome(standard, data)


@needs_orjson
def test_orjson_reads_an_ordinary_document(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_whole_json, "load_json", lambda *args, **kwargs: pytest.fail("read twice"))
    assert load_whole_json(b'{"tools": [{"name": "a", "n": 1.5, "big": 18446744073709551615}]}', max_bytes=100) == {
        "tools": [{"name": "a", "n": 1.5, "big": 18446744073709551615}]
    }


def test_without_orjson_the_standard_reader_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_whole_json, "_orjson", lambda: None)
    assert load_whole_json(b'{"a": [1, 2.5, "x"]}', max_bytes=100) == {"a": [1, 2.5, "x"]}


def test_a_document_over_the_limit_is_refused() -> None:
    with pytest.raises(JSONTooLarge):
        load_whole_json(b'{"a": "' + b"x" * 200 + b'"}', max_bytes=100)


@needs_orjson
def test_nesting_orjson_reads_but_the_standard_reader_may_not_is_left_to_the_standard_reader() -> None:
    for depth in (150, 1000, 1020):
        data = b"[" * depth + b"]" * depth
        assert outcome(lambda d: load_whole_json(d, max_bytes=len(d)), data) == outcome(standard, data)
