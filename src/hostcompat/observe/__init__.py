"""Observed evidence: each widget run in headless Chromium under a test host that speaks a catalog host's bridge.

`observe_snapshot(snapshot, hosts)` runs every widget of a snapshot under each host (each distinct bridge once)
and returns `engine.observed.ObservedRun` values for `engine.evaluate_all_hosts(..., observed=...)`. Needs
Playwright for Python and a system Chromium (`browser_status()` says what is missing); nothing is downloaded.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hostcompat.observe.browser import BrowserUnavailable as BrowserUnavailable
    from hostcompat.observe.browser import browser_status as browser_status
    from hostcompat.observe.host_profile import EmulatedHost as EmulatedHost
    from hostcompat.observe.host_profile import emulate_host as emulate_host
    from hostcompat.observe.runner import RunLimits as RunLimits
    from hostcompat.observe.session import Observation as Observation
    from hostcompat.observe.session import observe_snapshot as observe_snapshot

_EXPORTS = {
    "BrowserUnavailable": "hostcompat.observe.browser",
    "browser_status": "hostcompat.observe.browser",
    "EmulatedHost": "hostcompat.observe.host_profile",
    "emulate_host": "hostcompat.observe.host_profile",
    "RunLimits": "hostcompat.observe.runner",
    "Observation": "hostcompat.observe.session",
    "observe_snapshot": "hostcompat.observe.session",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hostcompat.observe' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "BrowserUnavailable",
    "EmulatedHost",
    "Observation",
    "RunLimits",
    "browser_status",
    "emulate_host",
    "observe_snapshot",
]
