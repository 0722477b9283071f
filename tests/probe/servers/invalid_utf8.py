"""Hostile: the `tools/list` reply carries bytes that are not UTF-8 inside a tool description."""

import json

from tests.probe.servers._jsonrpc import Message, serve, tool, write_raw

MARKER = "BROKEN_BYTES_HERE"


def list_tools(request: Message) -> Message | None:
    reply = {"jsonrpc": "2.0", "id": request["id"], "result": {"tools": [tool("latin", description=MARKER)]}}
    write_raw(json.dumps(reply).encode().replace(MARKER.encode(), b"caf\xe9 \xff\xfe") + b"\n")
    return None


if __name__ == "__main__":
    serve({"tools/list": list_tools}, name="invalid-utf8")
