"""The real SDK clients the era tests drive: a handshake-era one (offering 2025-11-25, named as Codex names itself)
and a 2026-07-28 one, each started against `hostcompat proxy` (or a server directly) over stdio.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from mcp import Client
from mcp.client import ClientRequestContext
from mcp.client.stdio import StdioServerParameters
from mcp_types import (
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequestParams,
    ElicitResult,
    Implementation,
    TextContent,
)

MODERN_SERVER = [sys.executable, str(Path(__file__).with_name("modern_server.py"))]
PROXY = [sys.executable, "-m", "hostcompat.cli.proxy"]
CODEX = Implementation(name="codex-mcp-client", version="0.148.0")


async def sampling(context: ClientRequestContext, params: CreateMessageRequestParams) -> CreateMessageResult:
    """The client's model: answers 42 to the last message."""
    return CreateMessageResult(role="assistant", content=TextContent(type="text", text="42"), model="test-model")


async def elicitation(context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
    """The client's user: gives the name Ada."""
    return ElicitResult(action="accept", content={"name": "Ada"})


def through_proxy(server: Sequence[str], *options: str) -> list[str]:
    """The command line of `hostcompat proxy` in front of `server`."""
    return [*PROXY, *options, "--", *server]


@asynccontextmanager
async def connect(command: Sequence[str], mode: str, client_info: Implementation = CODEX) -> AsyncIterator[Client]:
    """An SDK client, in `mode` (`legacy`: the 2025-11-25 handshake; `auto`: server/discover first; a 2026 version:
    stateless at once), on the stdio of `command`.
    """
    params = StdioServerParameters(command=command[0], args=list(command[1:]), env=dict(os.environ))
    client = Client(
        params, mode=mode, client_info=client_info, sampling_callback=sampling, elicitation_callback=elicitation
    )
    async with client:
        yield client
