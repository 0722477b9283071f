"""The widget needs the apps lane evaluates, in its order, and the host fact that answers each.

Shared by the capability checks and the server digest (which lists, once per server, the needs its widgets have in
this order), so it imports nothing of the verdicts themselves.
"""

from __future__ import annotations

from typing import Final

from hostcompat.engine.server.facts import WIDGET_NEEDS

MCP_APPS_FORMAT: Final = "ui.formats.mcp-apps"
OPENAI_FORMAT: Final = "ui.formats.openai-apps-sdk"
LEGACY_FORMAT: Final = "ui.formats.mcp-ui-legacy"

EXTRA_NEEDS: Final = (
    "cspBaseUriDomains",
    "cspConnectDomains",
    "cspResourceDomains",
    "requestDisplayMode",
    "sizeChanged",
    "appTools",
    "sampling",
    "requestTeardown",
)
"""Needs beyond MCPJam's nine that a catalog feature answers (host→view features such as toolInput are no needs)."""

NEED_FACTS: Final = {
    **{need: f"ui.mcpApps.features.{need}" for need in (*WIDGET_NEEDS, *EXTRA_NEEDS)},
    "openaiApps": OPENAI_FORMAT,
    "mcpUiActions": LEGACY_FORMAT,
}
"""Widget need → the host fact that says whether the host offers it. Needs without an entry are not evaluated."""

NEED_ORDER: Final = tuple(NEED_FACTS)
"""MCPJam's nine needs in its order, then the other needs a catalog feature answers, then the OpenAI runtime."""

__all__ = ["EXTRA_NEEDS", "LEGACY_FORMAT", "MCP_APPS_FORMAT", "NEED_FACTS", "NEED_ORDER", "OPENAI_FORMAT"]
