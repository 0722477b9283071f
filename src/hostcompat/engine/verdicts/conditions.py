"""Evidence before verdict: when a conditional host fact may degrade a verdict, and what its finding then says.

A fact degrades only when this server's own data fires its trigger; when the data that would decide it was not
captured, it is `info` and says how to get it; a fact with no trigger the engine can evaluate, one marked
`infoOnly`, and one that holds only for host versions other than the one judged are `info` too. Old sources are
kept, with their age said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from hostcompat.engine.catalog.model import Fact, QuirkRef
from hostcompat.engine.findings.model import Evidence, Severity
from hostcompat.engine.server.digest import ServerDigest
from hostcompat.engine.verdicts.model import LaneBuilder, name_list
from hostcompat.engine.verdicts.triggers import TriggerOutcome, TriggerState

STALE_AFTER_MONTHS: Final = 6
"""A source older than this, with nothing saying the bug was fixed, is kept but its age is said."""

_PART = re.compile(r"\d+|[A-Za-z]+")

_DECIDE: Final = (
    "Capture a result of each of these tools (hostcompat calls read-only tools without arguments by itself; "
    "name others with --call TOOL=JSON) to decide it."
)


@dataclass(frozen=True, kw_only=True)
class Judgement:
    """How one conditional fact weighs on this server and host: the severity of its finding (None: no finding),
    the trigger's outcome, the tools and evidence to cite, and sentences that qualify the detail.
    """

    severity: Severity | None
    tools: tuple[str, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    qualifier: str = ""
    outcome: TriggerOutcome | None = None


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
    version_note, applies = _version_scope(lane, fact)
    if applies is False:
        return Judgement(severity=None)
    trigger = fact.trigger or trigger
    qualifier = version_note + _age_note(lane, fact)
    if trigger is None or fact.info_only:
        tools = uses
        why = (
            " Nothing in this server's data decides whether it bites, so this is information only."
            if fact.info_only or trigger is None
            else ""
        )
        return Judgement(severity=Severity.INFO if tools else None, tools=tools, evidence=(), qualifier=why + qualifier)
    outcome = server.trigger_outcome(trigger)
    state = outcome.state
    if state is TriggerState.ABSENT:
        return Judgement(severity=None, outcome=outcome)
    if state is TriggerState.UNDECIDED:
        text = (
            f" It bites only when {outcome.condition}; no result of {name_list(outcome.undecided)} was captured. "
            f"{_DECIDE}"
        )
        return Judgement(
            severity=Severity.INFO, tools=outcome.undecided, evidence=(), qualifier=text + qualifier, outcome=outcome
        )
    level = severity if applies is True else Severity.INFO
    return Judgement(
        severity=level,
        tools=outcome.fired,
        evidence=outcome.evidence,
        qualifier=f" It bites when {outcome.condition}." + qualifier,
        outcome=outcome,
    )


def _version_scope(lane: LaneBuilder, fact: Fact | QuirkRef) -> tuple[str, bool | None]:
    """A sentence on the versions the fact holds for, and whether it applies to the version judged (None: only
    to older versions than the current one, so information only).
    """
    host = lane.host.display_name
    pinned = lane.version
    if pinned is not None:
        if fact.fixed_in is not None and compare_versions(pinned, fact.fixed_in) >= 0:
            return "", False
        if fact.since is not None and compare_versions(pinned, fact.since) < 0:
            return "", False
        return f" Judged for {host} {pinned}.", True
    if fact.fixed_in is not None:
        since = f" from {fact.since}" if fact.since is not None else ""
        return (
            f" The source shows it for {host} versions{since} before {fact.fixed_in} only; the current version is "
            f"judged (--host-version {lane.host.id}=VERSION judges another).",
            None,
        )
    if fact.since is not None:
        return f" It holds for {host} {fact.since} and later.", True
    return "", True


def _age_note(lane: LaneBuilder, fact: Fact | QuirkRef) -> str:
    if lane.as_of is None or fact.fixed_in is not None:
        return ""
    months = months_between(fact.date, lane.as_of)
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


__all__ = ["STALE_AFTER_MONTHS", "Judgement", "compare_versions", "judge", "months_between"]
