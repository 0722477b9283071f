"""Read a function's head backwards from its body: the name it is bound to, as a regex search would find it.

`name = (a, b) =>`, `key: async x =>`, `function name(`, `name(a) {` and `name = function(` bind a function to a
name. The patterns that say so (`ARROW_HEAD`, `FUNCTION_HEAD`) end where the head ends, so `re.search` tries them
at every character of the window before it (hundreds of starts: the largest fixed cost of a small widget's scan).
Read from the end backwards, the text leaves only a few places where a match can start; the pattern is tried there
alone, in order, and the first match is the one the search would have returned (the leftmost).
"""

from __future__ import annotations

import re
from typing import Final

from hostcompat._regex import regex

__all__ = ["ARROW_HEAD", "FUNCTION_HEAD", "arrow_head_name", "function_head"]

ARROW_HEAD: Final = regex(r"([\w$]+)\s*[=:]\s*(?:async\s*)?(?:\([^()]{0,300}\)|[\w$]+)\s*=>\s*$")
"""`name = (…) =>`, `name: async x =>`: an arrow bound to a name, ending at the `=>`."""
FUNCTION_HEAD: Final = regex(
    r"(?:\bfunction\s*\*?\s*([\w$]+)?\s*|([\w$]+)\s*(?:=|:)\s*(?:async\s*)?(?:function\b[^(]{0,40})?|"
    r"(?:async\s+|get\s+|set\s+|static\s+)*([\w$]+)\s*)$"
)
"""What comes before a parameter list that makes it a named function's: `function name`, `name = function`,
`name:`, `async name`, `get name`, or the name alone (a method)."""
_MAX_PARAMS: Final = 300
"""The parameter list's longest text between its parentheses (as in `ARROW_HEAD`)."""


def arrow_head_name(source: str, low: int, high: int) -> str | None:
    """`ARROW_HEAD.search(source, low, high)`'s first group (None when there is no match), for `high` just after
    an `=>` (`source[high - 2 : high] == "=>"`).

    A match ends exactly there (`\\s*$` cannot pass the `>`), so it is `name`, blanks, `=` or `:`, blanks, an
    optional `async`, the parameters (a parenthesised list or one name) and blanks, each piece found from the one
    after it. The only freedom left is where `async` ends, so a few starts remain; the first that matches wins.
    """
    params_end = _blank_before(source, high - 3, low)
    if params_end < low:
        return None
    params_starts: list[int] = []
    last = source[params_end]
    if last == ")":
        stop = max(low, params_end - _MAX_PARAMS - 1)
        k = params_end - 1
        while k >= stop and source[k] != "(" and source[k] != ")":
            k -= 1
        if k >= stop and source[k] == "(":
            params_starts.append(k)
    elif _is_word(last):
        run = _run_start(source, params_end, low)
        params_starts.append(run)
        if params_end - run >= 5 and source.startswith("async", run):  # `async` glued to the name: `asyncx`
            params_starts.append(run + 5)
    starts: set[int] = set()
    for params in params_starts:
        for operator in _operators_before(source, params, low):
            name_end = _blank_before(source, operator - 1, low)
            if name_end >= low and _is_word(source[name_end]):
                starts.add(_run_start(source, name_end, low))
    for start in sorted(starts):
        found = ARROW_HEAD.match(source, start, high)
        if found is not None:
            return found.group(1)
    return None


def _operators_before(source: str, params: int, low: int) -> list[int]:
    """Where the `=` or `:` before the parameters starting at `params` can be: right before them (past blanks), or
    before an `async` that precedes them.
    """
    found: list[int] = []
    end = _blank_before(source, params - 1, low)
    if end < low:
        return found
    if source[end] in "=:":
        found.append(end)
    elif end - 4 >= low and source.startswith("async", end - 4):
        before = _blank_before(source, end - 5, low)
        if before >= low and source[before] in "=:":
            found.append(before)
    return found


def _blank_before(source: str, index: int, low: int) -> int:
    """The last index at or before `index` (and at or after `low`) that is not whitespace (`\\s`); below `low`
    when there is none.
    """
    while index >= low and source[index].isspace():
        index -= 1
    return index


def _is_word(char: str) -> bool:
    """Whether `char` is `[\\w$]` (a regex word character is alphanumeric in Unicode's sense, or `_`)."""
    return char.isalnum() or char == "_" or char == "$"


def _run_start(source: str, index: int, low: int) -> int:
    """The first index of the run of word characters ending at `index`, not below `low`."""
    while True:
        index = low + len(source[low:index].rstrip(_ASCII_WORD))  # ASCII word characters, in one C call
        if index <= low or not _is_word(source[index - 1]):
            return index
        index -= 1  # a word character beyond ASCII (`é`): the run goes on


_ASCII_WORD: Final = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$"


def function_head(source: str, low: int, high: int) -> re.Match[str] | None:
    """`FUNCTION_HEAD.search(source, low, high)`, trying only the starts where a match can begin.

    A match starts at a `function`, at the name before an `=` or `:`, or at the name that ends the head (or an
    `async`, `get`, `set` or `static` before it); every such place is tried, leftmost first.
    """
    low = max(low, source.rfind("(", low, high) + 1)  # no match holds a `(`: it starts after the last one
    starts: set[int] = set()
    at = source.find("function", low, high)
    while at >= 0:
        starts.add(at)
        at = source.find("function", at + 1, high)
    for operator in "=:":
        at = source.find(operator, low, high)
        while at >= 0:
            name_end = _blank_before(source, at - 1, low)
            if name_end >= low and _is_word(source[name_end]):
                starts.add(_run_start(source, name_end, low))
            at = source.find(operator, at + 1, high)
    name_end = _blank_before(source, high - 1, low)
    if name_end >= low and _is_word(source[name_end]):
        start = _run_start(source, name_end, low)
        starts.add(start)
        while (blank := _blank_before(source, start - 1, low)) < start - 1:  # `async get name`: each keyword
            for keyword in _HEAD_KEYWORDS:
                if _ends_with(source, keyword, low, blank + 1):
                    start = blank + 1 - len(keyword)
                    starts.add(start)
                    break
            else:
                break
    for start in sorted(starts):
        found = FUNCTION_HEAD.match(source, start, high)
        if found is not None:
            return found
    return None


_HEAD_KEYWORDS: Final = ("async", "get", "set", "static")


def _ends_with(source: str, word: str, low: int, end: int) -> bool:
    """Whether `word` ends at `end` and starts at or after `low`."""
    start = end - len(word)
    return start >= low and source.startswith(word, start, end)
