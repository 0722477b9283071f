"""Tell a guarded call (behind a host-capability check) from an unconditional one.

A check guards a call when the call sits in the `if` it controls, after an early `return` it
controls, or on the right of `&&`/`?` in the same expression. A check that only shapes the
call's arguments (e.g. adds an image when `updateModelContext.image` is supported) does not.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from hostcompat._regex import regex
from hostcompat.engine.scan.budget import check_deadline
from hostcompat.engine.scan.js.context import CodeView, enclosing_function
from hostcompat.engine.scan.js.lexer import is_code, matching_close_brace, next_code_index

__all__ = ["is_guarded"]

# `word(?<!\wword)` is `\bword` spelled so that the regex engine can skip ahead to the word (a leading `\b` stops it)
_IF_OPEN = regex(r"if(?<!\wif)\s*\(")
_EARLY_EXIT = regex(r"(?:return|throw|continue|break)\b")
_GUARD_WINDOW = 1500
_CONDITION_LOOKBACK = 400
_MAX_CONDITION = 1000
_MAX_BLOCK = 65_536
_MAX_CANDIDATES = 16
_SEARCHED_WINDOWS = 64
_PIECE = 65_536
_MARGIN = 512
"""Longer than any check (and what its lookahead reads after it)."""
"""The nearest checks before a call that are looked at (a page of nothing but checks and calls stays linear)."""
_EXPRESSION_TOKENS = regex(r"[{(\[})\];?]|&&")
_PARENS = regex(r"[()]")


def is_guarded(view: CodeView, call_offset: int, check: re.Pattern[str], needs_anchor: str | None) -> bool:
    """Whether a capability check matching `check`, before `call_offset` in the same function, controls the call.

    `needs_anchor`, when given, must also appear between the function start and the call
    (e.g. `getHostCapabilities`), so that unrelated properties with the same name do not count.
    """
    source = view.source
    body_start, _ = enclosing_function(view, call_offset)
    window_start = max(view.start, call_offset - _GUARD_WINDOW, body_start)
    if needs_anchor is not None:
        anchor = source.find(needs_anchor, window_start, call_offset)
        if anchor < 0:
            return False
        window_start = anchor
    for start, end in _checks_between(view, check, window_start, call_offset):
        if is_code(view.layout, start) and _controls(view, start, end, call_offset):
            return True
    return False


def _checks_between(view: CodeView, check: re.Pattern[str], start: int, stop: int) -> list[tuple[int, int]]:
    """The (start, end) of the matches of `check` in `source[start:stop]`, the nearest to `stop` first, at most
    `_MAX_CANDIDATES` of them.

    The first calls search their own window; once a pattern has been asked for often in one stretch (a page of
    calls), all its matches are found in one pass over the stretch and each call only looks them up.
    """
    index = view.guard_checks.get(check)
    if index is None or isinstance(index, int):
        asked = (index or 0) + 1
        if asked <= _SEARCHED_WINDOWS:
            view.guard_checks[check] = asked
            found = [(m.start(), m.end()) for m in check.finditer(view.source, start, stop)]
            return found[: -_MAX_CANDIDATES - 1 : -1]
        index = _CheckIndex(check, view)
        view.guard_checks[check] = index
    return index.between(start, stop, _MAX_CANDIDATES)


class _CheckIndex:
    """The matches of one check pattern in a stretch, by start, found lazily: the search runs through the stretch
    in pieces, only as far as the calls asked about so far (and a piece's last `_MARGIN` characters are searched
    again with the next one, so a match is never cut by a piece's end).
    """

    def __init__(self, check: re.Pattern[str], view: CodeView) -> None:
        self._check = check
        self._view = view
        self._searched = view.start
        self.starts: list[int] = []
        self.ends: list[int] = []

    def _search_to(self, stop: int) -> None:
        view = self._view
        while self._searched < min(stop, view.end):
            check_deadline()
            limit = min(view.end, max(stop, self._searched) + _PIECE)
            safe = limit if limit == view.end else limit - _MARGIN
            resume = safe
            for match in self._check.finditer(view.source, self._searched, limit):
                if match.start() >= safe:
                    break
                self.starts.append(match.start())
                self.ends.append(match.end())
                resume = max(safe, match.end())
            self._searched = resume

    def between(self, start: int, stop: int, most: int) -> list[tuple[int, int]]:
        self._search_to(stop)
        first = bisect_left(self.starts, start)
        last = bisect_left(self.starts, stop)
        found: list[tuple[int, int]] = []
        for i in range(last - 1, first - 1, -1):
            if self.ends[i] <= stop:
                found.append((self.starts[i], self.ends[i]))
                if len(found) >= most:
                    break
        return found


def _controls(view: CodeView, check_start: int, check_end: int, call_offset: int) -> bool:
    source = view.source
    condition = _if_condition_around(view, check_start)
    if condition is not None:
        close_paren = condition
        consequent = next_code_index(source, view.layout, close_paren + 1)
        if consequent < 0:
            return False
        if source.startswith("try", consequent):
            consequent = next_code_index(source, view.layout, consequent + 3)
        if consequent >= 0 and source[consequent] == "{":
            block_end = matching_close_brace(source, view.layout, consequent, _MAX_BLOCK)
            return consequent < call_offset and (block_end < 0 or call_offset < block_end)
        if consequent >= 0 and _EARLY_EXIT.match(source, consequent):
            return consequent < call_offset
        statement_end = source.find(";", consequent, call_offset + 1)
        return statement_end < 0
    return _same_expression(source[check_end:call_offset])


def _same_expression(between: str) -> bool:
    """Whether `check && … call` (or `check ? … call`) stays one expression: no `;` or block exit at depth 0."""
    depth = 0
    joined = False
    for token in _EXPRESSION_TOKENS.findall(between):
        if token in "{([":
            depth += 1
        elif token in "})]":
            depth -= 1
            if depth < 0:
                return False
        elif depth == 0:
            if token == ";":
                return False
            joined = True  # `?` or `&&`
    return joined


def _if_condition_around(view: CodeView, check_start: int) -> int | None:
    """The index of the `)` closing an `if (` whose condition contains `check_start`; None otherwise."""
    source = view.source
    floor = max(view.start, check_start - _CONDITION_LOOKBACK)
    last = None
    for match in _IF_OPEN.finditer(source, floor, check_start):
        if is_code(view.layout, match.start()):
            last = match
    if last is None:
        return None
    depth = 0
    stop = min(view.end, last.end() + _MAX_CONDITION)
    for paren in _PARENS.finditer(source, last.end() - 1, stop):
        if paren.group() == "(":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                i = paren.start()
                return i if i > check_start else None
    return None
