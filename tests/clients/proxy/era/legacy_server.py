"""A handshake-era MCP server built on the official SDK, which asks its client for sampling with a server-to-client
request, as 2025 servers do.

It answers a `server/discover` probe as the TypeScript SDK 1.x does (-32601), and with `--exit-on-discover` as rmcp
and some Go and C# servers do: a line that is no JSON-RPC, and an exit. Run as a script, it serves on stdio.
"""

from __future__ import annotations

import json
import os
import sys
import threading

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import SamplingMessage, TextContent

server = MCPServer("legacy-only", instructions="a 2025-era test server")


@server.tool()
def echo(text: str) -> str:
    """Say the text back."""
    return f"echo: {text}"


@server.tool()
def whoami(ctx: Context) -> str:
    """The client name this session was initialized with."""
    params = ctx.session.client_params
    return "nobody" if params is None else params.client_info.name


@server.tool()
async def ask_model(prompt: str, ctx: Context) -> str:
    """Ask the client's model, with a sampling request to the client."""
    message = SamplingMessage(role="user", content=TextContent(type="text", text=prompt))
    reply = await ctx.session.create_message(messages=[message], max_tokens=50)
    content = reply.content
    return f"model said: {content.text if isinstance(content, TextContent) else content}"


@server.resource("test://legacy")
def legacy() -> str:
    """A static text resource."""
    return "hello from a legacy server"


def _refuse_discover(exit_on_it: bool) -> None:
    """Stand in front of the SDK's dual-era loop as a handshake-only server would: a `server/discover` before
    `initialize` gets -32601 (what the TypeScript SDK 1.x answers) or, with `exit_on_it`, a line that is no JSON-RPC
    and an exit; the first other line, and everything after it, go to the server.
    """
    while True:
        first = b""
        while not first.endswith(b"\n"):
            chunk = os.read(0, 1)
            if not chunk:
                break
            first += chunk
        try:
            message = json.loads(first)
        except ValueError:
            message = {}
        if not isinstance(message, dict) or message.get("method") != "server/discover":
            break
        if exit_on_it:
            os.write(1, b"thread 'main' panicked: unexpected method server/discover before initialize\n")
            os._exit(101)
        error = {"code": -32601, "message": "Method not found"}
        os.write(1, json.dumps({"jsonrpc": "2.0", "id": message.get("id"), "error": error}).encode() + b"\n")
    original = os.dup(0)
    read, write = os.pipe()

    def relay() -> None:
        os.write(write, first)
        while chunk := os.read(original, 65536):
            os.write(write, chunk)
        os.close(write)

    threading.Thread(target=relay, daemon=True).start()
    os.dup2(read, 0)


if __name__ == "__main__":
    _refuse_discover(exit_on_it="--exit-on-discover" in sys.argv)
    server.run()
