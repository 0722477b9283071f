"""A tiny line-based JSON-RPC loop for the hostile test servers.

No SDK here on purpose: these servers must start in milliseconds and misbehave in ways the SDK would not allow.
They speak the handshake era only (`server/discover` is "method not found", so a client falls back to `initialize`).
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any

Message = dict[str, Any]
Handler = Callable[[Message], "Message | None"]
"""Gets the request; returns the result to send, or `None` when it answered (or will never answer) itself."""

UI_MIME = "text/html;profile=mcp-app"


def write_raw(data: bytes) -> None:
    """Write bytes to stdout as they are."""
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def send(message: Mapping[str, Any]) -> None:
    """Write one JSON-RPC message as a line."""
    write_raw(json.dumps(message).encode("utf-8") + b"\n")


def respond(request: Message, result: Mapping[str, Any]) -> None:
    """Answer `request` with `result`."""
    send({"jsonrpc": "2.0", "id": request["id"], "result": result})


def fail(request: Message, code: int, message: str) -> None:
    """Answer `request` with a JSON-RPC error."""
    send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": code, "message": message}})


def hang(_request: Message) -> Message | None:
    """Never answer (the process stays alive until it is killed)."""
    threading.Event().wait()
    return None


def tool(name: str, resource_uri: str | None = None, **extra: Any) -> Message:
    """A tool listing item, with `_meta.ui.resourceUri` when given."""
    item: Message = {"name": name, "description": f"The {name} tool.", "inputSchema": {"type": "object"}, **extra}
    if resource_uri is not None:
        item["_meta"] = {"ui": {"resourceUri": resource_uri}}
    return item


def initialize_result(capabilities: Mapping[str, Any], name: str) -> Message:
    """The `initialize` result these servers send."""
    return {
        "protocolVersion": "2025-11-25",
        "capabilities": dict(capabilities),
        "serverInfo": {"name": name, "version": "0.0.1"},
    }


def serve(
    handlers: Mapping[str, Handler],
    *,
    name: str,
    capabilities: Mapping[str, Any] | None = None,
    on_eof: Callable[[], None] | None = None,
) -> None:
    """Answer requests from stdin until it closes; `initialize` and unknown methods have defaults."""
    caps = {"tools": {}} if capabilities is None else capabilities
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        request = json.loads(line)
        if "id" not in request or "method" not in request:
            continue  # a notification or a response
        method = request["method"]
        handler = handlers.get(method)
        if handler is None:
            if method == "initialize":
                respond(request, initialize_result(caps, name))
            else:
                fail(request, -32601, f"Method not found: {method}")
            continue
        result = handler(request)
        if result is not None:
            respond(request, result)
    if on_eof is not None:
        on_eof()


def cursor_of(request: Message) -> str | None:
    """The `cursor` of a list request, if any."""
    params = request.get("params") or {}
    cursor = params.get("cursor")
    return cursor if isinstance(cursor, str) else None
