"""Hostile: one `tools/list` message of a million tools (`argv[1]`, default 1,000,000), about 31 MB on one line.

The message is streamed in pieces, so the server itself stays small: only the client's memory is under test.
"""

import json
import sys

from tests.probe.servers._jsonrpc import Message, serve, write_raw

BATCH = 10_000


def count() -> int:
    return int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000


def tool_bytes(index: int) -> bytes:
    """One listing item, 30 bytes (no `inputSchema`: with one the message would pass the probe's 32 MiB cap)."""
    return b'{"name":"million_tool_%07d"}' % index


def list_tools(request: Message) -> Message | None:
    write_raw(b'{"jsonrpc":"2.0","id":' + json.dumps(request["id"]).encode() + b',"result":{"tools":[')
    total = count()
    for start in range(0, total, BATCH):
        items = (tool_bytes(index) for index in range(start, min(start + BATCH, total)))
        write_raw((b"," if start else b"") + b",".join(items))
    write_raw(b"]}}\n")
    return None


if __name__ == "__main__":
    serve({"tools/list": list_tools}, name="million-tools")
