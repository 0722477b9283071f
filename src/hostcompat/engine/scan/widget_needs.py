"""What a scanned widget needs of a host once its legacy mcp-ui actions are attributed to the bridge that carries them.

An mcp-ui page posts `{type: "tool", payload}` actions; what they mean depends on the adapter injected into the page.
@mcp-ui/server's MCP Apps adapter turns them into `ui/*` and `tools/call` requests (MCP Apps needs); its Apps SDK
adapter turns them into `window.openai` calls (the same needs, served by the OpenAI runtime); with no adapter only a
host that renders legacy mcp-ui resources answers them (`mcpUiActions`).
"""

from __future__ import annotations

from typing import Final

from hostcompat.engine.scan.model import WidgetScan

MCP_UI_VIA: Final = "mcp-ui"
"""The `via` of a need the scanner found in a legacy mcp-ui action."""


def attributed_needs(scan: WidgetScan) -> tuple[tuple[str, bool], ...]:
    """Every counting (need, guarded) use of `scan`, legacy mcp-ui actions attributed to their bridge, in order."""
    adapters = {sdk.how for sdk in scan.sdks if sdk.name == "mcp-ui-adapter"}
    uses: list[tuple[str, bool]] = []
    for finding in scan.findings:
        if not finding.counts:
            continue
        guarded = finding.kind == "guarded-call"
        if finding.via != MCP_UI_VIA or "mcp-apps" in adapters:
            uses.append((finding.need, guarded))
        elif "apps-sdk" in adapters:
            uses.extend(((finding.need, guarded), ("openaiApps", guarded)))
        else:
            uses.append(("mcpUiActions", guarded))
    return tuple(dict.fromkeys(uses))


__all__ = ["MCP_UI_VIA", "attributed_needs"]
