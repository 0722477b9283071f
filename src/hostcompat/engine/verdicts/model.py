"""The verdict half's data: per-host reports and lane verdicts, and the helpers both lanes build findings with.

Reports are frozen values with a JSON `to_dict()`. What is computed once per server so that each host costs only
its own checks is the `ServerDigest` (`hostcompat.engine.server.digest`); `LaneBuilder` collects one lane's
findings, the host facts it consulted and why it stays unknown.

A lane decides each finding (its rule, severity and tools, which is all a verdict needs) when the host is judged,
and writes it (texts, evidence, the fact's source) only when the report's `findings` are first read: most of an
evaluation's cost was those texts, which a caller after the verdicts alone never reads. A finding is written from
the same host, facts and server data either way, so the report is the same value whenever it is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, ParamSpec, TypedDict, cast

from hostcompat._dataclass import dataclass
from hostcompat.engine.catalog.model import Fact, FactValue, HostProfile
from hostcompat.engine.findings.make import make_evidence
from hostcompat.engine.findings.model import (
    Evidence,
    Finding,
    Lane,
    Provenance,
    Severity,
    Verdict,
    cut_snippet,
    cut_text,
    parse_enum,
    weakest,
)
from hostcompat.engine.findings.rules import RuleInfo
from hostcompat.engine.server.requirements import ServerRequirements
from hostcompat.engine.server.surface import ServerSurface
from hostcompat.engine.server.tool_set import MAX_EVIDENCE, MAX_NAMED, ToolSet, name_list
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireObject

_P = ParamSpec("_P")
_TRUST: Final = {provenance.value: provenance.trust for provenance in Provenance}
_PROVENANCES: Final = {provenance.value: provenance for provenance in Provenance}
_SEVERITY_RANK: Final = {severity: severity.rank for severity in Severity}
_VERDICT_OF_RANK: Final = {-1: Verdict.WORKS, **{severity.rank: severity.verdict for severity in Severity}}


@dataclass(frozen=True, kw_only=True)
class LaneVerdict:
    """One lane's verdict, the weakest provenance of the host facts it rests on, and why it is unknown (if so)."""

    verdict: Verdict
    provenance: Provenance | None = None
    unknown: tuple[str, ...] = ()

    def to_dict(self) -> WireObject:
        """The JSON form: `verdict`, `provenance` (null when no host fact was used) and `unknown` reasons."""
        return {
            "verdict": self.verdict.value,
            "provenance": None if self.provenance is None else self.provenance.value,
            "unknown": list(self.unknown),
        }


@dataclass(frozen=True)
class HostReport:
    """How a server fares on one host: the overall verdict, each lane's verdict, and the findings behind them.

    `lanes` maps `"apps"` and `"server"` to their `LaneVerdict`; `provenance` is the weakest provenance of the
    host facts any lane used, so a verdict never reads as more authoritative than its weakest source. A report the
    engine makes writes its `findings` when they are first read (see the module's docstring); the value is the
    same as if they had been written at once.
    """

    host_id: str
    host_label: str
    verdict: Verdict
    lanes: Mapping[str, LaneVerdict] = field(hash=False)
    findings: tuple[Finding, ...] = field(default_factory=tuple)
    provenance: Provenance | None = None
    host_kind: str | None = None
    """The host's kind in the catalog (`desktop-chat`, `ide`, `cli` …), so a report can be filtered by it."""

    if not TYPE_CHECKING:  # the findings of a report made by `pending_report`, written on first read

        def __getattr__(self, name: str) -> object:
            fields = self.__dict__
            if name == "findings":
                pending = fields.get("_pending")
                if pending is not None:
                    findings = fields["findings"] = tuple([write(*args) for *_, write, args in pending])
                    fields.pop("_pending", None)
                    return findings
                if "findings" in fields:  # written by another thread meanwhile
                    return fields["findings"]
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def apps(self) -> LaneVerdict:
        """The apps lane (widget rendering and the host APIs widgets use)."""
        return self.lanes[Lane.APPS.value]

    @property
    def server(self) -> LaneVerdict:
        """The server lane (protocol version, tool limits, schemas, results)."""
        return self.lanes[Lane.SERVER.value]

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The rule id of each finding, in report order (repeats kept)."""
        return tuple(finding.rule_id for finding in self.findings)

    def to_dict(self) -> WireObject:
        """The JSON form (camelCase keys)."""
        return {
            "hostId": self.host_id,
            "hostLabel": self.host_label,
            "verdict": self.verdict.value,
            "lanes": {name: lane.to_dict() for name, lane in self.lanes.items()},
            "findings": [finding.to_dict() for finding in self.findings],
            "provenance": None if self.provenance is None else self.provenance.value,
            **({} if self.host_kind is None else {"hostKind": self.host_kind}),
        }


def pending_report(
    host_id: str,
    host_label: str,
    verdict: Verdict,
    lanes: Mapping[str, LaneVerdict],
    pending: list[Pending],
    provenance: Provenance | None,
    host_kind: str | None,
) -> HostReport:
    """A `HostReport` whose findings are the `pending` ones, written when they are first read (the engine's
    reports: made without the dataclass's `__init__`, from fields that already have their types).
    """
    report = object.__new__(HostReport)
    fields: dict[str, object] = {
        "host_id": host_id,
        "host_label": host_label,
        "verdict": verdict,
        "lanes": lanes,
        "provenance": provenance,
        "host_kind": host_kind,
    }
    if pending:
        fields["_pending"] = pending
    else:
        fields["findings"] = ()
    object.__setattr__(report, "__dict__", fields)
    return report


@dataclass(frozen=True, kw_only=True)
class Evaluation:
    """The requirements derived once for a server and one report per evaluated host, in a stable order."""

    requirements: ServerRequirements
    reports: tuple[HostReport, ...]
    surface: ServerSurface | None = field(default=None, compare=False)

    def report(self, host_id: str) -> HostReport:
        """The report for `host_id`; `InvalidInput` when that host was not evaluated."""
        for report in self.reports:
            if report.host_id == host_id:
                return report
        raise InvalidInput(f"no report for host {cut_snippet(repr(host_id))}", value=host_id)

    @property
    def verdicts(self) -> Mapping[str, Verdict]:
        """Host id → overall verdict, in report order."""
        return MappingProxyType({report.host_id: report.verdict for report in self.reports})

    def to_dict(self) -> WireObject:
        """The JSON form: the requirements (MCPJam's shape plus hostcompat's keys) and the reports."""
        return {"requirements": self.requirements.to_dict(), "reports": [r.to_dict() for r in self.reports]}


Pending = tuple[str, Lane, Severity, tuple[str, ...], Callable[..., Finding], tuple[Any, ...]]
"""A finding a lane decided: its rule id, lane, severity and tools (what a verdict and the context check read), and
the function that writes it (texts, evidence, the fact's source) with its arguments, `write(*args)`, called when the
report's findings are read. (A flat tuple: a report keeps one per finding until then.)"""


@dataclass(frozen=True, slots=True)
class HostAt:
    """The host a lane judges (its profile in the context judged), the version judged (None: its current one) and
    the date of the check (ISO; None: the age of a fact's source is not told): what a finding is written from.
    """

    host: HostProfile
    version: str | None = None
    as_of: str | None = None


class LaneBuilder:
    """One lane of one host while it is evaluated: the findings it decided, the host facts it consulted and why it
    stays unknown (private state).

    The calls that write its findings get `at` (never the builder: a builder that its own findings referred to
    would be a reference cycle, freed only by the garbage collector).
    """

    __slots__ = ("as_of", "at", "facts", "host", "pending", "unknown", "version")

    def __init__(
        self, host: HostProfile, version: str | None = None, as_of: str | None = None, *, at: HostAt | None = None
    ) -> None:
        """A lane of `host` judged at `version` (None: its current version) on the date `as_of` (ISO; None: the age
        of a fact's source is not told); `at` is these three when the caller has them already (the other lane's).
        """
        self.host: Final = host
        self.version: Final = version
        self.as_of: Final = as_of
        self.at: Final = HostAt(host, version, as_of) if at is None else at
        self.pending: Final[list[Pending]] = []
        self.facts: Final[list[Fact]] = []
        self.unknown: Final[list[str]] = []

    def add(
        self,
        rule: RuleInfo,
        severity: Severity | None,
        tools: tuple[str, ...],
        write: Callable[_P, Finding],
        /,
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> None:
        """Decide a finding of `rule` at `severity` (None: the rule's) on `tools`, which `write(*args)` writes."""
        if kwargs:
            raise TypeError("a finding is written from positional arguments")
        level = rule.severity if severity is None else severity
        self.pending.append((rule.rule_id, rule.lane, level, tools, write, args))

    def add_finding(self, finding: Finding) -> None:
        """Add a finding written already (one that costs little to make, or that is rare)."""
        self.pending.append((finding.rule_id, finding.lane, finding.severity, finding.tools, _same, (finding,)))

    def fact(self, path: str) -> Fact | None:
        """The host's fact at `path`, recorded as consulted when it exists."""
        found = self.host.facts.get(path)
        if found is not None:
            self.facts.append(found)
        return found

    def level(self, path: str) -> tuple[str, Fact | None]:
        """The support level at `path` (`unknown` when absent) and its fact, recorded as consulted."""
        found = self.host.facts.get(path)
        if found is None:
            return "unknown", None
        self.facts.append(found)
        return str(found.value), found

    def unknown_because(self, reason: str) -> None:
        """Record why the lane is at best unknown (each reason once)."""
        if reason not in self.unknown:
            self.unknown.append(reason)

    def verdict(self) -> LaneVerdict:
        """The lane's verdict: the worst finding; unknown when that is `works` and something stayed unknown."""
        rank = -1
        for pending in self.pending:
            found = _SEVERITY_RANK[pending[2]]
            if found > rank:
                rank = found
        verdict = _VERDICT_OF_RANK[rank]
        if verdict is Verdict.WORKS and self.unknown:
            verdict = Verdict.UNKNOWN
        trusted = weakest_fact(self.facts) if self.facts else None
        provenance = None if trusted is None else provenance_of(trusted)
        return lane_verdict(verdict, provenance, tuple(self.unknown))


def _same(finding: Finding) -> Finding:
    return finding


def lane_verdict(verdict: Verdict, provenance: Provenance | None, unknown: tuple[str, ...]) -> LaneVerdict:
    """The `LaneVerdict` of these engine values (one object per verdict and provenance when nothing is unknown:
    most lanes of most hosts are one of a few such values).
    """
    if not unknown:
        shared = _SHARED_VERDICTS.get((verdict, provenance))
        if shared is not None:
            return shared
    made = object.__new__(LaneVerdict)
    object.__setattr__(made, "__dict__", {"verdict": verdict, "provenance": provenance, "unknown": unknown})
    if not unknown:
        _SHARED_VERDICTS[verdict, provenance] = made
    return made


_SHARED_VERDICTS: Final[dict[tuple[Verdict, Provenance | None], LaneVerdict]] = {}
"""(verdict, provenance) → the lane verdict with nothing unknown (at most 4 x 5 entries)."""


def report_lanes(apps: LaneVerdict, server: LaneVerdict) -> Mapping[str, LaneVerdict]:
    """A report's `lanes` of the two verdicts `LaneBuilder.verdict` gave (one mapping per pair of shared verdicts:
    most hosts have one of a few pairs).
    """
    if apps.unknown or server.unknown:
        return MappingProxyType({_APPS: apps, _SERVER: server})
    key = (id(apps), id(server))  # the mapping kept under these ids holds both objects, so the ids stay theirs
    found = _SHARED_LANES.get(key)
    if found is None:
        found = _SHARED_LANES[key] = MappingProxyType({_APPS: apps, _SERVER: server})
    return found


_SHARED_LANES: Final[dict[tuple[int, int], Mapping[str, LaneVerdict]]] = {}
"""(apps, server) shared lane verdicts, by id → the lanes mapping of both (at most 20 x 20 entries)."""
_APPS: Final = Lane.APPS.value
_SERVER: Final = Lane.SERVER.value


class FactFields(TypedDict):
    """The host-fact fields of a finding, as `finding_for` takes them."""

    provenance: Provenance | None
    fact_source: str | None
    fact_date: str | None
    fact_since: str | None
    fact_fixed_in: str | None


def fact_fields(fact: Fact | None) -> FactFields:
    """`provenance`, `fact_source`, `fact_date` and the version range (`fact_since`, `fact_fixed_in`) of `fact` for
    `finding_for` (all None without a fact).
    """
    if fact is None:
        return {"provenance": None, "fact_source": None, "fact_date": None, "fact_since": None, "fact_fixed_in": None}
    return {
        "provenance": provenance_of(fact),
        "fact_source": cut_text(fact.source),
        "fact_date": fact.date,
        "fact_since": fact.since,
        "fact_fixed_in": fact.fixed_in,
    }


def provenance_of(fact: Fact) -> Provenance:
    """The fact's provenance as a `Provenance` (`InvalidInput` for a label that is not one)."""
    return _PROVENANCES.get(fact.provenance) or parse_enum(Provenance, fact.provenance)


def weakest_of(facts: Iterable[Fact]) -> tuple[Fact, ...]:
    """The least trusted of `facts` alone (none when there are none): what a lane that consults them all records,
    since only the weakest decides its provenance.
    """
    found = weakest_fact(facts)
    return () if found is None else (found,)


def weakest_fact(facts: Iterable[Fact | None]) -> Fact | None:
    """The least trusted of `facts` (None entries skipped), the first one on a tie."""
    found: Fact | None = None
    lowest = 0
    for fact in facts:
        if fact is not None:
            trust = _TRUST.get(fact.provenance, -1)
            if found is None or trust < lowest:
                found, lowest = fact, trust
    return found


def fact_evidence(host: HostProfile, path: str, fact: Fact | None) -> Evidence:
    """Evidence naming the host fact at `path`: its value, or that the catalog has none (made once per host, path
    and fact, and kept in `host.memo`: every evaluation cites the same facts).
    """
    key = ("evidence", path)
    cached = cast("tuple[Fact | None, Evidence] | None", host.memo.get(key))
    if cached is not None and cached[0] is fact:
        return cached[1]
    snippet = "no fact in the catalog" if fact is None else show_fact_value(fact.value)
    evidence = make_evidence(f"catalog:{host.id}", path, snippet)
    host.memo[key] = (fact, evidence)
    return evidence


def show_fact_value(value: FactValue) -> str:
    """A fact's value as short text (`a, b` for lists, `true` for flags)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ", ".join(value) if value else "(empty list)"
    return str(value)


def note_suffix(fact: Fact | None) -> str:
    """` Catalog note: …` when `fact` has a note, else empty."""
    return "" if fact is None or fact.note is None else f" Catalog note: {fact.note}"


def linked_client_rules(host: HostProfile, suffixes: Iterable[str]) -> tuple[str, ...]:
    """The client rule ids the host's quirks link whose name after the client part is one of `suffixes`.

    Client rule ids read `<client>.<rewrite>` (`cursor.truncate-tool-names`), so the rewrite part says what a
    rule fixes whichever client it is for.
    """
    wanted = frozenset(suffixes)
    rules = (quirk.rule for quirk in host.quirks if quirk.rule is not None)
    return tuple(dict.fromkeys(rule for rule in rules if rule.partition(".")[2] in wanted))


def with_client_rules(remediation: str, rules: Sequence[str], *, only_when: str | None = None) -> str:
    """`remediation` plus a sentence naming the hostcompat client rules that rewrite the problem away; `only_when`
    says in which results they do, for rules that fix only some cases of it.
    """
    if not rules:
        return cut_text(remediation)
    names = ", ".join(rules)
    verb = "rewrites" if len(rules) == 1 else "rewrite"
    case = "" if only_when is None else f" {only_when}"
    how = "hostcompat proxy -- <server command>, or hostcompat.clients.install(server) in a Python server"
    rule = f"its rule {names} {verb} this for this host{case}"
    return cut_text(f"{remediation} Or serve it through hostcompat ({how}): {rule}.")


def weakest_lane(lanes: Iterable[LaneVerdict]) -> Provenance | None:
    """The weakest provenance over lanes (None when no lane used a host fact)."""
    return weakest(lane.provenance for lane in lanes)


__all__ = [
    "MAX_EVIDENCE",
    "MAX_NAMED",
    "Evaluation",
    "FactFields",
    "HostAt",
    "HostReport",
    "LaneBuilder",
    "LaneVerdict",
    "Pending",
    "ToolSet",
    "cut_text",
    "fact_evidence",
    "fact_fields",
    "linked_client_rules",
    "name_list",
    "lane_verdict",
    "note_suffix",
    "pending_report",
    "provenance_of",
    "report_lanes",
    "show_fact_value",
    "weakest_fact",
    "weakest_lane",
    "weakest_of",
    "with_client_rules",
]
