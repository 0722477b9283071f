"""Which content item of a captured `ui://` resource is the widget's code, and how much code it holds.

Shared by the widget stage (`widget_analysis`) and the scans a `check` starts ahead of it (`cli._scan_ahead`), which
must pick the same items; kept apart so that picking them loads nothing of the checker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from hostcompat.probe.snapshot import Snapshot
    from hostcompat.wire_json import WireJSON

DEFAULT_WIDGET_SECONDS: Final = 60.0
"""How long the analysis of one server's widgets may take in all, unless told otherwise (`--timeout`)."""
DEFAULT_WIDGET_CHARS: Final = 64 * 1024 * 1024
"""How many characters of widget code one server's check reads in all (four widgets of the probe's 16 MiB)."""


def widget_item(snapshot: Snapshot, uri: str) -> WireJSON | None:
    """The content item of the widget at `uri` that a scan reads (the one naming `uri`, else the first); None when
    the probe did not read it whole.
    """
    capture = snapshot.ui_resources.get(uri)
    if capture is None or capture.error is not None or capture.truncated:
        return None
    items = [item for item in capture.contents if item.get("uri") == uri] or list(capture.contents[:1])
    return items[0] if items else None


def widget_chars(item: WireJSON | None) -> int:
    """How many characters of code scanning `item` reads (a blob counts what it decodes to)."""
    text, blob = (None, None) if item is None else (item.get("text"), item.get("blob"))
    if isinstance(text, str):
        return len(text)
    return len(blob) * 3 // 4 if isinstance(blob, str) else 0


__all__ = ["DEFAULT_WIDGET_CHARS", "DEFAULT_WIDGET_SECONDS", "widget_chars", "widget_item"]
