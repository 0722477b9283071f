"""Host contexts in a verdict: a host judged on the common path says, as information, where the catalog's facts for
another OS, registration path or feature gate would give a lane another verdict.

`evaluate` judges the host once per context its catalog entry names; this module turns the lanes whose verdict
differs into APPS-CONTEXT-001 / SERVER-CONTEXT-001 findings that name the context, the facts and their sources.
"""

from __future__ import annotations

from collections.abc import Sequence

from hostcompat.engine.catalog.host_context import HostContext, ScopedItem
from hostcompat.engine.catalog.model import HostProfile, QuirkRef
from hostcompat.engine.findings.model import Evidence, Finding, Lane, Severity, cut_snippet
from hostcompat.engine.findings.rules import finding_for
from hostcompat.engine.verdicts.model import HostReport, cut_text
from hostcompat.engine.verdicts.results import provenance_of_label

_RULES = {Lane.APPS: "APPS-CONTEXT-001", Lane.SERVER: "SERVER-CONTEXT-001"}
_SHOWN = 4


def context_findings(
    profile: HostProfile,
    report: HostReport,
    others: Sequence[tuple[HostContext, tuple[ScopedItem, ...], HostReport]],
) -> tuple[Finding, ...]:
    """An info finding per lane and other context whose lane verdict differs from `report`'s."""
    found: list[Finding] = []
    for lane in (Lane.APPS, Lane.SERVER):
        here = report.lanes[lane.value].verdict
        for context, items, other in others:
            there = other.lanes[lane.value].verdict
            if there is here:
                continue
            seen = {(finding.rule_id, finding.tools) for finding in report.findings}
            new = [
                finding
                for finding in other.findings
                if finding.lane is lane
                and finding.severity is not Severity.INFO
                and (finding.rule_id, finding.tools) not in seen
            ]
            found.append(_finding(profile, lane, context, items, here.value, there.value, new))
    return tuple(found)


def _finding(
    profile: HostProfile,
    lane: Lane,
    context: HostContext,
    items: tuple[ScopedItem, ...],
    here: str,
    there: str,
    new: list[Finding],
) -> Finding:
    spelled = context.describe()
    why = "; ".join(_text(item) for _, item in items[:_SHOWN])
    rules = ", ".join(dict.fromkeys(finding.rule_id for finding in new))
    detail = (
        f"With {spelled}, {profile.display_name} gives this lane {there} instead of {here}"
        + (f" ({rules})" if rules else "")
        + f": {why}"
    )
    tools = tuple(dict.fromkeys(tool for finding in new for tool in finding.tools))
    first = items[0][1]
    evidence = tuple(
        Evidence(f"catalog:{profile.id}", detail=label, snippet=cut_snippet(_text(item))) for label, item in items
    )
    return finding_for(
        _RULES[lane],
        detail=cut_text(detail),
        remediation=cut_text(
            f"Judge it with --host-context {profile.id}:{spelled}; if your users are there, address the findings "
            "that check gives."
        ),
        tools=tools,
        evidence=evidence[:_SHOWN],
        provenance=provenance_of_label(first.provenance),
        fact_source=cut_text(first.source),
        fact_date=first.date,
        fact_since=first.since,
        fact_fixed_in=first.fixed_in,
    )


def _text(item: object) -> str:
    if isinstance(item, QuirkRef):
        return item.text
    note = getattr(item, "note", None)
    value = getattr(item, "value", None)
    shown = ", ".join(value) if isinstance(value, tuple) else str(value)
    return f"{shown} ({note})" if note else shown


__all__ = ["context_findings"]
