"""Capture what a live MCP server says into a versioned snapshot, robust against hostile servers.

`capture` / `capture_many` (module `live`) talk to servers through the official `mcp` client; they are imported
lazily, so reading, writing and checking snapshots offline never pays for importing the SDK. Which tools a probe
calls to capture their results is a `CallPlan` (module `calls`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.probe.calls import DEFAULT_CALLS as DEFAULT_CALLS
    from hostcompat.probe.calls import NO_CALLS as NO_CALLS
    from hostcompat.probe.calls import CallOutcome as CallOutcome
    from hostcompat.probe.calls import CallPlan as CallPlan
    from hostcompat.probe.calls import CallRecord as CallRecord
    from hostcompat.probe.calls import ExplicitCall as ExplicitCall
    from hostcompat.probe.events import COVERAGES as COVERAGES
    from hostcompat.probe.events import DIMENSIONS as DIMENSIONS
    from hostcompat.probe.events import UNKNOWN_COVERAGES as UNKNOWN_COVERAGES
    from hostcompat.probe.events import Coverage as Coverage
    from hostcompat.probe.events import Dimension as Dimension
    from hostcompat.probe.events import ProbeEvent as ProbeEvent
    from hostcompat.probe.events import Severity as Severity
    from hostcompat.probe.events import Step as Step
    from hostcompat.probe.events import timeout_code as timeout_code
    from hostcompat.probe.limits import DEFAULT_LIMITS as DEFAULT_LIMITS
    from hostcompat.probe.limits import Limits as Limits
    from hostcompat.probe.live import capture as capture
    from hostcompat.probe.live import capture_many as capture_many
    from hostcompat.probe.options import DEFAULT_CLIENT_INFO as DEFAULT_CLIENT_INFO
    from hostcompat.probe.options import MCP_APPS as MCP_APPS
    from hostcompat.probe.options import PROBE_HANDSHAKE_VERSION as PROBE_HANDSHAKE_VERSION
    from hostcompat.probe.options import Advertise as Advertise
    from hostcompat.probe.options import Era as Era
    from hostcompat.probe.snapshot import SCHEMA_VERSION as SCHEMA_VERSION
    from hostcompat.probe.snapshot import Snapshot as Snapshot
    from hostcompat.probe.snapshot import UIResourceCapture as UIResourceCapture
    from hostcompat.probe.snapshot import read_snapshot as read_snapshot
    from hostcompat.probe.snapshot import snapshot_from_json as snapshot_from_json
    from hostcompat.probe.snapshot import snapshot_to_json as snapshot_to_json
    from hostcompat.probe.snapshot import write_snapshot as write_snapshot
    from hostcompat.probe.target import HttpTarget as HttpTarget
    from hostcompat.probe.target import SseTarget as SseTarget
    from hostcompat.probe.target import StdioTarget as StdioTarget
    from hostcompat.probe.target import Target as Target
    from hostcompat.probe.target import TransportTarget as TransportTarget
    from hostcompat.probe.target import describe_target as describe_target
    from hostcompat.probe.target import parse_target as parse_target
    from hostcompat.probe.ui_refs import ui_references as ui_references

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.probe.live": ["capture", "capture_many"],
        "hostcompat.probe.snapshot": [
            "SCHEMA_VERSION",
            "Snapshot",
            "UIResourceCapture",
            "read_snapshot",
            "snapshot_from_json",
            "snapshot_to_json",
            "write_snapshot",
        ],
        "hostcompat.probe.calls": [
            "CallOutcome",
            "CallPlan",
            "CallRecord",
            "DEFAULT_CALLS",
            "ExplicitCall",
            "NO_CALLS",
        ],
        "hostcompat.probe.events": [
            "COVERAGES",
            "Coverage",
            "DIMENSIONS",
            "Dimension",
            "ProbeEvent",
            "Severity",
            "Step",
            "UNKNOWN_COVERAGES",
            "timeout_code",
        ],
        "hostcompat.probe.limits": ["DEFAULT_LIMITS", "Limits"],
        "hostcompat.probe.options": ["Advertise", "DEFAULT_CLIENT_INFO", "Era", "MCP_APPS", "PROBE_HANDSHAKE_VERSION"],
        "hostcompat.probe.target": [
            "HttpTarget",
            "SseTarget",
            "StdioTarget",
            "Target",
            "TransportTarget",
            "describe_target",
            "parse_target",
        ],
        "hostcompat.probe.ui_refs": ["ui_references"],
    },
)

__all__ = [
    "Advertise",
    "COVERAGES",
    "CallOutcome",
    "CallPlan",
    "CallRecord",
    "Coverage",
    "DEFAULT_CALLS",
    "DEFAULT_CLIENT_INFO",
    "DEFAULT_LIMITS",
    "DIMENSIONS",
    "Dimension",
    "Era",
    "ExplicitCall",
    "HttpTarget",
    "Limits",
    "MCP_APPS",
    "NO_CALLS",
    "PROBE_HANDSHAKE_VERSION",
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
