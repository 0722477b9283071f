"""`hostcompat demo`: drive the built-in example server with one in-process client per kind of host.

For every tool it prints the mode each client gets (`capability`, `embedded-fallback`, `none`), predicted by
`select_tool_mode` from the tool listing and checked against what the tool call really returned.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from hostcompat._dataclass import dataclass
from hostcompat.apps.capabilities.access import diagnose_ui_capability
from hostcompat.apps.constants import EXTENSION_ID, RESOURCE_MIME_TYPE
from hostcompat.apps.meta.access import get_tool_ui
from hostcompat.apps.modes import Mode, select_tool_mode
from hostcompat.cli._command import Command, no_arguments
from hostcompat.wire_json import WireJSON


@dataclass(frozen=True)
class ClientKind:
    """One kind of client: a label and the capabilities it sends at `initialize`."""

    label: str
    capabilities: WireJSON


CLIENT_KINDS: tuple[ClientKind, ...] = (
    ClientKind("MCP Apps host", {"extensions": {EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}}}),
    ClientKind(
        "near miss (MIME with a space)", {"extensions": {EXTENSION_ID: {"mimeTypes": ["text/html; profile=mcp-app"]}}}
    ),
    ClientKind("old draft MIME (text/html+mcp)", {"extensions": {EXTENSION_ID: {"mimeTypes": ["text/html+mcp"]}}}),
    ClientKind("text-only host", {}),
)


@dataclass(frozen=True)
class DemoRow:
    """What one client kind got from one tool."""

    tool: str
    client: str
    predicted: Mode
    observed: Mode

    @property
    def agrees(self) -> bool:
        """Whether the real tool call matched the predicted mode."""
        return self.predicted is self.observed


def _observed_mode(result: Any, has_ui: bool, capable: bool) -> Mode:
    embedded = any(getattr(block, "type", None) == "resource" for block in result.content)
    if embedded:
        return Mode.EMBEDDED_FALLBACK
    return Mode.CAPABILITY if has_ui and capable else Mode.NONE


async def collect_rows() -> list[DemoRow]:
    """Run the example server once per client kind and record predicted and observed modes."""
    from mcp.client import Client, advertise

    from hostcompat.apps.capabilities.access import client_ui_capable
    from hostcompat.examples.board import build_server

    rows: list[DemoRow] = []
    server = build_server()
    for kind in CLIENT_KINDS:
        extensions = [advertise(key, value) for key, value in kind.capabilities.get("extensions", {}).items()]
        async with Client(server, extensions=extensions, mode="legacy") as client:
            caps = kind.capabilities
            capable = client_ui_capable(caps)
            listing = await client.list_tools()
            for tool in listing.tools:
                wire = tool.model_dump(by_alias=True, exclude_none=True)
                ui = get_tool_ui(wire)
                predicted = select_tool_mode(caps, ui)
                result = await client.call_tool(tool.name, {})
                observed = _observed_mode(result, has_ui=ui is not None and bool(ui.resource_uri), capable=capable)
                rows.append(DemoRow(tool.name, kind.label, predicted, observed))
    return rows


def render(rows: list[DemoRow], out: TextIO) -> None:
    """Print the rows as a plain table, one line per tool and client kind."""
    width_tool = max(len("tool"), *(len(row.tool) for row in rows))
    width_client = max(len("client"), *(len(row.client) for row in rows))
    out.write(f"{'tool':<{width_tool}}  {'client':<{width_client}}  mode\n")
    for row in rows:
        mark = "" if row.agrees else f"  (MISMATCH: the call returned {row.observed})"
        out.write(f"{row.tool:<{width_tool}}  {row.client:<{width_client}}  {row.predicted}{mark}\n")
    out.write("\nWhy the near misses get no UI:\n")
    for kind in CLIENT_KINDS[1:3]:
        for diagnosis in diagnose_ui_capability(kind.capabilities):
            out.write(f"  {kind.label}: [{diagnosis.code}] {diagnosis.message}\n")


def run_demo(out: TextIO) -> int:
    """Run the demo and print it; exit code 1 if any call disagreed with its predicted mode."""
    import anyio

    rows = anyio.run(collect_rows)
    render(rows, out)
    return 0 if all(row.agrees for row in rows) else 1


def _run(args: argparse.Namespace) -> int:
    return run_demo(sys.stdout)


COMMAND = Command(
    name="demo",
    help="run the built-in example MCP App server against every kind of client and print each tool's mode",
    add_arguments=no_arguments,
    run=_run,
)


__all__ = ["CLIENT_KINDS", "COMMAND", "ClientKind", "DemoRow", "collect_rows", "render", "run_demo"]
