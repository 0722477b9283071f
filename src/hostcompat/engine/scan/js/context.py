"""Local questions about one hit in lexed JavaScript: what comes before and after it, who calls it.

Each helper looks only at a bounded window around the hit, so the scanner stays linear however
large the bundle is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import field
from functools import cached_property
from heapq import merge
from typing import Any, NamedTuple

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.engine.scan.budget import HitBudget, check_deadline
from hostcompat.engine.scan.js.heads import arrow_head_name, function_head
from hostcompat.engine.scan.js.lexer import (
    COMMENT,
    JsLayout,
    enclosing_open_brace,
    is_code,
    lex_js,
    matching_close_brace,
    next_code_index,
    prev_code_index,
    span_index_at,
)
from hostcompat.engine.scan.prefilter import Anchors, Gate, find_anchors

__all__ = [
    "CodeView",
    "Subscript",
    "at_word_start",
    "bracket_member_use",
    "callee_before",
    "downleveled_optional_call",
    "enclosing_function",
    "find_words",
    "identifier_before",
    "is_called",
    "is_literal_at",
    "member_use",
    "object_text_around",
    "word_alternation",
]

_IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
_CONTROL_WORDS = frozenset({"if", "for", "while", "switch", "catch", "with", "return", "typeof", "do", "else"})
_MAX_FUNCTION_WALK = 8192
_MAX_PARAMS = 400
_MAX_CALLED_BODY = 65_536
_MAX_CALLED_REFERENCES = 500
_MAX_TRIES = 32_768


@dataclass(frozen=True)
class CodeView:
    """A stretch `source[start:end]` of JavaScript and its layout, lexed on first use.

    Every pass searches the raw text first and asks the layout only about its hits, so a stretch
    with nothing to look at is never lexed; a pass whose anchors the prefilter did not see is skipped.
    """

    source: str
    start: int
    end: int
    budget: HitBudget = field(default_factory=HitBudget, compare=False, repr=False)
    """How many more hits each pass may look at (see `hostcompat.engine.scan.budget`)."""
    memo: dict[tuple[str, int], tuple[int, str] | bool] = field(default_factory=dict, compare=False, repr=False)
    """Answers already worked out for this stretch: the function around a brace, whether a function is called."""
    guard_checks: dict[re.Pattern[str], Any] = field(default_factory=dict, compare=False, repr=False)
    """Per capability-check pattern: how often it was searched for, then all its matches (`_guards`)."""

    @cached_property
    def layout(self) -> JsLayout:
        """Where the literals and comments lie (see `lex_js`)."""
        return lex_js(self.source, self.start, self.end)

    @cached_property
    def anchors(self) -> Anchors:
        """Which pass anchors occur in the stretch (one native pass; all open without the prefilter)."""
        return find_anchors(self.source, self.start, self.end)

    def may_match(self, needed: Gate) -> bool:
        """Whether a pass gated on `needed` can find anything in this stretch."""
        return self.anchors.open(needed)

    def finditer(
        self,
        pattern: re.Pattern[str],
        needed: Gate,
        back: int = 0,
        start_of: Callable[[str, int], int] | None = None,
    ) -> Iterator[re.Match[str]]:
        """The matches of `pattern.finditer(source, start, end)`, tried only where `needed`'s anchors lie.

        The pass promises that every match holds one of `needed`'s literals starting at most `back`
        characters after the match's start, or, with `start_of`, that the match starts at
        `start_of(source, anchor)` for an anchor it holds (-1: no match there). Without anchor positions
        (no prefilter) the whole stretch is searched: the same matches either way.
        """
        if not self.may_match(needed):
            return iter(())
        where = self.anchors.where(needed)
        if where is None:
            return pattern.finditer(self.source, self.start, self.end)
        if start_of is not None:
            starts = sorted({at for anchor in where if (at := start_of(self.source, anchor)) >= self.start})
            return _anchored_at(pattern, self.source, self.end, starts)
        if back == 0:  # the anchors lie in the stretch: each is the one start to try
            return _anchored_at(pattern, self.source, self.end, where)
        return _anchored(pattern, self.source, self.end, [(max(self.start, a - back), a) for a in where])


def find_words(view: CodeView, pattern: re.Pattern[str], words: Sequence[str]) -> Iterator[re.Match[str]]:
    """The matches of `pattern.finditer` over the stretch, for a pattern whose every match starts with one of `words`.

    The words are found with `str.find`, lazily (far faster than a regex alternation that starts with a
    lookbehind), and the pattern is tried only there.
    """
    found = merge(*(_occurrences(view.source, word, view.start, view.end) for word in words))
    return _anchored(pattern, view.source, view.end, ((at, at) for at in found))


def _occurrences(source: str, word: str, start: int, end: int) -> Iterator[int]:
    at = source.find(word, start, end)
    while at >= 0:
        yield at
        at = source.find(word, at + 1, end)


def _anchored(
    pattern: re.Pattern[str], source: str, end: int, ranges: Iterable[tuple[int, int]]
) -> Iterator[re.Match[str]]:
    """`pattern`'s successive non-overlapping matches, trying starts only within the ascending `ranges`.

    What `finditer` gives when every match starts within one of the ranges: it takes the leftmost start
    at or after the previous match's end, and so does trying those starts in order. After `_MAX_TRIES`
    starts the rest is left to `finditer` itself (text made of nothing but candidates stays linear).
    """
    match_at = pattern.match
    floor = 0
    tries = _MAX_TRIES
    for low, high in ranges:
        first = max(low, floor)
        if tries <= 0:
            yield from pattern.finditer(source, first, end)
            return
        for at in range(first, high + 1):
            tries -= 1
            found = match_at(source, at, end)
            if found is not None and found.end() > at:
                yield found
                floor = found.end()
                break
        else:
            floor = max(floor, high + 1)


def _anchored_at(pattern: re.Pattern[str], source: str, end: int, starts: Iterable[int]) -> Iterator[re.Match[str]]:
    """`_anchored` over the ranges `(at, at)`, without a range per start (most passes try one start per anchor)."""
    match_at = pattern.match
    floor = 0
    tries = _MAX_TRIES
    for at in starts:
        if tries <= 0:
            yield from pattern.finditer(source, max(at, floor), end)
            return
        if at < floor:
            continue
        tries -= 1
        found = match_at(source, at, end)
        if found is not None and found.end() > at:
            yield found
            floor = found.end()
        else:
            floor = at + 1


def at_word_start(source: str, index: int) -> bool:
    """Whether an identifier starting at `index` is not the tail of a longer one."""
    return index == 0 or source[index - 1] not in _IDENT_CHARS


def identifier_before(view: CodeView, index: int) -> str:
    """The identifier (or keyword) ending at `index` inclusive; "" when `index` is not an identifier character."""
    source = view.source
    k = index
    while k >= view.start and source[k] in _IDENT_CHARS:
        k -= 1
    return source[k + 1 : index + 1]


def member_use(view: CodeView, name_start: int, name_end: int) -> tuple[str, str]:
    """Classify an identifier hit: (role, receiver).

    role is "call" (`.name(` or `.name?.(`), "assign" (`.name =`), "read" (other `.name`),
    "definition" (`name(...) {`, `name:` or `name =` without a dot), or "other"; receiver is the
    identifier before the dot ("" when it is not a plain identifier).
    """
    source = view.source
    before = prev_code_index(source, view.layout, name_start)
    after = next_code_index(source, view.layout, name_end)
    next_char = source[after] if after >= 0 else ""
    if before >= 0 and source[before] == ".":
        dot = before - 1 if before > 0 and source[before - 1] == "?" else before
        receiver_end = prev_code_index(source, view.layout, dot)
        receiver = identifier_before(view, receiver_end) if receiver_end >= 0 else ""
        if next_char == "(" or source.startswith("?.(", after) or _is_bound_call(source, after):
            return "call", receiver
        if next_char == "=" and source[after + 1 : after + 2] not in ("=", ">"):
            return "assign", receiver
        if next_char == ")" and downleveled_optional_call(source, view.start, name_start, after):
            return "call", receiver
        return "read", receiver
    if next_char == "(":
        close = _matching_paren(source, after, view.end)
        if close >= 0:
            brace = next_code_index(source, view.layout, close + 1)
            if brace >= 0 and source[brace] == "{":
                return "definition", ""
    if next_char == ":" or (next_char == "=" and source[after + 1 : after + 2] not in ("=", ">")):
        return "definition", ""
    return "other", ""


class Subscript(NamedTuple):
    """A name used as a whole string subscript, `receiver["name"]` (see `bracket_member_use`)."""

    role: str
    """"call", "assign" or "read", as in `member_use`."""
    receiver: str
    """The identifier before the `[` ("" when the receiver is another expression)."""
    receiver_end: int
    """Index of the receiver's last character."""
    close: int
    """Index of the `]`."""


def bracket_member_use(view: CodeView, name_start: int, name_end: int) -> Subscript | None:
    """Classify a name that is a whole string subscript, `receiver["name"]` or `receiver?.["name"]`; None when the
    name is not such a subscript (an array item, a plain string).
    """
    source = view.source
    quote = source[name_start - 1 : name_start]
    if quote not in ("'", '"') or source[name_end : name_end + 1] != quote:
        return None
    if not is_literal_at(view, name_start - 1, name_end + 1):
        return None
    bracket = prev_code_index(source, view.layout, name_start - 1)
    close = next_code_index(source, view.layout, name_end + 1)
    if bracket < 0 or source[bracket] != "[" or close < 0 or source[close] != "]":
        return None
    receiver_end = prev_code_index(source, view.layout, bracket)
    if receiver_end > 0 and source[receiver_end] == "." and source[receiver_end - 1] == "?":  # `app?.["name"]`
        receiver_end = prev_code_index(source, view.layout, receiver_end - 1)
    if receiver_end < 0 or not (source[receiver_end] in _IDENT_CHARS or source[receiver_end] in ")]"):
        return None  # `["name"]` starts an array: no receiver
    receiver = identifier_before(view, receiver_end)
    after = next_code_index(source, view.layout, close + 1)
    next_char = source[after] if after >= 0 else ""
    if next_char == "(" or source.startswith("?.(", after) or _is_bound_call(source, after):
        return Subscript("call", receiver, receiver_end, close)
    if next_char == "=" and source[after + 1 : after + 2] not in ("=", ">"):
        return Subscript("assign", receiver, receiver_end, close)
    return Subscript("read", receiver, receiver_end, close)


_DOWNLEVEL_HEAD = regex(r"\(\s*([\w$]+)\s*=(?![=>])[^;{}]{0,120}?\.\s*$")
_DOWNLEVEL_WINDOW = 160


def downleveled_optional_call(source: str, floor: int, name_start: int, close: int) -> bool:
    """`(_a = app.openLink) === null || _a === void 0 ? void 0 : _a.call(app, …)`: `app.openLink?.(…)` as
    TypeScript and Babel write it for targets older than ES2020.
    """
    head = _DOWNLEVEL_HEAD.search(source, max(floor, name_start - _DOWNLEVEL_WINDOW), name_start)
    if head is None:
        return False
    temp = re.escape(head.group(1))
    tail = re.compile(r"\)[^;{}]{0,80}?(?<![\w$])" + temp + r"\s*\.\s*(?:call|apply)\s*\(")
    return tail.match(source, close, close + _DOWNLEVEL_WINDOW) is not None


def _is_bound_call(source: str, after: int) -> bool:
    return source.startswith((".bind(", ".call(", ".apply("), after)


def _matching_paren(source: str, open_index: int, end: int) -> int:
    """The `)` closing the `(` at `open_index` within a short parameter list; -1 otherwise."""
    depth = 0
    stop = min(end, open_index + _MAX_PARAMS)
    for i in range(open_index, stop):
        char = source[i]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i
        elif char in "\"'`{;":
            return -1
    return -1


def is_literal_at(view: CodeView, start: int, end: int) -> bool:
    """Whether `source[start:end]` is exactly one string or template literal (not text in a comment)."""
    index = span_index_at(view.layout, start)
    return index >= 0 and view.layout.starts[index] == start and view.layout.ends[index] == end


def callee_before(view: CodeView, literal_start: int) -> tuple[str, str] | None:
    """When the literal at `literal_start` is a call's first argument: (callee name, receiver); else None."""
    source = view.source
    paren = prev_code_index(source, view.layout, literal_start)
    if paren < 0 or source[paren] != "(":
        return None
    name_end = prev_code_index(source, view.layout, paren)
    if name_end < 0:
        return None
    name = identifier_before(view, name_end)
    if not name or name in _CONTROL_WORDS:
        return None
    before = prev_code_index(source, view.layout, name_end - len(name) + 1)
    receiver = ""
    if before >= 0 and source[before] == ".":
        receiver_end = prev_code_index(source, view.layout, before)
        receiver = identifier_before(view, receiver_end) if receiver_end >= 0 else ""
    return name, receiver


def object_text_around(view: CodeView, offset: int, back: int = 2048, ahead: int = 8192) -> tuple[int, int]:
    """The `{...}` enclosing `offset` (bounded search); (-1, -1) when none is found."""
    open_at = enclosing_open_brace(view.source, view.layout, offset, back)
    if open_at < 0:
        return -1, -1
    close_at = matching_close_brace(view.source, view.layout, open_at, ahead)
    return open_at, close_at


def enclosing_function(view: CodeView, offset: int) -> tuple[int, str]:
    """The body start and name ("" when anonymous) of the innermost function around `offset`.

    Returns (-1, "") when no function head is found within a bounded walk outwards. The walk from each brace is
    worked out once per stretch: calls in one function share it.
    """
    floor = max(view.start, offset - _MAX_FUNCTION_WALK)
    innermost = enclosing_open_brace(view.source, view.layout, offset, offset - floor)
    if innermost < 0:
        return -1, ""
    body, name = _function_from_brace(view, innermost)
    return (body, name) if body >= floor else (-1, "")


def _function_from_brace(view: CodeView, brace: int) -> tuple[int, str]:
    """The first function body among `brace` and the braces around it, walked outwards no further than
    `_MAX_FUNCTION_WALK` characters before `brace`; (-1, "") when there is none there.

    Remembered per brace: for `brace` itself always, and for the braces walked through when the walk ended at a
    function or at the outermost brace (then the answer holds for them whatever their own bound).
    """
    known = view.memo.get(("function", brace))
    if isinstance(known, tuple):
        return known
    source = view.source
    floor = max(view.start, brace - _MAX_FUNCTION_WALK)
    found: tuple[int, str] = (-1, "")
    walked: list[int] = []
    conclusive = True
    pos = brace
    while True:
        cached = view.memo.get(("function", pos))
        if isinstance(cached, tuple):
            found = cached  # an answer for a brace further in, so over a walk at least as long as this one
            break
        walked.append(pos)
        name = _function_head_before(view, pos)
        if name is not None:
            found = (pos, name)
            break
        if len(walked) % 64 == 0:
            check_deadline()
        outer = enclosing_open_brace(source, view.layout, pos, pos - view.start)
        if outer < 0:
            break
        if outer < floor:
            conclusive = False
            break
        pos = outer
    view.memo[("function", brace)] = found
    if conclusive:
        for at in walked:
            view.memo[("function", at)] = found
    return found


def _function_head_before(view: CodeView, brace: int) -> str | None:
    """The function name when the `{` at `brace` opens a function body ("" if anonymous); None if not a function."""
    source = view.source
    before = prev_code_index(source, view.layout, brace)
    if before < 0:
        return None
    head_start = max(view.start, before - 500)
    if source.startswith("=>", before - 1):
        return arrow_head_name(source, head_start, before + 1) or ""
    if source[before] != ")":
        return None
    depth = 0
    k = before
    while k >= head_start:
        char = source[k]
        if char == ")":
            depth += 1
        elif char == "(":
            depth -= 1
            if depth == 0:
                break
        k -= 1
    if k < head_start:
        return None
    name_end = prev_code_index(source, view.layout, k)
    if name_end < 0:
        return None
    head = function_head(source, max(view.start, name_end - 80), name_end + 1)
    if head is None:
        return None
    name = head.group(1) or head.group(2) or head.group(3) or ""
    if name in _CONTROL_WORDS:
        return None
    return name


def in_comment(view: CodeView, offset: int) -> bool:
    """Whether `offset` lies inside a comment."""
    index = span_index_at(view.layout, offset)
    return index >= 0 and view.layout.kinds[index] == COMMENT


def is_called(view: CodeView, name: str, body_start: int) -> bool:
    """Whether `name` is called or passed as a callback somewhere outside its own body."""
    key = ("called:" + name, body_start)
    known = view.memo.get(key)
    if isinstance(known, bool):
        return known
    called = _is_called(view, name, body_start)
    view.memo[key] = called
    return called


def _is_called(view: CodeView, name: str, body_start: int) -> bool:
    source = view.source
    body_end = matching_close_brace(source, view.layout, body_start, _MAX_CALLED_BODY)
    pattern = re.compile(re.escape(name) + r"(?![\w$])")
    for seen, match in enumerate(find_words(view, pattern, [name])):
        if seen > _MAX_CALLED_REFERENCES:
            return True
        at = match.start()
        if body_start <= at <= body_end or not at_word_start(source, at) or not is_code(view.layout, at):
            continue
        after = next_code_index(source, view.layout, match.end())
        next_char = source[after] if after >= 0 else ""
        before = prev_code_index(source, view.layout, at)
        before_char = source[before] if before >= 0 else ""
        if next_char == "(" and member_use(view, at, match.end())[0] != "definition":
            return True
        if before_char in "(,=" and next_char in "),;}":
            return True
    return False


def word_alternation(words: list[str]) -> str:
    """A regex alternation of `words` shaped as a prefix tree: the engine tries far fewer branches per position."""
    tree = _Trie()
    for word in words:
        node = tree
        for char in word:
            node = node.children.setdefault(char, _Trie())
        node.ends = True
    return tree.pattern()


@dataclass
class _Trie:
    children: dict[str, _Trie] = field(default_factory=dict)
    ends: bool = False

    def pattern(self) -> str:
        branches = [re.escape(char) + child.pattern() for char, child in sorted(self.children.items())]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 and not self.ends else "(?:" + "|".join(branches) + ")"
        return body + "?" if self.ends else body
