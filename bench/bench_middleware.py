"""Overhead of `ClientCompatMiddleware` on `tools/list` of a 1,000-tool server, side by side in one run.

Three servers with identical tools, each called by an in-memory `mcp` client (real JSON-RPC framing):
no middleware; the middleware with a client no rule names; the middleware with Codex (whose rules check every
tool's name and input schema). Rounds interleave the three so machine noise hits them alike; the figures are
medians per `tools/list` call and their ratios to the bare server.

Run: `python bench/bench_middleware.py [--tools 1000] [--rounds 15]`
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import anyio
import mcp_types as types
from mcp.client import Client
from mcp.client._memory import InMemoryTransport
from mcp.server import Server, ServerRequestContext

from hostcompat.clients.middleware import ClientCompatMiddleware

CODEX = types.Implementation(name="codex-mcp-client", version="0.148.0")
UNKNOWN = types.Implementation(name="some-new-client", version="1.0.0")


def tool_list(count: int) -> types.ListToolsResult:
    """`count` realistic tools: a description, a small object schema, annotations."""
    return types.ListToolsResult(
        tools=[
            types.Tool(
                name=f"tool_{index:05d}",
                description=f"Tool number {index}, which does one small thing well.",
                input_schema={
                    "type": "object",
                    "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "minimum": 1}},
                    "required": ["query"],
                },
                annotations=types.ToolAnnotations(read_only_hint=True),
            )
            for index in range(count)
        ]
    )


def build_server(tools: types.ListToolsResult, *, middleware: bool) -> Server[Any]:
    """A lowlevel server answering `tools/list` with one shared result object."""

    async def list_tools(ctx: ServerRequestContext[Any, Any], params: Any) -> types.ListToolsResult:
        return tools

    server: Server[Any] = Server("bench", on_list_tools=list_tools)
    if middleware:
        server.middleware.append(ClientCompatMiddleware())
    return server


async def time_calls(client: Client, calls: int) -> list[float]:
    """Seconds per `tools/list` call."""
    timings = []
    for _ in range(calls):
        start = time.perf_counter()
        await client.list_tools()
        timings.append(time.perf_counter() - start)
    return timings


async def run(tool_count: int, rounds: int, calls: int) -> dict[str, float]:
    tools = tool_list(tool_count)
    cases = {
        "no middleware": (build_server(tools, middleware=False), UNKNOWN),
        "middleware, client with no rule": (build_server(tools, middleware=True), UNKNOWN),
        "middleware, Codex": (build_server(tools, middleware=True), CODEX),
    }
    samples: dict[str, list[float]] = {name: [] for name in cases}

    def connect(name: str) -> Client:
        server, client_info = cases[name]
        return Client(InMemoryTransport(server), client_info=client_info, mode="legacy")

    names = list(cases)
    async with connect(names[0]) as bare, connect(names[1]) as plain, connect(names[2]) as codex:
        clients = dict(zip(names, (bare, plain, codex), strict=True))
        for client in clients.values():
            await time_calls(client, 2)  # warm up
        for _ in range(rounds):
            for name, client in clients.items():
                samples[name].extend(await time_calls(client, calls))
    return {name: statistics.median(values) for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=3, help="calls per case per round")
    args = parser.parse_args()
    medians = anyio.run(run, args.tools, args.rounds, args.calls)
    base = medians["no middleware"]
    print(f"tools/list of {args.tools} tools, in-memory JSON-RPC, median of {args.rounds * args.calls} calls each")
    for name, value in medians.items():
        print(
            f"  {name:<34} {value * 1000:8.2f} ms   {value / base:5.3f}x   overhead {100 * (value / base - 1):+6.1f} %"
        )
    print("targets: client with no rule <= +5 %, Codex <= +25 %")


if __name__ == "__main__":
    main()
