"""JSON-RPC envelopes on and off the wire, through the MCP SDK's own envelope models.

Only the envelope is modelled (`jsonrpc`, `id`, `method`, `error`); `params` and `result` stay plain dicts, so
unknown fields and `_meta` cross the proxy exactly as the peer sent them.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp.shared.message import ClientMessageMetadata, ServerMessageMetadata, SessionMessage
from mcp_types import ErrorData, JSONRPCError, JSONRPCMessage, JSONRPCNotification, jsonrpc_message_adapter
from pydantic import ValidationError

from hostcompat.clients.proxy.batches import batch_request_ids
from hostcompat.clients.proxy.failures import ErrorObject
from hostcompat.clients.proxy.tracker import is_request_id
from hostcompat.clients.proxy.unreadable import UnreadableMessage, unreadable_reply
from hostcompat.wire_json import WireObject


def parse_line(line: bytes) -> SessionMessage:
    """One JSON-RPC message from one line of a stdio stream.

    Raises:
        UnreadableMessage: the line is no JSON-RPC message; when it is an answer whose top-level id can still be
            found (it is not UTF-8, or nested too deeply), its `reply` names that request.
    """
    try:
        message = jsonrpc_message_adapter.validate_json(line, by_name=False)
    except (ValidationError, ValueError, RecursionError) as error:
        preview = line[:120].decode("utf-8", "replace")
        reply = unreadable_reply(line, str(error))
        problem = f"not a JSON-RPC message ({type(error).__name__}): {preview!r}"
        batch = tuple(batch_request_ids(line) or ())
        raise UnreadableMessage(problem, value=preview, reply=reply, batch=batch) from error
    if isinstance(message, JSONRPCNotification) and has_invalid_id(line):
        preview = line[:120].decode("utf-8", "replace")
        raise UnreadableMessage(f"not a JSON-RPC message ({BAD_ID}): {preview!r}", value=preview)
    return SessionMessage(message)


BAD_ID = "a request whose id is neither a string nor an integer"


def has_invalid_id(raw: bytes) -> bool:
    """Whether `raw` (one message) is a request whose `id` is neither a string nor an integer (`1.5`, `true`,
    `null`): the SDK's envelope models read it as a notification, dropping the id, and nobody would answer it.
    """
    if b'"id"' not in raw:
        return False
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):  # the envelope models say what is wrong with it
        return False
    if not isinstance(value, dict) or "id" not in value or "method" not in value:
        return False
    return not is_request_id(value["id"])


def stream_item(line: bytes) -> SessionMessage | Exception:
    """What an SDK read stream carries for one line: its message, or the `UnreadableMessage` that stands for it.

    The SDK's sessions take a bad message as an exception sent down the stream (and go on), so this is where a
    raised error becomes a stream item.
    """
    try:
        return parse_line(line)
    except UnreadableMessage as error:
        return error


def encode(message: JSONRPCMessage) -> bytes:
    """The line (with its newline) that carries `message` on a stdio stream."""
    return message.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8") + b"\n"


def error_message(request_id: int | str | None, error: ErrorObject) -> JSONRPCError:
    """A JSON-RPC error response for `request_id` (None for a message whose id could not be read)."""
    fields: dict[str, Any] = {"code": error["code"], "message": error["message"]}
    if "data" in error:
        fields["data"] = error["data"]
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(**fields))


def notification(method: str, params: WireObject) -> JSONRPCNotification:
    """A JSON-RPC notification."""
    return JSONRPCNotification(jsonrpc="2.0", method=method, params=params)


def to_client(message: JSONRPCMessage, related_request_id: int | str | None = None) -> SessionMessage:
    """`message` framed for a front transport; `related_request_id` routes it onto that request's HTTP stream."""
    if related_request_id is None:
        return SessionMessage(message)
    return SessionMessage(message, metadata=ServerMessageMetadata(related_request_id=related_request_id))


def to_server(message: JSONRPCMessage, protocol_version: str | None, stamp: bool) -> SessionMessage:
    """`message` framed for an upstream transport; HTTP upstreams get the negotiated protocol version header."""
    if not stamp or protocol_version is None:
        return SessionMessage(message)
    return SessionMessage(
        message, metadata=ClientMessageMetadata(headers={MCP_PROTOCOL_VERSION_HEADER: protocol_version})
    )


__all__ = [
    "BAD_ID",
    "encode",
    "error_message",
    "has_invalid_id",
    "notification",
    "parse_line",
    "stream_item",
    "to_client",
    "to_server",
]
