"""Which protocol era a peer speaks, decided from raw bytes and raw JSON, without the SDK.

The stdio proxy reads its client's opening line before it picks a relay: a handshake-era client goes to the byte
relay (which only calls on the gateway if the server refuses the handshake), a 2026-07-28 client to the gateway.
This module stays free of the `mcp` SDK and pydantic, so the byte relay keeps its fast start; the constants below
are the SDK's own values (a test holds them equal).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Literal, TypeAlias

import anyio

from hostcompat.wire_json import WireJSON

Era: TypeAlias = Literal["legacy", "modern"]
"""A protocol era: `legacy` (the `initialize` handshake, up to 2025-11-25) or `modern` (2026-07-28, stateless)."""

PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion"
"""The `_meta` key of the 2026-07-28 per-request envelope that names the protocol version."""

MODERN_VERSIONS = ("2026-07-28",)
"""The stateless protocol versions the gateway speaks."""

UNSUPPORTED_PROTOCOL_VERSION = -32022
METHOD_NOT_FOUND = -32601

READ_CHUNK = 65_536


def front_era(method: str, params: WireJSON | None) -> Era:
    """The era a client speaks, from its first request: `initialize` is legacy; `server/discover` or a request
    carrying the 2026-07-28 envelope is modern; anything else is taken as legacy (a client that skipped the handshake).
    """
    if method == "initialize":
        return "legacy"
    meta = params.get("_meta") if isinstance(params, Mapping) else None
    if method == "server/discover" or (isinstance(meta, Mapping) and PROTOCOL_VERSION_META_KEY in meta):
        return "modern"
    return "legacy"


def refuses_handshake(error: WireJSON) -> bool:
    """Whether an error answering `initialize` says the server speaks only the modern era: -32022 (unsupported
    protocol version), -32601 (no `initialize` method), or `data.supported` listing only modern versions.
    """
    if error.get("code") in (UNSUPPORTED_PROTOCOL_VERSION, METHOD_NOT_FOUND):
        return True
    data = error.get("data")
    supported = data.get("supported") if isinstance(data, Mapping) else None
    return isinstance(supported, list) and bool(supported) and all(v in MODERN_VERSIONS for v in supported)


def sniff_front(opening: bytes) -> Era:
    """The era of a client from the bytes it sent first (its first non-blank line); legacy when they are no
    JSON-RPC request (the relay then answers them as it always does).
    """
    for line in opening.splitlines():
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            return "legacy"
        if not isinstance(message, dict) or not isinstance(message.get("method"), str):
            return "legacy"
        params = message.get("params")
        return front_era(message["method"], params if isinstance(params, dict) else None)
    return "legacy"


async def read_opening(fd: int, max_bytes: int) -> bytes:
    """What the client sends first on the pipe `fd`: bytes up to and including its first non-blank line (and
    whatever came with them in the same reads); fewer at its end of input, at most about `max_bytes`.
    """
    data = b""
    while len(data) <= max_bytes:
        await anyio.wait_readable(fd)
        try:
            chunk = os.read(fd, READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            continue
        if not chunk:
            break
        data += chunk
        if b"\n" in data and data.rpartition(b"\n")[0].strip():
            break
    return data


__all__ = [
    "Era",
    "METHOD_NOT_FOUND",
    "MODERN_VERSIONS",
    "PROTOCOL_VERSION_META_KEY",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "front_era",
    "read_opening",
    "refuses_handshake",
    "sniff_front",
]
