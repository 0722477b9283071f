"""`hostcompat.terminal`: what it shows of any text holds nothing a terminal obeys, and escaped JSON is equal JSON."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from hostcompat.report.indented_json import json_text
from hostcompat.terminal import clean_line, escape_json_text, is_unsafe

CONTROLS = (
    [chr(code) for code in range(0x20)]
    + [chr(code) for code in range(0x7F, 0xA0)]
    + [chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
)

LONE_SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]
"""JSON can hold them (as escapes, or raw from a decoded file); no UTF-8 stream can."""

texts = st.text(alphabet=st.sampled_from(CONTROLS + LONE_SURROGATES) | st.characters(), max_size=60)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=20,
)


def test_every_control_the_issue_names_is_unsafe() -> None:
    assert all(is_unsafe(char) for char in CONTROLS)
    assert not any(is_unsafe(char) for char in "az AZ09 é✓ 中文 \u200d")


@given(texts)
def test_a_clean_line_is_one_line_of_safe_characters(text: str) -> None:
    line = clean_line(text)
    assert not any(is_unsafe(char) for char in line)
    assert "\n" not in line and "\r" not in line


def test_a_clean_line_shows_what_it_neutralised() -> None:
    assert clean_line("a\x1b[2Jb\u009bc\u202ed\ne\tf") == "a\\x1b[2Jb\\x9bc\\u202ed\\ne f"
    assert clean_line("forged\nhostcompat: ok") == "forged\\nhostcompat: ok"
    assert clean_line("plain text") == "plain text"


@given(json_values)
def test_json_escaped_for_a_terminal_is_the_same_json_with_nothing_unsafe(value: object) -> None:
    text = json_text(value)
    shown = escape_json_text(text)
    assert json.loads(shown) == json.loads(text)
    assert not any(is_unsafe(char) for char in shown.replace("\n", ""))


@given(json_values)
def test_json_for_a_file_only_escapes_lone_surrogates(value: object) -> None:
    text = json_text(value)
    written = escape_json_text(text, terminal=False)
    written.encode("utf-8")  # a UTF-8 stream can carry it
    assert json.loads(written) == json.loads(text)
