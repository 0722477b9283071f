"""Hostile: answers the first `tools/list` page with a cursor, then never answers the second."""

from tests.probe.servers._jsonrpc import Message, cursor_of, hang, serve, tool


def list_tools(request: Message) -> Message | None:
    if cursor_of(request) is None:
        return {"tools": [tool("first")], "nextCursor": "page-2"}
    return hang(request)


if __name__ == "__main__":
    serve({"tools/list": list_tools}, name="hang-mid-list")
