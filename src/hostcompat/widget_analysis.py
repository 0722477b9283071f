"""The widget stage of a check (`hostcompat.pipeline`): scan each widget the tools name, within a budget.

requirements (which tools name which widget) + snapshot (what the probe read of each widget)
    → per widget, in the order the tools name them: left out (the budget is spent), not analysed (unread, failed,
      cut, or loaded from elsewhere), or scanned (`engine.scan`: needs, permission names, what was cut)
    → `WidgetAnalysis`: the needs attributed to the tools using each widget (`WidgetUsage`), or None when some widget
      could not be analysed, with a report note and a finding for each widget left out or read in part, and per
      scanned widget the needs it uses with where in its code (line and snippet) each was seen (`WidgetSeen`).

Why a widget is not analysed travels as an error (`WidgetNotAnalysed`, and `WidgetLeftOut` for the budget), caught
here and turned into report notes. The scanner is imported only for servers with widgets.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.engine.findings.model import Evidence, Finding
from hostcompat.engine.findings.rules import finding_for
from hostcompat.engine.server.facts import WidgetUsage
from hostcompat.engine.server.long_values import cut_value
from hostcompat.engine.server.observed import ObservedRun, covers_entry_paths
from hostcompat.engine.server.requirements import ServerRequirements
from hostcompat.errors import HostCompatError, ScanTimedOut, WidgetLeftOut, WidgetNotAnalysed
from hostcompat.probe.snapshot import Snapshot
from hostcompat.widget_items import DEFAULT_WIDGET_CHARS, DEFAULT_WIDGET_SECONDS, widget_chars, widget_item
from hostcompat.widget_scans import MemoScans, NeedUse, ScanSource, need_use
from hostcompat.wire_json import WireJSON, WireObject

MAX_NEED_USES: Final = 40
"""How many uses of needs (with their line and snippet) the report keeps per widget; the rest are counted."""


@dataclass(frozen=True, kw_only=True)
class WidgetSeen:
    """One scanned widget: its URI, the tools that name it, and the uses of needs found in it (at most
    `MAX_NEED_USES`; `more` counts the rest).
    """

    uri: str
    tools: tuple[str, ...]
    uses: tuple[NeedUse, ...]
    more: int = 0

    def to_dict(self) -> WireObject:
        """The report's JSON form (`hostcompat.report.model.WidgetEntry`)."""
        return {
            "uri": cut_value(self.uri, 200),
            "tools": list(self.tools),
            "needs": [use.to_dict() for use in self.uses],
            "moreNeeds": self.more,
        }


@dataclass(frozen=True, kw_only=True)
class WidgetBudget:
    """What the analysis of one server's widgets may cost: `seconds` for all of them (None: no limit; the scanner
    checks the clock as it goes) and `max_chars` characters of widget text in all. What is left out is named.
    """

    seconds: float | None = DEFAULT_WIDGET_SECONDS
    max_chars: int = DEFAULT_WIDGET_CHARS


@dataclass(frozen=True, kw_only=True)
class WidgetAnalysis:
    """What the widgets of a server need, per tool; `usage` is None when some widget could not be analysed."""

    usage: WidgetUsage | None
    notes: tuple[Mapping[str, str], ...] = ()
    """Why a widget was not analysed, as report events (`code`, `message`)."""
    findings: tuple[Finding, ...] = ()
    """What the budget left out: CHECK-SCAN-001 per widget not analysed, CHECK-SCAN-002 per widget read in part."""
    wrapper_only: tuple[tuple[str, str], ...] = ()
    """(tool, need) found only through a bridge wrapper the bundle defines (a run may show it is never reached)."""
    widgets: tuple[WidgetSeen, ...] = ()
    """Per widget scanned, the needs it uses and where in its code each was seen."""


@dataclass(frozen=True, kw_only=True)
class _WidgetNeeds:
    """What one widget's code was found to need."""

    uses: tuple[tuple[str, bool], ...]
    """(need, guarded) per use found."""
    seen: tuple[NeedUse, ...]
    """Where each use was found."""
    wrapper_only: tuple[str, ...] = ()
    """The needs found only through calls of a bridge wrapper's methods."""
    permission_names: tuple[str, ...]
    partial: str | None
    """What the scan left out of it, or None when it read it all."""


@dataclass
class _Spending:
    """What is left of the budget while the widgets of one server are scanned (mutable, local to one analysis)."""

    budget: WidgetBudget
    deadline: float | None
    chars_left: int
    scans: ScanSource


def analyse_widgets(
    snapshot: Snapshot,
    requirements: ServerRequirements,
    budget: WidgetBudget | None = None,
    scans: ScanSource | None = None,
) -> WidgetAnalysis:
    """Scan every widget the tools name (`requirements.widget_tools_by_uri`) and attribute each need to the tools
    using that widget.

    The widgets are read in the order the tools name them, within `budget` (the defaults when None): once its time
    or its characters are spent, the widgets left are not analysed, and each gets a CHECK-SCAN-001 finding.
    The content of each is scanned by `scans` (the run's, shared by its servers; by default each distinct content
    once), which gives the same result for the same bytes.
    """
    budget = budget or WidgetBudget()
    widgets = requirements.widget_tools_by_uri
    uses: list[tuple[str, str, bool]] = []
    wrapped: list[tuple[str, str]] = []
    permissions: dict[str, list[str]] = {}
    notes: list[Mapping[str, str]] = []
    findings: list[Finding] = []
    seen: list[WidgetSeen] = []
    deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
    spending = _Spending(budget, deadline, budget.max_chars, scans or MemoScans())
    for uri, tools in widgets.items():
        try:
            needs = _scan_within(spending, snapshot, uri)
        except WidgetNotAnalysed as error:
            notes.append({"code": "CHECK-WIDGET-NOT-ANALYSED", "message": f"{uri}: {error.message}"})
            if isinstance(error, WidgetLeftOut):
                findings.append(_scan_finding("CHECK-SCAN-001", uri, tools, f"not analysed: {error.message}"))
            continue
        if needs.partial:
            findings.append(_scan_finding("CHECK-SCAN-002", uri, tools, f"analysed in part: {needs.partial}"))
        shown = needs.seen[:MAX_NEED_USES]
        seen.append(WidgetSeen(uri=uri, tools=tuple(tools), uses=shown, more=len(needs.seen) - len(shown)))
        for tool in tools:
            uses.extend((tool, need, guarded) for need, guarded in needs.uses)
            wrapped.extend((tool, need) for need in needs.wrapper_only)
            if needs.permission_names:
                permissions[tool] = list(needs.permission_names)
    if notes:
        return WidgetAnalysis(usage=None, notes=tuple(notes), findings=tuple(findings), widgets=tuple(seen))
    usage = WidgetUsage.from_tool_uses(uses, sandbox_permissions=permissions)
    return WidgetAnalysis(usage=usage, findings=tuple(findings), wrapper_only=tuple(wrapped), widgets=tuple(seen))


def _scan_within(spending: _Spending, snapshot: Snapshot, uri: str) -> _WidgetNeeds:
    """Scan one widget if the budget has room for it, and count what it cost.

    Raises:
        WidgetLeftOut: the budget's time or characters were spent, or the scan ran past its time.
        WidgetNotAnalysed: the widget could not be analysed (see `_scan_widget`).
    """
    seconds = spending.budget.seconds
    size = widget_chars(widget_item(snapshot, uri))
    if spending.deadline is not None and time.monotonic() > spending.deadline:
        raise WidgetLeftOut(f"the check's {seconds:g} s for widgets had run out", value=uri)
    if size > spending.chars_left:
        raise WidgetLeftOut(
            f"{size:,} characters, over the {spending.chars_left:,} left of the check's widget budget", value=uri
        )
    spending.chars_left -= size
    from hostcompat.engine.scan.widget import scan_deadline  # the scanner loads only for servers with widgets

    try:
        with scan_deadline(spending.deadline):
            return _scan_widget(snapshot, uri, spending.scans, spending.deadline)
    except ScanTimedOut as error:
        raise WidgetLeftOut(f"its analysis ran past the check's {seconds:g} s for widgets", value=uri) from error


def _scan_finding(rule_id: str, uri: str, tools: Iterable[str], detail: str) -> Finding:
    return finding_for(
        rule_id,
        detail=f"{cut_value(uri, 200)}: {detail}.",
        remediation="Run the check with a longer --timeout, or keep the widget's code smaller.",
        tools=tuple(tools),
        resources=(uri,),
        evidence=(Evidence(f"widget:{cut_value(uri, 200)}", detail=detail),),
    )


def widgets_to_scan(snapshot: Snapshot, requirements: ServerRequirements, budget: WidgetBudget) -> list[WireJSON]:
    """The content items `analyse_widgets` would scan, in its order, within the characters of `budget` (its time
    aside): what a run may scan ahead, while other servers are still probed.
    """
    chars_left = budget.max_chars
    items: list[WireJSON] = []
    for uri in requirements.widget_tools_by_uri:
        item = widget_item(snapshot, uri)
        size = widget_chars(item)
        if size > chars_left:
            continue
        chars_left -= size
        if item is not None:
            items.append(item)
    return items


def _scan_widget(snapshot: Snapshot, uri: str, scans: ScanSource, deadline: float | None) -> _WidgetNeeds:
    """The (need, guarded) uses and permission names of one widget, and what was left out of it.

    Raises:
        WidgetNotAnalysed: the probe did not read it whole, or its code could not be scanned or is elsewhere.
        ScanTimedOut: the scan ran past its deadline.
    """
    capture = snapshot.ui_resources.get(uri)
    if capture is None:
        raise WidgetNotAnalysed("the probe did not read it", value=uri)
    if capture.error is not None:
        raise WidgetNotAnalysed(f"reading it failed ({capture.error.get('message', 'error')})", value=uri)
    if capture.truncated:
        raise WidgetNotAnalysed("it was larger than the probe's per-resource limit and was cut", value=uri)
    item = widget_item(snapshot, uri)
    if item is None:
        raise WidgetNotAnalysed("resources/read returned no contents", value=uri)
    from hostcompat.engine.scan.meta import scan_widget_meta

    content = scans.content_needs(item, deadline)
    if content.error is not None:
        raise WidgetNotAnalysed(f"its content could not be scanned ({content.error})", value=uri)
    try:
        meta_scan = scan_widget_meta(_ui_meta_holder(item, snapshot.resource_listing(uri)))
    except HostCompatError as error:
        raise WidgetNotAnalysed(f"its content could not be scanned ({error})", value=uri) from error
    if not content.code_analysed:
        raise WidgetNotAnalysed("its code is loaded from elsewhere and was not analysed", value=uri)
    counted = [f for f in meta_scan.findings if f.counts]
    meta_seen = (need_use(finding) for finding in counted)
    partial = "it holds more candidate calls or scripts than the scanner looks at" if content.capped else None
    return _WidgetNeeds(
        uses=(*content.uses, *((f.need, f.kind == "guarded-call") for f in counted)),
        seen=tuple(dict.fromkeys((*content.seen, *meta_seen))),
        permission_names=tuple(dict.fromkeys(meta_scan.permission_names)),
        partial=partial,
        wrapper_only=content.wrapper_only,
    )


def _ui_meta_holder(item: WireJSON, listing: WireJSON | None) -> WireJSON | None:
    """The `_meta` whose `ui` applies: the content item's when it has one, else the listing entry's (the spec)."""
    meta = item.get("_meta")
    if isinstance(meta, Mapping) and isinstance(meta.get("ui"), Mapping):
        return meta
    listing_meta = (listing or {}).get("_meta")
    return listing_meta if isinstance(listing_meta, Mapping) else None


def with_observed_needs(
    usage: WidgetUsage | None, observed: Sequence[ObservedRun], *, unreached: Iterable[tuple[str, str]] = ()
) -> WidgetUsage | None:
    """`usage` plus each need a run was seen to reach that the scan did not report for that tool (unguarded),
    less the (tool, need) pairs in `unreached` (see `unreached_wrapper_needs`).

    A usage that could not be built (None) stays None: a run does not cover what the scan could not read.
    """
    if usage is None or not observed:
        return usage
    from hostcompat.engine.verdicts.capabilities import NEED_FACTS

    dropped = set(unreached)
    uses = [
        (tool, need, tool in usage.guarded_tools_for(need))
        for need, tools in usage.needs.items()
        for tool in tools
        if (tool, need) not in dropped
    ]
    known = {(tool, need) for tool, need, _ in uses}
    added = [
        (tool, need, False)
        for run in observed
        for need in run.reached
        if need in NEED_FACTS
        for tool in run.tools
        if (tool, need) not in known
    ]
    if not added and not dropped:
        return usage
    permissions: dict[str, list[str]] | None = None
    if usage.sandbox_permission_names is not None:
        permissions = {}
        for name, tools in usage.sandbox_permission_tools.items():
            for tool in tools:
                permissions.setdefault(tool, []).append(name)
    return WidgetUsage.from_tool_uses([*uses, *dict.fromkeys(added)], sandbox_permissions=permissions)


def unreached_wrapper_needs(
    wrapper_only: Iterable[tuple[str, str]], observed: Sequence[ObservedRun]
) -> tuple[tuple[str, str, ObservedRun], ...]:
    """The (tool, need) found only through a bundled wrapper that no run reached although a run covered the
    widget's entry paths with the need on offer (`covers_entry_paths`), each with that run: they stop counting.
    """
    out: list[tuple[str, str, ObservedRun]] = []
    for tool, need in dict.fromkeys(wrapper_only):
        runs = [run for run in observed if tool in run.tools]
        if any(need in run.reached for run in runs):
            continue
        covering = next((run for run in runs if covers_entry_paths(run, need)), None)
        if covering is not None:
            out.append((tool, need, covering))
    return tuple(out)


def unreached_notes(unreached: Iterable[tuple[str, str, ObservedRun]]) -> tuple[Mapping[str, str], ...]:
    """One report event per wrapper need that stopped counting: what the scan found and what the run saw."""
    return tuple(
        {
            "code": "CHECK-OBSERVE-UNREACHED",
            "severity": "info",
            "message": (
                f"static: {need} in code through a bundled wrapper; not reached in {run.seconds:.1f} s of running "
                f"under {run.host_id} with its buttons pressed, so it does not count for {cut_value(tool, 200)}"
            ),
        }
        for tool, need, run in unreached
    )


__all__ = [
    "DEFAULT_WIDGET_CHARS",
    "DEFAULT_WIDGET_SECONDS",
    "MAX_NEED_USES",
    "NeedUse",
    "WidgetAnalysis",
    "WidgetBudget",
    "WidgetSeen",
    "analyse_widgets",
    "unreached_notes",
    "unreached_wrapper_needs",
    "widgets_to_scan",
    "with_observed_needs",
]
