"""Hostile: answers the first `tools/list` page, then writes to stderr and exits with code 3 mid-listing."""

import os
import sys

from tests.probe.servers._jsonrpc import Message, cursor_of, serve, tool

EXIT_CODE = 3


def list_tools(request: Message) -> Message | None:
    if cursor_of(request) is None:
        return {"tools": [tool("before-crash")], "nextCursor": "page-2"}
    sys.stderr.write("starting page 2\nfatal: the tool registry is corrupt\n")
    sys.stderr.flush()
    os._exit(EXIT_CODE)


if __name__ == "__main__":
    serve({"tools/list": list_tools}, name="crash-mid-list")
