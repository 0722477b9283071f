"""A finding's own host name is found as a regular expression for a whole name would find it (without one)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.report.grouping import _marked

MARK = "\x00m\x00"


def by_pattern(text: str, name: str) -> str:
    """What the rule says, as the regular expression it was first written as."""
    if not name.strip():
        return text
    return re.compile(rf"(?<![\w./-]){re.escape(name)}(?![\w/-])").sub(MARK, text)


PIECES = st.sampled_from(["Zed", "Cursor", "zed", " ", ".", "/", "-", "_", "é", "٣", "x", "Zed Zed", "ZedZed", "\n"])
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=12).map("".join)


@settings(max_examples=600, deadline=None)
@given(
    text=TEXTS, name=st.one_of(st.sampled_from(["Zed", "Cursor", "zed", "Ze", "a.b", "-", " "]), st.text(max_size=3))
)
def test_names_are_marked_where_the_whole_name_pattern_matches(text: str, name: str) -> None:
    assert _marked(text, name, MARK) == by_pattern(text, name)


def test_a_name_inside_a_word_path_or_id_is_kept() -> None:
    text = "Zed, not Zeds, not ./Zed, zed-Zed or Zed/x: Zed."
    assert _marked(text, "Zed", "<h>") == "<h>, not Zeds, not ./Zed, zed-Zed or Zed/x: <h>."
