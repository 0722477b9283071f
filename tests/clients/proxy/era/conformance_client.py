"""The client the conformance suite's client scenarios start: the official Python SDK client, in either era.

`conformance client --command "... conformance_client.py --direct" --scenario NAME` runs its own handshake-era
server for NAME and starts this script with that server's URL as the last argument (and NAME in
`MCP_CONFORMANCE_SCENARIO`). `--direct` connects to it as a handshake-era client (2025-11-25, over streamable HTTP);
`--via-gateway` is a 2026-07-28 client that reaches it through `hostcompat proxy --era-front modern --upstream URL`
on stdio, so the suite judges what the era gateway makes of a modern client. Each scenario does what the suite's own
everything-client does for it (v0.1.16). Exits non-zero when a step fails.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import anyio
from mcp import Client
from mcp.client import ClientRequestContext
from mcp.client.stdio import StdioServerParameters
from mcp_types import ElicitRequestFormParams, ElicitRequestParams, ElicitResult, Implementation

MODERN = "2026-07-28"


def defaults_of(params: ElicitRequestParams) -> dict[str, Any]:
    """The requested schema's default values: what a form the user accepts unchanged sends."""
    if not isinstance(params, ElicitRequestFormParams):
        return {}
    properties = params.requested_schema.get("properties", {})
    return {
        name: field["default"] for name, field in properties.items() if isinstance(field, dict) and "default" in field
    }


async def accept_defaults(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    """The user accepts the form as offered."""
    return ElicitResult(action="accept", content=defaults_of(params))


def server_of(url: str, via_gateway: bool) -> str | StdioServerParameters:
    if not via_gateway:
        return url
    proxy = ["-m", "hostcompat.cli.proxy", "--era-front", "modern", "--upstream", url]
    return StdioServerParameters(command=sys.executable, args=proxy, env=dict(os.environ))


async def run(scenario: str, url: str, via_gateway: bool) -> None:
    client = Client(
        server_of(url, via_gateway),
        mode=MODERN if via_gateway else "legacy",
        client_info=Implementation(name="hostcompat-conformance-client", version="1.0.0"),
        elicitation_callback=accept_defaults,
    )
    async with client:
        if (client.protocol_version == MODERN) != via_gateway:  # the gateway must not have let the client fall back
            raise SystemExit(f"spoke {client.protocol_version}, through the gateway: {via_gateway}")
        tools = {tool.name for tool in (await client.list_tools()).tools}
        call = {
            "tools_call": ("add_numbers", {"a": 5, "b": 3}),
            "elicitation-sep1034-client-defaults": ("test_client_elicitation_defaults", {}),
            "sse-retry": ("test_reconnection", {}),
        }.get(scenario)
        if call is not None:
            if call[0] not in tools:
                raise SystemExit(f"the server has no tool {call[0]}")
            result = await client.call_tool(*call)
            if result.is_error:
                raise SystemExit(f"{call[0]} failed: {result.content}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--direct", action="store_true", help="a handshake-era client, straight to the server")
    how.add_argument("--via-gateway", action="store_true", help="a 2026-07-28 client, through the era gateway")
    parser.add_argument("url")
    args = parser.parse_args()
    anyio.run(run, os.environ.get("MCP_CONFORMANCE_SCENARIO", "initialize"), args.url, args.via_gateway)


if __name__ == "__main__":
    main()
