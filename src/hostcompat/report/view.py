"""What the text, rich and Markdown reports show of a document, read from it once: server by server, its name and
target, why it could not be checked, its probe events, one row per host, the verdict counts, why lanes are unknown,
each finding once with its hosts, and the server's own hygiene; then each host across the servers.

The document may be a saved report of any shape (a hand-edited or hostile file that `read_report` let through, or
one built by hand): every value is read as the untrusted JSON it may be, and shown as text (`str`) for each
renderer to make safe its own way (a terminal line, Markdown). What is not an object where one is expected is not
read as one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, cast

from hostcompat._dataclass import dataclass
from hostcompat.report.grouping import UnknownReasons, group_findings, other_events, unknown_reasons
from hostcompat.wire_json import WireJSON, WireValue

if TYPE_CHECKING:
    from hostcompat.report.model import HostEntry, ReportDocument, ServerEntry

SUMMARY_ORDER: Final = ("works", "degraded", "blocked", "unknown")
"""The order the verdict counts are told in."""


@dataclass(frozen=True)
class HostFact:
    """The host fact behind a finding: its provenance, source and date."""

    provenance: str
    source: str
    date: str


@dataclass(frozen=True)
class FindingView:
    """One finding as the reports show it, with the hosts it applies to (none for a hygiene finding)."""

    rule_id: str
    severity: str
    title: str
    detail: str
    """The detail, empty when the finding has none."""
    has_detail: bool
    """The finding gives a detail (the text report prints it only then; the Markdown one always)."""
    remediation: str | None
    tools: tuple[str, ...]
    fact: HostFact | None
    hosts: tuple[str, ...] = ()


@dataclass(frozen=True)
class EventView:
    """A probe event the server's error does not already quote."""

    code: str
    message: str


@dataclass(frozen=True)
class HostRow:
    """One host's row: its label, verdict, each lane's verdict (empty when unknown) and how many findings."""

    label: str
    verdict: str
    apps: str
    server: str
    findings: int


@dataclass(frozen=True)
class ProxiedRow:
    """A host whose verdict hostcompat's client rules improve: its label, the verdict with them, the rules, and the
    findings they make go away.
    """

    label: str
    verdict: str
    rules: tuple[str, ...]
    fixed: tuple[str, ...] = ()

    @property
    def line(self) -> str:
        """`with `hostcompat proxy` in front, Codex: works (client rules: …; fixes …; or the middleware in a Python
        server)`.
        """
        fixes = f"; fixes {', '.join(self.fixed)}" if self.fixed else ""
        return (
            f"with `hostcompat proxy` in front, {self.label}: {self.verdict} (client rules: {', '.join(self.rules)}"
            f"{fixes}; or the same rules as middleware in a Python server)"
        )


@dataclass(frozen=True)
class ServerView:
    """One server's part of a report, as the reports show it."""

    name: str
    """The server's name, else its target's, else `server`."""
    version: str | None
    display: str
    """The target's one-line name, empty when it has none."""
    has_display: bool
    error: str | None
    """Why the server could not be checked (None: it was)."""
    events: tuple[EventView, ...]
    hosts: tuple[HostRow, ...]
    summary: tuple[tuple[str, str], ...]
    """(verdict, how many hosts got it) in `SUMMARY_ORDER`."""
    unknown: tuple[UnknownReasons, ...]
    findings: tuple[FindingView, ...]
    """Each finding once, worst first, with its hosts (`group_findings`)."""
    hygiene: tuple[FindingView, ...]
    proxied: tuple[ProxiedRow, ...] = ()
    """The hosts whose verdict the client rules improve, in host order."""


@dataclass(frozen=True)
class HostTally:
    """One host across the servers of a report: how many servers got each verdict on it, in `SUMMARY_ORDER`."""

    label: str
    counts: tuple[int, ...]


@dataclass(frozen=True)
class ReportView:
    """A whole report, server by server, and each host across the servers."""

    servers: tuple[ServerView, ...]
    tallies: tuple[HostTally, ...] = ()
    """Each host (in the order first met) with its verdict counts across the servers that were checked."""

    @property
    def unchecked(self) -> int:
        """How many servers could not be checked."""
        return sum(1 for server in self.servers if server.error is not None)


def report_view(document: ReportDocument) -> ReportView:
    """The view of `document`, whatever its shape."""
    raw: WireJSON = document
    servers = tuple(server_view(cast("ServerEntry", server)) for server in _objects(raw.get("servers")))
    return ReportView(servers, host_tallies(servers))


def host_tallies(servers: tuple[ServerView, ...]) -> tuple[HostTally, ...]:
    """Each host's verdict counts across `servers` (a verdict outside `SUMMARY_ORDER` counts as unknown)."""
    counts: dict[str, list[int]] = {}
    unknown = SUMMARY_ORDER.index("unknown")
    for server in servers:
        for host in server.hosts:
            row = counts.setdefault(host.label, [0] * len(SUMMARY_ORDER))
            row[SUMMARY_ORDER.index(host.verdict) if host.verdict in SUMMARY_ORDER else unknown] += 1
    return tuple(HostTally(label, tuple(row)) for label, row in counts.items())


def server_view(entry: ServerEntry) -> ServerView:
    """The view of one server's part of a report, whatever its shape."""
    server: WireJSON = entry
    target = _object(server.get("target"))
    info = _object(server.get("server"))
    hosts = cast("list[HostEntry]", _objects(server.get("hosts")))
    summary = _object(server.get("summary"))
    version, error = info.get("version"), server.get("error")
    return ServerView(
        name=str(info.get("name") or target.get("display") or "server"),
        version=str(version) if version else None,
        display=str(target.get("display", "")),
        has_display=bool(target.get("display")),
        error=str(error) if error else None,
        events=tuple(EventView(str(event.get("code")), str(event.get("message", ""))) for event in other_events(entry)),
        hosts=tuple(_host_row(host) for host in hosts),
        summary=tuple((verdict, str(summary.get(verdict, 0))) for verdict in SUMMARY_ORDER),
        unknown=tuple(unknown_reasons(hosts)),
        findings=tuple(finding_view(group.finding, group.hosts) for group in group_findings(hosts)),
        hygiene=tuple(finding_view(finding) for finding in _objects(server.get("hygiene"))),
        proxied=tuple(row for row in (_proxied_row(host) for host in hosts) if row is not None),
    )


def _proxied_row(host: WireJSON) -> ProxiedRow | None:
    proxy = host.get("withProxy")
    if not isinstance(proxy, Mapping):
        return None
    rules = tuple(str(rule) for rule in _items(proxy.get("rules")))
    fixed = tuple(str(finding) for finding in _items(proxy.get("fixed")))
    return ProxiedRow(str(host.get("hostLabel") or host.get("hostId")), str(proxy.get("verdict")), rules, fixed)


def _host_row(host: WireJSON) -> HostRow:
    lanes = _object(host.get("lanes"))
    return HostRow(
        label=str(host.get("hostLabel") or host.get("hostId")),
        verdict=str(host.get("verdict")),
        apps=str(_object(lanes.get("apps")).get("verdict", "")),
        server=str(_object(lanes.get("server")).get("verdict", "")),
        findings=len(_items(host.get("findings"))),
    )


def finding_view(finding: WireJSON, hosts: tuple[str, ...] = ()) -> FindingView:
    """The view of one finding (of any shape) and the hosts it applies to."""
    detail, remediation, source = finding.get("detail", ""), finding.get("remediation"), finding.get("factSource")
    fact = None
    if source:
        fact = HostFact(str(finding.get("provenance", "unknown")), str(source), str(finding.get("factDate", "undated")))
    return FindingView(
        rule_id=str(finding.get("ruleId")),
        severity=str(finding.get("severity")),
        title=str(finding.get("title", "")),
        detail=str(detail),
        has_detail=bool(detail),
        remediation=str(remediation) if remediation else None,
        tools=tuple(str(tool) for tool in _items(finding.get("tools"))),
        fact=fact,
        hosts=hosts,
    )


def _object(value: object) -> WireJSON:
    return value if isinstance(value, Mapping) else {}


def _items(value: object) -> list[WireValue] | tuple[WireValue, ...]:
    return value if isinstance(value, (list, tuple)) else ()


def _objects(value: object) -> list[WireJSON]:
    return [item for item in _items(value) if isinstance(item, Mapping)]


__all__ = [
    "SUMMARY_ORDER",
    "ProxiedRow",
    "EventView",
    "FindingView",
    "HostFact",
    "HostRow",
    "HostTally",
    "ReportView",
    "ServerView",
    "finding_view",
    "host_tallies",
    "report_view",
    "server_view",
]
