"""An upstream line that could not be read: which request it answers, and why it could not be read.

A reply that is not UTF-8, or nested past the JSON parser's recursion limit, cannot be decoded, yet a client is
waiting for it. A shallow scan that needs neither (it tracks brackets, never recurses, and reads bytes that are not
UTF-8 as they are) finds the reply's top-level `id`, so the relay can answer that request with an error at once
instead of leaving it to time out.
"""

from __future__ import annotations

import json
import re
from typing import NamedTuple

from hostcompat._regex import regex
from hostcompat.errors import InvalidMessage

_TOKEN = regex(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_MEMBER = regex(r'\s*:\s*(-?\d+(?![.eE\d])|"(?:[^"\\]|\\.)*")')
_COLON = regex(r"\s*:")


class UnreadableReply(NamedTuple):
    """The id of the request an unreadable line answers, and what is wrong with the line (for people)."""

    id: int | str
    problem: str


def problem_of(line: bytes, error: BaseException | str) -> str:
    """What is wrong with a line the parser rejected with `error`: not UTF-8, nested too deeply, or not JSON-RPC."""
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return "is not valid UTF-8"
    text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    if "recursion" in text.lower():
        return "is nested too deeply to read"
    return "is not a JSON-RPC message"


def _member_id(text: str, end: int) -> int | str | None:
    found = _MEMBER.match(text, end)
    if found is None:
        return None
    value = json.loads(found.group(1))
    return value if isinstance(value, (int, str)) else None


def unreadable_reply(line: bytes, error: BaseException | str) -> UnreadableReply | None:
    """The request a line the parser rejected was answering, or None (not a reply, or no readable top-level id).

    Linear in the line, without recursion, whatever its nesting or encoding.
    """
    text = line.decode("utf-8", "surrogateescape")
    start = text.find("{")
    if start < 0 or text[:start].strip():
        return None
    depth = 0
    found: int | str | None = None
    is_request = False
    for token in _TOKEN.finditer(text, start):
        value = token.group()
        if value in "[{":
            depth += 1
        elif value in "]}":
            depth -= 1
            if depth == 0:
                break
        elif depth == 1 and _COLON.match(text, token.end()):
            key = value[1:-1]
            if key == "method":
                is_request = True
            elif key == "id" and found is None:
                try:
                    found = _member_id(text, token.end())
                except ValueError:
                    return None
    if found is None or is_request:
        return None
    return UnreadableReply(found, problem_of(line, error))


class UnreadableMessage(InvalidMessage):
    """A line that is no JSON-RPC message; from the upstream, `reply` names the request it answers when known; from
    a client, `batch` holds the ids of the requests when it is a batch (`batches`), each to be answered.
    """

    def __init__(
        self,
        message: str,
        *,
        value: object = None,
        reply: UnreadableReply | None = None,
        batch: tuple[int | str, ...] = (),
    ) -> None:
        super().__init__(message, value=value)
        self.reply = reply
        self.batch = batch


__all__ = ["UnreadableMessage", "UnreadableReply", "problem_of", "unreadable_reply"]
