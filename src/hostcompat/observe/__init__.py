"""Observed evidence: each widget run in headless Chromium under a test host that speaks a catalog host's bridge.

`observe_snapshot(snapshot, hosts)` runs every widget of a snapshot under each host (each distinct bridge once)
and returns `engine.observed.ObservedRun` values for `engine.evaluate_all_hosts(..., observed=...)`. Needs
Playwright for Python and a system Chromium (`browser_status()` says what is missing); nothing is downloaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.observe.browser import BrowserUnavailable as BrowserUnavailable
    from hostcompat.observe.browser import browser_status as browser_status
    from hostcompat.observe.host_profile import EmulatedHost as EmulatedHost
    from hostcompat.observe.host_profile import emulate_host as emulate_host
    from hostcompat.observe.runner import RunLimits as RunLimits
    from hostcompat.observe.session import Observation as Observation
    from hostcompat.observe.session import observe_snapshot as observe_snapshot

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.observe.browser": ["BrowserUnavailable", "browser_status"],
        "hostcompat.observe.host_profile": ["EmulatedHost", "emulate_host"],
        "hostcompat.observe.runner": ["RunLimits"],
        "hostcompat.observe.session": ["Observation", "observe_snapshot"],
    },
)

__all__ = [
    "BrowserUnavailable",
    "EmulatedHost",
    "Observation",
    "RunLimits",
    "browser_status",
    "emulate_host",
    "observe_snapshot",
]
