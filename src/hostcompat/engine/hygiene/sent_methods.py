"""The `ui/…` methods a widget's HTML sends, found from the literal `ui/` instead of trying a regex at every offset.

`SENT_UI_METHOD` matches a JSON-RPC `method: "ui/…"` value or the first argument of a send helper
(`request("ui/…")`). Its first character is optional, so Python's `re` tries it at every offset of the page: 126 ms
on the pdf example's 4.4 MB widget, a quarter of an offline check. Every match holds a quote then `ui/`, which
`str.find` finds at memory speed; `sent_ui_methods` reads backwards from each such quote to the only offsets a match
can start at, and runs the same regex there. The matches are the ones `SENT_UI_METHOD.finditer` gives, in order
(tested against it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from hostcompat._regex import regex

SENT_UI_METHOD: Final = regex(
    r"""["']?\bmethod["']?\s*:\s*["'](ui/[A-Za-z0-9/_.-]{1,80})["']"""
    r"""|\b(?:request|notify|send(?:Request|Notification)?)\(\s*["'](ui/[A-Za-z0-9/_.-]{1,80})["']"""
)
"""A `ui/…` method the widget sends: a JSON-RPC `method:` value, or the first argument of a send helper."""

_QUOTES: Final = "\"'"
_HELPERS: Final = ("sendNotification", "sendRequest", "request", "notify", "send")


def sent_ui_methods(html: str) -> Iterator[re.Match[str]]:
    """`SENT_UI_METHOD.finditer(html)`, found from each quoted `ui/` rather than from every offset."""
    end = 0
    at = html.find("ui/", 1)
    while at != -1:
        quote = at - 1
        if html[quote] in _QUOTES:
            for start in _starts(html, quote):
                if start < end:
                    continue  # inside the previous match, which finditer does not look into again
                match = SENT_UI_METHOD.match(html, start)
                if match is not None and match.start(match.lastindex or 0) == at:
                    yield match
                    end = match.end()
                    break
        at = html.find("ui/", at + 3)


def _starts(html: str, quote: int) -> Iterator[int]:
    """Where a match whose method opens at the quote at `quote` can start, leftmost first."""
    index = _before_space(html, quote)
    if index == 0:
        return
    mark = html[index - 1]
    index -= 1
    if mark == "(":
        for helper in _HELPERS:
            if index >= len(helper) and html.startswith(helper, index - len(helper), index):
                yield index - len(helper)
        return
    if mark != ":":
        return
    index = _before_space(html, index)
    if index > 0 and html[index - 1] in _QUOTES:
        index -= 1
    start = index - len("method")
    if start >= 0 and html.startswith("method", start, index):
        if start > 0 and html[start - 1] in _QUOTES:
            yield start - 1
        yield start


def _before_space(html: str, index: int) -> int:
    """The offset after the last non-whitespace character before `index` (as the regex's `\\s` reads whitespace)."""
    while index > 0 and html[index - 1].isspace():
        index -= 1
    return index


__all__ = ["SENT_UI_METHOD", "sent_ui_methods"]
