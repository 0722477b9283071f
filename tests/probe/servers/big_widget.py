"""Hostile: a tool's widget is a huge HTML document (50 MB by default; `argv[1]` MB), sent on one line.

The reply is streamed in 1 MB pieces so the server itself stays small.
"""

import json
import sys

from tests.probe.servers._jsonrpc import UI_MIME, Message, serve, tool, write_raw

URI = "ui://big/widget.html"
CHUNK = b"<p>" + b"x" * (1024 * 1024 - 7) + b"</p>"


def megabytes() -> int:
    return int(sys.argv[1]) if len(sys.argv) > 1 else 50


def read_resource(request: Message) -> Message | None:
    head = {"jsonrpc": "2.0", "id": request["id"], "result": {"contents": [{"uri": URI, "mimeType": UI_MIME}]}}
    opening = json.dumps(head)[: -len("}]}}")] + ', "text": "'
    write_raw(opening.encode())
    for _ in range(megabytes()):
        write_raw(CHUNK)
    write_raw(b'"}]}}\n')
    return None


if __name__ == "__main__":
    serve(
        {
            "tools/list": lambda _request: {"tools": [tool("show", URI)]},
            "resources/list": lambda _request: {"resources": [{"uri": URI, "name": "big", "mimeType": UI_MIME}]},
            "resources/templates/list": lambda _request: {"resourceTemplates": []},
            "resources/read": read_resource,
        },
        name="big-widget",
        capabilities={"tools": {}, "resources": {}},
    )
