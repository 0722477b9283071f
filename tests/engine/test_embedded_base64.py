"""Base64 payloads decode the same with whitespace anywhere in them, and are cut to the size budget."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.scan import embedded
from hostcompat.engine.scan.embedded import _b64decode, _is_base64_body, decode_base64_text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120), st.integers(1, 60), st.lists(st.integers(0, 200), max_size=5), st.booleans())
def test_whitespace_anywhere_decodes_like_the_compact_payload(
    text: str, max_chars: int, cuts: list[int], url_safe: bool
) -> None:
    raw = text.encode("utf-8")
    compact = (base64.urlsafe_b64encode if url_safe else base64.b64encode)(raw).decode()
    spaced = compact
    for cut in sorted(cuts, reverse=True):
        spaced = spaced[:cut] + " \n\t" + spaced[cut:]
    decoded = decode_base64_text(spaced, max_chars)
    assert decoded == decode_base64_text(compact, max_chars)
    if text and len(compact) <= (max_chars // 3 + 1) * 4:
        assert decoded == text


def test_a_payload_that_is_not_base64_is_refused_with_or_without_whitespace() -> None:
    assert decode_base64_text("not base64!", 100) is None
    assert decode_base64_text("  \n ", 100) is None
    assert decode_base64_text("aGk=", 100) == "hi"
    assert decode_base64_text("aG k=\n", 100) == "hi"


@settings(max_examples=800, deadline=None)
@given(st.text(alphabet=st.sampled_from("QUJDRA+/_-=é \n!"), max_size=24) | st.text(max_size=12))
def test_the_body_check_is_the_base64_pattern(text: str) -> None:
    expected = bool(text) and re.fullmatch(r"[A-Za-z0-9+/_-]*={0,2}", text) is not None
    assert _is_base64_body(text) == expected


@settings(max_examples=2000, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("QUJDRAz09+/=_- "), max_size=40)
    | st.binary(max_size=200).map(lambda raw: base64.b64encode(raw).decode())
    | st.text(max_size=16),
    st.integers(1, 80),
)
def test_the_fast_decoder_decodes_every_payload_as_the_standard_one(payload: str, max_chars: int) -> None:
    """pybase64 (the `fast` extra) stands in for `base64.b64decode`: the same text, or None, for every payload."""
    fast = pytest.importorskip("pybase64", reason="pybase64 (the fast extra) is not installed").b64decode
    assert _decoded_by(fast, payload, max_chars) == _decoded_by(base64.b64decode, payload, max_chars)


def _decoded_by(decoder: Callable[..., bytes], payload: str, max_chars: int) -> str | None:
    before = embedded._DECODER[:]
    embedded._DECODER[:] = [decoder]
    try:
        return decode_base64_text(payload, max_chars)
    finally:
        embedded._DECODER[:] = before


def test_the_decoder_is_pybase64_when_installed_else_the_standard_one() -> None:
    try:
        import pybase64
    except ImportError:
        assert _b64decode() is base64.b64decode
    else:
        assert _b64decode() is pybase64.b64decode


def test_a_megabyte_payload_decodes_to_its_text() -> None:
    text = "function f(){return 1}\n" * 60_000 + "é"
    payload = base64.b64encode(text.encode()).decode()
    assert decode_base64_text(payload, len(text)) == text
    assert decode_base64_text(payload[:-4] + "A===", len(text)) is None  # three pad characters: not base64
