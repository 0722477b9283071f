"""Shared by the observed-run tests: the browser gate (skip with a message outside CI when Chromium or Playwright is
missing; fail under CI=true) and the captured widget corpus as snapshots (skip or fail the same way when missing).

The snapshot builders themselves live in `testkit.snapshots`, which the observe benchmark uses too."""

from __future__ import annotations

import os

import pytest

from hostcompat.observe.browser import browser_status
from hostcompat.probe.snapshot import Snapshot
from testkit import snapshots
from testkit.snapshots import make_snapshot, widget_tool

__all__ = ["corpus_snapshot", "make_snapshot", "require_browser", "widget_tool"]


def require_browser() -> None:
    """Skip (outside CI) or fail (CI=true) when observed runs cannot work here."""
    problem = browser_status()
    if problem is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"observed runs need a browser in CI: {problem}")
    pytest.skip(f"no browser for observed runs: {problem}")


def corpus_snapshot(package: str) -> Snapshot:
    """The captured corpus entry of an npm example server (`server-basic-react`, …) as a snapshot."""
    path = snapshots.corpus_path(package)
    if not path.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"the widget corpus is missing {path.name} (scripts/capture_widgets.py)")
        pytest.skip(f"the widget corpus has no {path.name} (run scripts/capture_widgets.py)")
    return snapshots.corpus_snapshot(package)
