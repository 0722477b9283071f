"""Capture what a live MCP server says into a versioned snapshot, robust against hostile servers.

`capture` / `capture_many` (module `live`) talk to servers through the official `mcp` client; they are imported
lazily, so reading, writing and checking snapshots offline never pays for importing the SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hostcompat.probe.events import (
    COVERAGES,
    DIMENSIONS,
    UNKNOWN_COVERAGES,
    Coverage,
    Dimension,
    ProbeEvent,
    Severity,
    Step,
    timeout_code,
)
from hostcompat.probe.limits import DEFAULT_LIMITS, Limits
from hostcompat.probe.options import DEFAULT_CLIENT_INFO, MCP_APPS, Advertise, Era
from hostcompat.probe.snapshot import (
    SCHEMA_VERSION,
    Snapshot,
    UIResourceCapture,
    read_snapshot,
    snapshot_from_json,
    snapshot_to_json,
    write_snapshot,
)
from hostcompat.probe.target import (
    HttpTarget,
    SseTarget,
    StdioTarget,
    Target,
    TransportTarget,
    describe_target,
    parse_target,
)
from hostcompat.probe.ui_refs import ui_references

if TYPE_CHECKING:
    from hostcompat.probe.live import capture, capture_many

_LAZY = frozenset({"capture", "capture_many"})


def __getattr__(name: str) -> Any:
    """Import `capture` and `capture_many` (and with them the SDK) on first use."""
    if name in _LAZY:
        from hostcompat.probe import live

        return getattr(live, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Advertise",
    "COVERAGES",
    "Coverage",
    "DEFAULT_CLIENT_INFO",
    "DEFAULT_LIMITS",
    "DIMENSIONS",
    "Dimension",
    "Era",
    "HttpTarget",
    "Limits",
    "MCP_APPS",
    "ProbeEvent",
    "SCHEMA_VERSION",
    "Severity",
    "Snapshot",
    "SseTarget",
    "StdioTarget",
    "Step",
    "Target",
    "TransportTarget",
    "UIResourceCapture",
    "UNKNOWN_COVERAGES",
    "capture",
    "capture_many",
    "describe_target",
    "parse_target",
    "read_snapshot",
    "snapshot_from_json",
    "snapshot_to_json",
    "timeout_code",
    "ui_references",
    "write_snapshot",
]
