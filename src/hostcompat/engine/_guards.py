"""Tell a guarded call (behind a host-capability check) from an unconditional one.

A check guards a call when the call sits in the `if` it controls, after an early `return` it
controls, or on the right of `&&`/`?` in the same expression. A check that only shapes the
call's arguments (e.g. adds an image when `updateModelContext.image` is supported) does not.
"""

from __future__ import annotations

import re

from hostcompat.engine._js_context import CodeView, enclosing_function
from hostcompat.engine._js_lexer import is_code, matching_close_brace, next_code_index

__all__ = ["is_guarded"]

_IF_OPEN = re.compile(r"\bif\s*\(")
_EARLY_EXIT = re.compile(r"(?:return|throw|continue|break)\b")
_GUARD_WINDOW = 1500
_CONDITION_LOOKBACK = 400
_MAX_CONDITION = 1000
_MAX_BLOCK = 65_536


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
    for match in check.finditer(source, window_start, call_offset):
        if is_code(view.layout, match.start()) and _controls(view, match.start(), match.end(), call_offset):
            return True
    return False


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
    for index, char in enumerate(between):
        if char in "{([":
            depth += 1
        elif char in "})]":
            depth -= 1
            if depth < 0:
                return False
        elif depth == 0:
            if char == ";":
                return False
            if char == "?" or between.startswith("&&", index):
                joined = True
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
    for i in range(last.end() - 1, stop):
        char = source[i]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i if i > check_start else None
    return None
