"""Servers the page tests check: the MCP project's example MCP App servers from npm (`interop/node_modules`, as
`.ci/run` installs them), probed once per session, and a server whose result Codex mishandles, which hostcompat's
client rules fix (a `withProxy` verdict).

Without node or the npm installs the examples skip, except under `CI=true`, where they fail.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from hostcompat.probe.calls import CallRecord
from testkit.snapshots import make_snapshot

REPO = Path(__file__).resolve().parents[2]
NPM = REPO / "interop" / "node_modules" / "@modelcontextprotocol"
EXAMPLES = ("server-basic-vanillajs", "server-budget-allocator", "server-system-monitor", "server-scenario-modeler")
"""Example servers with widgets that start quickly over stdio."""


def example_snapshots() -> dict[str, dict[str, Any]]:
    """Each example server's snapshot, by package name (probed at once, a few seconds in all)."""
    missing = [name for name in EXAMPLES if not (NPM / name / "dist" / "index.js").is_file()]
    problem = "node is not on PATH" if shutil.which("node") is None else None
    problem = problem or (f"interop/node_modules lacks {', '.join(missing)} (run .ci/run)" if missing else None)
    if problem is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the page tests need the npm example servers: {problem}")
        pytest.skip(f"no npm example servers: {problem}")
    import anyio

    from hostcompat.probe import StdioTarget, capture_many

    targets = [
        StdioTarget("node", (str(NPM / name / "dist" / "index.js"), "--stdio"), cwd=str(REPO)) for name in EXAMPLES
    ]
    snapshots = anyio.run(lambda: capture_many(targets))
    out = {}
    for name, snapshot in zip(EXAMPLES, snapshots, strict=True):
        assert snapshot.tools and snapshot.ui_resources, (name, [event.message for event in snapshot.events])
        out[name] = snapshot.to_dict()
    return out


CODEX_BREAKS = {
    "content": [
        {"type": "text", "text": "Issue #42", "annotations": {"audience": ["user"], "priority": 0.6}},
        {"type": "resource_link", "uri": "file:///notes.md", "name": "notes"},
    ]
}
"""A result Codex mishandles (a fractional priority, a resource link) and its client rules rewrite."""


def proxied_snapshot() -> dict[str, Any]:
    """A server whose captured result Codex mishandles: with `hostcompat proxy` in front, Codex works."""
    tool = {"name": "read_notes", "inputSchema": {"type": "object"}}
    call = CallRecord(tool="read_notes", arguments={}, reason="auto", outcome="ok", result=CODEX_BREAKS)
    snapshot = dataclasses.replace(make_snapshot([tool], {}), calls=(call,)).to_dict()
    snapshot["initialize"]["serverInfo"] = {"name": "notes", "version": "1.0.0"}
    return snapshot
