"""The capability half of the apps lane: does the host offer the host APIs a widget uses, permission by permission.

MCPJam's capability rules over the catalog's `ui.mcpApps.features.*` and `ui.mcpApps.sandboxPermissionAllow` facts,
with hostcompat's differences (see `hostcompat.engine.verdicts.evaluate`): an unknown fact is unknown, a guarded call is
info, partial support is degraded with the fact's note, and needs beyond MCPJam's nine are checked only where the
catalog has a fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hostcompat.engine.catalog.model import Fact, HostProfile
from hostcompat.engine.findings.fixes import GUARDED_FIX, capability_fix, record_fact_fix
from hostcompat.engine.findings.model import Finding, Severity
from hostcompat.engine.findings.rules import RuleInfo, finding_for, rule_info
from hostcompat.engine.server.digest import ServerDigest
from hostcompat.engine.server.facts import WIDGET_NEEDS, WidgetUsage
from hostcompat.engine.verdicts.model import (
    MAX_EVIDENCE,
    HostAt,
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
    levels = _need_levels(lane.host)
    for use, tools in server.rendered_uses(renderable):
        need = use.need
        if need == "sandboxPermissions" and usage.sandbox_permission_names is not None:
            _permission_findings(server, lane, usage, renderable)
            continue
        if tools:
            checked = levels[need]
            if checked is not None:
                level, fact = checked
                if fact is not None:
                    lane.facts.append(fact)
                if level != "supported":
                    _capability_findings(server, lane, need, tools, use.guarded, level, fact)


def _need_levels(host: HostProfile) -> dict[str, tuple[str, Fact | None] | None]:
    """Need → the host's level for it and the fact that says so, None for a need not checked on this host (beyond
    MCPJam's nine, only what the catalog states is checked); worked out once per host (kept in `host.memo`).
    """
    found = host.memo.get("need-levels")
    if isinstance(found, dict):
        return found
    levels: dict[str, tuple[str, Fact | None] | None] = {}
    for need, path in NEED_FACTS.items():
        fact = host.facts.get(path)
        evaluated = need in _ALWAYS_EVALUATED or fact is not None
        levels[need] = ("unknown" if fact is None else str(fact.value), fact) if evaluated else None
    host.memo["need-levels"] = levels
    return levels


def _capability_findings(
    server: ServerDigest,
    lane: LaneBuilder,
    need: str,
    tools: Sequence[str],
    guarded: frozenset[str],
    level: str,
    fact: Fact | None,
) -> None:
    """The findings of a need the host does not fully support (`level`, from `fact`) on the widget `tools`."""
    if guarded:
        open_tools = [tool for tool in tools if tool not in guarded]
        guarded_tools = [tool for tool in tools if tool in guarded]
    else:
        open_tools, guarded_tools = list(tools), []
    if level in ("unsupported", "partial"):
        info = need in _INFO_NEEDS or (fact is not None and fact.info_only)  # an info-only fact is never a verdict
        severity = Severity.INFO if info else Severity.DEGRADED
        if open_tools:
            _add(server, lane, _CAP_OPEN, need, tuple(open_tools), fact, level, severity=severity)
        if guarded_tools:
            _add(server, lane, _CAP_GUARDED, need, tuple(guarded_tools), fact, level, guarded=True)
        return
    if open_tools and need not in _INFO_NEEDS:
        lane.unknown_because(f"whether {lane.host.display_name} supports {need}")
    _add(server, lane, _CAP_UNKNOWN, need, tuple(tools), fact, level, guarded=not open_tools)


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
        if tools and feature_level != "supported":  # a widget that requests no permission needs none
            _capability_findings(server, lane, "sandboxPermissions", tools, frozenset(), feature_level, feature)
        return
    holders = [usage.sandbox_permission_tools.get(name) or usage.tools_for("sandboxPermissions") for name in denied]
    tools = [tool for tool in dict.fromkeys(t for group in holders for t in group) if tool in renderable]
    if not denied or not tools:
        return
    path = PERMISSION_ALLOW if fact is allow else feature_path
    tools_named = tuple(tools)
    lane.add(
        _CAP_OPEN, None, tools_named, _write_permission_finding, server, lane.at, tuple(denied), tools_named, fact, path
    )


def _write_permission_finding(
    server: ServerDigest,
    at: HostAt,
    denied: tuple[str, ...],
    tools: tuple[str, ...],
    fact: Fact | None,
    path: str,
) -> Finding:
    labels = [PERMISSION_LABELS.get(name, name) for name in denied]
    title = f"{' / '.join(labels)} access unavailable on this host"
    detail = (
        f"Widget tool(s) {name_list(tools)} request the sandbox permission(s) {name_list(denied)}, which "
        f"{at.host.display_name} does not grant."
    )
    return _write(
        server,
        at,
        _CAP_OPEN,
        title,
        detail,
        "sandboxPermissions",
        tools,
        fact,
        remediation="Make the widget work without these permissions, or feature-detect them before use.",
        path=path,
    )


def _add(
    server: ServerDigest,
    lane: LaneBuilder,
    rule: RuleInfo,
    need: str,
    tools: tuple[str, ...],
    fact: Fact | None,
    level: str,
    *,
    severity: Severity | None = None,
    guarded: bool = False,
) -> None:
    """Decide a capability finding of `rule` (APPS-CAP-001, -002 or -003) for `need` on `tools`."""
    at = lane.at
    lane.add(
        rule, severity, tools, _write_capability_finding, server, at, rule, need, tools, fact, level, severity, guarded
    )


def _write_capability_finding(
    server: ServerDigest,
    at: HostAt,
    rule: RuleInfo,
    need: str,
    tools: tuple[str, ...],
    fact: Fact | None,
    level: str,
    severity: Severity | None,
    guarded: bool,
) -> Finding:
    label, host = NEED_LABELS.get(need, need), at.host.display_name
    if rule is _CAP_UNKNOWN:
        detail = f"{label}: widget tool(s) {name_list(tools)} use it and the catalog does not say whether {host} does."
        title = f"{label}: support on this host unknown"
        remediation = record_fact_fix(at.host, NEED_FACTS[need], "the widget")
    else:
        how = "does not offer it" if level == "unsupported" else "offers it only partly"
        state = "unavailable" if level == "unsupported" else "only partly supported"
        if rule is _CAP_OPEN:
            detail = f"{label}: widget tool(s) {name_list(tools)} use it and {host} {how}."
            title = f"{label}: {state} on this host"
            remediation = capability_fix(need, level)
        else:
            detail = f"{label}: widget tool(s) {name_list(tools)} check for it first, and {host} {how}."
            title = f"{label}: {state}; the widget checks first"
            remediation = GUARDED_FIX
    return _write(
        server,
        at,
        rule,
        title,
        detail,
        need,
        tools,
        fact,
        severity=severity,
        remediation=remediation,
        guarded=guarded,
    )


def _write(
    server: ServerDigest,
    at: HostAt,
    rule: RuleInfo,
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
) -> Finding:
    evidence = [server.use_evidence(tool, need, guarded=guarded) for tool in tools[:MAX_EVIDENCE]]
    if server.observed:
        evidence.extend(observed_evidence(server, at.host.id, at.host.display_name, tools, need)[:MAX_EVIDENCE])
    evidence.append(fact_evidence(at.host, path or NEED_FACTS[need], fact))
    return finding_for(
        rule.rule_id,
        title=cut_text(title),
        detail=cut_text(f"{detail}{note_suffix(fact)}"),
        severity=severity,
        remediation=remediation,
        tools=tools,
        evidence=evidence,
        **fact_fields(fact),
    )


_CAP_OPEN: Final = rule_info("APPS-CAP-001")
_CAP_UNKNOWN: Final = rule_info("APPS-CAP-002")
_CAP_GUARDED: Final = rule_info("APPS-CAP-003")


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
