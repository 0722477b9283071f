"""A JSON-RPC batch from a client: each request in it is answered with an error, so no client waits on one.

MCP allowed batches in 2025-03-26 only (2025-06-18 removed them), and the proxy relays one message per line: it
does not forward a batch. Answering the whole array with one error without an id (as any unreadable line is) left
every request in it unanswered, and its client waiting until its own timeout. Pure: the line in, the ids out.
"""

from __future__ import annotations

import json
from typing import Final

from hostcompat.clients.proxy.failures import INVALID_REQUEST, PREFIX, ErrorObject
from hostcompat.clients.proxy.tracker import RequestId, is_request_id

MAX_BATCH_REQUESTS: Final = 10_000
"""The most requests of one batch answered (each answer is an error line of some 200 bytes)."""


def batch_request_ids(line: bytes) -> list[RequestId] | None:
    """The ids of the requests in `line` when it is a JSON-RPC batch (a JSON array), in order and each once, at most
    `MAX_BATCH_REQUESTS`; None when it is no array. Its notifications and responses need no answer; an empty list
    (an empty batch, or one without requests) is for the caller to treat as any unreadable line.
    """
    if line.lstrip()[:1] != b"[":
        return None
    try:
        batch = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(batch, list):
        return None
    ids: dict[RequestId, None] = {}
    for entry in batch:
        if isinstance(entry, dict) and "method" in entry and is_request_id(entry.get("id")):
            ids[entry["id"]] = None
            if len(ids) == MAX_BATCH_REQUESTS:
                break
    return list(ids)


BATCH_ERROR: Final[ErrorObject] = {
    "code": INVALID_REQUEST,
    "message": (
        f"{PREFIX}a JSON-RPC batch is not relayed (MCP dropped batches in protocol 2025-06-18); send each message on "
        "a line of its own"
    ),
}
"""The error each request of a batch gets."""


__all__ = ["BATCH_ERROR", "MAX_BATCH_REQUESTS", "batch_request_ids"]
