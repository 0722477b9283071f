"""A linear JavaScript lexer that maps where strings, templates, comments and regex literals lie.

The scanner only needs to know, for any offset, whether it is code or text inside a literal or
comment, and to walk braces; so the lexer records the non-code spans and leaves code implicit.
It is tolerant (unterminated literals end at the input's end) and runs in one pass.

The same lexer is compiled from C (`_clexer`, built where a compiler is present) and used when it loads; this
module's Python code is the reference and the fallback, and both give identical spans and brace indexes.
"""

from __future__ import annotations

import importlib
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import MutableSequence, Sequence
from dataclasses import field
from functools import cached_property
from types import ModuleType

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.engine.scan.budget import check_deadline

__all__ = [
    "COMMENT",
    "REGEX",
    "STRING",
    "TEMPLATE",
    "JsLayout",
    "enclosing_open_brace",
    "is_code",
    "lex_js",
    "matching_close_brace",
    "native_lexer",
    "next_code_index",
    "prev_code_index",
    "span_index_at",
]

STRING = 1
TEMPLATE = 2
COMMENT = 3
REGEX = 4

_NEXT_SPECIAL = regex(r"[\"'`/]")
_NEXT_SPECIAL_IN_TEMPLATE_EXPR = regex(r"[\"'`/{}]")
_DOUBLE_QUOTED = regex(r'"[^"\\\r\n]*(?:\\[\s\S][^"\\\r\n]*)*"?')
_SINGLE_QUOTED = regex(r"'[^'\\\r\n]*(?:\\[\s\S][^'\\\r\n]*)*'?")
_TEMPLATE_TEXT = regex(r"[^`\\$]*(?:(?:\\[\s\S]|\$(?!\{))[^`\\$]*)*")
_REGEX_BODY = regex(r"/(?:[^\\/\[\r\n]|\\[^\r\n]|\[(?:[^\]\\\r\n]|\\[^\r\n])*\])+/[A-Za-z]*")
_LINE_END = regex(r"[\r\n\u2028\u2029]")
_BRACES = regex(r"[{}]")
_DEADLINE_EVERY = 4096
_WORD_BEFORE_REGEX = frozenset(
    {
        "return",
        "typeof",
        "instanceof",
        "in",
        "of",
        "new",
        "delete",
        "void",
        "throw",
        "case",
        "do",
        "else",
        "yield",
        "await",
    }
)
_IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
_WHITESPACE = frozenset(" \t\r\n\f\v\u00a0\u2028\u2029\ufeff")


def _load_native() -> ModuleType | None:
    try:
        return importlib.import_module("hostcompat.engine.scan.js._clexer")
    except ImportError:  # no compiler where it was installed: the Python lexer below does the same work
        return None


_native: ModuleType | None = _load_native()


def native_lexer() -> bool:
    """Whether the C lexer is in use (the optional `_clexer` extension loaded)."""
    return _native is not None


@dataclass(frozen=True)
class JsLayout:
    """The non-code spans of one stretch of JavaScript, sorted and disjoint.

    `starts[i]:ends[i]` is a literal or comment of kind `kinds[i]` (STRING, TEMPLATE for template
    text, COMMENT or REGEX); `${...}` expressions inside templates are code and not covered.
    `braces` are the positions of the braces in code; `brace_mates[i]` is the index of brace i's
    partner (-1 if unmatched) and `brace_parents[i]` the index of the `{` enclosing an opening brace.
    The brace index is built on first use: text with nothing to look at never pays for it.
    """

    start: int
    end: int
    starts: Sequence[int]
    ends: Sequence[int]
    kinds: Sequence[int]
    source: str = field(default="", repr=False, compare=False)

    @cached_property
    def _brace_index(self) -> tuple[Sequence[int], Sequence[int], Sequence[int]]:
        return _index_braces(self.source, self.start, self.end, self.starts, self.ends)

    @property
    def braces(self) -> Sequence[int]:
        """Positions of the braces in code."""
        return self._brace_index[0]

    @property
    def brace_mates(self) -> Sequence[int]:
        """Per brace, the index of its partner (-1 when unmatched)."""
        return self._brace_index[1]

    @property
    def brace_parents(self) -> Sequence[int]:
        """Per opening brace, the index of the `{` enclosing it (-1 when none)."""
        return self._brace_index[2]


def lex_js(source: str, start: int = 0, end: int | None = None) -> JsLayout:
    """Map the literals and comments of `source[start:end]`; offsets stay absolute."""
    stop = len(source) if end is None else end
    code = _offset_code(stop)
    native = _native
    if native is not None and 0 <= start <= stop <= len(source):
        raw_starts, raw_ends, raw_kinds = native.lex(source, start, stop, code == "q", check_deadline)
        return JsLayout(start, stop, _array(code, raw_starts), _array(code, raw_ends), _array("b", raw_kinds), source)
    starts: MutableSequence[int] = array(code)  # compact: a page of literals costs bytes per literal, not objects
    ends: MutableSequence[int] = array(code)
    kinds: MutableSequence[int] = array("b")
    template_depths: list[int] = []
    pos = start
    steps = 0
    while pos < stop:
        steps += 1
        if steps % _DEADLINE_EVERY == 0:
            check_deadline()
        finder = _NEXT_SPECIAL_IN_TEMPLATE_EXPR if template_depths else _NEXT_SPECIAL
        hit = finder.search(source, pos, stop)
        if hit is None:
            break
        i = hit.start()
        char = source[i]
        if char == '"' or char == "'":
            pattern = _DOUBLE_QUOTED if char == '"' else _SINGLE_QUOTED
            literal = pattern.match(source, i, stop)
            j = literal.end() if literal else i + 1
            starts.append(i)
            ends.append(j)
            kinds.append(STRING)
            pos = j
        elif char == "`":
            pos = _template_text(source, i, i + 1, stop, starts, ends, kinds, template_depths)
        elif char == "{":
            template_depths[-1] += 1
            pos = i + 1
        elif char == "}":
            if template_depths[-1] == 0:
                template_depths.pop()
                pos = _template_text(source, i, i + 1, stop, starts, ends, kinds, template_depths)
            else:
                template_depths[-1] -= 1
                pos = i + 1
        else:
            pos = _slash(source, i, stop, starts, ends, kinds)
    return JsLayout(start, stop, starts, ends, kinds, source)


def _array(code: str, raw: bytes) -> MutableSequence[int]:
    values: MutableSequence[int] = array(code)
    values.frombytes(raw)  # type: ignore[attr-defined]  # an array, typed as the sequence it is used as
    return values


def _typed(values: Sequence[int], code: str) -> bool:
    return isinstance(values, array) and values.typecode == code


def _offset_code(stop: int) -> str:
    """The array type code for offsets up to `stop`: 4 bytes when they fit, else 8."""
    return "i" if stop < 2**31 else "q"


def _index_braces(
    source: str, start: int, stop: int, starts: Sequence[int], ends: Sequence[int]
) -> tuple[Sequence[int], Sequence[int], Sequence[int]]:
    """Positions of the code braces, each one's mate (-1 if unmatched) and each `{`'s enclosing `{` (-1 if none).

    Mates and parents are indexes into the positions; one pass, so brace questions cost a bisect.
    """
    code = _offset_code(stop)
    native = _native
    if native is not None and 0 <= start <= stop <= len(source) and _typed(starts, code) and _typed(ends, code):
        positions_, mates_, parents_ = (
            _array(code, b) for b in native.index_braces(source, start, stop, starts, ends, code == "q", check_deadline)
        )
        return positions_, mates_, parents_
    positions: MutableSequence[int] = array(_offset_code(stop))
    count = len(starts)
    k = 0
    for steps, hit in enumerate(_BRACES.finditer(source, start, stop)):
        if steps % _DEADLINE_EVERY == 0:
            check_deadline()
        i = hit.start()
        while k < count and ends[k] <= i:
            k += 1
        if k < count and starts[k] <= i:
            continue
        positions.append(i)
    mates: MutableSequence[int] = array(_offset_code(stop), [-1]) * len(positions)
    parents: MutableSequence[int] = array(_offset_code(stop), [-1]) * len(positions)
    stack: list[int] = []
    for index, i in enumerate(positions):
        if index % _DEADLINE_EVERY == 0:
            check_deadline()
        if source[i] == "{":
            parents[index] = stack[-1] if stack else -1
            stack.append(index)
        elif stack:
            opener = stack.pop()
            mates[opener] = index
            mates[index] = opener
    return positions, mates, parents


def _template_text(
    source: str,
    span_start: int,
    text_start: int,
    stop: int,
    starts: MutableSequence[int],
    ends: MutableSequence[int],
    kinds: MutableSequence[int],
    template_depths: list[int],
) -> int:
    """Record template text from `span_start`; return where lexing resumes."""
    text = _TEMPLATE_TEXT.match(source, text_start, stop)
    j = text.end() if text else text_start
    if j < stop and source[j] == "`":
        starts.append(span_start)
        ends.append(j + 1)
        kinds.append(TEMPLATE)
        return j + 1
    if j + 1 < stop and source[j] == "$":
        starts.append(span_start)
        ends.append(j + 2)
        kinds.append(TEMPLATE)
        template_depths.append(0)
        return j + 2
    starts.append(span_start)
    ends.append(stop)
    kinds.append(TEMPLATE)
    return stop


def _slash(
    source: str,
    i: int,
    stop: int,
    starts: MutableSequence[int],
    ends: MutableSequence[int],
    kinds: MutableSequence[int],
) -> int:
    """Handle a `/`: a comment, a regex literal or a division; return where lexing resumes."""
    following = source[i + 1] if i + 1 < stop else ""
    if following == "/":
        line_end = _LINE_END.search(source, i, stop)
        j = line_end.start() if line_end else stop
        _append_span(starts, ends, kinds, i, j, COMMENT)
        return j
    if following == "*":
        close = source.find("*/", i + 2, stop)
        j = stop if close < 0 else close + 2
        _append_span(starts, ends, kinds, i, j, COMMENT)
        return j
    if _regex_allowed(source, i, starts, ends):
        literal = _REGEX_BODY.match(source, i, stop)
        if literal is not None:
            _append_span(starts, ends, kinds, i, literal.end(), REGEX)
            return literal.end()
    return i + 1


def _append_span(
    starts: MutableSequence[int],
    ends: MutableSequence[int],
    kinds: MutableSequence[int],
    start: int,
    end: int,
    kind: int,
) -> None:
    starts.append(start)
    ends.append(end)
    kinds.append(kind)


def _regex_allowed(source: str, i: int, starts: Sequence[int], ends: Sequence[int]) -> bool:
    """Whether a `/` at `i` starts a regex literal, judged by the code just before it."""
    j = i - 1
    while j >= 0:
        if ends and ends[-1] == j + 1 and starts[-1] <= j:
            # Just after a recorded span: a comment is skipped, a literal ends an expression.
            if source[starts[-1]] == "/" and source[starts[-1] + 1 : starts[-1] + 2] in ("/", "*"):
                j = starts[-1] - 1
                continue
            return False
        char = source[j]
        if char in _WHITESPACE:
            j -= 1
            continue
        break
    if j < 0:
        return True
    char = source[j]
    if char in ")]":
        return False
    if char in _IDENT_CHARS:
        k = j
        while k >= 0 and source[k] in _IDENT_CHARS:
            k -= 1
        return source[k + 1 : j + 1] in _WORD_BEFORE_REGEX
    return True


def span_index_at(layout: JsLayout, offset: int) -> int:
    """Index of the non-code span containing `offset`, or -1 when `offset` is code."""
    index = bisect_right(layout.starts, offset) - 1
    if index >= 0 and offset < layout.ends[index]:
        return index
    return -1


def is_code(layout: JsLayout, offset: int) -> bool:
    """Whether `offset` lies in code (outside every literal and comment) of the layout."""
    return layout.start <= offset < layout.end and span_index_at(layout, offset) < 0


def prev_code_index(source: str, layout: JsLayout, offset: int) -> int:
    """Index of the last non-blank code character before `offset`, skipping comments; -1 if none.

    A string or template literal right before `offset` is returned as its last character.
    """
    j = offset - 1
    while j >= layout.start:
        char = source[j]
        if char in _WHITESPACE:
            j -= 1
            continue
        index = span_index_at(layout, j)
        if index >= 0 and layout.kinds[index] == COMMENT:
            j = layout.starts[index] - 1
            continue
        return j
    return -1


def next_code_index(source: str, layout: JsLayout, offset: int) -> int:
    """Index of the first non-blank character at or after `offset`, skipping comments; -1 if none."""
    j = offset
    while j < layout.end:
        char = source[j]
        if char in _WHITESPACE:
            j += 1
            continue
        index = span_index_at(layout, j)
        if index >= 0 and layout.kinds[index] == COMMENT:
            j = layout.ends[index]
            continue
        return j
    return -1


def matching_close_brace(source: str, layout: JsLayout, open_index: int, limit: int) -> int:
    """Index of the `}` closing the code `{` at `open_index`, if within `limit` characters; -1 otherwise."""
    index = bisect_left(layout.braces, open_index)
    if index >= len(layout.braces) or layout.braces[index] != open_index or source[open_index] != "{":
        return -1
    mate = layout.brace_mates[index]
    if mate < 0 or layout.braces[mate] - open_index > limit:
        return -1
    return layout.braces[mate]


def enclosing_open_brace(source: str, layout: JsLayout, offset: int, limit: int) -> int:
    """Index of the innermost unclosed code `{` before `offset`, if within `limit` characters back; -1 otherwise."""
    index = bisect_left(layout.braces, offset) - 1
    if index < 0:
        return -1
    if source[layout.braces[index]] == "{":
        opener = index
    else:
        mate = layout.brace_mates[index]
        opener = layout.brace_parents[mate] if mate >= 0 else -1
    if opener < 0 or offset - layout.braces[opener] > limit:
        return -1
    return layout.braces[opener]
