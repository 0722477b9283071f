"""The real MCP server behind the test host: a view's tools/call and resources/read forwarded to it, when asked.

A host that offers serverTools and serverResources forwards the view's requests to the server; the emulated host
does too when the run is given a live target (`live_server`). Only what the host page lets through reaches here
(a host that refuses the method refused it already). A tool the server annotates `destructiveHint: true` is not
called: the snapshot's answer stands in for it, and the run says so. Answers are bounded in size.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager, suppress
from typing import Any, Final

from hostcompat.observe.runner import ServerHandler
from hostcompat.probe.limits import DEFAULT_LIMITS, Limits
from hostcompat.probe.snapshot import Snapshot
from hostcompat.probe.target import Target
from hostcompat.wire_json import WireJSON

MAX_ANSWER_CHARS: Final = 4_000_000
"""The largest answer (as JSON text) forwarded to the view; a larger one is an error the view sees."""

FORWARDED: Final = frozenset(
    {"tools/call", "tools/list", "resources/read", "resources/list", "resources/templates/list"}
)


def destructive(tool: WireJSON | None) -> bool:
    """Whether the server itself annotates the tool as destructive (`destructiveHint: true`, not read-only)."""
    annotations = tool.get("annotations") if tool is not None else None
    if not isinstance(annotations, Mapping):
        return False
    return annotations.get("destructiveHint") is True and annotations.get("readOnlyHint") is not True


@asynccontextmanager
async def live_server(
    target: Target,
    snapshot: Snapshot,
    fallback: ServerHandler,
    notes: list[str],
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> AsyncIterator[ServerHandler]:
    """A handler that forwards to a live connection to `target` (opened here, closed on exit).

    When the server cannot be reached the run goes on with `fallback` (the snapshot's answers), and `notes` says
    so; tools the snapshot shows as destructive are answered by `fallback` too.
    """
    from mcp.shared.exceptions import MCPError

    from hostcompat.probe.live import open_client

    tools = {str(tool.get("name")): tool for tool in snapshot.tools}
    try:
        opened = open_client(target, limits=limits)
        client = await opened.__aenter__()
    except ConnectionError as error:
        notes.append(f"The live server could not be reached ({error}); the snapshot answered the view instead.")
        yield fallback
        return
    notes.append("The view's tools/call and resources/read went to the live server.")
    held: list[str] = []

    async def handle(method: str, params: Any) -> Mapping[str, Any]:
        args = dict(params) if isinstance(params, Mapping) else {}
        if method not in FORWARDED:
            return await fallback(method, params)
        if method == "tools/call" and destructive(tools.get(str(args.get("name")))):
            if not held:
                notes.append(
                    f"tools/call {str(args.get('name'))[:100]!r} was not sent to the live server (annotated "
                    "destructive): the snapshot answered it."
                )
            held.append(str(args.get("name")))
            return await fallback(method, params)
        try:
            result = await _forward(client, method, args)
        except MCPError as error:
            return {"error": {"code": error.error.code, "message": str(error.error.message)[:500]}}
        except Exception as error:  # the server broke mid-run: the view sees an error, the run goes on
            return {"error": {"code": -32603, "message": f"the server failed: {type(error).__name__}"}}
        text = json.dumps(result)
        if len(text) > MAX_ANSWER_CHARS:
            return {"error": {"code": -32603, "message": f"the server's answer is over {MAX_ANSWER_CHARS} characters"}}
        return {"result": result}

    try:
        yield handle
    finally:
        with suppress(Exception):  # a server that will not close cleanly was already stopped
            await opened.__aexit__(None, None, None)


async def _forward(client: Any, method: str, args: Mapping[str, Any]) -> Any:
    session = client.session
    if method == "tools/call":
        arguments = args.get("arguments")
        answer = await session.call_tool(
            str(args.get("name")), dict(arguments) if isinstance(arguments, Mapping) else None
        )
    elif method == "resources/read":
        answer = await session.read_resource(str(args.get("uri")))
    elif method == "tools/list":
        answer = await session.list_tools()
    elif method == "resources/list":
        answer = await session.list_resources()
    else:
        answer = await session.list_resource_templates()
    return answer.model_dump(by_alias=True, exclude_none=True, mode="json")


__all__ = ["FORWARDED", "MAX_ANSWER_CHARS", "destructive", "live_server"]
