"""The choices a probe offers: which protocol era to speak, which client extensions to advertise, who to claim to be,
and the protocol version it asks for in a handshake.

Kept apart from `capture` so reading them never imports the SDK.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, TypeAlias

from hostcompat._version import __version__
from hostcompat.wire_json import WireJSON

Era: TypeAlias = Literal["auto", "legacy", "modern"]
"""`legacy`: the `initialize` handshake; `modern`: 2026-07-28 `server/discover`; `auto`: discover, else handshake."""

ERAS: Final[tuple[Era, ...]] = ("auto", "legacy", "modern")

MCP_APPS: Final = "mcp-apps"
"""Advertise the MCP Apps UI extension (`io.modelcontextprotocol/ui` with the MCP App MIME type)."""

Advertise: TypeAlias = Literal["mcp-apps"] | Mapping[str, WireJSON] | None
"""`"mcp-apps"`, `None` (no extension at all), or a host's extensions: identifier to settings."""

PROBE_HANDSHAKE_VERSION: Final = "2025-11-25"
"""The protocol version the probe asks for in an `initialize` handshake (the `mcp` SDK client's offer, its newest
handshake version). A snapshot records the version its probe asked for (`Snapshot.requested_protocol_version`); one
taken before it did was taken by a probe that asked for this one."""

DEFAULT_CLIENT_INFO: Final[Mapping[str, str]] = {"name": "hostcompat-probe", "version": __version__}
"""The `clientInfo` a probe sends unless told to claim another client's name."""

__all__ = [
    "Advertise",
    "DEFAULT_CLIENT_INFO",
    "ERAS",
    "Era",
    "MCP_APPS",
    "PROBE_HANDSHAKE_VERSION",
]
