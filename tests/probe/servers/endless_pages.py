"""Hostile: every `tools/list` page holds one tool and a fresh cursor, forever."""

from tests.probe.servers._jsonrpc import Message, cursor_of, serve, tool


def list_tools(request: Message) -> Message | None:
    page = int(cursor_of(request) or "0")
    return {"tools": [tool(f"tool-{page}")], "nextCursor": str(page + 1)}


if __name__ == "__main__":
    serve({"tools/list": list_tools}, name="endless-pages")
