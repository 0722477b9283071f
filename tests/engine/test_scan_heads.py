"""The scanner's shortcuts find exactly what the plain searches they replace find.

Reading a function's head backwards (`hostcompat.engine.scan.js.heads`) must give what `re.search` over the window
gives, and a pattern written `word(?<!\\wword)` (so the regex engine can skip to the word) must match exactly where
its `\\bword` spelling does.
"""

from __future__ import annotations

import re
from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.scan import html
from hostcompat.engine.scan.js import browser, guards, heads, indirect, sdk, styles, urls
from hostcompat.engine.scan.js.heads import ARROW_HEAD, FUNCTION_HEAD, arrow_head_name, function_head

PIECES = [
    "a",
    "bc",
    "x_1",
    "$",
    "é",
    "\u0661",  # an Arabic-Indic digit: a regex word character
    "function",
    "async",
    "asyncx",
    "get",
    "set",
    "static",
    "class",
    "new",
    "const",
    "let",
    "var",
    "case",
    "from",
    "import",
    "method",
    "payload",
    "jsonrpc",
    "navigator",
    "typeof",
    "openai",
    "if",
    " ",
    "\n",
    "\t",
    "\u3000",
    "=",
    "==",
    ":",
    "=>",
    "(",
    ")",
    "*",
    ",",
    ".",
    ";",
    "{",
    "}",
    "'",
    '"',
]
texts = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


def _key(found: re.Match[str] | None) -> tuple[tuple[int, int], tuple[str | None, ...]] | None:
    return None if found is None else (found.span(), found.groups())


@settings(max_examples=400, deadline=None)
@given(texts, st.data())
def test_the_arrow_head_is_the_leftmost_match(text: str, data: st.DataObject) -> None:
    source = text + "=>"
    low = data.draw(st.integers(0, len(text)))
    found = ARROW_HEAD.search(source, low, len(source))
    assert arrow_head_name(source, low, len(source)) == (found.group(1) if found else None)


@settings(max_examples=400, deadline=None)
@given(texts, st.data())
def test_the_function_head_is_the_leftmost_match(text: str, data: st.DataObject) -> None:
    high = data.draw(st.integers(0, len(text)))
    low = data.draw(st.integers(0, high))
    assert _key(function_head(text, low, high)) == _key(FUNCTION_HEAD.search(text, low, high))


def test_a_head_is_found_where_the_search_finds_it() -> None:
    assert arrow_head_name("x; const post = (message) =>", 0, 28) == "post"
    assert arrow_head_name("x; post: async m =>", 0, 19) == "post"
    assert arrow_head_name("(a, b) =>", 0, 9) is None
    head = function_head("} async get value", 0, 17)
    assert head is not None and head.group(3) == "value" and head.start() == 2
    head = function_head("var send = function", 0, 19)
    assert head is not None and head.group(2) == "send"


_WORD_FIRST = re.compile(r"(\w+)\(\?<!\\w\1\)")
"""`word(?<!\\wword)`: a word not preceded by a word character, which `\\bword` says too."""


def _boundary_patterns() -> list[tuple[re.Pattern[str], re.Pattern[str]]]:
    """Every compiled pattern of the scanner written with `word(?<!\\wword)`, beside its `\\bword` spelling."""
    modules: list[ModuleType] = [browser, guards, heads, html, indirect, sdk, styles, urls]
    patterns = [value for module in modules for value in vars(module).values() if isinstance(value, re.Pattern)]
    return [
        (pattern, re.compile(_WORD_FIRST.sub(r"\\b\1", pattern.pattern), pattern.flags))
        for pattern in patterns
        if _WORD_FIRST.search(pattern.pattern)
    ]


BOUNDARY_PATTERNS = _boundary_patterns()


def test_the_patterns_written_for_speed_are_found() -> None:
    assert len(BOUNDARY_PATTERNS) >= 10
    assert all(r"\b" in plain.pattern and r"(?<!\w" not in plain.pattern for _, plain in BOUNDARY_PATTERNS)


@settings(max_examples=300, deadline=None)
@given(texts, st.data())
def test_a_word_first_pattern_matches_where_its_boundary_spelling_does(text: str, data: st.DataObject) -> None:
    low = data.draw(st.integers(0, len(text)))
    high = data.draw(st.integers(low, len(text)))
    for fast, plain in BOUNDARY_PATTERNS:
        assert _key(fast.search(text, low, high)) == _key(plain.search(text, low, high)), fast.pattern
        assert [_key(m) for m in fast.finditer(text, low, high)] == [_key(m) for m in plain.finditer(text, low, high)]
