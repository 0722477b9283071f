"""Group the same finding across hosts, so a report says a thing once and lists the hosts it applies to (and an
event once: not again below the server's error that already quotes it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_SEVERITY_ORDER = {"blocker": 0, "degraded": 1, "info": 2}


@dataclass(frozen=True)
class FindingGroup:
    """One finding (as first seen) and every host it was reported for."""

    finding: Mapping[str, Any]
    hosts: tuple[str, ...]


def group_findings(hosts: Sequence[Mapping[str, Any]]) -> list[FindingGroup]:
    """Findings keyed by rule id, tools, resources and remediation; worst severity first, then by rule id."""
    order: list[tuple[Any, ...]] = []
    first: dict[tuple[Any, ...], Mapping[str, Any]] = {}
    where: dict[tuple[Any, ...], list[str]] = {}
    for host in hosts:
        label = str(host.get("hostLabel") or host.get("hostId"))
        for finding in host.get("findings") or ():
            key = (
                finding.get("ruleId"),
                tuple(finding.get("tools") or ()),
                tuple(finding.get("resources") or ()),
                finding.get("remediation"),
                finding.get("severity"),
            )
            if key not in first:
                order.append(key)
                first[key] = finding
                where[key] = []
            if label not in where[key]:
                where[key].append(label)
    groups = [FindingGroup(first[key], tuple(where[key])) for key in order]
    groups.sort(key=lambda g: (_SEVERITY_ORDER.get(str(g.finding.get("severity")), 3), str(g.finding.get("ruleId"))))
    return groups


def other_events(server: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The server's events, less those whose message its `error` already quotes."""
    error = str(server.get("error") or "")
    events: list[Mapping[str, Any]] = list(server.get("events") or ())
    return [event for event in events if not (error and event.get("message") and str(event["message"]) in error)]


__all__ = ["FindingGroup", "group_findings", "other_events"]
