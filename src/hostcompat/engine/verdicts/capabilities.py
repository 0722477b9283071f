"""The capability half of the apps lane: does the host offer the host APIs a widget uses, permission by permission.

MCPJam's capability rules over the catalog's `ui.mcpApps.features.*` and `ui.mcpApps.sandboxPermissionAllow` facts,
with hostcompat's differences (see `hostcompat.engine.verdicts.evaluate`): an unknown fact is unknown, a guarded call is
info, partial support is degraded with the fact's note, and needs beyond MCPJam's nine are checked only where the
catalog has a fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hostcompat.engine.catalog.model import Fact
from hostcompat.engine.findings.fixes import GUARDED_FIX, capability_fix, record_fact_fix
from hostcompat.engine.findings.model import Severity
from hostcompat.engine.findings.rules import finding_for
from hostcompat.engine.server.digest import ServerDigest
from hostcompat.engine.server.facts import WIDGET_NEEDS, WidgetUsage
from hostcompat.engine.verdicts.model import (
    MAX_EVIDENCE,
    LaneBuilder,
    cut_text,
    fact_evidence,
    fact_fields,
    name_list,
    note_suffix,
)
from hostcompat.engine.verdicts.needs import (
    EXTRA_NEEDS,
    LEGACY_FORMAT,
    MCP_APPS_FORMAT,
    NEED_FACTS,
    NEED_ORDER,
    OPENAI_FORMAT,
)
from hostcompat.engine.verdicts.observed import observed_evidence

PERMISSION_ALLOW: Final = "ui.mcpApps.sandboxPermissionAllow"

NEED_LABELS: Final = {
    "serverTools": "Calling server tools from the widget",
    "serverResources": "Reading server resources from the widget",
    "message": "Sending chat messages (ui/message)",
    "updateModelContext": "Updating the model context",
    "openLinks": "Opening links",
    "downloadFile": "Downloading files",
    "logging": "Logging from the widget",
    "sandboxPermissions": "Sandbox permissions",
    "cspFrameDomains": "Framing other origins (csp.frameDomains)",
    "cspBaseUriDomains": "Declared base-uri origins (csp.baseUriDomains)",
    "cspConnectDomains": "Connecting to declared origins (csp.connectDomains)",
    "cspResourceDomains": "Loading from declared origins (csp.resourceDomains)",
    "requestDisplayMode": "Changing the display mode",
    "sizeChanged": "Resizing the widget (size-changed)",
    "appTools": "Tools served by the app",
    "sampling": "Sampling from the widget",
    "requestTeardown": "Closing the widget (request-teardown)",
    "openaiApps": "The OpenAI Apps SDK runtime (window.openai)",
    "mcpUiActions": "Legacy mcp-ui actions with no adapter in the page (postMessage {type, payload})",
}
PERMISSION_LABELS: Final = {
    "camera": "Camera",
    "microphone": "Microphone",
    "geolocation": "Location",
    "clipboardWrite": "Clipboard",
}

_ALWAYS_EVALUATED: Final = frozenset((*WIDGET_NEEDS, "mcpUiActions"))
_INFO_NEEDS: Final = frozenset({"logging"})


def evaluate_capabilities(server: ServerDigest, lane: LaneBuilder, renderable: frozenset[str]) -> None:
    """Add the capability findings of `lane.host` for the widget tools it renders (`renderable`) to `lane`."""
    usage = server.requirements.widget_usage
    if usage is None or not renderable:
        return
    for use, tools in server.rendered_uses(renderable):
        need = use.need
        if need == "sandboxPermissions" and usage.sandbox_permission_names is not None:
            _permission_findings(server, lane, usage, renderable)
            continue
        if tools:
            _capability_findings(server, lane, need, tools, use.guarded)


def _capability_findings(
    server: ServerDigest, lane: LaneBuilder, need: str, tools: Sequence[str], guarded: frozenset[str]
) -> None:
    path = NEED_FACTS[need]
    if need not in _ALWAYS_EVALUATED and path not in lane.host.facts:
        return  # beyond MCPJam's nine, only what the catalog states is checked
    level, fact = lane.level(path)
    if level == "supported":
        return
    if guarded:
        open_tools = [tool for tool in tools if tool not in guarded]
        guarded_tools = [tool for tool in tools if tool in guarded]
    else:
        open_tools, guarded_tools = list(tools), []
    label, host = NEED_LABELS.get(need, need), lane.host.display_name
    if level in ("unsupported", "partial"):
        how = "does not offer it" if level == "unsupported" else "offers it only partly"
        severity = Severity.INFO if need in _INFO_NEEDS else Severity.DEGRADED
        state = "unavailable" if level == "unsupported" else "only partly supported"
        if open_tools:
            detail = f"{label}: widget tool(s) {name_list(open_tools)} use it and {host} {how}."
            _add(
                server,
                lane,
                "APPS-CAP-001",
                f"{label}: {state} on this host",
                detail,
                need,
                open_tools,
                fact,
                severity=severity,
                remediation=capability_fix(need, level),
            )
        if guarded_tools:
            detail = f"{label}: widget tool(s) {name_list(guarded_tools)} check for it first, and {host} {how}."
            _add(
                server,
                lane,
                "APPS-CAP-003",
                f"{label}: {state}; the widget checks first",
                detail,
                need,
                guarded_tools,
                fact,
                guarded=True,
                remediation=GUARDED_FIX,
            )
        return
    if open_tools and need not in _INFO_NEEDS:
        lane.unknown_because(f"whether {host} supports {need}")
    detail = f"{label}: widget tool(s) {name_list(tools)} use it and the catalog does not say whether {host} does."
    _add(
        server,
        lane,
        "APPS-CAP-002",
        f"{label}: support on this host unknown",
        detail,
        need,
        tools,
        fact,
        guarded=not open_tools,
        remediation=record_fact_fix(lane.host, path, "the widget"),
    )


def _permission_findings(
    server: ServerDigest, lane: LaneBuilder, usage: WidgetUsage, renderable: frozenset[str]
) -> None:
    """MCPJam's exact permission check: every requested permission the host does not allow, by name."""
    names = usage.sandbox_permission_names or ()
    feature_path = NEED_FACTS["sandboxPermissions"]
    feature_level, feature = lane.level(feature_path)
    allow = lane.fact(PERMISSION_ALLOW)
    if feature_level == "unsupported":
        denied, fact = list(names), feature
    elif allow is not None:
        allowed = allow.value if isinstance(allow.value, tuple) else ()
        denied, fact = [name for name in names if name not in allowed], allow
    else:
        tools = [tool for tool in usage.tools_for("sandboxPermissions") if tool in renderable]
        if tools:  # a widget that requests no permission needs none, whatever the host allows
            _capability_findings(server, lane, "sandboxPermissions", tools, frozenset())
        return
    holders = [usage.sandbox_permission_tools.get(name) or usage.tools_for("sandboxPermissions") for name in denied]
    tools = [tool for tool in dict.fromkeys(t for group in holders for t in group) if tool in renderable]
    if not denied or not tools:
        return
    labels = [PERMISSION_LABELS.get(name, name) for name in denied]
    title = f"{' / '.join(labels)} access unavailable on this host"
    detail = (
        f"Widget tool(s) {name_list(tools)} request the sandbox permission(s) {name_list(denied)}, which "
        f"{lane.host.display_name} does not grant."
    )
    _add(
        server,
        lane,
        "APPS-CAP-001",
        title,
        detail,
        "sandboxPermissions",
        tools,
        fact,
        remediation="Make the widget work without these permissions, or feature-detect them before use.",
        path=PERMISSION_ALLOW if fact is allow else feature_path,
    )


def _add(
    server: ServerDigest,
    lane: LaneBuilder,
    rule_id: str,
    title: str,
    detail: str,
    need: str,
    tools: Sequence[str],
    fact: Fact | None,
    *,
    severity: Severity | None = None,
    remediation: str | None = None,
    guarded: bool = False,
    path: str | None = None,
) -> None:
    evidence = [server.use_evidence(tool, need, guarded=guarded) for tool in tools[:MAX_EVIDENCE]]
    if server.observed:
        evidence.extend(observed_evidence(server, lane.host.id, lane.host.display_name, tools, need)[:MAX_EVIDENCE])
    evidence.append(fact_evidence(lane.host, path or NEED_FACTS[need], fact))
    lane.findings.append(
        finding_for(
            rule_id,
            title=cut_text(title),
            detail=cut_text(f"{detail}{note_suffix(fact)}"),
            severity=severity,
            remediation=remediation,
            tools=tools,
            evidence=evidence,
            **fact_fields(fact),
        )
    )


__all__ = [
    "EXTRA_NEEDS",
    "LEGACY_FORMAT",
    "MCP_APPS_FORMAT",
    "NEED_FACTS",
    "NEED_LABELS",
    "NEED_ORDER",
    "OPENAI_FORMAT",
    "PERMISSION_ALLOW",
    "PERMISSION_LABELS",
    "evaluate_capabilities",
]
