"""Text from a server, a widget or a config file made safe to show: control characters neutralised, one line.

A terminal obeys what it is sent: ESC sequences clear the screen or set the window title, CSI (U+009B) does the
same on terminals that read C1, a carriage return or a line break forges output lines, and the bidi overrides
(U+202A-E, U+2066-9) make text read differently than it is. Everything hostcompat prints that it did not write
itself goes through `clean_line` (text, Markdown, events, errors, `scan`), and JSON that reaches a terminal goes
through `escape_json_text`, which writes the same characters as `\\u` escapes, so the JSON stays valid and equal.

Pure and dependency-free: every layer that prints may use it.
"""

from __future__ import annotations

from typing import Final, TextIO

from hostcompat._regex import regex

_JOINERS: Final = frozenset("\u200c\u200d")
"""Zero-width non-joiner and joiner: invisible, harmless, and needed by emoji sequences and several scripts."""

_SURROGATE: Final = regex("[\ud800-\udfff]")


def is_unsafe(char: str) -> bool:
    """True for a character that must not reach a terminal as it is.

    That is every character Python does not call printable (C0 and C1 controls, DEL, line and paragraph
    separators, format characters such as the bidi overrides and U+FEFF, surrogates, private-use and unassigned
    code points, spaces other than U+0020) except the two zero-width joiners.
    """
    return not char.isprintable() and char not in _JOINERS


def _visible(char: str) -> str:
    """An unsafe character written so that it is seen, not obeyed: `\\x1b`, `\\u202e`, `\\U000e0041`."""
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def clean_line(text: object) -> str:
    """`text` (any object, as `str()`) on one line, safe for a terminal.

    A line break is shown as `\\n` (glued to the text after it, so a wrapped report can never start a line with
    what the server put after it) and other runs of whitespace become one space, so no line can be forged; every
    other unsafe character (see `is_unsafe`) is shown as its escape (`ESC` as `\\x1b`), so nothing is obeyed and
    the reader still sees that something odd was sent.
    """
    raw = str(text)
    if "\n" in raw or "\r" in raw:
        raw = "\\n".join(" ".join(part.split()) for part in raw.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    flat = " ".join(raw.split())
    if flat.isprintable():
        return flat
    return "".join(_visible(char) if is_unsafe(char) else char for char in flat)


def _json_escape(char: str) -> str:
    """A character as JSON `\\u` escapes (a surrogate pair above U+FFFF)."""
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escape_json_text(text: str, *, terminal: bool = True) -> str:
    """JSON text with characters escaped as `\\uXXXX`, so it reads the same and shows nothing a terminal obeys.

    With `terminal`, every unsafe character (see `is_unsafe`) is escaped; without it only lone surrogates, which
    no UTF-8 stream can carry (a file or a pipe). JSON allows any character to be escaped inside a string, and
    outside strings JSON text holds only ASCII punctuation, letters, digits, spaces and line breaks, which are
    kept: the result parses to the very same value.
    """
    if not terminal:
        return _SURROGATE.sub(lambda match: _json_escape(match.group()), text)
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if not line.isprintable():
            lines[index] = "".join(_json_escape(char) if is_unsafe(char) else char for char in line)
    return "\n".join(lines)


def write_json(stream: TextIO, text: str) -> None:
    """Write JSON text to `stream`, escaped for a terminal when `stream` is one (see `escape_json_text`)."""
    stream.write(escape_json_text(text, terminal=is_terminal(stream)))


def is_terminal(stream: TextIO) -> bool:
    """True when `stream` is an open terminal (False for a closed, detached or redirected one)."""
    try:
        return stream.isatty()
    except (ValueError, OSError):
        return False


__all__ = ["clean_line", "escape_json_text", "is_terminal", "is_unsafe", "write_json"]
