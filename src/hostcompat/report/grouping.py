"""Group the same finding across hosts, so a report says a thing once and lists the hosts it applies to (and an
event once: not again below the server's error that already quotes it).

Findings group only when everything a report prints of them is the same (rule, severity, title, detail, fix, tools,
resources, host fact): two findings that say different things are never merged, so no text drops one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, cast

from hostcompat.wire_json import WireJSON

if TYPE_CHECKING:
    from hostcompat.report.model import EventEntry, FindingEntry, HostEntry, ServerEntry

_SEVERITY_ORDER = {"blocker": 0, "degraded": 1, "info": 2}
_TEXT_FIELDS: Final = (
    "ruleId",
    "severity",
    "title",
    "detail",
    "remediation",
    "provenance",
    "factSource",
    "factDate",
    "factSince",
    "factFixedIn",
)
_LIST_FIELDS: Final = ("tools", "resources")


@dataclass(frozen=True)
class FindingGroup:
    """One finding (as first seen) and every host it was reported for."""

    finding: FindingEntry
    hosts: tuple[str, ...]


@dataclass(frozen=True)
class UnknownReasons:
    """Why one lane of one host is unknown, in the order the engine gave the reasons."""

    host: str
    lane: str
    reasons: tuple[str, ...]


def _key(finding: WireJSON) -> tuple[Any, ...]:
    texts = tuple(str(finding.get(field)) if finding.get(field) is not None else None for field in _TEXT_FIELDS)
    lists = tuple(
        tuple(str(item) for item in value) if isinstance(value := finding.get(field), list) else ()
        for field in _LIST_FIELDS
    )
    return texts + lists


def group_findings(hosts: Sequence[HostEntry]) -> list[FindingGroup]:
    """Findings that print the same, with their hosts; worst severity first, then by rule id, else in host order."""
    order: list[tuple[Any, ...]] = []
    first: dict[tuple[Any, ...], FindingEntry] = {}
    where: dict[tuple[Any, ...], list[str]] = {}
    for host in _objects(hosts):
        label = str(host.get("hostLabel") or host.get("hostId"))
        findings = host.get("findings")
        for finding in findings if isinstance(findings, list) else ():
            if not isinstance(finding, Mapping):
                continue  # a saved report is read as it is: what is not a finding is not printed as one
            key = _key(finding)
            if key not in first:
                order.append(key)
                first[key] = cast("FindingEntry", finding)
                where[key] = []
            if label not in where[key]:
                where[key].append(label)
    groups = [FindingGroup(first[key], tuple(where[key])) for key in order]
    groups.sort(key=lambda g: (_SEVERITY_ORDER.get(str(g.finding.get("severity")), 3), str(g.finding.get("ruleId"))))
    return groups


def other_events(server: ServerEntry) -> list[EventEntry]:
    """The server's events, less those whose message its `error` already quotes."""
    error = str(server.get("error") or "")
    raw = server.get("events")
    events = _objects(raw) if isinstance(raw, list) else []
    return [
        cast("EventEntry", event)
        for event in events
        if not (error and event.get("message") and str(event["message"]) in error)
    ]


def unknown_reasons(hosts: Sequence[HostEntry]) -> list[UnknownReasons]:
    """Each lane of each host that gave reasons for an unknown verdict, in host and lane order."""
    out: list[UnknownReasons] = []
    raw: Sequence[WireJSON] = hosts  # read as the untyped JSON a saved report may hold
    for host in raw:
        label = str(host.get("hostLabel") or host.get("hostId"))
        lanes = host.get("lanes")
        for lane, verdict in lanes.items() if isinstance(lanes, Mapping) else ():
            reasons = verdict.get("unknown") if isinstance(verdict, Mapping) else None
            if isinstance(reasons, list) and reasons:
                out.append(UnknownReasons(label, str(lane), tuple(str(reason) for reason in reasons)))
    return out


def _objects(items: object) -> list[WireJSON]:
    """The objects among `items` (a saved report is read as it is: what is not an object is not read as one)."""
    return [item for item in items if isinstance(item, Mapping)] if isinstance(items, (list, tuple)) else []


__all__ = ["FindingGroup", "UnknownReasons", "group_findings", "other_events", "unknown_reasons"]
