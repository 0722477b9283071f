"""Anchor positions from the native prefilter: exact, and passes tried only there find what a full search finds."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.scan import prefilter as _prefilter
from hostcompat.engine.scan.js import browser, indirect, scan, sdk, styles, urls
from hostcompat.engine.scan.js import context as _context
from hostcompat.engine.scan.js.context import CodeView, find_words
from hostcompat.engine.scan.prefilter import Gate, find_anchors, gate
from hostcompat.engine.scan.widget import scan_widget_source
from tests.engine.test_prefilter import needs_native
from tests.engine.test_scan_corpus_properties import TOKENS

Pass = tuple[re.Pattern[str], Gate, int, Callable[[str, int], int] | None]

PASSES: list[Pass] = [
    (scan._API_NAMES, scan._API_GATE, 0, None),
    (scan._AUTO_RESIZE_OFF, scan._AUTO_RESIZE_GATE, 0, None),
    (scan._EXT_APPS_PATTERN, scan._EXT_APPS_GATE, 0, None),
    (indirect.WIRE_LITERALS, indirect.WIRE_GATE, 1, None),
    (indirect._POST_MESSAGE, indirect._POST_MESSAGE_GATE, 0, None),
    (indirect._MCP_UI_ARGUMENT, indirect._MCP_UI_TYPE_GATE, 0, None),
    (styles._OPENAI_NAME, styles._OPENAI_GATE, 0, None),
    (styles._SET_GLOBALS, styles._OPENAI_GATE, 0, None),
    (styles._MCP_UI_TYPE, styles._MCP_UI_TYPE_GATE, 0, styles._type_key_start),
    (styles._MCP_UI_MARKERS, styles._MCP_UI_MARKERS_GATE, 0, None),
    (sdk._ADAPTER_LITERAL, sdk._ADAPTER_GATE, 0, None),
    (urls._URL_TAIL, urls._URL_GATE, 0, None),
    (urls._BOUND_CONFIG, urls._BOUND_CONFIG_GATE, 0, None),
    *((pattern, needed, 0, None) for pattern, needed in urls._IMPORT_SPECIFIERS),
    *((pattern, needed, 0, None) for _, pattern, needed in urls._BOUND_USES),
    *((pattern, needed, 0, None) for pattern, _, needed in urls._EMBEDDED),
    *((pattern, browser._GATES[marker], 0, None) for marker, pattern in browser._PERMISSION_APIS),
]

PIECES = [
    *TOKENS,
    "type",
    '"type"',
    'type: "tool"',
    "'type' :\t'link'",
    '"type":"notify"',
    "xtype :\u2003'prompt'",
    " : ",
    "\t",
    "\u2003",
    '"tool"',
    "'link'",
    '"notify"',
    "autoResize: false",
    "autoResize:0",
    "https://cdn.example.com/x.js",
    '"//a.b/c"',
    "apiUrl: base,",
    'import "react"',
    "from './a.js'",
    "fetch(API)",
    "el.src = u;",
    'atob("',
    "Blob([`",
    "data:text/javascript,",
    "openai:set_globals",
    "ui-request-render-data'",
    "@modelcontextprotocol/ext-apps",
    "getUserMedia (",
    "clipboard?.writeText(",
    "\u00e9",
    "\U0001f600",
    "\ud800",
    "ui/open-link",
    "`ui/message`",
]


def _matches(found: object) -> list[tuple[int, int, tuple[str | None, ...]]]:
    assert not isinstance(found, str)
    return [(m.start(), m.end(), m.groups()) for m in found]  # type: ignore[attr-defined]


@needs_native
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=60),
    st.integers(0, 30),
    st.integers(0, 30),
    st.integers(3, 40),
    st.booleans(),
)
def test_passes_tried_at_anchors_find_what_a_full_search_finds(
    pieces: list[str], cut_start: int, cut_end: int, chunk: int, fold: bool
) -> None:
    source = "".join(pieces)
    start = min(cut_start, len(source))
    end = max(start, len(source) - cut_end)
    real, real_fold = _prefilter._CHUNK_CHARS, _prefilter._fold
    try:
        _prefilter._CHUNK_CHARS = chunk
        _prefilter._fold = real_fold if fold else None  # the C extension's one-byte fold, or UTF-8 and mapping
        view = CodeView(source, start, end)
        for pattern, needed, back, start_of in PASSES:
            anchored = _matches(view.finditer(pattern, needed, back, start_of))
            assert anchored == _matches(pattern.finditer(source, start, end)), pattern.pattern
    finally:
        _prefilter._CHUNK_CHARS, _prefilter._fold = real, real_fold


@needs_native
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["postMessage", "openai", "\u00e9", "\U0001f600", "\ud800", "x", " "]), max_size=50),
    st.booleans(),
)
def test_positions_are_every_occurrence_inside_the_stretch(pieces: list[str], fold: bool) -> None:
    source = "".join(pieces)
    real, real_fold = _prefilter._CHUNK_CHARS, _prefilter._fold
    try:
        _prefilter._CHUNK_CHARS = 7
        _prefilter._fold = real_fold if fold else None
        for literal in ("postMessage", "openai"):
            needed = gate(literal)
            for start, end in ((0, len(source)), (3, max(3, len(source) - 4))):
                expected = [m.start() for m in re.finditer(re.escape(literal), source[:end]) if m.start() >= start]
                where = find_anchors(source, start, end).where(needed)
                assert list(where or ()) == expected
    finally:
        _prefilter._CHUNK_CHARS, _prefilter._fold = real, real_fold


@needs_native
def test_an_anchor_seen_too_often_keeps_no_positions_and_scans_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    source = "<script>" + 'window.openai.callTool("x");' * 50 + "parent.postMessage({})</script>"
    before = scan_widget_source(source).to_dict()
    monkeypatch.setattr(_prefilter, "_MAX_POSITIONS", 10)
    anchors = find_anchors(source, 0, len(source))
    assert anchors.where(gate("openai")) is None and anchors.open(gate("openai"))
    assert list(anchors.where(gate("postMessage")) or ()) == [source.index("postMessage")]
    assert scan_widget_source(source).to_dict() == before


def test_without_positions_a_pass_searches_the_whole_stretch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_prefilter, "_load_matcher", lambda: None)
    source = "a.openai; b.openai"
    view = CodeView(source, 0, len(source))
    assert [m.start() for m in view.finditer(styles._OPENAI_NAME, styles._OPENAI_GATE)] == [2, 12]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["callTool", "call", "Tool", "x", "$call", ".", " ", "(", "\u00e9", "aa", "a"]), max_size=60
    ),
    st.lists(st.sampled_from(["callTool", "call", "Tool", "$call", "a"]), min_size=1, max_size=3, unique=True),
    st.integers(1, 6),
)
def test_words_found_by_str_find_give_the_full_search(pieces: list[str], words: list[str], tries: int) -> None:
    source = "".join(pieces)
    names = sorted(words, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w$])(" + "|".join(re.escape(n) for n in names) + r")(?![\w$])")
    view = CodeView(source, 1 if source else 0, len(source))
    expected = _matches(pattern.finditer(source, view.start, view.end))
    assert _matches(find_words(view, pattern, names)) == expected
    real = _context._MAX_TRIES
    try:
        _context._MAX_TRIES = tries  # past it the rest is left to finditer: still the same matches
        assert _matches(find_words(view, pattern, names)) == expected
    finally:
        _context._MAX_TRIES = real
