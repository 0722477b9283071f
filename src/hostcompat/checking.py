"""A check of one server, from its snapshot to its part of the report: the data flow of `hostcompat check`.

snapshot → scan each widget the tools name (`engine.scan`) → widget usage per tool, and the tool results the
probe captured → `engine.evaluate_all_hosts` → host reports, plus the server's own MCP Apps hygiene
(`engine.hygiene`) and what the probe saw happen.

Pure: it reads a `Snapshot` (plain data) and a host catalog, and never imports the `mcp` SDK, so checking a saved
snapshot is fast and offline.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from hostcompat.engine.catalog.host_context import HostContext
from hostcompat.engine.catalog.model import Catalog
from hostcompat.engine.findings.model import Evidence, Finding
from hostcompat.engine.findings.rules import finding_for
from hostcompat.engine.hygiene.check import check_server_hygiene
from hostcompat.engine.server.facts import MAX_FACT_CHARS, ConnectionFacts, WidgetUsage
from hostcompat.engine.server.long_values import cut_content_item, cut_long_values, cut_value
from hostcompat.engine.server.observed import ObservedRun
from hostcompat.engine.server.requirements import derive_server_requirements
from hostcompat.engine.server.tool_meta import preview_value
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts
from hostcompat.errors import HostCompatError, ScanTimedOut
from hostcompat.probe.events import (
    CONNECT_FAILED,
    CONNECTION_CLOSED,
    HANDSHAKE_FAILED,
    INTERNAL_ERROR,
    SERVER_EXITED,
    TIMEOUT_TOTAL,
)
from hostcompat.probe.snapshot import Snapshot, UIResourceCapture
from hostcompat.report.document import server_entry

if TYPE_CHECKING:
    from hostcompat.report.model import ServerEntry

MAX_REPORTED_EVENTS: Final = 200
"""The most probe events of one server carried into the report (a snapshot file may hold any number)."""


DEFAULT_WIDGET_SECONDS: Final = 60.0
"""How long the analysis of one server's widgets may take in all, unless told otherwise (`--timeout`)."""
DEFAULT_WIDGET_CHARS: Final = 64 * 1024 * 1024
"""How many characters of widget code one server's check reads in all (four widgets of the probe's 16 MiB)."""


@dataclass(frozen=True)
class WidgetBudget:
    """What the analysis of one server's widgets may cost: `seconds` for all of them (None: no limit; the scanner
    checks the clock as it goes) and `max_chars` characters of widget text in all. What is left out is named.
    """

    seconds: float | None = DEFAULT_WIDGET_SECONDS
    max_chars: int = DEFAULT_WIDGET_CHARS


@dataclass(frozen=True)
class WidgetAnalysis:
    """What the widgets of a server need, per tool; `usage` is None when some widget could not be analysed."""

    usage: WidgetUsage | None
    notes: tuple[dict[str, str], ...]
    """Why a widget was not analysed, as report events (`code`, `message`)."""
    findings: tuple[Finding, ...] = ()
    """What the budget left out: CHECK-SCAN-001 per widget not analysed, CHECK-SCAN-002 per widget read in part."""


def analyse_widgets(snapshot: Snapshot, budget: WidgetBudget | None = None) -> WidgetAnalysis:
    """Scan every widget the snapshot's tools name and attribute each need to the tools using that widget.

    The widgets are read in the order the tools name them, within `budget` (the defaults when None): once its time
    or its characters are spent, the widgets left are not analysed, and each gets a CHECK-SCAN-001 finding.
    """
    budget = budget or WidgetBudget()
    requirements = derive_server_requirements(list(snapshot.tools))
    uses: list[tuple[str, str, bool]] = []
    permissions: dict[str, list[str]] = {}
    notes: list[dict[str, str]] = []
    findings: list[Finding] = []
    deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
    chars_left = budget.max_chars
    if requirements.widget_tools_by_uri:
        from hostcompat.engine.scan.widget import scan_deadline  # the scanner loads only for servers with widgets
    for uri, tools in requirements.widget_tools_by_uri.items():
        size = _widget_chars(snapshot, uri)
        if deadline is not None and time.monotonic() > deadline:
            scanned: _Scanned = _LeftOut(f"the check's {budget.seconds:g} s for widgets had run out")
        elif size > chars_left:
            scanned = _LeftOut(f"{size:,} characters, over the {chars_left:,} left of the check's widget budget")
        else:
            chars_left -= size
            try:
                with scan_deadline(deadline):
                    scanned = _scan_widget(snapshot, uri)
            except ScanTimedOut:
                scanned = _LeftOut(f"its analysis ran past the check's {budget.seconds:g} s for widgets")
        if isinstance(scanned, _LeftOut):
            notes.append({"code": "CHECK-WIDGET-NOT-ANALYSED", "message": f"{uri}: {scanned.reason}"})
            findings.append(_scan_finding("CHECK-SCAN-001", uri, tools, f"not analysed: {scanned.reason}"))
            continue
        if isinstance(scanned, str):
            notes.append({"code": "CHECK-WIDGET-NOT-ANALYSED", "message": f"{uri}: {scanned}"})
            continue
        needs, names, partial = scanned
        if partial:
            findings.append(_scan_finding("CHECK-SCAN-002", uri, tools, f"analysed in part: {partial}"))
        for tool in tools:
            uses.extend((tool, need, guarded) for need, guarded in needs)
            if names:
                permissions[tool] = list(names)
    if notes:
        return WidgetAnalysis(None, tuple(notes), tuple(findings))
    return WidgetAnalysis(WidgetUsage.from_tool_uses(uses, sandbox_permissions=permissions), (), tuple(findings))


@dataclass(frozen=True)
class _LeftOut:
    """A widget the budget left out, and why."""

    reason: str


_Scanned = tuple[list[tuple[str, bool]], tuple[str, ...], str | None] | str | _LeftOut


def _scan_finding(rule_id: str, uri: str, tools: Iterable[str], detail: str) -> Finding:
    return finding_for(
        rule_id,
        detail=f"{cut_value(uri, 200)}: {detail}.",
        remediation="Run the check with a longer --timeout, or keep the widget's code smaller.",
        tools=tuple(tools),
        resources=(uri,),
        evidence=(Evidence(f"widget:{cut_value(uri, 200)}", detail=detail),),
    )


def _widget_item(snapshot: Snapshot, uri: str) -> Mapping[str, Any] | None:
    capture = snapshot.ui_resources.get(uri)
    if capture is None or capture.error is not None or capture.truncated:
        return None
    items = [item for item in capture.contents if item.get("uri") == uri] or list(capture.contents[:1])
    return items[0] if items else None


def _widget_chars(snapshot: Snapshot, uri: str) -> int:
    """How many characters of code scanning this widget reads (a blob counts what it decodes to)."""
    item = _widget_item(snapshot, uri) or {}
    text, blob = item.get("text"), item.get("blob")
    if isinstance(text, str):
        return len(text)
    return len(blob) * 3 // 4 if isinstance(blob, str) else 0


def _scan_widget(snapshot: Snapshot, uri: str) -> tuple[list[tuple[str, bool]], tuple[str, ...], str | None] | str:
    """The (need, guarded) uses and permission names of one widget, and what was left out of it (None when
    nothing); or why it could not be analysed.

    Raises:
        ScanTimedOut: the scan ran past its deadline.
    """
    capture = snapshot.ui_resources.get(uri)
    if capture is None:
        return "the probe did not read it"
    if capture.error is not None:
        return f"reading it failed ({capture.error.get('message', 'error')})"
    if capture.truncated:
        return "it was larger than the probe's per-resource limit and was cut"
    item = _widget_item(snapshot, uri)
    if item is None:
        return "resources/read returned no contents"
    from hostcompat.engine.scan.meta import scan_widget_meta
    from hostcompat.engine.scan.widget import scan_widget_content  # the scanner loads only for servers with widgets
    from hostcompat.engine.scan.widget_needs import attributed_needs

    names: list[str] = []
    try:
        scan = scan_widget_content(item)
        meta_scan = scan_widget_meta(_ui_meta_holder(item, snapshot.resource_listing(uri)))
    except ScanTimedOut:
        raise
    except HostCompatError as error:
        return f"its content could not be scanned ({error})"
    if not scan.code_analysed:
        return "its code is loaded from elsewhere and was not analysed"
    uses = [
        *attributed_needs(scan),
        *((f.need, f.kind == "guarded-call") for f in meta_scan.findings if f.counts),
    ]
    names.extend(meta_scan.permission_names)
    capped = any(limit.code == "hits_capped" for limit in scan.limits)
    partial = "it holds more candidate calls or scripts than the scanner looks at" if capped else None
    return uses, tuple(dict.fromkeys(names)), partial


def _ui_meta_holder(item: Mapping[str, Any], listing: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The `_meta` whose `ui` applies: the content item's when it has one, else the listing entry's (the spec)."""
    meta = item.get("_meta")
    if isinstance(meta, Mapping) and isinstance(meta.get("ui"), Mapping):
        return meta
    listing_meta = (listing or {}).get("_meta")
    return listing_meta if isinstance(listing_meta, Mapping) else None


def with_observed_needs(usage: WidgetUsage | None, observed: Sequence[ObservedRun]) -> WidgetUsage | None:
    """`usage` plus each need a run was seen to reach that the scan did not report for that tool (unguarded).

    A usage that could not be built (None) stays None: a run does not cover what the scan could not read.
    """
    if usage is None or not observed:
        return usage
    from hostcompat.engine.verdicts.capabilities import NEED_FACTS

    uses = [
        (tool, need, tool in usage.guarded_tools_for(need)) for need, tools in usage.needs.items() for tool in tools
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
    if not added:
        return usage
    permissions: dict[str, list[str]] | None = None
    if usage.sandbox_permission_names is not None:
        permissions = {}
        for name, tools in usage.sandbox_permission_tools.items():
            for tool in tools:
                permissions.setdefault(tool, []).append(name)
    return WidgetUsage.from_tool_uses([*uses, *dict.fromkeys(added)], sandbox_permissions=permissions)


PROBE_HANDSHAKE_VERSION = "2025-11-25"
"""The protocol version the probe (the `mcp` SDK's client) asks for in an `initialize` handshake."""


def connection_facts(snapshot: Snapshot) -> ConnectionFacts:
    """The facts of the connection the engine's server lane uses.

    The negotiated protocol version says something about the server only when the server chose it: the probe asks
    for the newest version, so a server that speaks it simply agrees, and a host asking for an older one gets that
    one instead. Only a handshake the server answered with an older version than the probe asked for (the server
    cannot speak newer) is passed on, for the engine to compare with each host's versions.
    """
    info = snapshot.server_info or {}
    era = (snapshot.connection or {}).get("era")
    version = snapshot.protocol_version
    chosen = version if era == "handshake" and version != PROBE_HANDSHAKE_VERSION else None
    return ConnectionFacts(
        protocol_version=_fact(chosen),
        transport=_fact(snapshot.target.get("kind")),
        server_name=_fact(info.get("name")),
        server_version=_fact(info.get("version")),
    )


def _fact(value: object) -> str | None:
    """A server-sent value usable as a connection fact: a non-empty, bounded string, else unknown."""
    return value if isinstance(value, str) and 0 < len(value) <= MAX_FACT_CHARS else None


_PROBE_ENDED: Final = frozenset(
    {CONNECT_FAILED, CONNECTION_CLOSED, HANDSHAKE_FAILED, INTERNAL_ERROR, SERVER_EXITED, TIMEOUT_TOTAL}
)
"""Event codes that mean the probe did not get to its end (with every `PROBE-TIMEOUT-…` code)."""


def probe_failure(snapshot: Snapshot) -> str | None:
    """Why the probe could not check this server, or None when it did.

    A server could not be checked when it never completed the handshake, when the probe stopped early (the server
    crashed or closed the connection, a step or the whole probe timed out, the probe itself failed), or when its
    tools could not be listed. A listing cut by a cap is not a failure: the report marks what it cut as unknown.
    """
    stopped = next(
        (
            event
            for event in snapshot.events
            if event.severity == "error"
            and event.step != "shutdown"
            and (event.code in _PROBE_ENDED or event.code.startswith("PROBE-TIMEOUT-"))
        ),
        None,
    )
    if snapshot.initialize is None:
        first_error = stopped or next((event for event in snapshot.events if event.severity == "error"), None)
        why = first_error.message if first_error is not None else "it did not complete the handshake"
        return f"could not connect: {why}"
    if stopped is not None:
        return f"the probe did not complete: {stopped.message}"
    tools = snapshot.coverage.get("tools")
    if tools in ("failed", "not-attempted"):
        failed = next((event for event in snapshot.events if event.severity == "error"), None)
        return f"its tools could not be listed: {failed.message if failed is not None else tools}"
    return None


def captured_results(snapshot: Snapshot) -> dict[str, Any] | None:
    """Tool name → the raw result its call returned (an `isError` one only when no call of it succeeded), for the
    engine's result checks; `None` when no call returned a result (nothing is known about results).
    """
    results = snapshot.call_results
    return dict(results) if results else None


def _fallback_results(snapshot: Snapshot, results: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The results the text-fallback check reads: only those that are not tool errors (an error message says
    nothing about what the tool returns when it works); `{}` when calls were made but none succeeded.
    """
    succeeded = {name: result for name, result in (results or {}).items() if result.get("isError") is not True}
    return succeeded if succeeded or snapshot.calls else None


def check_snapshot(
    snapshot: Snapshot,
    catalog: Catalog,
    *,
    host_ids: Iterable[str] | None = None,
    target: Mapping[str, Any] | None = None,
    host_versions: Mapping[str, str] | None = None,
    as_of: str | None = None,
    widget_budget: WidgetBudget | None = None,
    observed: Sequence[ObservedRun] = (),
    notes: Sequence[Mapping[str, str]] = (),
    host_contexts: Mapping[str | None, HostContext] | None = None,
) -> ServerEntry:
    """One server's part of the report document, from its snapshot.

    `host_versions` pins the host versions to judge (host id → version; by default each host's current one), and
    `as_of` is the date of the check, against which the age of old host facts is told. The server's widgets are
    analysed within `widget_budget` (see `WidgetBudget`). `observed` are runs of the widgets in a browser
    (`hostcompat.observe`): cited per host, and a need a run reached counts like a scanned one.

    Whatever the snapshot holds, an entry comes back: long names and URIs are cut (with a finding on the tool or
    resource), and a check that still fails on the server's data gives an entry that says so, without host
    verdicts, so the other servers of a run keep their reports.

    `host_contexts` are the OS, registration path or gates to judge hosts in (host name, None for every host →
    context; default the common path).

    Raises:
        CatalogError: a name in `host_ids` names no catalog host.
    """
    ids = [catalog.get(name).id for name in host_ids] if host_ids else None
    entry_target = _bounded_json({**dict(snapshot.target), **dict(target or {})})
    try:
        return _check(
            snapshot, catalog, ids, entry_target, widget_budget, host_versions, as_of, observed, notes, host_contexts
        )
    except HostCompatError as error:
        message = f"the check of this server failed on its data: {error.message}"
        event = {"code": "CHECK-FAILED", "message": cut_value(message, 2000), "severity": "error"}
        return server_entry(target=entry_target, server=None, hosts=[], events=[event])


def _check(
    snapshot: Snapshot,
    catalog: Catalog,
    host_ids: list[str] | None,
    target: dict[str, Any],
    widget_budget: WidgetBudget | None,
    host_versions: Mapping[str, str] | None,
    as_of: str | None,
    observed: Sequence[ObservedRun],
    notes: Sequence[Mapping[str, str]],
    host_contexts: Mapping[str | None, HostContext] | None,
) -> ServerEntry:
    snapshot, cut_findings = _cut_long_values(snapshot)
    widgets = analyse_widgets(snapshot, widget_budget)
    results = captured_results(snapshot)
    evaluation = evaluate_all_hosts(
        list(snapshot.tools) if snapshot.initialize is not None else None,
        catalog,
        widget_usage=with_observed_needs(widgets.usage, observed),
        observed=observed,
        connection_facts=connection_facts(snapshot),
        tools_truncated=snapshot.is_unknown("tools"),
        host_ids=host_ids,
        host_versions=host_versions,
        as_of=as_of,
        call_results=results,
        host_contexts=host_contexts,
    )
    ui_resources = {
        uri: {"error": dict(capture.error)} if capture.error is not None else {"contents": list(capture.contents)}
        for uri, capture in snapshot.ui_resources.items()
        if not capture.truncated
    }
    fallback = _fallback_results(snapshot, results)
    hygiene = check_server_hygiene(list(snapshot.tools), list(snapshot.resources), ui_resources, call_results=fallback)
    events = [
        {"code": cut_value(e.code), "message": e.message, "severity": e.severity}
        for e in snapshot.events[:MAX_REPORTED_EVENTS]
    ]
    if len(snapshot.events) > MAX_REPORTED_EVENTS:
        more = len(snapshot.events) - MAX_REPORTED_EVENTS
        events.append({"code": "CHECK-EVENTS-CUT", "message": f"{more} more probe events", "severity": "info"})
    info = snapshot.server_info or {}
    server = {
        "name": _scalar(info.get("name")),
        "version": _scalar(info.get("version")),
        "protocolVersion": _scalar(snapshot.protocol_version),
    }
    return server_entry(
        target=target,
        server=server if snapshot.initialize is not None else None,
        hosts=[report.to_dict() for report in evaluation.reports],
        hygiene=[finding.to_dict() for finding in (*cut_findings, *widgets.findings, *hygiene)],
        events=[*events, *widgets.notes, *(dict(note) for note in notes)],
        requirements=evaluation.requirements.to_dict(),
        error=probe_failure(snapshot),
    )


def _cut_long_values(snapshot: Snapshot) -> tuple[Snapshot, tuple[Finding, ...]]:
    """The snapshot with long tool and resource values cut (see `engine.long_values`), and the findings on them."""
    cut = cut_long_values(snapshot.tools, snapshot.resources)
    captures: dict[str, UIResourceCapture] = {}
    changed = bool(cut.findings)
    for uri, capture in snapshot.ui_resources.items():
        contents = tuple(cut_content_item(item) for item in capture.contents)
        short = cut_value(uri)
        if short != uri or any(new is not old for new, old in zip(contents, capture.contents, strict=True)):
            capture = dataclasses.replace(capture, uri=short, contents=contents)
            changed = True
        captures[short] = capture
    if not changed:
        return snapshot, ()
    bounded = dataclasses.replace(snapshot, tools=cut.tools, resources=cut.resources, ui_resources=captures)
    return bounded, cut.findings


def _scalar(value: object) -> object:
    """A server-sent value for the report's server line: a string cut to length, a number or null as is, and any
    other JSON as a short preview.
    """
    if isinstance(value, str):
        return cut_value(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return preview_value(value)


_MAX_TARGET_ITEMS: Final = 256
_MAX_TARGET_DEPTH: Final = 8


def _bounded_json(value: Any, depth: int = 0) -> Any:
    """A JSON value with strings cut, lists and objects bounded in length and depth (a target from a file)."""
    if isinstance(value, str):
        return cut_value(value)
    if isinstance(value, Mapping):
        if depth >= _MAX_TARGET_DEPTH:
            return preview_value(value)
        items = list(value.items())[:_MAX_TARGET_ITEMS]
        return {cut_value(str(key)): _bounded_json(item, depth + 1) for key, item in items}
    if isinstance(value, (list, tuple)):
        if depth >= _MAX_TARGET_DEPTH:
            return preview_value(value)
        return [_bounded_json(item, depth + 1) for item in value[:_MAX_TARGET_ITEMS]]
    return value


__all__ = [
    "DEFAULT_WIDGET_CHARS",
    "DEFAULT_WIDGET_SECONDS",
    "MAX_REPORTED_EVENTS",
    "WidgetAnalysis",
    "WidgetBudget",
    "analyse_widgets",
    "captured_results",
    "check_snapshot",
    "connection_facts",
    "probe_failure",
    "with_observed_needs",
]
