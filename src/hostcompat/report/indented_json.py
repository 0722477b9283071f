"""Report documents as indented JSON text, the `--format json` and `--format sarif` output.

The text is exactly `json.dumps(value, indent=2, ensure_ascii=False) + "\\n"`; it is built here because the
standard library only uses its C encoder without `indent`, and its pure-Python indenting encoder passes every chunk
up a chain of nested generators, which made serialising a report a noticeable part of an offline check's start-up.
Anything outside plain JSON data (a non-string key, an unknown type, a cycle) goes to `json.dumps` itself, so the
text and the errors stay the standard library's.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any, Final

from hostcompat.wire_json import WireValue

_INDENT: Final = "  "
_CONSTANTS: Final = {True: "true", False: "false"}


class _NotPlain(Exception):
    """A value this encoder leaves to `json.dumps`."""


def json_text(value: WireValue) -> str:
    """`value` as two-space indented JSON (non-ASCII kept), newline-terminated: `json.dumps(..., indent=2)`."""
    parts: list[str] = []
    try:
        _encode(value, "\n", parts)
    except (_NotPlain, RecursionError):
        return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    parts.append("\n")
    return "".join(parts)


def _encode(value: Any, newline: str, parts: list[str]) -> None:
    """Append the JSON of `value` to `parts`; `newline` is a line break plus the current indentation."""
    if isinstance(value, str):
        parts.append(encode_basestring(value))
    elif value is None:
        parts.append("null")
    elif value is True or value is False:
        parts.append(_CONSTANTS[value])
    elif isinstance(value, int):
        parts.append(int.__repr__(value))
    elif isinstance(value, float):
        parts.append(_float(value))
    elif isinstance(value, dict):
        _encode_object(value, newline, parts)
    elif isinstance(value, (list, tuple)):
        _encode_array(value, newline, parts)
    else:
        raise _NotPlain


def _encode_array(items: list[Any] | tuple[Any, ...], newline: str, parts: list[str]) -> None:
    if not items:
        parts.append("[]")
        return
    inner = newline + _INDENT
    separator = "," + inner
    parts.append("[" + inner)
    first = True
    for item in items:
        if not first:
            parts.append(separator)
        first = False
        _encode(item, inner, parts)
    parts.append(newline + "]")


def _encode_object(mapping: dict[Any, Any], newline: str, parts: list[str]) -> None:
    if not mapping:
        parts.append("{}")
        return
    inner = newline + _INDENT
    separator = "," + inner
    parts.append("{" + inner)
    first = True
    for key, item in mapping.items():
        if not isinstance(key, str):
            raise _NotPlain  # json.dumps converts (or rejects) other keys; let it
        if not first:
            parts.append(separator)
        first = False
        parts.append(encode_basestring(key) + ": ")
        _encode(item, inner, parts)
    parts.append(newline + "}")


def _float(value: float) -> str:
    """A float as `json.dumps` writes it (`NaN` and `Infinity` included, as with its default `allow_nan`)."""
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == -float("inf"):
        return "-Infinity"
    return float.__repr__(value)


__all__ = ["json_text"]
