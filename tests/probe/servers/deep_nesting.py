"""Hostile: the `tools/list` reply nests a tool's input schema 5,000 levels deep, past any JSON parser's limit."""

import json

from tests.probe.servers._jsonrpc import Message, serve, tool, write_raw

DEPTH = 5000
MARKER = "NESTED_HERE"


def list_tools(request: Message) -> Message | None:
    reply = {"jsonrpc": "2.0", "id": request["id"], "result": {"tools": [tool("deep", description=MARKER)]}}
    nested = b"[" * DEPTH + b"]" * DEPTH
    write_raw(json.dumps(reply).encode().replace(b'"' + MARKER.encode() + b'"', nested) + b"\n")
    return None


if __name__ == "__main__":
    serve({"tools/list": list_tools}, name="deep-nesting")
