"""Parse a large JSON file without holding its whole text: the outer objects and arrays are walked here, and each
value inside them is parsed by the C scanner from a window of the file that only ever holds that value.

`json.loads` needs the whole text and its parsed tree at once (for a 100 MB snapshot, the text alone is 100 MB on
top of a tree of about 300 MB); here the text of one value at a time is kept (a tool, a widget), so the peak is the
tree plus the largest value. Same results as `json.loads` for every valid document (NaN and infinities refused).
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable
from typing import IO, Any, Final

from hostcompat._regex import regex

_CHUNK: Final = 1 << 20
_scanstring: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
"""The C decoder of a JSON string's body (after its opening quote): the decoded text and the offset past it."""
_WHITESPACE: Final = regex(r"[ \t\n\r]*")
_NUMBER_CHARS: Final = regex(r"[0-9.eE+-]*")
"""What may still follow a number: a value whose window ends in these may not be complete (`2.` then `5`)."""
_TAIL: Final = 64
"""A parse error this close to the window's end may be the window's end: read more before calling it an error."""
_STREAMED_DEPTH: Final = 2
"""Objects and arrays this shallow are walked here; deeper values are parsed whole by the C scanner."""


class JSONTooLarge(ValueError):
    """The input is longer than the byte limit."""


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_LENIENT_SCAN: Final = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[attr-defined]
"""The C scanner (when available), reading NaN and infinities as `json.loads` does."""
_SHARED_MAX: Final = 1 << 17
"""The most distinct keys and short values one parse shares (past it, only those already seen are)."""
_SHORT: Final = 64


def _sharing_scanner() -> Any:
    """A C scanner refusing NaN and infinities whose objects share equal keys and short string values across the
    whole document. `json.loads` shares keys within one call; here every value is its own call, and a snapshot of
    20,000 tools repeats `type`, `description`, `string` … in each: shared, its tree is a quarter smaller.
    """
    shared: dict[str, str] = {}
    keep = shared.setdefault
    known = shared.get

    def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        if len(shared) < _SHARED_MAX:
            return {keep(k, k): keep(v, v) if type(v) is str and len(v) <= _SHORT else v for k, v in pairs}
        return {known(k, k): known(v, v) if type(v) is str and len(v) <= _SHORT else v for k, v in pairs}

    decoder = json.JSONDecoder(parse_constant=_refuse_constant, object_pairs_hook=build)
    return json.scanner.make_scanner(decoder)  # type: ignore[attr-defined]


class _Window:
    """The not-yet-parsed part of the input, read from `stream` only as far as the current value needs."""

    def __init__(
        self, stream: IO[bytes] | None, text: str, max_bytes: int, *, strict: bool = True, chunk: int = _CHUNK
    ) -> None:
        self._stream = stream
        self._scan = _sharing_scanner() if strict else _LENIENT_SCAN
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.text = text
        self.pos = 0
        self.eof = stream is None
        self._read = 0
        self._max_bytes = max_bytes
        self._first_chunk = chunk
        self._chunk = chunk
        self._first = True

    def more(self) -> bool:
        """Read the next piece of the input (each retry of one value reads twice as much); False at the end."""
        if self.eof or self._stream is None:
            return False
        data = self._stream.read(min(self._chunk, self._max_bytes + 1 - self._read))
        self._read += len(data)
        if self._read > self._max_bytes:
            raise JSONTooLarge(f"larger than {self._max_bytes} bytes")
        self._chunk *= 2
        decoded = self._decoder.decode(data, final=not data)
        if self._first and decoded:
            decoded = decoded.removeprefix("\ufeff")
            self._first = False
        self.eof = not data
        self.text = self.text[self.pos :] + decoded
        self.pos = 0
        return True

    def _near_end(self, position: int) -> bool:
        """Whether a parse that failed at `position` may only have run out of window (else the input is bad)."""
        return position >= len(self.text) - _TAIL

    def settled(self) -> None:
        """A value is complete: the next read starts from the small chunk size again."""
        self._chunk = self._first_chunk

    def peek(self) -> str:
        """The next character after whitespace ('' at the end of the input), reading more as needed."""
        while True:
            self.pos = _WHITESPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]  # always matches
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self.more():
                return ""

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise self.error(f"Expecting {char!r}")
        self.pos += 1

    def error(self, message: str) -> json.JSONDecodeError:
        return json.JSONDecodeError(message, self.text, self.pos)

    def scalar(self, *, walkable: bool = False) -> Any:
        """One whole value at `pos`, parsed by the C scanner (the window grows until it holds all of it).

        With `walkable`, a string, object or array that already fills `_LARGE` characters of the window and is
        not complete raises `_Large` (with `pos` unchanged) instead of growing the window further: the caller walks
        it (see `_value`), so a 50 MB widget is never held twice, as JSON text and as its value.
        """
        self.peek()
        while True:
            try:
                value, end = self._scan(self.text, self.pos)
            except StopIteration as stop:
                if self._near_end(stop.value) and self._grow(walkable):
                    continue
                raise self.error("Expecting value") from None
            except json.JSONDecodeError as error:
                cut_short = error.msg.startswith("Unterminated string") or self._near_end(error.pos)
                if cut_short and self._grow(walkable):
                    continue
                raise
            if _NUMBER_CHARS.match(self.text, end).end() >= len(self.text) and self.more():  # type: ignore[union-attr]
                continue  # a number that ends with the window may go on in the next piece
            self.pos = end
            self.settled()
            return value

    def _grow(self, walkable: bool) -> bool:
        """Read more for the value at `pos` (False at the end); `_Large` for a long value the caller can walk."""
        long = self._stream is not None and len(self.text) - self.pos >= _LARGE
        if walkable and long and self.text[self.pos] in '{["':
            raise _Large
        return self.more()

    def long_string(self) -> str:
        """The string at `pos`, too long for the window: decoded a piece at a time, each piece ending where no
        escape is cut (`_safe_cut`) and appended to the value in place, while the window keeps only what is left.
        """
        value = ""
        while True:
            text, start = self.text, self.pos + 1
            try:
                rest, end = _scanstring(text, start, True)
            except json.JSONDecodeError as error:
                if not (error.msg.startswith("Unterminated string") or self._near_end(error.pos)):
                    raise
            else:
                value += rest
                self.pos = end
                self.settled()
                return value
            cut = _safe_cut(text, start, len(text))
            if cut is not None:
                body = text[start:cut]
                body += '"'  # in place, as below
                piece, _ = _scanstring(body, 0, True)
                del body
                value += piece  # in place: the only reference to a string is extended, not copied
                del piece
                self.text, self.pos = '"' + text[cut:], 0
                self.settled()
            del text
            if not self.more():
                raise self.error("Unterminated string")


class _Large(Exception):
    """A value too long to parse whole from the window: walk it instead (raised by `_Window.scalar`)."""


_LARGE: Final = _CHUNK
"""A value past this many characters of the window is walked (objects, arrays) or decoded in pieces (strings)."""
_ESCAPE_REACH: Final = 12
"""The longest escape JSON has: a surrogate pair, `\\ud83d\\ude00`. A cut with no backslash this far back cuts none."""
_CUT_SEARCH: Final = 1 << 16


def _safe_cut(text: str, start: int, end: int) -> int | None:
    """An offset in (start, end] at which the JSON string body `text[start:end]` can be cut without cutting an
    escape or a surrogate pair: no backslash in the `_ESCAPE_REACH` characters before it. None when none is found
    in the last `_CUT_SEARCH` characters (the caller reads more and tries again).
    """
    cut = end
    floor = max(start, end - _CUT_SEARCH)
    while cut > floor:
        backslash = text.rfind("\\", max(start, cut - _ESCAPE_REACH), cut)
        if backslash == -1:
            return cut
        cut = backslash
    return None


class _Plan:
    """How deep containers are walked here, and which arrays keep only their first items."""

    def __init__(self, streamed_depth: int, capped_depth: int | None = None, max_items: int = 0) -> None:
        self.streamed_depth = streamed_depth
        self.capped_depth = capped_depth
        self.max_items = max_items
        self.dropped = 0


def _value(window: _Window, depth: int, plan: _Plan) -> Any:
    char = window.peek()
    if depth < plan.streamed_depth and char == "{":
        return _object(window, depth, plan)
    if depth < plan.streamed_depth and char == "[":
        return _array(window, depth, plan)
    try:
        return window.scalar(walkable=True)
    except _Large:  # too long to hold twice: walk it here, as the shallow levels are
        pass
    if char == "{":
        return _object(window, depth, plan)
    if char == "[":
        return _array(window, depth, plan)
    return window.long_string()


def _object(window: _Window, depth: int, plan: _Plan) -> dict[str, Any]:
    window.pos += 1
    result: dict[str, Any] = {}
    if window.peek() == "}":
        window.pos += 1
        return result
    while True:
        if window.peek() != '"':
            raise window.error("Expecting property name enclosed in double quotes")
        key = window.scalar()
        window.expect(":")
        result[key] = _value(window, depth + 1, plan)
        char = window.peek()
        window.pos += 1
        if char == "}":
            return result
        if char != ",":
            window.pos -= 1
            raise window.error("Expecting ',' delimiter")


def _array(window: _Window, depth: int, plan: _Plan) -> list[Any]:
    window.pos += 1
    result: list[Any] = []
    if window.peek() == "]":
        window.pos += 1
        return result
    room = plan.max_items if depth == plan.capped_depth else -1
    whole_items = depth + 1 >= plan.streamed_depth
    while True:
        if whole_items and _items_in_window(window, result, room, plan):
            return result
        _keep(result, _value(window, depth + 1, plan), room, plan)  # one item the window may not hold yet
        char = window.peek()
        window.pos += 1
        if char == "]":
            return result
        if char != ",":
            window.pos -= 1
            raise window.error("Expecting ',' delimiter")


def _keep(result: list[Any], item: Any, room: int, plan: _Plan) -> None:
    if room < 0 or len(result) < room:
        result.append(item)
    else:
        plan.dropped += 1  # parsed (the rest must still be JSON) and let go at once


def _items_in_window(window: _Window, result: list[Any], room: int, plan: _Plan) -> bool:
    """The fast path of an array: parse the items the window surely holds whole, with no call per character.

    Returns True at the array's end (after `]`); False with `pos` at an item the slow path must read (one that may
    go on past the window, or one that is not JSON, whose error the slow path raises).
    """
    text, pos, scan, blank = window.text, window.pos, window._scan, _WHITESPACE.match
    size = len(text)
    while True:
        try:
            item, end = scan(text, pos)
        except (StopIteration, ValueError):
            window.pos = pos
            return False
        if end < size and text[end] in " \t\n\r":
            end = blank(text, end).end()  # type: ignore[union-attr]  # always matches
        if end >= size:
            window.pos = pos
            return False
        char = text[end]
        if char == "]":
            _keep(result, item, room, plan)
            window.pos = end + 1
            return True
        if char != ",":
            window.pos = pos
            return False
        _keep(result, item, room, plan)
        pos = end + 1
        if pos < size and text[pos] in " \t\n\r":
            pos = blank(text, pos).end()  # type: ignore[union-attr]  # always matches
        if pos >= size:
            window.pos = pos
            return False


def load_json(source: IO[bytes] | str, *, max_bytes: int, chunk: int = _CHUNK) -> Any:
    """The JSON value in `source` (a binary stream of UTF-8, read in pieces of `chunk` bytes and up, or a whole text).

    Raises:
        JSONTooLarge: the stream holds more than `max_bytes` bytes.
        ValueError: not UTF-8, not JSON, NaN or an infinity, or data after the value (JSONDecodeError and
            UnicodeDecodeError are ValueErrors).
        RecursionError: nesting deeper than the interpreter allows.
    """
    if isinstance(source, str):
        window = _Window(None, source, max_bytes)
    else:
        window = _Window(source, "", max_bytes, chunk=chunk)
    return _load(window, _Plan(_STREAMED_DEPTH))


def load_json_capped(text: str, *, depth: int, max_items: int) -> tuple[Any, int]:
    """The JSON value in `text`, with every array `depth` levels down cut to its first `max_items` items, and how
    many items were left out. The items left out are parsed one at a time and let go, so a message of a million
    tools costs the memory of the items kept, not of the million. NaN and infinities are read, as `json.loads` does.

    Raises:
        ValueError, RecursionError: as `load_json`.
    """
    plan = _Plan(depth + 1, depth, max_items)
    return _load(_Window(None, text, len(text), strict=False), plan), plan.dropped


def _load(window: _Window, plan: _Plan) -> Any:
    value = _value(window, 0, plan)
    if window.peek() != "":
        raise window.error("Extra data")
    return value


__all__ = ["JSONTooLarge", "load_json", "load_json_capped"]
