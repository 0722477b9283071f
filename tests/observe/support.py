"""Shared by the observed-run tests: snapshots from the captured widget corpus and from hand-made pages, and the
browser gate (skip with a message outside CI when Chromium or Playwright is missing; fail under CI=true)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import pytest

from hostcompat.apps.constants import RESOURCE_MIME_TYPE
from hostcompat.observe.browser import browser_status
from hostcompat.probe.events import DIMENSIONS
from hostcompat.probe.limits import Limits
from hostcompat.probe.snapshot import Snapshot, UIResourceCapture

ROOT: Final = Path(__file__).resolve().parents[2]
CORPUS: Final = ROOT / "interop" / "corpus"


def require_browser() -> None:
    """Skip (outside CI) or fail (CI=true) when observed runs cannot work here."""
    problem = browser_status()
    if problem is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"observed runs need a browser in CI: {problem}")
    pytest.skip(f"no browser for observed runs: {problem}")


def make_snapshot(
    tools: Sequence[Mapping[str, Any]],
    pages: Mapping[str, str | Mapping[str, Any]],
    resources: Sequence[Mapping[str, Any]] = (),
) -> Snapshot:
    """A snapshot of `tools` whose `ui://` resources are `pages` (HTML text, or a whole content item)."""
    captures = {}
    for uri, page in pages.items():
        item = dict(page) if isinstance(page, Mapping) else {"uri": uri, "mimeType": RESOURCE_MIME_TYPE, "text": page}
        captures[uri] = UIResourceCapture(uri=uri, contents=(item,), referenced_by=("tool",))
    return Snapshot(
        target={"kind": "test"},
        captured_at="2026-12-01T00:00:00Z",
        client={},
        connection={"era": "handshake", "protocolVersion": "2025-11-25"},
        initialize={"serverInfo": {"name": "test", "version": "1"}, "capabilities": {"tools": {}}},
        tools=tuple(tools),
        resources=tuple(resources),
        resource_templates=(),
        prompts=(),
        ui_resources=captures,
        limits=Limits(),
        coverage=dict.fromkeys(DIMENSIONS, "complete"),
    )


def corpus_snapshot(package: str) -> Snapshot:
    """The captured corpus entry of an npm example server (`server-basic-react`, …) as a snapshot."""
    path = CORPUS / f"modelcontextprotocol__{package}.json"
    if not path.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"the widget corpus is missing {path.name} (scripts/capture_widgets.py)")
        pytest.skip(f"the widget corpus has no {path.name} (run scripts/capture_widgets.py)")
    data = json.loads(path.read_text(encoding="utf-8"))
    pages = {uri: entry["contents"][0] for uri, entry in data["uiResources"].items() if entry.get("contents")}
    return make_snapshot(data["tools"], pages, data.get("resources", ()))


def widget_tool(name: str, uri: str, **extra: Any) -> dict[str, Any]:
    """A tool showing the widget `uri`."""
    return {"name": name, "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": uri}}, **extra}
