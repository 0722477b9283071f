"""Hostile: names, URIs and MIME types thousands of characters long (`argv[1]` characters, default 5,000).

- `tools/list`: a tool whose name is that long, another whose widget URI is, and an ordinary widget tool;
- `resources/list`: the long-URI widget, listed with a long MIME type and name;
- `resources/read`: the widgets' HTML.
"""

import sys

from tests.probe.servers._jsonrpc import UI_MIME, Message, serve, tool

LENGTH = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
LONG_NAME = "n" * LENGTH
LONG_URI = "ui://long/" + "u" * LENGTH
SHORT_URI = "ui://long/short.html"
HTML = "<!DOCTYPE html><html><body><script>window.openai.callTool('x');</script></body></html>"


def read_resource(request: Message) -> Message | None:
    uri = request["params"]["uri"]
    return {"contents": [{"uri": uri, "mimeType": UI_MIME, "text": HTML}]}


if __name__ == "__main__":
    serve(
        {
            "tools/list": lambda _request: {
                "tools": [tool(LONG_NAME, SHORT_URI), tool("long_uri", LONG_URI), tool("short", SHORT_URI)]
            },
            "resources/list": lambda _request: {
                "resources": [{"uri": LONG_URI, "name": "w" * LENGTH, "mimeType": UI_MIME + ";x=" + "m" * LENGTH}]
            },
            "resources/templates/list": lambda _request: {"resourceTemplates": []},
            "resources/read": read_resource,
        },
        name="long-values",
        capabilities={"tools": {}, "resources": {}},
    )
