"""A hostile server's snapshot: markup, event handlers, `javascript:` links and ANSI escapes everywhere a server
names something."""

from __future__ import annotations

from typing import Any

from testkit.snapshots import make_snapshot, widget_tool
from tests.web.browser import PWN_FLAG

SCRIPT = f"<script>window.{PWN_FLAG}=1;alert(1)</script>"
IMG = f'<img src=x onerror="window.{PWN_FLAG}=1;alert(2)">'
LINK = f'<a href="javascript:window.{PWN_FLAG}=1">x</a> javascript:alert(3)'
ANSI = "\x1b[31mred\x1b[0m\x1b]8;;javascript:alert(4)\x1b\\link\x1b]8;;\x1b\\"
PAYLOAD = f"{SCRIPT}{IMG}{LINK}{ANSI}"


def hostile_snapshot() -> dict[str, Any]:
    uri = "ui://evil/widget.html"
    tools = [
        widget_tool(
            f"tool{SCRIPT}",
            uri,
            description=PAYLOAD,
            title=IMG,
            _meta={"ui": {"resourceUri": uri, "csp": {"connectDomains": [LINK]}, "prefersBorder": IMG}},
        ),
        {"name": f"plain{IMG}", "description": LINK, "inputSchema": {"type": "object"}},
        widget_tool(f"openai{ANSI}", "ui://evil/other.html", _meta={"openai/outputTemplate": "javascript:alert(5)"}),
    ]
    page = (
        f"<html><body>{PAYLOAD}<script>window.openai.callTool('{SCRIPT}', {{}});\n"
        f"window.parent.postMessage({{jsonrpc: '2.0', id: 1, method: 'ui/open-link', params: {{url: '{LINK}'}}}}, '*');"
        "</script></body></html>"
    )
    meta = {"ui": {"csp": {"connectDomains": [LINK], "frameDomains": [IMG]}, "permissions": {SCRIPT: {}}}}
    item = {"uri": uri, "mimeType": "text/html;profile=mcp-app", "text": page, "_meta": meta}
    snapshot = make_snapshot(tools, {uri: item, "ui://evil/other.html": page}).to_dict()
    snapshot["initialize"]["serverInfo"] = {"name": f"evil{PAYLOAD}", "version": IMG}
    snapshot["initialize"]["instructions"] = PAYLOAD
    return snapshot
