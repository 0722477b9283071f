"""What the apps-lane findings tell the author to do, where it depends on the need or on the host fact at stake.

One place for these texts, so each names something the author can act on: the ext-apps API to check, the `_meta.ui`
key to change, or the catalog fact to record in their own file (`hostcompat check --catalog FILE`).
"""

from __future__ import annotations

import functools
from typing import Final

from hostcompat.engine.catalog.model import HostProfile
from hostcompat.engine.scan.needs import APP_GUARD_KEYS

OVERRIDE_HELP: Final = "hostcompat check --catalog FILE (the README's 'Your own host facts' shows the file format)"
"""Where a fix sends the author to record a host fact."""

_HOST_CAPABILITY: Final = APP_GUARD_KEYS
"""Widget need → the field of the ext-apps `McpUiHostCapabilities` (`app.getHostCapabilities()`) that announces it."""

_CSP_FIXES: Final = {
    "cspConnectDomains": (
        "connectDomains",
        "fetch that data through a server tool (app.callServerTool) where the origin is not approved",
    ),
    "cspResourceDomains": (
        "resourceDomains",
        "bundle the scripts, styles and images into the HTML (or data: URLs) where the origin is not approved",
    ),
    "cspFrameDomains": ("frameDomains", "open the page with app.openLink instead of framing it"),
    "cspBaseUriDomains": ("baseUriDomains", "use absolute URLs instead of a <base> element"),
}
"""CSP need → (its `_meta.ui.csp` key, what to do where the host does not approve the origins)."""


@functools.lru_cache(maxsize=256)
def capability_fix(need: str, level: str) -> str:
    """The fix for a widget that uses `need` unguarded on a host whose support for it is `level` (one text per
    need and level, asked for by many hosts).
    """
    if need == "mcpUiActions":
        return (
            "Inject a host adapter into the page (@mcp-ui/server createUIResource adapters: mcpApps, appsSdk) so its "
            "actions become MCP Apps requests or window.openai calls, or use the ext-apps App API."
        )
    if need == "openaiApps":
        return "Use the MCP Apps bridge (ext-apps App) instead of window.openai, or feature-detect window.openai."
    verb = "lacks" if level == "unsupported" else "only partly supports"
    if need in _CSP_FIXES:
        key, fallback = _CSP_FIXES[need]
        return (
            f"Read the origins the host approved from app.getHostCapabilities().sandbox.csp.{key} and {fallback}; "
            f"the host {verb} _meta.ui.csp.{key}."
        )
    if need in _HOST_CAPABILITY:
        return (
            f"Check app.getHostCapabilities().{_HOST_CAPABILITY[need]} before using it and offer a fallback where the "
            f"host {verb} it (the tool's text result, or a link the user can follow), or do without it."
        )
    return f"Offer a fallback where the host {verb} {need} (check the host context first), or do without it."


GUARDED_FIX: Final = (
    "Nothing to change if the fallback the widget takes when the check fails is useful on its own; try it once with "
    "the capability missing."
)
"""The fix for a call the widget already guards with a host-capability check (APPS-CAP-003)."""


def record_fact_fix(host: HostProfile, path: str, what: str) -> str:
    """The fix for an unknown host fact: try `what` on the host, then record the fact in the author's own catalog
    (made once per host, fact and `what`, kept in `host.memo`).
    """
    key = ("record-fact-fix", path, what)
    found = host.memo.get(key)
    if isinstance(found, str):
        return found
    host.memo[key] = text = (
        f"Try {what} on {host.display_name}, then record what you see as the fact {path} of host '{host.id}' "
        f"(supported, partial or unsupported, with your source and date) in your own catalog file, read with "
        f"{OVERRIDE_HELP}."
    )
    return text


__all__ = ["GUARDED_FIX", "OVERRIDE_HELP", "capability_fix", "record_fact_fix"]
