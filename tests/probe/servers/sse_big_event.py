"""Over the legacy SSE transport (`sse_big_event.py <port>`): a widget of 2 MiB, over the SDK's 1 MiB event limit."""

import sys

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer

from tests.probe.servers._jsonrpc import UI_MIME

URI = "ui://big/sse.html"


def main() -> None:
    server = MCPServer("big-sse")

    @server.resource(URI, mime_type=UI_MIME)
    def widget() -> str:
        return "<p>" + "z" * (2 * 1024 * 1024) + "</p>"

    @server.tool(meta={"ui": {"resourceUri": URI}})
    def show() -> str:
        return "shown"

    config = uvicorn.Config(server.sse_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
    anyio.run(uvicorn.Server(config).serve)


if __name__ == "__main__":
    main()
