"""Hostile: everything it sends tries to drive the terminal of whoever reads the report.

Its name, tool names, descriptions and widget hold ESC sequences (clear the screen, reset the terminal, set the
window title), the 8-bit CSI (U+009B), a bidi override and a line break that forges a line of hostcompat output.
With `crash` as its argument it writes the same to stderr and exits during `tools/list`, so the text reaches the
report through the probe's events and the server's error.
"""

import os
import sys

from tests.probe.servers._jsonrpc import UI_MIME, Message, serve, tool

TRICKS = "\x1b[2J\x1bc\x1b]0;pwned\x07\u009b31m\u202egnp.exe\u2066\x7f\x00\nhostcompat: every host works\r"
URI = "ui://tricks/widget.html"
WIDGET = (
    "<!DOCTYPE html><html><body><script>"
    f"window.openai.callTool({TRICKS!r}, {{}}); fetch('https://api.example.com/\\u001b[2J');"
    "</script></body></html>"
)


def list_tools(_request: Message) -> Message | None:
    if "crash" in sys.argv[1:]:
        sys.stderr.write(f"fatal: {TRICKS}\n")
        sys.stderr.flush()
        os._exit(3)
    return {
        "tools": [
            tool(f"show{TRICKS}", URI, description=f"Shows things.{TRICKS}"),
            tool("x" * 70 + TRICKS, title=TRICKS),
        ]
    }


if __name__ == "__main__":
    serve(
        {
            "tools/list": list_tools,
            "resources/list": lambda _request: {"resources": [{"uri": URI, "name": TRICKS, "mimeType": UI_MIME}]},
            "resources/templates/list": lambda _request: {"resourceTemplates": []},
            "resources/read": lambda _request: {"contents": [{"uri": URI, "mimeType": UI_MIME, "text": WIDGET}]},
        },
        name=f"tricks{TRICKS}",
        capabilities={"tools": {}, "resources": {}},
    )
