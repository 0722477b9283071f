"""A small, real MCP App server: a task board tool whose widget uses the bridge.

- `show_board` (model + app) renders `ui://task-board/board.html` and opts in to the embedded fallback, so a
  client without MCP Apps still receives the widget inline;
- `refresh_board` is app-only (`visibility=["app"]`): the widget calls it through the host (`tools/call`);
- `board_summary` names the same widget but does not opt in: clients without MCP Apps get text only;
- `count_tasks` has no UI at all.

Every tool only reads the board and is annotated `readOnlyHint`, so a probe may call each one to check its result.

Run it over stdio with `python -m hostcompat.examples.board`.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations

from hostcompat.apps.meta.access import ResourceUI
from hostcompat.apps.server import CompatApps

BOARD_URI = "ui://task-board/board.html"
TASKS: tuple[dict[str, Any], ...] = (
    {"title": "Write the release notes", "done": True},
    {"title": "Check the widget on every host", "done": False},
    {"title": "Answer the bug report", "done": False},
)


READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
"""Every tool of the board only reads it."""


def board_html() -> str:
    """The widget's HTML, shipped beside this module."""
    return resources.files(__package__ or "hostcompat.examples").joinpath("board.html").read_text("utf-8")


def _board_result(summary: str) -> CallToolResult:
    """The board for the model (`summary` in text) and for the widget (`structuredContent`, mirrored as JSON text:
    some hosts strip `structuredContent` from the result they hand the widget, or show it instead of `content`).
    """
    board = {"summary": summary, "tasks": [dict(task) for task in TASKS]}
    return CallToolResult(
        content=[TextContent(type="text", text=summary), TextContent(type="text", text=json.dumps(board))],
        structured_content=board,
    )


def _open_tasks() -> int:
    return sum(1 for task in TASKS if not task["done"])


def _listing() -> str:
    lines = [f"{'[x]' if task['done'] else '[ ]'} {task['title']}" for task in TASKS]
    return f"{_open_tasks()} open of {len(TASKS)} tasks:\n" + "\n".join(lines)


def build_server() -> MCPServer:
    """A fresh server instance (tests run several side by side)."""
    apps = CompatApps()

    @apps.tool(resource_uri=BOARD_URI, fallback="embedded", description="Show the task board.", annotations=READ_ONLY)
    def show_board() -> CallToolResult:
        return _board_result(_listing())

    @apps.tool(
        resource_uri=BOARD_URI,
        visibility=["app"],
        description="Reload the board (called by the widget).",
        annotations=READ_ONLY,
    )
    def refresh_board() -> CallToolResult:
        return _board_result(_listing())

    @apps.tool(resource_uri=BOARD_URI, description="Summarise the board in one line.", annotations=READ_ONLY)
    def board_summary() -> CallToolResult:
        return _board_result(f"{_open_tasks()} open tasks")

    apps.add_html_resource(
        BOARD_URI,
        board_html(),
        name="task-board",
        title="Task board",
        description="The task board widget.",
        ui=ResourceUI(prefers_border=True),
    )

    server = MCPServer(
        "task-board",
        instructions="A task board with an MCP App widget.",
        extensions=[apps],
        middleware=[apps.handshake_middleware()],
    )

    @server.tool(description="Count the tasks on the board.", annotations=READ_ONLY)
    def count_tasks() -> int:
        return len(TASKS)

    return server


def main() -> None:
    """Serve the example over stdio."""
    build_server().run("stdio")


if __name__ == "__main__":
    main()


__all__ = ["BOARD_URI", "READ_ONLY", "board_html", "build_server", "main"]
