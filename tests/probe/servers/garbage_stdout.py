"""Hostile: prints banners, stray JSON, a reply to a request nobody sent and binary junk around real answers."""

from tests.probe.servers._jsonrpc import Message, send, serve, tool, write_raw

GARBAGE_LINES = 5


def list_tools(request: Message) -> Message | None:
    write_raw(b"DEBUG: listing tools\n")
    send({"jsonrpc": "2.0", "id": 987654, "result": {"tools": []}})
    return {"tools": [tool("survivor")]}


if __name__ == "__main__":
    write_raw(b"Server starting on stdio...\n")
    write_raw(b'{"hello": "this is JSON but not JSON-RPC"}\n')
    write_raw(b"\x00\x01\x02 binary junk \x1b[31m\n")
    write_raw(b"[1, 2, 3]\n")
    serve({"tools/list": list_tools}, name="garbage-stdout")
