"""A check of one server, from its snapshot to its part of the report: the data flow of `hostcompat check`.

One straight flow; each stage is a function from the value before it (passed on whole) to a frozen value::

    Snapshot
      │ bound_values          long tool and resource values cut, with a finding on each      → Bounded
      │ derive                the tools read ONCE: requirements, tool list, each `_meta`     → Derived
      │ scan_widgets          each widget the tools name scanned, within a budget            → Scanned
      │                       (`hostcompat.widget_analysis`)
      │ judge                 the requirements completed with the widgets' needs, the runs   → Judged
      │                       observed and the connection's facts, in one `ServerDigest`;
      │                       one verdict per host (`engine.evaluate_all_hosts`)
      │ hygiene               the server's own MCP Apps hygiene (`engine.hygiene`), reading  → Checked
      │                       the same digest
      ▼ report_entry          the server's part of the report document (`report.server_entry`)

`check_snapshot` runs the whole flow; the CLI and the tests call it. Settings that do not come from the snapshot
(the catalog, which hosts and versions, the widget budget, observed runs) are a `CheckSettings`.

Pure: it reads a `Snapshot` (plain data) and a host catalog, and never imports the `mcp` SDK, so checking a saved
snapshot is fast and offline.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.clients.rule_model import Rule
from hostcompat.engine.catalog.host_context import HostContext
from hostcompat.engine.catalog.model import Catalog
from hostcompat.engine.findings.model import Finding
from hostcompat.engine.hygiene.check import check_server_hygiene
from hostcompat.engine.server.digest import ServerDigest, digest_read_tools
from hostcompat.engine.server.facts import MAX_FACT_CHARS, ConnectionFacts
from hostcompat.engine.server.long_values import cut_content_item, cut_long_values, cut_value
from hostcompat.engine.server.observed import ObservedRun
from hostcompat.engine.server.requirements import ServerRequirements, ServerTools, read_server_tools
from hostcompat.engine.server.tool_meta import preview_value
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts
from hostcompat.engine.verdicts.model import Evaluation
from hostcompat.errors import HostCompatError
from hostcompat.probe.events import (
    CONNECT_FAILED,
    CONNECTION_CLOSED,
    HANDSHAKE_FAILED,
    INTERNAL_ERROR,
    SERVER_EXITED,
    TIMEOUT_TOTAL,
)
from hostcompat.probe.options import PROBE_HANDSHAKE_VERSION
from hostcompat.probe.snapshot import Snapshot, UIResourceCapture
from hostcompat.report.document import server_entry
from hostcompat.widget_analysis import (
    DEFAULT_WIDGET_CHARS,
    DEFAULT_WIDGET_SECONDS,
    WidgetAnalysis,
    WidgetBudget,
    analyse_widgets,
    unreached_notes,
    unreached_wrapper_needs,
    with_observed_needs,
)
from hostcompat.widget_scans import ScanSource
from hostcompat.wire_json import WireJSON, WireValue
from hostcompat.with_proxy import ProxiedVerdict, proxied_verdicts, with_proxied

if TYPE_CHECKING:
    from hostcompat.report.model import ServerEntry

MAX_REPORTED_EVENTS: Final = 200
"""The most probe events of one server carried into the report (a snapshot file may hold any number)."""


@dataclass(frozen=True, kw_only=True)
class CheckSettings:
    """What a check is told besides the snapshot.

    `host_ids` are the hosts to judge (catalog ids; None: every host), `host_versions` pins their versions (host id
    → version; by default each host's current one), and `as_of` is the date of the check, against which the age of
    old host facts is told. The widgets are analysed within `widget_budget`. `observed` are runs of the widgets in a
    browser (`hostcompat.observe`): cited per host, and a need a run reached counts like a scanned one.
    `host_contexts` are the OS, registration path or gates to judge hosts in (host id, None for every host →
    context; default the common path).
    """

    catalog: Catalog
    host_ids: tuple[str, ...] | None = None
    host_versions: Mapping[str, str] | None = None
    as_of: str | None = None
    widget_budget: WidgetBudget = dataclasses.field(default_factory=WidgetBudget)
    observed: tuple[ObservedRun, ...] = ()
    host_contexts: Mapping[str | None, HostContext] | None = None


@dataclass(frozen=True, kw_only=True)
class Bounded:
    """The snapshot with long tool and resource values cut (see `engine.long_values`), and the findings on them."""

    snapshot: Snapshot
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Derived:
    """The server's requirements, derived once from its tools (None when the probe never connected)."""

    bounded: Bounded
    tools: tuple[WireJSON, ...] | None
    read: ServerTools
    """The tools as the engine read them: the requirements (before the widgets' needs), the tool list, and each
    tool's `_meta` inspection."""

    @property
    def requirements(self) -> ServerRequirements:
        """What the tools need, before the widgets were scanned: which tools name which widget."""
        return self.read.requirements

    @property
    def snapshot(self) -> Snapshot:
        """The bounded snapshot."""
        return self.bounded.snapshot


@dataclass(frozen=True, kw_only=True)
class Scanned:
    """What the server's widgets were found to need."""

    derived: Derived
    widgets: WidgetAnalysis

    @property
    def snapshot(self) -> Snapshot:
        """The bounded snapshot."""
        return self.derived.snapshot


@dataclass(frozen=True, kw_only=True)
class Judged:
    """One report per judged host, and the tool results they were judged against."""

    scanned: Scanned
    evaluation: Evaluation
    digest: ServerDigest
    """The server as the verdicts read it, built once; the hygiene check reads its tool list too."""
    results: Mapping[str, WireJSON] | None
    """Tool name → the raw result a call returned (see `captured_results`); None when no call returned one."""
    notes: tuple[Mapping[str, str], ...] = ()
    """What the observed runs changed in the static needs (a wrapper's need never reached), as report events."""

    @property
    def snapshot(self) -> Snapshot:
        """The bounded snapshot."""
        return self.scanned.snapshot


@dataclass(frozen=True, kw_only=True)
class Checked:
    """The whole check: the verdicts and the server's own hygiene findings."""

    judged: Judged
    hygiene: tuple[Finding, ...]

    @property
    def snapshot(self) -> Snapshot:
        """The bounded snapshot."""
        return self.judged.snapshot


# --- the stages ----------------------------------------------------------------------------------------------------


def bound_values(snapshot: Snapshot) -> Bounded:
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
        return Bounded(snapshot=snapshot)
    bounded = dataclasses.replace(snapshot, tools=cut.tools, resources=cut.resources, ui_resources=captures)
    return Bounded(snapshot=bounded, findings=cut.findings)


def derive(bounded: Bounded) -> Derived:
    """The server's requirements from its tools, the one time they are derived: which tools name which widget (for
    the scan), and what the hosts are judged on, once the widgets' needs are known (`judge`).

    A server that gave no tool list (`Snapshot.listed_tools`) has no tools to judge (None: not loaded).

    Raises:
        InvalidInput: a tool list the engine refuses (see `derive_server_requirements`).
    """
    snapshot = bounded.snapshot
    tools = snapshot.listed_tools
    truncated = tools is not None and snapshot.is_unknown("tools")  # no list at all is "not loaded", not cut short
    read = read_server_tools(None if tools is None else list(tools), tools_truncated=truncated)
    return Derived(bounded=bounded, tools=tools, read=read)


def scan_widgets(derived: Derived, budget: WidgetBudget, scans: ScanSource | None = None) -> Scanned:
    """Scan every widget the tools name, within `budget`, each content by `scans` (`widget_analysis`)."""
    return Scanned(derived=derived, widgets=analyse_widgets(derived.snapshot, derived.requirements, budget, scans))


def judge(scanned: Scanned, settings: CheckSettings) -> Judged:
    """Complete the requirements with what the widgets need (scanned or seen in a run) and the connection's facts,
    and judge every host of `settings` on them, against the tool results the probe captured.

    Raises:
        InvalidInput: a malformed input the engine refuses.
        CatalogError: a host id that names no catalog host.
    """
    snapshot = scanned.snapshot
    unreached = unreached_wrapper_needs(scanned.widgets.wrapper_only, settings.observed)
    usage = with_observed_needs(
        scanned.widgets.usage, settings.observed, unreached=[(tool, need) for tool, need, _ in unreached]
    )
    tools = scanned.derived.tools
    results = captured_results(snapshot)
    digest = digest_read_tools(
        scanned.derived.read,
        None if tools is None else list(tools),
        widget_usage=usage,
        connection_facts=connection_facts(snapshot),
        call_results=results,
        observed=settings.observed,
    )
    evaluation = evaluate_all_hosts(
        None,
        settings.catalog,
        digest=digest,
        host_ids=settings.host_ids,
        host_versions=settings.host_versions,
        as_of=settings.as_of,
        host_contexts=settings.host_contexts,
    )
    return Judged(
        scanned=scanned, evaluation=evaluation, results=results, digest=digest, notes=unreached_notes(unreached)
    )


def hygiene(judged: Judged) -> Checked:
    """The server's own MCP Apps hygiene: its tools, resources and widgets, and the text fallback of its results."""
    snapshot = judged.snapshot
    ui_resources = {
        uri: {"error": dict(capture.error)} if capture.error is not None else {"contents": list(capture.contents)}
        for uri, capture in snapshot.ui_resources.items()
        if not capture.truncated
    }
    fallback = _fallback_results(snapshot, judged.results)
    # a server with no tool list (never connected, or tools/list failed) has none to share: hygiene reads the snapshot's
    digest = judged.digest if judged.scanned.derived.tools is not None else None
    findings = check_server_hygiene(
        list(snapshot.tools), list(snapshot.resources), ui_resources, call_results=fallback, digest=digest
    )
    return Checked(judged=judged, hygiene=tuple(findings))


def report_entry(
    checked: Checked,
    *,
    target: WireJSON,
    notes: Sequence[Mapping[str, str]] = (),
    proxied: Mapping[str, ProxiedVerdict] | None = None,
) -> ServerEntry:
    """The server's part of the report document: its server line, host reports (with the verdict the client rules
    give in `proxied`), findings and events (the probe's, then why a widget was not analysed, then `notes`).
    """
    snapshot = checked.snapshot
    bounded = checked.judged.scanned.derived.bounded
    widgets = checked.judged.scanned.widgets
    evaluation = checked.judged.evaluation
    events: list[Mapping[str, str]] = [
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
        hosts=with_proxied([report.to_dict() for report in evaluation.reports], proxied or {}),
        hygiene=[finding.to_dict() for finding in (*bounded.findings, *widgets.findings, *checked.hygiene)],
        events=[*events, *widgets.notes, *checked.judged.notes, *(dict(note) for note in notes)],
        requirements=evaluation.requirements.to_dict(),
        error=probe_failure(snapshot),
        widgets=[widget.to_dict() for widget in widgets.widgets],
    )


def check_snapshot(
    snapshot: Snapshot,
    catalog: Catalog,
    *,
    host_ids: Iterable[str] | None = None,
    target: WireJSON | None = None,
    host_versions: Mapping[str, str] | None = None,
    as_of: str | None = None,
    widget_budget: WidgetBudget | None = None,
    observed: Sequence[ObservedRun] = (),
    notes: Sequence[Mapping[str, str]] = (),
    host_contexts: Mapping[str | None, HostContext] | None = None,
    client_rules: Sequence[Rule] = (),
    widget_scans: ScanSource | None = None,
) -> ServerEntry:
    """One server's part of the report document, from its snapshot: every stage of the flow, in order.

    The arguments are those of `CheckSettings` (`host_ids` may also be aliases), `target` what the report says of
    the server besides the snapshot's own target, and `notes` report events to add. With `client_rules`, each host
    that is not `works` is judged again on the data those rules rewrite for its client (`hostcompat.with_proxy`), and
    its entry says so where the verdict improves. `widget_scans` scans widget content (a run's: same bytes, once).

    Whatever the snapshot holds, an entry comes back: long names and URIs are cut (with a finding on the tool or
    resource), and a check that still fails on the server's data gives an entry that says so, without host
    verdicts, so the other servers of a run keep their reports.

    Raises:
        CatalogError: a name in `host_ids` names no catalog host.
    """
    ids = tuple(catalog.get(name).id for name in host_ids) if host_ids else None
    entry_target = _bounded_json({**dict(snapshot.target), **dict(target or {})})
    settings = CheckSettings(
        catalog=catalog,
        host_ids=ids,
        host_versions=host_versions,
        as_of=as_of,
        widget_budget=widget_budget or WidgetBudget(),
        observed=tuple(observed),
        host_contexts=host_contexts,
    )
    try:
        scanned = scan_widgets(derive(bound_values(snapshot)), settings.widget_budget, widget_scans)
        checked = hygiene(judge(scanned, settings))
    except HostCompatError as error:
        message = f"the check of this server failed on its data: {error.message}"
        event = {"code": "CHECK-FAILED", "message": cut_value(message, 2000), "severity": "error"}
        return server_entry(target=entry_target, server=None, hosts=[], events=[event])

    def rejudge(rewritten: Snapshot, ids: tuple[str, ...]) -> Evaluation:
        again = Scanned(derived=derive(bound_values(rewritten)), widgets=scanned.widgets)
        return judge(again, dataclasses.replace(settings, host_ids=ids)).evaluation

    proxied = proxied_verdicts(
        scanned.snapshot, checked.judged.evaluation, catalog, client_rules, rejudge, host_versions=host_versions
    )
    return report_entry(checked, target=entry_target, notes=notes, proxied=proxied)


# --- what the stages read of a snapshot ------------------------------------------------------------------------------


def connection_facts(snapshot: Snapshot) -> ConnectionFacts:
    """The facts of the connection the engine's server lane uses.

    The negotiated protocol version says something about the server only when the server chose it: the probe asks
    for the newest version, so a server that speaks it simply agrees, and a host asking for an older one gets that
    one instead. Only a handshake the server answered with another version than the probe asked for (the server
    cannot speak newer) is passed on, for the engine to compare with each host's versions. What the probe asked for
    is in the snapshot; one taken before the probe recorded it asked for `PROBE_HANDSHAKE_VERSION`.
    """
    info = snapshot.server_info or {}
    era = (snapshot.connection or {}).get("era")
    version = snapshot.protocol_version
    asked = snapshot.requested_protocol_version or PROBE_HANDSHAKE_VERSION
    chosen = version if era == "handshake" and version != asked else None
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


def captured_results(snapshot: Snapshot) -> Mapping[str, WireJSON] | None:
    """Tool name → the raw result its call returned (an `isError` one only when no call of it succeeded), for the
    engine's result checks; `None` when no call returned a result (nothing is known about results).
    """
    results = snapshot.call_results
    return dict(results) if results else None


def _fallback_results(snapshot: Snapshot, results: Mapping[str, WireJSON] | None) -> dict[str, WireJSON] | None:
    """The results the text-fallback check reads: only those that are not tool errors (an error message says
    nothing about what the tool returns when it works); `{}` when calls were made but none succeeded.
    """
    succeeded = {name: result for name, result in (results or {}).items() if result.get("isError") is not True}
    return succeeded if succeeded or snapshot.calls else None


def _scalar(value: object) -> object:
    """A server-sent value for the report's server line: a string cut to length, a number or null as is, and any
    other JSON as a short preview.
    """
    if isinstance(value, str):
        return cut_value(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return preview_value(value)


_MAX_TARGET_ITEMS, _MAX_TARGET_DEPTH = 256, 8


def _bounded_json(value: WireValue, depth: int = 0) -> Any:
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
    "Bounded",
    "CheckSettings",
    "Checked",
    "Derived",
    "Judged",
    "Scanned",
    "WidgetAnalysis",
    "WidgetBudget",
    "bound_values",
    "captured_results",
    "check_snapshot",
    "connection_facts",
    "derive",
    "hygiene",
    "judge",
    "probe_failure",
    "report_entry",
    "scan_widgets",
    "with_observed_needs",
]
