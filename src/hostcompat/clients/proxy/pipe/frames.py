"""JSON-RPC lines read once with the standard JSON parser: what kind of message, its id and method, its body.

The pipe relay needs only the envelope to route a message and to decide whether a rule applies; everything it does
not patch is forwarded as the very bytes the peer sent, so this module never re-encodes an untouched message.
`dump_line` encodes the few messages the proxy writes or patches itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from hostcompat.clients.proxy.batches import BATCH_ERROR, batch_request_ids
from hostcompat.clients.proxy.failures import ErrorObject, invalid_request_error, unreadable_error
from hostcompat.clients.proxy.tracker import is_request_id
from hostcompat.errors import InvalidMessage, InvalidRequest
from hostcompat.wire_json import WireJSON, WireObject

REQUEST = "request"
NOTIFICATION = "notification"
RESULT = "result"
ERROR = "error"

_PREVIEW = 120
_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # set in __init__
"""The scanner `json.loads` uses when given no options (its C version), called without `decode`'s regex passes."""
_JSON_WHITESPACE = " \t\n\r"
_new = tuple.__new__


class Frame(NamedTuple):
    """One JSON-RPC message: `kind` (request, notification, result or error), its `id` (None for a notification
    or an error without one), its `method` ("" for a response) and the whole decoded `body`.
    """

    kind: str
    id: int | str | None
    method: str
    body: WireObject


def _unreadable(line: bytes, reason: str) -> InvalidMessage:
    if line.endswith(b"\n"):  # the line's own terminator is no part of what it says
        line = line[:-1]
    preview = line[:_PREVIEW].decode("utf-8", "replace")
    return InvalidMessage(f"not a JSON-RPC message ({reason}): {preview!r}", value=preview)


def _envelope_problem(body: dict[str, Any]) -> str | None:
    """Why `body` is no JSON-RPC 2.0 message (None: it is one)."""
    if body.get("jsonrpc") != "2.0":
        return "no jsonrpc 2.0"
    if "method" in body:
        if not isinstance(body["method"], str):
            return "method is not a string"
        if body.get("params") is not None and not isinstance(body["params"], dict):
            return "params is not an object"
        if "id" in body and not is_request_id(body["id"]):
            return "bad id"
        return None
    if "result" in body:
        if not is_request_id(body.get("id")):
            return "bad id"
        return None if isinstance(body["result"], dict) else "result is not an object"
    if "error" in body:
        error = body["error"]
        if body.get("id") is not None and not is_request_id(body["id"]):
            return "bad id"
        if not isinstance(error, dict) or not isinstance(error.get("message"), str):
            return "malformed error"
        code = error.get("code")
        return None if isinstance(code, int) and not isinstance(code, bool) else "malformed error"
    return "neither a request, a notification nor a response"


def read_frame(line: bytes) -> Frame:
    """The message on one line of a stdio stream.

    `line` may end with its newline (JSON allows the whitespace): the relay parses the bytes it will forward.

    Raises:
        InvalidMessage: the line is no JSON-RPC 2.0 message; the error says why, with the start of the line.
    """
    try:
        if line[:1] == b"{" and line[1:2] != b"\x00":  # what json.loads would decode as UTF-8, minus its detours
            text = line.decode("utf-8", "surrogatepass")
            body, end = _SCAN(text, 0)  # the object starts at 0: no leading whitespace to skip
            if end != len(text) and text[end:].strip(_JSON_WHITESPACE):
                raise _unreadable(line, "JSONDecodeError")  # extra data after the object
        else:
            body = json.loads(line)
    except (ValueError, RecursionError, StopIteration) as error:  # UnicodeDecodeError is a ValueError
        reason = "JSONDecodeError" if type(error) is StopIteration else type(error).__name__
        raise _unreadable(line, reason) from error
    if type(body) is not dict:
        raise _unreadable(line, "not an object")
    if body.get("jsonrpc") == "2.0":  # the common shapes, checked as _envelope_problem does, in fewer steps
        method = body.get("method")  # (and built as Frame(...) is, without the Python-level __new__ it adds)
        if type(method) is str:
            params = body.get("params")
            if params is None or type(params) is dict:
                if "id" not in body:
                    return _new(Frame, (NOTIFICATION, None, method, body))
                request_id = body["id"]
                if type(request_id) is int or type(request_id) is str:
                    return _new(Frame, (REQUEST, request_id, method, body))
        elif "method" not in body and type(body.get("result")) is dict:
            request_id = body.get("id")
            if type(request_id) is int or type(request_id) is str:
                return _new(Frame, (RESULT, request_id, "", body))
    problem = _envelope_problem(body)
    if problem is not None:
        request_id = body.get("id")
        if "method" in body and is_request_id(request_id):  # a request, however malformed: its answer carries its id
            unreadable = _unreadable(line, problem)
            raise InvalidRequest(unreadable.message, request_id=request_id, value=unreadable.value)
        raise _unreadable(line, problem)
    method = body.get("method")
    if method is not None:
        if "id" in body:
            return Frame(REQUEST, body["id"], method, body)
        return Frame(NOTIFICATION, None, method, body)
    if "result" in body:
        return Frame(RESULT, body["id"], "", body)
    return Frame(ERROR, body.get("id"), "", body)


def _plain(value: object) -> Any:
    """JSON's view of the read-only containers a rule may put in a patched message."""
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    raise TypeError(f"{type(value).__name__} is not JSON")


def dump_line(message: WireJSON) -> bytes:
    """The line (with its newline) that carries `message`: compact JSON, UTF-8.

    Raises:
        InvalidMessage: `message` holds something JSON cannot carry (NaN, an infinite number, an object).
    """
    try:
        try:
            text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_plain)
            return text.encode("utf-8") + b"\n"
        except UnicodeEncodeError:  # a lone surrogate from a \\ud800 escape: keep it escaped
            text = json.dumps(message, separators=(",", ":"), allow_nan=False, default=_plain)
            return text.encode("ascii") + b"\n"
    except (TypeError, ValueError, RecursionError) as error:
        raise InvalidMessage(f"a message cannot be written as JSON: {error}", value=repr(message)[:_PREVIEW]) from error


def with_member(frame: Frame, key: str, value: Any) -> WireObject:
    """The body of `frame` with `key` (params or result) replaced, other members and their order kept."""
    body = dict(frame.body)
    body[key] = dict(value) if isinstance(value, Mapping) else value
    return body


def error_line(request_id: int | str | None, error: ErrorObject) -> bytes:
    """The line of a JSON-RPC error response for `request_id` (None for a message whose id could not be read)."""
    fields: dict[str, Any] = {"code": error["code"], "message": error["message"]}
    if "data" in error:
        fields["data"] = error["data"]
    return dump_line({"jsonrpc": "2.0", "id": request_id, "error": fields})


def unreadable_client_lines(error: InvalidMessage, line: bytes = b"") -> list[bytes]:
    """The answers to a client `line` that is no JSON-RPC message (`error` says why): one error with its id when
    that could be read, one per request of a batch (`batches`), else one error without an id.
    """
    if isinstance(error, InvalidRequest):  # the id could be read: the client waiting on it gets the answer
        return [error_line(error.request_id, invalid_request_error(error.message))]
    batch = batch_request_ids(line) if line else None
    if batch:
        return [error_line(request_id, BATCH_ERROR) for request_id in batch]
    return [error_line(None, unreadable_error(f"could not read a client message: {error}"))]


def notification_line(method: str, params: WireJSON) -> bytes:
    """The line of a JSON-RPC notification the proxy sends on its own."""
    return dump_line({"jsonrpc": "2.0", "method": method, "params": params})


__all__ = [
    "ERROR",
    "Frame",
    "NOTIFICATION",
    "REQUEST",
    "RESULT",
    "dump_line",
    "error_line",
    "notification_line",
    "read_frame",
    "unreadable_client_lines",
    "with_member",
]
