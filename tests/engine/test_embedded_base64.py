"""Base64 payloads decode the same with whitespace anywhere in them, and are cut to the size budget."""

from __future__ import annotations

import base64

from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.scan.embedded import decode_base64_text


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
