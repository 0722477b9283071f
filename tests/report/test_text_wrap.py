"""The text report's line wrapping: a line that fits is kept as `textwrap` would keep it, without `textwrap`."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.report.text import _wrap

PIECES = st.sampled_from(
    [" ", "  ", "word", "rule.id-x", "https://a.example/x", "\t", "\n", "\xa0", "\u3000", "é", "😀"]
)
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=5)), max_size=14).map("".join)


def by_textwrap(text: str, width: int, first: str, rest: str) -> list[str]:
    return textwrap.wrap(
        text, width=width, initial_indent=first, subsequent_indent=rest, break_long_words=True, break_on_hyphens=False
    )


@settings(max_examples=800, deadline=None)
@given(
    text=TEXTS,
    width=st.integers(min_value=12, max_value=100),
    first=st.sampled_from(["", "  ", "  - "]),
    rest=st.sampled_from(["", "    ", "        "]),
)
def test_wrapping_is_textwraps(text: str, width: int, first: str, rest: str) -> None:
    assert _wrap(text, width, first, rest) == by_textwrap(text, width, first, rest)


def test_a_line_that_fits_is_kept_and_a_longer_one_is_wrapped() -> None:
    assert _wrap("host fact: vendor-doc", 40, "  ", "    ") == ["  host fact: vendor-doc"]
    assert _wrap("one two three four", 12, "", "  ") == ["one two", "  three four"]
