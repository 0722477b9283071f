"""A stdio MCP server that gates `_meta.ui` on the client's declared UI capability, as the spec says servers SHOULD.

The pattern claude-ai-mcp #61 (comment of 2026-08-20) reports: such a server sends claude.ai, which renders apps but
declares no extensions, no `_meta.ui` at all. It has tools only (no resources capability), and its tool also names
an OpenAI template, as the servers of microsoft/vscode #300262 do.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

from hostcompat.apps.capabilities import get_ui_capability

URI = "ui://gated/view.html"


async def list_tools(ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None) -> Any:
    """One tool with a view; its `_meta.ui` only for a client that declared the UI extension."""
    meta: dict[str, Any] = {"openai/outputTemplate": URI}
    if get_ui_capability(ctx.session.client_capabilities) is not None:
        meta["ui"] = {"resourceUri": URI}
    tool = types.Tool(name="show", input_schema={"type": "object"}, _meta=meta)
    return types.ListToolsResult(tools=[tool])


async def call_tool(ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams) -> Any:
    """Some text."""
    return types.CallToolResult(content=[types.TextContent(type="text", text="shown")])


server: Server[Any] = Server("gated", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    """Serve on stdio."""
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
