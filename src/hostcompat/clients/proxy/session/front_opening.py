"""The first request of an HTTP front session: only a complete, valid `initialize` opens one and starts a server.

Each session of the HTTP front costs a server process, so the request that would open one is read whole and checked
before anything starts: a POST the transport would accept (Accept, Content-Type), a body that arrived in full, and
a JSON-RPC `initialize` request with valid params. Anything else is answered (or, for a client that went away
mid-body, dropped) without starting anything.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server.streamable_http import check_accept_headers
from mcp_types import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, InitializeRequestParams
from pydantic import ValidationError
from starlette.requests import Request
from starlette.types import Message, Receive, Scope

from hostcompat._dataclass import dataclass
from hostcompat.clients.proxy.tracker import INITIALIZE_METHOD, is_request_id


@dataclass(frozen=True)
class Refusal:
    """Why a request opens no session: the HTTP status (0: the client left, answer nothing), a JSON-RPC error code
    (None: no body) and a message.
    """

    status: int
    code: int | None
    message: str


GONE = Refusal(0, None, "the client closed the connection before its request body was complete")


async def read_body(receive: Receive) -> bytes | None:
    """The whole request body, or None when the connection ended before it was complete."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def check_initialize(body: bytes) -> Refusal | None:
    """None when `body` is one JSON-RPC `initialize` request with valid params; else why not."""
    try:
        message: Any = json.loads(body)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return Refusal(400, PARSE_ERROR, "Parse error: the body is not JSON")
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or not is_request_id(message.get("id")):
        return Refusal(400, INVALID_REQUEST, "Bad Request: a session starts with one JSON-RPC initialize request")
    if message.get("method") != INITIALIZE_METHOD:
        return Refusal(400, INVALID_REQUEST, "Bad Request: Missing session ID (a session starts with initialize)")
    try:
        InitializeRequestParams.model_validate(message.get("params"), by_name=False)
    except (ValidationError, ValueError, RecursionError):
        message_text = "Invalid params: initialize needs protocolVersion, capabilities and clientInfo"
        return Refusal(400, INVALID_PARAMS, message_text)
    return None


async def read_opening(scope: Scope, headers: dict[str, str], receive: Receive) -> bytes | Refusal:
    """The body of a request without a session id if it may open a session, else why not.

    `headers` are the request's headers with lower-case names. Reads the body (already bounded in size by the
    front's body limit) to its end.
    """
    if scope["method"] != "POST":
        return Refusal(400, INVALID_REQUEST, "Bad Request: Missing session ID")
    has_json, has_sse = check_accept_headers(Request(scope))
    if not (has_json and has_sse):
        wanted = "Not Acceptable: Client must accept both application/json and text/event-stream"
        return Refusal(406, INVALID_REQUEST, wanted)
    content_type = headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        return Refusal(415, INVALID_REQUEST, "Unsupported Media Type: Content-Type must be application/json")
    body = await read_body(receive)
    if body is None:
        return GONE
    refusal = check_initialize(body)
    return body if refusal is None else refusal


def replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that hands out `body` (already read) as the whole request, then what `receive` brings next."""
    pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]

    async def again() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return again


__all__ = ["GONE", "Refusal", "check_initialize", "read_body", "read_opening", "replay"]
