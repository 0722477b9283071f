"""Read a saved JSON report back into a document that every renderer accepts, so a report can be re-rendered later.

A report file is input like any other: it is read up to a byte limit (never what `stat` claims), parsed strictly,
and its shape is checked down to what the renderers index into (objects where they call `.get`, lists of strings
where they group by tools), so a hand-edited or hostile file fails with a message naming the place, not a traceback.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Final

from hostcompat.errors import InvalidInput
from hostcompat.report.document import check_document
from hostcompat.wire_json import WireJSON, WireValue

if TYPE_CHECKING:
    from hostcompat.report.model import ReportDocument, ServerEntry

MAX_REPORT_BYTES: Final = 64 * 1024 * 1024
"""The largest report file `read_report` reads."""

_PIECE: Final = 1 << 20
_OBJECT_LISTS: Final = ("hosts", "hygiene", "events")
_FINDING_NAMES: Final = ("tools", "resources")


def read_report(path: str | os.PathLike[str], *, max_bytes: int = MAX_REPORT_BYTES) -> ReportDocument:
    """A report document from a JSON file written by `hostcompat check --format json`.

    Raises:
        InvalidInput: the file cannot be read, is larger than `max_bytes`, or is not a report document.
    """
    source = Path(path)
    try:
        with source.open("rb") as stream:
            data = _read_at_most(stream, max_bytes + 1)
    except OSError as error:
        raise InvalidInput(
            f"cannot read report {str(source)!r}: {error.strerror or error}", value=str(source)
        ) from error
    if len(data) > max_bytes:
        raise InvalidInput(f"report {str(source)!r} is larger than {max_bytes} bytes", value=str(source))
    return report_from_json(data)


def _read_at_most(stream: IO[bytes], size: int) -> bytes:
    """Up to `size` bytes of `stream`, read in pieces (one `read(size)` would set aside `size` bytes at once)."""
    data = bytearray()
    while len(data) < size:
        piece = stream.read(min(_PIECE, size - len(data)))
        if not piece:
            break
        data += piece
    return bytes(data)


def report_from_json(text: str | bytes) -> ReportDocument:
    """A report document from JSON text, checked so that every renderer can render it.

    Raises:
        InvalidInput: not UTF-8, not JSON (NaN and infinities included), nested too deeply, or not of the shape of
            a `hostcompat.report/1` document.
    """
    try:
        raw = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError as error:
        raise InvalidInput("the report is nested too deeply", value=None) from error
    except ValueError as error:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise InvalidInput(f"the report is not JSON: {_short(error)}", value=None) from error
    document = check_document(raw)
    for index, server in enumerate(document["servers"]):
        _check_server(server, f"servers[{index}]")
    return document


def _refuse_constant(name: str) -> WireValue:
    raise ValueError(f"{name} is not JSON")


def _short(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at line {error.lineno}, column {error.colno}"
    return str(error)[:200]


def _check_server(entry: ServerEntry, where: str) -> None:
    server: WireJSON = entry  # read as the untyped JSON it still is
    for key in ("target", "server", "requirements", "summary"):
        _optional_object(server.get(key), f"{where}.{key}")
    for key in _OBJECT_LISTS:
        items = _optional_list(server.get(key), f"{where}.{key}")
        for index, item in enumerate(items):
            _object(item, f"{where}.{key}[{index}]")
    for index, host in enumerate(server.get("hosts") or ()):
        here = f"{where}.hosts[{index}]"
        lanes = _optional_object(host.get("lanes"), f"{here}.lanes")
        for lane, verdict in lanes.items():
            _optional_object(verdict, f"{here}.lanes.{lane}")
        for number, finding in enumerate(_optional_list(host.get("findings"), f"{here}.findings")):
            _check_finding(finding, f"{here}.findings[{number}]")
    for index, finding in enumerate(server.get("hygiene") or ()):
        _check_finding(finding, f"{where}.hygiene[{index}]")


def _check_finding(finding: object, where: str) -> None:
    _object(finding, where)
    assert isinstance(finding, Mapping)
    for key in _FINDING_NAMES:
        for index, name in enumerate(_optional_list(finding.get(key), f"{where}.{key}")):
            if not isinstance(name, str):
                raise InvalidInput(f"{where}.{key}[{index}] must be a string", value=name)
    _optional_list(finding.get("evidence"), f"{where}.evidence")


def _object(value: object, where: str) -> WireJSON:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{where} must be an object", value=value)
    return value


def _optional_object(value: object, where: str) -> WireJSON:
    return {} if value is None else _object(value, where)


def _optional_list(value: object, where: str) -> list[WireValue]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidInput(f"{where} must be a list", value=value)
    return value


__all__ = ["MAX_REPORT_BYTES", "read_report", "report_from_json"]
