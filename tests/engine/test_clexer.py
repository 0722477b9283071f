"""The C lexer (`_clexer`) and the pure-Python lexer give the same spans, brace indexes and scans."""

from __future__ import annotations

import os
import sys
import time
from array import array
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.scan import prefilter as _prefilter
from hostcompat.engine.scan.budget import scan_deadline
from hostcompat.engine.scan.js import lexer
from hostcompat.engine.scan.js.lexer import JsLayout, lex_js, native_lexer
from hostcompat.engine.scan.widget import scan_widget_content, scan_widget_source
from hostcompat.errors import ScanTimedOut
from testkit.widget_corpus import Widget, corpus_widgets, fixture_widgets, read_corpus
from tests.engine.test_scan_corpus_properties import TOKENS

needs_native = pytest.mark.skipif(
    not native_lexer() and not os.environ.get("CI"),
    reason="the C lexer is not built (scripts/build_native.py): only the Python lexer runs",
)

LEXER_TOKENS = [
    *TOKENS,
    '"',
    "'",
    "\\",
    "\\\n",
    "/",
    "/x/g",
    "/[/]/",
    "[",
    "]",
    "return ",
    "typeof /a/",
    "x = a / b / c",
    ")/",
    "\r",
    "\r\n",
    "\u2028",
    "\u00a0",
    "\ufeff",
    "\u00e9",
    "\u4e2d",
    "\U0001f600",
    "$",
    "$x",
    "}",
    "*",
    "instanceof",
    "1",
]


def _parts(layout: JsLayout) -> tuple[list[int], ...]:
    return tuple(
        list(part)
        for part in (
            layout.starts,
            layout.ends,
            layout.kinds,
            layout.braces,
            layout.brace_mates,
            layout.brace_parents,
        )
    )


@pytest.fixture
def python_lexer(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(lexer, "_native", None)
    yield


def _both(source: str, start: int = 0, end: int | None = None) -> tuple[tuple[list[int], ...], tuple[list[int], ...]]:
    native = _parts(lex_js(source, start, end))
    real = lexer._native
    try:
        lexer._native = None
        python = _parts(lex_js(source, start, end))
    finally:
        lexer._native = real
    return native, python


def _labelled_widgets() -> list[Widget]:
    try:
        return corpus_widgets(read_corpus()) + fixture_widgets()
    except FileNotFoundError:
        return fixture_widgets()


def test_ci_builds_the_c_lexer() -> None:
    if os.environ.get("CI"):
        assert native_lexer(), ".ci/run builds the C lexer in place (scripts/build_native.py): it must load"


def test_without_the_extension_the_python_lexer_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "hostcompat.engine.scan.js._clexer", None)  # import fails as if never built
    assert lexer._load_native() is None
    assert _prefilter._load_fold() is None  # the prefilter then encodes chunks as UTF-8 and maps offsets back
    monkeypatch.setattr(lexer, "_native", lexer._load_native())
    assert not native_lexer()
    layout = lex_js('a = "x" + `t${b}` // c\n{ }')
    assert list(layout.kinds) == [lexer.STRING, lexer.TEMPLATE, lexer.TEMPLATE, lexer.COMMENT]
    assert list(layout.braces) == [23, 25] and list(layout.brace_mates) == [1, 0]


@needs_native
def test_both_lexers_agree_on_every_labelled_widget() -> None:
    for widget in _labelled_widgets():
        native, python = _both(widget.source)
        assert native == python, widget.key


@needs_native
def test_both_lexers_give_the_same_scan_of_every_labelled_widget(monkeypatch: pytest.MonkeyPatch) -> None:
    widgets = _labelled_widgets()
    native = [scan_widget_content(w.content).to_dict() for w in widgets]
    monkeypatch.setattr(lexer, "_native", None)
    assert [scan_widget_content(w.content).to_dict() for w in widgets] == native


@needs_native
@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LEXER_TOKENS), max_size=120), st.integers(0, 40), st.integers(0, 40))
def test_both_lexers_agree_on_generated_code(tokens: list[str], cut_start: int, cut_end: int) -> None:
    source = "".join(tokens)
    start = min(cut_start, len(source))
    end = max(start, len(source) - cut_end)
    native, python = _both(source, start, end)
    assert native == python
    whole_native, whole_python = _both(source)
    assert whole_native == whole_python


@needs_native
@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(LEXER_TOKENS), max_size=80))
def test_both_lexers_give_the_same_scan_of_generated_pages(tokens: list[str]) -> None:
    source = "".join(tokens)
    native = scan_widget_source(source).to_dict()
    real = lexer._native
    try:
        lexer._native = None
        assert scan_widget_source(source).to_dict() == native
    finally:
        lexer._native = real


@needs_native
@pytest.mark.parametrize(
    "source",
    [
        "`${" * 50_000,
        "{" * 100_000 + "}" * 99_999,
        '"' + "\\" * 100_001,
        "/" + "[" * 50_000,
        "a" * 200_000 + "/x/",
        "\U0001f600`${'\u4e2d" * 10_000,
        "",
        "/",
        "`",
    ],
)
def test_hostile_inputs_lex_the_same_without_recursion(source: str) -> None:
    native, python = _both(source)
    assert native == python


@needs_native
def test_wide_offsets_come_back_as_eight_byte_arrays() -> None:
    native = lexer._native
    assert native is not None
    source = "a('x', `y`) /* z */"
    narrow = [array("i", raw) for raw in native.lex(source, 0, len(source), False, None)[:2]]
    wide = [array("q", raw) for raw in native.lex(source, 0, len(source), True, None)[:2]]
    assert [list(a) for a in narrow] == [list(a) for a in wide] == [[2, 7, 12], [5, 10, 19]]


@needs_native
def test_bad_ranges_are_refused_by_the_extension() -> None:
    native = lexer._native
    assert native is not None
    for start, stop in ((-1, 2), (3, 2), (0, 99)):
        with pytest.raises(ValueError):
            native.lex("abc", start, stop, False, None)
    with pytest.raises(ValueError):
        native.index_braces("{}", 0, 2, b"\x00" * 3, b"", False, None)


@pytest.mark.parametrize("use_native", [True, False])
def test_a_past_deadline_stops_either_lexer(monkeypatch: pytest.MonkeyPatch, use_native: bool) -> None:
    if use_native and not native_lexer():
        pytest.skip("the C lexer is not built")
    if not use_native:
        monkeypatch.setattr(lexer, "_native", None)
    source = '"",' * 200_000
    with scan_deadline(time.monotonic() - 1), pytest.raises(ScanTimedOut):
        lex_js(source)
