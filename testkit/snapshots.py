"""Snapshots for observed runs: built from hand-made pages, or read from the captured widget corpus.

The corpus (`interop/corpus`, written by `scripts/capture_widgets.py`) holds what the npm example servers really
serve; `corpus_snapshot` turns one package's entry into a `Snapshot` the observer can run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from hostcompat.apps.constants import RESOURCE_MIME_TYPE
from hostcompat.probe.events import DIMENSIONS
from hostcompat.probe.limits import Limits
from hostcompat.probe.snapshot import Snapshot, UIResourceCapture

ROOT: Final = Path(__file__).resolve().parents[1]
CORPUS: Final = ROOT / "interop" / "corpus"


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


def corpus_path(package: str) -> Path:
    """Where the captured corpus entry of an npm example server (`server-basic-react`, …) is."""
    return CORPUS / f"modelcontextprotocol__{package}.json"


def corpus_snapshot(package: str) -> Snapshot:
    """The captured corpus entry of an npm example server as a snapshot (`FileNotFoundError` when not captured)."""
    data = json.loads(corpus_path(package).read_text(encoding="utf-8"))
    pages = {uri: entry["contents"][0] for uri, entry in data["uiResources"].items() if entry.get("contents")}
    return make_snapshot(data["tools"], pages, data.get("resources", ()))


def widget_tool(name: str, uri: str, **extra: Any) -> dict[str, Any]:
    """A tool showing the widget `uri`."""
    return {"name": name, "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": uri}}, **extra}
