"""Group the same finding across hosts, so a report says a thing once and lists the hosts it applies to (and an
event once: not again below the server's error that already quotes it).

Findings group only when everything a report prints of them is the same (rule, severity, title, detail, fix, tools,
resources, host fact): two findings that say different things are never merged, so no text drops one. A finding that
names its own host (its label, or its id) says the same as another host's when only that name differs: "Cursor does
not render …" and "Zed does not render …" group, and the group says "The host does not render …" with both hosts
listed (a finding alone keeps its words).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from hostcompat._dataclass import dataclass
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


_LABEL: Final = "\x00host\x00"
_ID: Final = "\x00id\x00"
_NEUTRAL_FIELDS: Final = ("title", "detail", "remediation")


def _is_word(char: str) -> bool:
    """Whether `char` is a word character as `\\w` means it in a regular expression."""
    return char.isalnum() or char == "_"


def _marked(text: str, name: str, mark: str) -> str:
    """`text` with `name` replaced by `mark` where it stands as a whole name: not inside a longer word, path or id
    (no word character, `.`, `/` or `-` just before it, no word character, `/` or `-` just after it). Each place is
    taken left to right, as a regular expression would, without compiling one per host.
    """
    if not name.strip():
        return text
    parts: list[str] = []
    copied = 0
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        before = text[at - 1] if at else " "
        after = text[end] if end < len(text) else " "
        if _is_word(before) or before in "./-" or _is_word(after) or after in "/-":
            at = text.find(name, at + 1)
            continue
        parts += [text[copied:at], mark]
        copied = end
        at = text.find(name, end)
    return "".join(parts) + text[copied:] if parts else text


def _neutral(finding: WireJSON, label: str, host_id: str) -> WireJSON:
    """The finding with its own host's label and id, where its title, detail and fix name them, as placeholders."""
    out = dict(finding)
    for field in _NEUTRAL_FIELDS:
        value = finding.get(field)
        if isinstance(value, str):
            for name, mark in ((label, _LABEL), (host_id, _ID)):
                value = _marked(value, name, mark)
            out[field] = value
    return out


def _in_words(text: str) -> str:
    """Neutral text in words: "the host" for the label ("The host" opening a sentence), `<host id>` for the id."""
    text = re.sub(rf"(^|[.!?:]\s+){_LABEL}", r"\1The host", text)
    return text.replace(_LABEL, "the host").replace(_ID, "<host id>")


def _said_of_the_host(finding: WireJSON) -> FindingEntry:
    """A neutral finding in words (`_in_words`)."""
    out = dict(finding)
    for field in _NEUTRAL_FIELDS:
        value = finding.get(field)
        if isinstance(value, str) and "\x00" in value:
            out[field] = _in_words(value)
    return cast("FindingEntry", out)


def _key(finding: WireJSON) -> tuple[Any, ...]:
    texts = tuple(str(finding.get(field)) if finding.get(field) is not None else None for field in _TEXT_FIELDS)
    lists = tuple(
        tuple(str(item) for item in value) if isinstance(value := finding.get(field), list) else ()
        for field in _LIST_FIELDS
    )
    return texts + lists


def group_findings(hosts: Sequence[HostEntry]) -> list[FindingGroup]:
    """Findings that print the same (but for the name of their own host), with their hosts; worst severity first,
    then by rule id, else in host order.
    """
    order: list[tuple[Any, ...]] = []
    first: dict[tuple[Any, ...], FindingEntry] = {}
    neutral: dict[tuple[Any, ...], WireJSON] = {}
    where: dict[tuple[Any, ...], list[str]] = {}
    for host in _objects(hosts):
        label = str(host.get("hostLabel") or host.get("hostId"))
        host_id = str(host.get("hostId") or "")
        findings = host.get("findings")
        for finding in findings if isinstance(findings, list) else ():
            if not isinstance(finding, Mapping):
                continue  # a saved report is read as it is: what is not a finding is not printed as one
            said = _neutral(finding, label, host_id)
            key = _key(said)
            if key not in first:
                order.append(key)
                first[key] = cast("FindingEntry", finding)
                neutral[key] = said
                where[key] = []
            if label not in where[key]:
                where[key].append(label)
    groups = [
        FindingGroup(first[key] if len(where[key]) == 1 else _said_of_the_host(neutral[key]), tuple(where[key]))
        for key in order
    ]
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


@dataclass(frozen=True)
class SharedReason:
    """One reason some host lanes give for an unknown verdict, and the hosts that give it, in host order."""

    lane: str
    reason: str
    hosts: tuple[str, ...]

    def who(self, judged: int) -> str:
        """Who gives the reason, out of `judged` hosts: the host's name, "every host" or "N hosts" (then the hosts
        are listed apart).
        """
        if len(self.hosts) == 1:
            return self.hosts[0]
        return f"{len(self.hosts)} hosts" if self.listed(judged) else "every host"

    def listed(self, judged: int) -> bool:
        """Whether the hosts are listed apart: more than one, but not every one of the `judged`."""
        return 1 < len(self.hosts) < judged


def shared_reasons(lanes: Sequence[UnknownReasons]) -> list[SharedReason]:
    """`lanes` by lane and reason: each reason once, with every host whose lane gives it (a server that could not be
    probed gives the same few reasons for every host), in the order the reasons first appear. A reason that names its
    own host ("whether Joey supports message") is the same reason for every host; said for several, it names "the
    host".
    """
    first: dict[tuple[str, str], str] = {}
    hosts: dict[tuple[str, str], list[str]] = {}
    for lane in lanes:
        for reason in lane.reasons:
            key = (lane.lane, _marked(reason, lane.host, _LABEL))
            first.setdefault(key, reason)
            named = hosts.setdefault(key, [])
            if lane.host not in named:
                named.append(lane.host)
    return [
        SharedReason(lane, first[(lane, said)] if len(named) == 1 else _in_words(said), tuple(named))
        for (lane, said), named in hosts.items()
    ]


def _objects(items: object) -> list[WireJSON]:
    """The objects among `items` (a saved report is read as it is: what is not an object is not read as one)."""
    return [item for item in items if isinstance(item, Mapping)] if isinstance(items, (list, tuple)) else []


__all__ = [
    "FindingGroup",
    "SharedReason",
    "UnknownReasons",
    "group_findings",
    "other_events",
    "shared_reasons",
    "unknown_reasons",
]
