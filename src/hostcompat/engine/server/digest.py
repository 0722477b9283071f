"""What every host's verdict reads of one server, computed once: the `ServerDigest`.

`evaluate_all_hosts` judges one server on some forty hosts. Everything a lane derives from the server alone (the
widget tools by bridge, the tools each render rule selects, the needs the widgets use, every trigger's outcome,
the tools using each schema construct) is computed here once, before any host is looked at, so a host costs only
its own checks. The digest is host-independent: it never reads the catalog. `digest_server` builds it from what
`evaluate_all_hosts` receives; `digest_requirements` from requirements derived already.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from itertools import combinations
from types import MappingProxyType
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.engine.findings.make import make_evidence
from hostcompat.engine.findings.model import Evidence, Finding, Lane, cut_snippet, cut_text
from hostcompat.engine.server.facts import ConnectionFacts, WidgetUsage
from hostcompat.engine.server.lazy_map import LazyMapping
from hostcompat.engine.server.observed import ObservedRun
from hostcompat.engine.server.requirements import (
    UNKNOWN_TOOLS_OVER_LIMIT,
    UNKNOWN_TOOLS_TRUNCATED,
    ServerRequirements,
    ServerTools,
    read_server_tools,
)
from hostcompat.engine.server.surface import ServerSurface, describe_server_surface
from hostcompat.engine.server.tool_meta import Bridge, ToolInspection, ToolList
from hostcompat.engine.server.tool_set import MAX_EVIDENCE, ToolSet, name_list
from hostcompat.engine.verdicts.needs import NEED_ORDER
from hostcompat.engine.verdicts.triggers import EVALUATED_TRIGGERS, TriggerOutcome, evaluate_trigger
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireJSON, WireValue

BRIDGE_NAMES: Final = {
    Bridge.MCP_APPS: "MCP Apps",
    Bridge.OPENAI_SDK: "OpenAI Apps SDK",
    Bridge.DUAL: "MCP Apps or OpenAI Apps SDK",
}
"""Each widget bridge in words, in the order the apps lane reports bridges."""

RENDER_RULE_LEVELS: Final = ("unsupported", "unsupported", "unknown", "partial")
"""For each render rule, in order (app-only blocked, text fallback, unknown, partial): the host's support level
for a bridge at which that rule selects the bridge's widget tools."""

RenderGroups = tuple[
    tuple[ToolInspection, ...], tuple[ToolInspection, ...], tuple[ToolInspection, ...], tuple[ToolInspection, ...]
]
"""One bridge's widget tools per render rule, in rule order: app-only, not app-only, all, all."""

RenderShape = tuple[tuple[Bridge, tuple[bool, ...]], ...]
"""Each bridge the widget tools declare, in report order, with whether it has tools for each render rule."""


@dataclass(frozen=True, kw_only=True)
class NeedUse:
    """One widget need the server's widgets have: the tools that use it and those that check for it first."""

    need: str
    tools: tuple[str, ...]
    guarded: frozenset[str]


@dataclass(frozen=True, kw_only=True)
class ServerDigest:
    """One server as every host's verdict reads it; built once (`digest_server`), shared by every host.

    `tool_findings` are the requirements' per-tool findings moved to the server lane; `tools_complete` is False
    when the tool list was not loaded, was truncated or was over the limit. `tool_list` and `inspections` (each
    entry's `_meta` read) are what the requirements were derived from, None and empty when the digest was made
    from requirements alone (`digest_requirements`).
    """

    requirements: ServerRequirements
    surface: ServerSurface
    observed: tuple[ObservedRun, ...] = ()
    """What the widgets were seen to do in a browser, per judged host (`hostcompat.observe`); empty: not run."""
    tool_list: ToolList | None = None
    inspections: tuple[ToolInspection, ...] = ()
    widget_uris: Mapping[str, str] = field(hash=False)
    tool_findings: tuple[Finding, ...]
    tools_complete: bool
    widget_tool_names: frozenset[str]
    """Every tool that declares a widget."""
    render_groups: Mapping[Bridge, RenderGroups] = field(hash=False)
    """The bridges the widget tools declare, in report order, with their tools per render rule."""
    render_selections: Mapping[tuple[int, tuple[Bridge, ...]], ToolSet] = field(hash=False)
    """(render rule, bridges) → the tools that rule selects over those bridges, for every combination a host can
    ask for (each bridge with tools for that rule); each worked out when first read, its evidence and text when a
    finding is written."""
    need_uses: tuple[NeedUse, ...]
    """The needs the widget usage has, in the apps lane's order (empty without widget usage)."""
    trigger_outcomes: Mapping[str, TriggerOutcome] = field(hash=False)
    """Every trigger the engine evaluates → its outcome on this server (each worked out when first read)."""
    schema_uses: Mapping[str, ToolSet] = field(hash=False)
    """Input-schema construct → the tools whose schema uses it (their evidence worked out when first read)."""
    bridge_tool_names: Mapping[Bridge, frozenset[str]] = field(hash=False)
    """Each bridge of `render_groups` → the names of its widget tools."""
    _use_evidence: dict[tuple[str, str, bool], Evidence] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    _long_names: dict[tuple[str, int], ToolSet] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    _names_outside: dict[str, ToolSet] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)
    _rendered_uses: dict[frozenset[str], tuple[tuple[NeedUse, tuple[str, ...]], ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    _rendered_tools: dict[tuple[Bridge, ...], frozenset[str]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    _outcomes: dict[str, TriggerOutcome] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    # The six caches above are filled when a host first asks: what is asked depends on the host's facts (which
    # tools it renders, its name limit, its charset), and computing every case up front, or each host's case
    # again for every host, measured slower on large servers.
    render_shape: RenderShape = field(init=False, repr=False, compare=False, hash=False)
    """Each bridge of `render_groups` with whether it has tools for each render rule: all a host's render
    verdict reads of the server, so hosts keep what they work out from it (`hostcompat.engine.verdicts.apps`)."""

    longest_name: int = field(init=False, repr=False, compare=False, hash=False)
    """The length of the longest tool name (0 without tools): most hosts' name limits are above it."""

    def __post_init__(self) -> None:
        shape = tuple((bridge, tuple(bool(group) for group in groups)) for bridge, groups in self.render_groups.items())
        object.__setattr__(self, "render_shape", shape)
        object.__setattr__(self, "longest_name", max(map(len, self.requirements.tool_names), default=0))

    def use_evidence(self, tool: str, need: str, *, guarded: bool) -> Evidence:
        """Evidence that `tool`'s widget uses `need` (behind a host-capability check when `guarded`)."""
        key = (tool, need, guarded)
        found = self._use_evidence.get(key)
        if found is None:
            how = " behind a host-capability check" if guarded else ""
            source = f"widget:{cut_snippet(self.widget_uris.get(tool, tool))}"
            found = self._use_evidence[key] = Evidence(source, detail=f"{cut_snippet(tool)} uses {need}{how}")
        return found

    def rendered_uses(self, renderable: frozenset[str]) -> tuple[tuple[NeedUse, tuple[str, ...]], ...]:
        """Each of `need_uses` with those of its tools in `renderable` (the widget tools a host renders); hosts
        render the same sets, so each set is worked out once.
        """
        found = self._rendered_uses.get(renderable)
        if found is None:
            found = tuple((use, tuple(tool for tool in use.tools if tool in renderable)) for use in self.need_uses)
            self._rendered_uses[renderable] = found
        return found

    def rendered_tools(self, bridges: tuple[Bridge, ...]) -> frozenset[str]:
        """The widget tools of `bridges` (those a host renders)."""
        found = self._rendered_tools.get(bridges)
        if found is None:
            names = [self.bridge_tool_names[bridge] for bridge in bridges]
            found = self._rendered_tools[bridges] = names[0] if len(names) == 1 else frozenset().union(*names)
        return found

    def trigger_outcome(self, trigger: str) -> TriggerOutcome:
        """The outcome of `trigger` on this server."""
        found = self._outcomes.get(trigger)
        if found is None:
            found = self.trigger_outcomes.get(trigger)
            if found is None:
                return evaluate_trigger(trigger, self.surface, self.requirements.widget_usage, self.widget_tool_names)
            self._outcomes[trigger] = found
        return found

    def long_names(self, counted: str, limit: int) -> ToolSet:
        """The tools whose name, written into `counted` (a template over {tool}), is longer than `limit`."""
        if self.longest_name + len(counted) - len("{tool}") <= limit:
            return _NO_TOOLS
        found = self._long_names.get((counted, limit))
        if found is None:
            found = self._long_names[counted, limit] = self._find_long_names(counted, limit)
        return found

    def names_outside(self, pattern: re.Pattern[str]) -> ToolSet:
        """The tools whose name `pattern` does not match in full, each with the characters it does not allow."""
        found = self._names_outside.get(pattern.pattern)
        if found is None:
            found = self._names_outside[pattern.pattern] = self._find_names_outside(pattern)
        return found

    def _find_long_names(self, counted: str, limit: int) -> ToolSet:
        extra = len(counted) - len("{tool}")
        over = tuple(name for name in self.requirements.tool_names if len(name) + extra > limit)
        return ToolSet.deferred(over, functools.partial(_long_name_evidence, over[:MAX_EVIDENCE], counted))

    def _find_names_outside(self, pattern: re.Pattern[str]) -> ToolSet:
        bad = tuple(name for name in self.requirements.tool_names if pattern.fullmatch(name) is None)
        return ToolSet.deferred(bad, functools.partial(_charset_evidence, bad[:MAX_EVIDENCE], pattern))


def _long_name_evidence(names: tuple[str, ...], counted: str) -> list[Evidence]:
    """Evidence of each of `names` as the host counts it (`counted`, a template over {tool})."""
    forms = [counted.replace("{tool}", name) for name in names]
    return [
        Evidence(f"tools/list:{cut_snippet(name)}", detail=f"{len(form)} characters as counted", snippet=form)
        for name, form in zip(names, forms, strict=True)
    ]


def _charset_evidence(names: tuple[str, ...], pattern: re.Pattern[str]) -> list[Evidence]:
    """Evidence of each of `names` with the characters `pattern` does not allow."""
    return [
        Evidence(f"tools/list:{cut_snippet(name)}", detail="name", snippet=_offending(name, pattern)) for name in names
    ]


_NO_TOOLS: Final = ToolSet.of((), ())


def digest_server(
    tools: Sequence[WireValue] | None,
    *,
    widget_usage: WidgetUsage | WireJSON | None = None,
    connection_facts: ConnectionFacts | WireJSON | None = None,
    tools_truncated: bool = False,
    call_results: Mapping[str, WireJSON] | None = None,
    tools_metadata: WireJSON | None = None,
    observed: Iterable[ObservedRun] = (),
) -> ServerDigest:
    """The digest of a server from its tools list and what was captured of it (the server-side arguments of
    `evaluate_all_hosts`, with the same meaning and the same errors).

    Raises:
        InvalidInput: a malformed argument (see `derive_server_requirements`, `describe_server_surface`), or an
            observed run that is not an `ObservedRun`.
    """
    read = read_server_tools(
        tools, widget_usage, connection_facts, tools_metadata=tools_metadata, tools_truncated=tools_truncated
    )
    surface = describe_server_surface(tools, call_results=call_results)
    return _digest(read.requirements, surface, observed, read.tool_list, read.inspections)


def digest_read_tools(
    read: ServerTools,
    tools: Sequence[WireValue] | None,
    *,
    widget_usage: WidgetUsage | None = None,
    connection_facts: ConnectionFacts | None = None,
    call_results: Mapping[str, WireJSON] | None = None,
    observed: Iterable[ObservedRun] = (),
) -> ServerDigest:
    """The digest of a tool list read already (`read_server_tools(tools, ...)`, before the widgets were scanned),
    completed with what the widgets need and the connection's facts: equal to `digest_server` with the same
    arguments, without reading the tools again. The check reads the tools once, to learn which widgets to scan.

    Raises:
        InvalidInput: `read` is not `ServerTools`, or a malformed argument (see `digest_server`).
    """
    if not isinstance(read, ServerTools):
        raise InvalidInput(f"read must be ServerTools, got {type(read).__name__}", value=read)
    requirements = read.requirements.with_facts(widget_usage, connection_facts)
    surface = describe_server_surface(tools, call_results=call_results)
    return _digest(requirements, surface, observed, read.tool_list, read.inspections)


def digest_requirements(
    requirements: ServerRequirements, surface: ServerSurface | None = None, observed: Iterable[ObservedRun] = ()
) -> ServerDigest:
    """The digest of requirements derived already (and a surface; by default one that knows only the tool names),
    with any observed runs of its widgets.

    Raises:
        InvalidInput: `requirements` is not `ServerRequirements`, `surface` not a `ServerSurface`, or an observed
            run not an `ObservedRun`.
    """
    if not isinstance(requirements, ServerRequirements):
        raise InvalidInput(
            f"requirements must be ServerRequirements, got {type(requirements).__name__}", value=requirements
        )
    if surface is not None and not isinstance(surface, ServerSurface):
        raise InvalidInput(f"surface must be a ServerSurface, got {type(surface).__name__}", value=surface)
    shown = ServerSurface.from_names(requirements.tool_names) if surface is None else surface
    return _digest(requirements, shown, observed, None, ())


def _digest(
    requirements: ServerRequirements,
    surface: ServerSurface,
    observed: Iterable[ObservedRun],
    tool_list: ToolList | None,
    inspections: tuple[ToolInspection, ...],
) -> ServerDigest:
    dimensions = requirements.unknown_dimensions
    widget_names = frozenset(tool.name for tool in requirements.widget_tools)
    groups = _render_groups(requirements.widget_tools)
    usage = requirements.widget_usage
    return ServerDigest(
        requirements=requirements,
        surface=surface,
        observed=_observed_runs(observed),
        tool_list=tool_list,
        inspections=inspections,
        widget_uris=requirements.widget_resource_uris,
        tool_findings=tuple(
            finding if finding.lane is Lane.SERVER else dataclasses.replace(finding, lane=Lane.SERVER)
            for finding in requirements.tool_findings
        ),
        tools_complete=requirements.tools_loaded
        and UNKNOWN_TOOLS_TRUNCATED not in dimensions
        and UNKNOWN_TOOLS_OVER_LIMIT not in dimensions,
        widget_tool_names=widget_names,
        render_groups=MappingProxyType(groups),
        render_selections=LazyMapping(_render_selections(groups), functools.partial(_render_selection, groups)),
        need_uses=() if usage is None else _need_uses(usage),
        trigger_outcomes=LazyMapping(
            sorted(EVALUATED_TRIGGERS),
            lambda trigger: evaluate_trigger(trigger, surface, usage, widget_names),
        ),
        schema_uses=LazyMapping(surface.schema_uses, lambda feature: _schema_uses(surface.schema_uses[feature])),
        bridge_tool_names=MappingProxyType(
            {bridge: frozenset(tool.name for tool in group[2]) for bridge, group in groups.items()}
        ),
    )


def _observed_runs(observed: Iterable[ObservedRun]) -> tuple[ObservedRun, ...]:
    runs = tuple(observed)
    for run in runs:
        if not isinstance(run, ObservedRun):
            raise InvalidInput(f"observed runs must be ObservedRun values, got {type(run).__name__}", value=run)
    return runs


def _render_groups(widget_tools: Sequence[ToolInspection]) -> dict[Bridge, RenderGroups]:
    grouped: dict[Bridge, list[ToolInspection]] = {}
    for tool in widget_tools:
        if tool.bridge is not None:
            grouped.setdefault(tool.bridge, []).append(tool)
    out: dict[Bridge, RenderGroups] = {}
    for bridge in BRIDGE_NAMES:
        if bridge in grouped:
            tools = tuple(grouped[bridge])
            out[bridge] = (
                tuple(t for t in tools if t.app_only),
                tuple(t for t in tools if not t.app_only),
                tools,
                tools,
            )
    return out


def _render_selections(groups: Mapping[Bridge, RenderGroups]) -> list[tuple[int, tuple[Bridge, ...]]]:
    """Every (rule, bridges) a host can select: for each rule, each non-empty combination of the bridges that
    have tools for it, in report order.
    """
    out: list[tuple[int, tuple[Bridge, ...]]] = []
    for order in range(len(RENDER_RULE_LEVELS)):
        candidates = tuple(bridge for bridge, group in groups.items() if group[order])
        for size in range(1, len(candidates) + 1):
            out.extend((order, bridges) for bridges in combinations(candidates, size))
    return out


def _render_selection(groups: Mapping[Bridge, RenderGroups], key: tuple[int, tuple[Bridge, ...]]) -> ToolSet:
    """The tools of one render rule over some bridges, with their `_meta` evidence, described bridge by bridge."""
    order, bridges = key
    selected = tuple((bridge, groups[bridge][order]) for bridge in bridges)
    tools = [tool for _, group in selected for tool in group]
    evidence = functools.partial(map, _meta_evidence, tools[:MAX_EVIDENCE])
    return ToolSet.deferred([tool.name for tool in tools], evidence, functools.partial(_selection_text, selected))


def _selection_text(selected: Sequence[tuple[Bridge, tuple[ToolInspection, ...]]]) -> str:
    """The tools of a render selection described bridge by bridge."""
    return "; ".join(f"{BRIDGE_NAMES[bridge]} {name_list([t.name for t in group])}" for bridge, group in selected)


def _meta_evidence(tool: ToolInspection) -> Evidence:
    name = cut_snippet(tool.name)
    if tool.resource_uri is not None:
        return make_evidence("tool:_meta", f"{name}: _meta.ui.resourceUri", tool.resource_uri)
    return make_evidence("tool:_meta", f"{name}: _meta['openai/outputTemplate']", tool.openai_template)


def _need_uses(usage: WidgetUsage) -> tuple[NeedUse, ...]:
    """Each evaluated need the usage has, in `NEED_ORDER`."""
    uses = []
    for need in NEED_ORDER:
        tools = usage.tools_for(need)
        if tools or (need == "sandboxPermissions" and usage.sandbox_permission_names):
            uses.append(NeedUse(need=need, tools=tools, guarded=frozenset(usage.guarded_tools_for(need))))
    return tuple(uses)


def _schema_uses(uses: Sequence[tuple[str, str]]) -> ToolSet:
    return ToolSet.deferred([tool for tool, _ in uses], functools.partial(_schema_evidence, uses[:MAX_EVIDENCE]))


def _schema_evidence(uses: Sequence[tuple[str, str]]) -> list[Evidence]:
    return [make_evidence(f"tools/list:{cut_snippet(tool)}", cut_text(path)) for tool, path in uses]


def _offending(name: str, pattern: re.Pattern[str]) -> str:
    chars = dict.fromkeys(char for char in name[:1000] if pattern.fullmatch(char) is None)
    return "offending: " + " ".join(repr(char) for char in list(chars)[:10])


__all__ = [
    "BRIDGE_NAMES",
    "RENDER_RULE_LEVELS",
    "NeedUse",
    "RenderGroups",
    "RenderShape",
    "ServerDigest",
    "digest_requirements",
    "digest_server",
]
