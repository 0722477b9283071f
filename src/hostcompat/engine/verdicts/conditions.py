"""Evidence before verdict: when a conditional host fact may degrade a verdict, and what its finding then says.

A fact degrades only when this server's own data fires its trigger; when the data that would decide it was not
captured, it is `info` and says how to get it; a fact with no trigger the engine can evaluate, one marked
`infoOnly`, and one that holds only for host versions other than the one judged are `info` too. Old sources are
kept, with their age said.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Concatenate, Final, NamedTuple, ParamSpec

from hostcompat._regex import regex
from hostcompat.engine.catalog.model import Fact, QuirkRef
from hostcompat.engine.findings.model import Evidence, Finding, Severity
from hostcompat.engine.findings.rules import RuleInfo
from hostcompat.engine.server.digest import ServerDigest
from hostcompat.engine.verdicts.model import HostAt, LaneBuilder, name_list
from hostcompat.engine.verdicts.triggers import TriggerOutcome

STALE_AFTER_MONTHS: Final = 6
"""A source older than this, with nothing saying the bug was fixed, is kept but its age is said."""

_PART = regex(r"\d+|[A-Za-z]+")
_P = ParamSpec("_P")

_DECIDE: Final = (
    "Capture a result of each of these tools (hostcompat calls read-only tools without arguments by itself; "
    "name others with --call TOOL=JSON) to decide it."
)


class Judgement(NamedTuple):
    """How one conditional fact weighs on this server and host: the severity of its finding (None: no finding),
    the trigger's outcome, the tools and evidence to cite, and on what it rests (`basis`: `info-only`, `undecided`
    or `fired`), which `qualifier` puts in words for the finding's detail; a named tuple, as a host makes several.
    """

    severity: Severity | None
    tools: tuple[str, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    outcome: TriggerOutcome | None = None
    basis: str = ""


def judge(
    server: ServerDigest,
    lane: LaneBuilder,
    fact: Fact | QuirkRef,
    *,
    trigger: str | None,
    severity: Severity,
    uses: tuple[str, ...] = (),
) -> Judgement:
    """Weigh `fact` (its trigger, else `trigger`) for `server` on `lane.host`, at most at `severity`.

    `uses` are the tools that use the feature the fact is about, cited when the fact has no trigger.
    """
    applies = _applies_to(lane, fact)
    if applies is False:
        return _NOTHING
    trigger = fact.trigger or trigger
    if trigger is None or fact.info_only:
        return Judgement(Severity.INFO, uses, (), None, _INFO_ONLY) if uses else _NOTHING
    outcome = server.trigger_outcome(trigger)
    if outcome.fired:
        level = severity if applies is True else Severity.INFO
        return Judgement(level, outcome.fired, outcome.evidence, outcome, _FIRED)
    if outcome.undecided:
        return Judgement(Severity.INFO, outcome.undecided, (), outcome, _UNDECIDED)
    return _NOTHING  # the trigger provably does not fire: no finding


_NOTHING: Final = Judgement(severity=None)
_INFO_ONLY: Final = "info-only"
_UNDECIDED: Final = "undecided"
_FIRED: Final = "fired"


def qualifier(judged: Judgement, at: HostAt, fact: Fact | QuirkRef) -> str:
    """The sentences that qualify the detail of the finding `judged` gives for `fact` on `at.host`: what decides
    it, the versions it holds for, and the age of its source.
    """
    outcome = judged.outcome
    if judged.basis == _INFO_ONLY:
        why = " Nothing in this server's data decides whether it bites, so this is information only."
    elif judged.basis == _UNDECIDED and outcome is not None:
        why = (
            f" It bites only when {outcome.condition}; no result of {name_list(outcome.undecided)} was captured. "
            f"{_DECIDE}"
        )
    elif judged.basis == _FIRED and outcome is not None:
        why = f" It bites when {outcome.condition}."
    else:
        why = ""
    return why + _version_note(at, fact) + _age_note(at, fact)


def add_limit_finding(
    lane: LaneBuilder,
    rule: RuleInfo,
    tools: tuple[str, ...],
    fact: Fact,
    write: Callable[Concatenate[Severity | None, _P], Finding],
    /,
    *args: _P.args,
    **kwargs: _P.kwargs,
) -> None:
    """Add the finding of `rule` on `tools` that the limit fact `fact` (a tool count, a name length or charset,
    schema constructs) gives once the server's own data crosses it, which `write(severity, *args)` writes.

    None when the fact does not hold for the version judged; info when it is information only or holds only for
    versions before a fix (the current one is judged); else at the rule's own severity (`severity` None).
    """
    applies = _applies_to(lane, fact)
    if applies is False:
        return
    severity = Severity.INFO if fact.info_only or applies is None else None
    lane.add(rule, severity, tools, write, severity, *args, **kwargs)


def version_note(at: HostAt, fact: Fact | QuirkRef) -> str:
    """A sentence on the versions `fact` holds for, as the detail of a finding it gives ends with."""
    return _version_note(at, fact)


def _applies_to(lane: LaneBuilder, fact: Fact | QuirkRef) -> bool | None:
    """Whether the fact applies to the host version judged (None: only to versions older than the current one,
    so information only).
    """
    pinned = lane.version
    if pinned is None and fact.fixed_in is None:
        return True
    if pinned is not None:
        if fact.fixed_in is not None and compare_versions(pinned, fact.fixed_in) >= 0:
            return False
        return not (fact.since is not None and compare_versions(pinned, fact.since) < 0)
    return None if fact.fixed_in is not None else True


def _version_note(at: HostAt, fact: Fact | QuirkRef) -> str:
    """A sentence on the versions the fact holds for (see `_applies`)."""
    host = at.host.display_name
    pinned = at.version
    if pinned is not None:
        return f" Judged for {host} {pinned}."
    if fact.fixed_in is not None:
        since = f" from {fact.since}" if fact.since is not None else ""
        return (
            f" The source shows it for {host} versions{since} before {fact.fixed_in} only; the current version is "
            f"judged (--host-version {at.host.id}=VERSION judges another)."
        )
    if fact.since is not None:
        return f" It holds for {host} {fact.since} and later."
    return ""


def _age_note(at: HostAt, fact: Fact | QuirkRef) -> str:
    if at.as_of is None or fact.fixed_in is not None:
        return ""
    months = months_between(fact.date, at.as_of)
    if months is None or months <= STALE_AFTER_MONTHS:
        return ""
    return f" Its source is dated {fact.date}, {months} months before this check, and nothing says it was fixed."


def months_between(earlier: str, later: str) -> int | None:
    """Whole months from the ISO date `earlier` (YYYY, YYYY-MM or YYYY-MM-DD) to `later`; None if unreadable."""
    try:
        start = [int(part) for part in earlier.split("-")[:2]]
        end = [int(part) for part in later.split("-")[:2]]
    except ValueError:
        return None
    if not start or not end:
        return None
    start_month = start[1] if len(start) > 1 else 12  # a year alone: its last month, the kindest reading
    end_month = end[1] if len(end) > 1 else 1
    return (end[0] - start[0]) * 12 + (end_month - start_month)


def compare_versions(left: str, right: str) -> int:
    """-1, 0 or 1 as host version `left` is older than, equal to or newer than `right`.

    Numeric parts compare as numbers, other parts as text; a version that has more parts after equal ones is newer,
    unless the next part is text (`1.0-alpha` is older than `1.0`).
    """
    a, b = _PART.findall(left), _PART.findall(right)
    for x, y in zip(a, b, strict=False):
        if x == y:
            continue
        if x.isdigit() and y.isdigit():
            return -1 if int(x) < int(y) else 1
        if x.isdigit() != y.isdigit():
            return 1 if x.isdigit() else -1
        return -1 if x < y else 1
    if len(a) == len(b):
        return 0
    longer, sign = (a, 1) if len(a) > len(b) else (b, -1)
    extra = longer[min(len(a), len(b))]
    return sign if extra.isdigit() else -sign


__all__ = [
    "STALE_AFTER_MONTHS",
    "Judgement",
    "add_limit_finding",
    "compare_versions",
    "judge",
    "months_between",
    "qualifier",
    "version_note",
]
