"""The apps lane of one host: does it render each widget tool, then (for what it renders) the capability checks.

MCPJam's render rules over the catalog's `ui.formats.*` facts, with hostcompat's deliberate differences (see
`hostcompat.engine.verdicts.evaluate`): an unknown format fact is unknown, partial rendering is degraded with the
fact's note, and a tool the host cannot (or may not) render gets no capability findings there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.engine.catalog.model import Fact, HostProfile
from hostcompat.engine.findings.fixes import record_fact_fix
from hostcompat.engine.findings.model import Finding, Severity
from hostcompat.engine.findings.rules import finding_for, rule_info
from hostcompat.engine.server.digest import BRIDGE_NAMES, RENDER_RULE_LEVELS, RenderShape, ServerDigest
from hostcompat.engine.server.tool_meta import Bridge
from hostcompat.engine.verdicts.capabilities import evaluate_capabilities
from hostcompat.engine.verdicts.model import (
    HostAt,
    LaneBuilder,
    ToolSet,
    cut_text,
    fact_evidence,
    fact_fields,
    note_suffix,
    weakest_fact,
    weakest_of,
)
from hostcompat.engine.verdicts.needs import LEGACY_FORMAT, MCP_APPS_FORMAT, OPENAI_FORMAT
from hostcompat.engine.verdicts.observed import evaluate_observed

_RANK: Final = {"unsupported": 0, "unknown": 1, "partial": 2, "supported": 3}
_LEVEL_OF_RANK: Final = {rank: level for level, rank in _RANK.items()}
_RENDERS: Final = frozenset({"supported", "partial"})
_BRIDGE_FORMATS: Final = {
    Bridge.MCP_APPS: (MCP_APPS_FORMAT,),
    Bridge.OPENAI_SDK: (OPENAI_FORMAT,),
    Bridge.DUAL: (MCP_APPS_FORMAT, OPENAI_FORMAT),
}
APP_ONLY_HIDDEN_FACT: Final = "server.features.appOnlyToolsHidden"
_RENDER_RULES: Final = tuple(
    rule_info(rule_id) for rule_id in ("APPS-RENDER-001", "APPS-RENDER-002", "APPS-RENDER-003", "APPS-RENDER-004")
)


def evaluate_apps_lane(server: ServerDigest, lane: LaneBuilder) -> None:
    """Add the apps-lane findings of `lane.host` for `server` to `lane` (MCPJam: only when there are widgets)."""
    requirements = server.requirements
    for dimension in requirements.unknown_dimensions:
        lane.unknown_because(dimension)
    if requirements.has_widgets:
        renderable = _render_findings(server, lane)
        evaluate_capabilities(server, lane, renderable)
        if server.observed:
            evaluate_observed(server, lane, renderable)


# ---- rendering --------------------------------------------------------------------------------------------------


def _render_findings(server: ServerDigest, lane: LaneBuilder) -> frozenset[str]:
    """One finding per render rule over every bridge; returns the widget tools the host renders at all."""
    plan = _render_plan(lane.host, server.render_shape)
    lane.facts.extend(plan.consulted)
    if plan.all_supported:
        return server.widget_tool_names
    for reason in plan.unknown:
        lane.unknown_because(reason)
    at = lane.at
    for order, parts, bridges, severity, facts in plan.findings:
        selected = server.render_selections[order, bridges]
        lane.add(
            _RENDER_RULES[order],
            severity,
            selected.tools,
            _write_render_finding,
            at,
            order,
            parts,
            selected,
            facts,
            severity,
        )
    return server.rendered_tools(plan.rendered)


_RenderPart = tuple[Bridge, tuple[tuple[str, Fact | None], ...]]


@dataclass(frozen=True)
class _RenderPlan:
    """What a host's render verdict is for servers of one render shape: the facts it consults, whether it renders
    every bridge, why it stays unknown, each render finding (rule order, bridges and their facts, severity) and the
    bridges it renders.
    """

    consulted: tuple[Fact, ...]
    """The weakest of the facts it consults (only it counts for the lane's provenance)."""
    all_supported: bool
    unknown: tuple[str, ...]
    findings: tuple[
        tuple[int, tuple[_RenderPart, ...], tuple[Bridge, ...], Severity | None, dict[str, Fact | None]], ...
    ]
    rendered: tuple[Bridge, ...]


def _render_plan(host: HostProfile, shape: RenderShape) -> _RenderPlan:
    """The host's `_RenderPlan` for `shape`, worked out once per host and shape (kept in `host.memo`): it reads
    only the host's facts and which render rules have tools on which bridge.
    """
    key = ("render-plan", shape)
    found = host.memo.get(key)
    if isinstance(found, _RenderPlan):
        return found
    scratch = LaneBuilder(host)
    support = {bridge: _bridge_support(scratch, bridge) for bridge, _ in shape}
    has = dict(shape)
    findings = []
    all_supported = all(level == "supported" for level, _ in support.values())
    if not all_supported:
        for order, wanted in enumerate(RENDER_RULE_LEVELS):
            parts = tuple(
                (bridge, facts) for bridge, (level, facts) in support.items() if level == wanted and has[bridge][order]
            )
            if parts:
                facts = dict(item for _, bridge_facts in parts for item in bridge_facts)
                if order == 2:
                    for bridge, _ in parts:
                        scratch.unknown_because(f"whether {host.display_name} renders {BRIDGE_NAMES[bridge]} widgets")
                severity = _render_severity(scratch, order, facts.values())
                findings.append((order, parts, tuple(bridge for bridge, _ in parts), severity, facts))
    rendered = tuple(bridge for bridge, (level, _) in support.items() if level in _RENDERS)
    plan = _RenderPlan(weakest_of(scratch.facts), all_supported, tuple(scratch.unknown), tuple(findings), rendered)
    host.memo[key] = plan
    return plan


def _bridge_support(lane: LaneBuilder, bridge: Bridge) -> tuple[str, tuple[tuple[str, Fact | None], ...]]:
    """The best level at which the host renders `bridge`, and the format facts that level rests on."""
    paths = _BRIDGE_FORMATS[bridge]
    if len(paths) == 1:
        level, fact = lane.level(paths[0])
        return (level if level in _RANK else "unknown"), ((paths[0], fact),)
    found = [(path, *lane.level(path)) for path in paths]
    best = max(_RANK.get(level, 1) for _, level, _ in found)
    level = _LEVEL_OF_RANK[best]
    return level, tuple((path, fact) for path, found_level, fact in found if _RANK.get(found_level, 1) == best)


_RENDER_TEXT: Final = (
    "{host} does not render these app-only widget tools' format, so no widget there calls them: {parts}.",
    "{host} does not render these widgets and shows only the tools' text content: {parts}.",
    "The catalog does not say whether {host} renders these widgets: {parts}.",
    "{host} renders these widgets only partly: {parts}.",
)


def _write_render_finding(
    at: HostAt,
    order: int,
    parts: Sequence[_RenderPart],
    selected: ToolSet,
    facts: dict[str, Fact | None],
    severity: Severity | None,
) -> Finding:
    host = at.host
    fact = weakest_fact(facts.values())
    evidence = (*selected.evidence, *(fact_evidence(host, path, found) for path, found in facts.items()))
    steps = dict.fromkeys(step for bridge, _ in parts for step in _render_remediation(at, bridge, order))
    return finding_for(
        _RENDER_RULES[order].rule_id,
        severity=severity,
        detail=cut_text(
            _RENDER_TEXT[order].format(host=host.display_name, parts=selected.text)
            + _render_qualifier(at, order, facts.values())
            + note_suffix(fact)
        ),
        remediation=cut_text(" ".join(steps)) if steps else None,
        tools=selected.tools,
        evidence=evidence,
        **fact_fields(fact),
    )


def _render_severity(lane: LaneBuilder, order: int, facts: Iterable[Fact | None]) -> Severity | None:
    """Partial rendering (APPS-RENDER-004) says what is missing only in its note, which no data of this server can
    fire: it is information unless a fact has a trigger. App-only tools (APPS-RENDER-001) harm only where the host
    lists them to the model, i.e. does not hide app-only tools.
    """
    if order == 3 and not any(fact is not None and fact.trigger and not fact.info_only for fact in facts):
        return Severity.INFO
    if order == 0:
        hidden = lane.fact(APP_ONLY_HIDDEN_FACT)
        if hidden is not None and hidden.value == "supported":
            return Severity.INFO
    return None


def _render_qualifier(at: HostAt, order: int, facts: Iterable[Fact | None]) -> str:
    """What the detail adds to say why the render finding has its severity (see `_render_severity`)."""
    if order == 3 and not any(fact is not None and fact.trigger and not fact.info_only for fact in facts):
        return " What the partial support leaves out decides it: check the widget on this host."
    if order == 0:
        host = at.host.display_name
        hidden = at.host.facts.get(APP_ONLY_HIDDEN_FACT)
        if hidden is not None and hidden.value == "supported":
            return f" {host} hides app-only tools from the model, so they go unused and nothing breaks."
        if hidden is None:
            return (
                f" The catalog does not say whether {host} hides app-only tools; a host without MCP Apps does not "
                "read visibility, so it likely lists them to the model as ordinary tools, with only their text result."
            )
        return f" {host} lists app-only tools to the model as ordinary tools, which answer with text only."
    return ""


def _render_remediation(at: HostAt, bridge: Bridge, order: int) -> list[str]:
    if order == 2:
        return [record_fact_fix(at.host, " or ".join(_BRIDGE_FORMATS[bridge]), "the widget")]
    if order == 3:
        return ["Check the widget on this host; keep its text content useful on its own."]
    facts = at.host.facts
    steps: list[str] = []
    if order == 0:
        steps.append(
            "Keep _meta.ui.visibility ['app']: hosts that render MCP Apps hide these tools from the model. Hosts "
            "without widgets do not read visibility and may list them to the model, so give each a description and "
            "a text result that make sense if a model calls it, or leave app-only tools out of tools/list for "
            "sessions that did not negotiate io.modelcontextprotocol/ui."
        )
    if bridge is Bridge.MCP_APPS and _renders(facts.get(OPENAI_FORMAT)):
        steps.append("Declare an OpenAI Apps SDK template (openai/outputTemplate) alongside the MCP Apps one.")
    elif bridge is Bridge.OPENAI_SDK and _renders(facts.get(MCP_APPS_FORMAT)):
        steps.append("Declare an MCP Apps template (_meta.ui.resourceUri) alongside the OpenAI one.")
    elif _renders(facts.get(LEGACY_FORMAT)):
        steps.append(
            "This host renders legacy mcp-ui resources: return the widget as an embedded ui:// resource in the "
            "tool result (hostcompat.apps embedded fallback)."
        )
    elif order == 1:
        steps.append("Make the tools' text content carry everything the user needs.")
    return steps


def _renders(fact: Fact | None) -> bool:
    return fact is not None and fact.value in _RENDERS


# ---- capabilities -----------------------------------------------------------------------------------------------


__all__ = ["evaluate_apps_lane"]
