"""The behavioural rules of observed runs (`OBS-…`): what a widget did when it ran under an emulated host.

Plain rows like `rule_table.RULE_ROWS`; the registry in `finding_rules` holds both. The ext-apps validator's
harness has behavioural rules of its own (APP-100…106, an open pull request); each row names the topic it shares.
"""

from __future__ import annotations

from typing import Final

from hostcompat.engine.findings.rule_table import RuleRow

_SPEC: Final = "MCP Apps specification 2026-01-26 (ext-apps specification/2026-01-26/apps.mdx)"
_RUN: Final = "hostcompat observed run (hostcompat.observe, a headless browser under an emulated host)"
_VALIDATOR: Final = "ext-apps mcp-app-validator behavioural harness (APP-100…106, open pull request)"

OBSERVED_RULE_ROWS: Final[tuple[RuleRow, ...]] = (
    (
        "OBS-RUN-001",
        "What the widget was seen to do",
        "info",
        "apps",
        "The widget ran in a headless browser under this host's emulated bridge: how long, how it ended, the bridge "
        "methods it sent and what the host refused.",
        _RUN,
    ),
    (
        "OBS-INIT-001",
        "Widget never sent ui/initialize",
        "degraded",
        "apps",
        "The view must open the bridge with ui/initialize; a view that never does gets no host context, tool input "
        "or result. Also the validator's handshake check.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "OBS-INIT-002",
        "Widget never sent ui/notifications/initialized",
        "degraded",
        "apps",
        "After the ui/initialize answer the view must send ui/notifications/initialized; the host sends nothing "
        "(tool input and result included) before it.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "OBS-JSONRPC-001",
        "Widget sent a message that is not JSON-RPC 2.0",
        "degraded",
        "apps",
        "Every bridge message must be a JSON-RPC 2.0 request, notification or response; hosts reject the rest.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "OBS-SIZE-001",
        "Widget never reported its size",
        "info",
        "apps",
        "A host with a flexible container height follows ui/notifications/size-changed; a view that never sends it "
        "keeps the host's default height.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "OBS-APPTOOLS-001",
        "Widget declares app tools but does not answer tools/list",
        "degraded",
        "apps",
        "A view whose appCapabilities declare tools must answer the host's tools/list.",
        f"{_SPEC} (draft: app-provided tools); {_VALIDATOR}",
    ),
    (
        "OBS-MODE-001",
        "Widget requested a display mode it did not declare or the host does not offer",
        "degraded",
        "apps",
        "A view may request only display modes it lists in appCapabilities.availableDisplayModes and the host lists "
        "in hostContext.availableDisplayModes; other requests leave it in its current mode.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "OBS-VIS-001",
        "Widget called a model-only tool",
        "degraded",
        "apps",
        "A tool whose _meta.ui.visibility is ['model'] is not for the view; hosts that enforce visibility refuse the "
        "call (some do not, so the server must not rely on it).",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "OBS-REFUSE-001",
        "Widget failed after the host refused a request",
        "degraded",
        "apps",
        "When the host refuses a request (a capability it does not offer), the view must go on: an uncaught error "
        "right after the refusal means the user sees a broken widget on this host.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "OBS-RENDER-001",
        "Widget painted nothing",
        "degraded",
        "apps",
        "Within the run's time limit the widget's frame stayed identical to a blank frame.",
        f"{_RUN}; {_VALIDATOR}",
    ),
    (
        "OBS-HOSTILE-001",
        "Widget was stopped",
        "degraded",
        "apps",
        "The run had to be stopped: the widget hung past its time limit, crashed its renderer (out of memory) or "
        "flooded the host with messages.",
        _RUN,
    ),
    (
        "OBS-NET-001",
        "Widget reached for an origin it did not declare",
        "info",
        "apps",
        "The widget requested (or navigated to) an origin its _meta.ui.csp does not declare; hosts block it.",
        f"{_SPEC} (security: CSP)",
    ),
)

__all__ = ["OBSERVED_RULE_ROWS"]
