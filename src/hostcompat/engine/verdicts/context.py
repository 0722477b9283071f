"""Host contexts in a verdict: a host judged on the common path says, as information, where the catalog's facts for
another OS, registration path or feature gate would give a lane another verdict.

`evaluate` judges the host once per context its catalog entry names; this module turns the lanes whose verdict
differs into APPS-CONTEXT-001 / SERVER-CONTEXT-001 findings that name the context, the facts and their sources.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hostcompat.engine.catalog.host_context import HostContext, ScopedItem
from hostcompat.engine.catalog.model import HostProfile, QuirkRef
from hostcompat.engine.findings.model import Evidence, Finding, Lane, Severity, Verdict, cut_snippet
from hostcompat.engine.findings.rules import RuleInfo, finding_for, rule_info
from hostcompat.engine.verdicts.model import Pending, cut_text
from hostcompat.engine.verdicts.results import provenance_of_label

_RULES = {Lane.APPS: rule_info("APPS-CONTEXT-001"), Lane.SERVER: rule_info("SERVER-CONTEXT-001")}
_SHOWN = 4


def context_findings(
    profile: HostProfile,
    here: Mapping[str, Verdict],
    pending: Sequence[Pending],
    others: Sequence[tuple[HostContext, tuple[ScopedItem, ...], Mapping[str, Verdict], Sequence[Pending]]],
) -> list[Pending]:
    """An info finding per lane and other context whose lane verdict differs from the one `here` (lane → verdict
    of the report whose findings are `pending`); each other context comes with its lanes' verdicts and findings.
    """
    found: list[Pending] = []
    for lane in (Lane.APPS, Lane.SERVER):
        verdict = here[lane.value]
        for context, items, lanes, other in others:
            there = lanes[lane.value]
            if there is verdict:
                continue
            seen = {(rule_id, tools) for rule_id, _, _, tools, _, _ in pending}
            new = [
                (rule_id, tools)
                for rule_id, on, severity, tools, _, _ in other
                if on is lane and severity is not Severity.INFO and (rule_id, tools) not in seen
            ]
            rule = _RULES[lane]
            tools = tuple(dict.fromkeys(tool for _, named in new for tool in named))
            args = (profile, rule, context, items, verdict.value, there.value, new, tools)
            found.append((rule.rule_id, rule.lane, rule.severity, tools, _finding, args))
    return found


def _finding(
    profile: HostProfile,
    rule: RuleInfo,
    context: HostContext,
    items: tuple[ScopedItem, ...],
    here: str,
    there: str,
    new: list[tuple[str, tuple[str, ...]]],
    tools: tuple[str, ...],
) -> Finding:
    spelled = context.describe()
    why = "; ".join(_text(item) for _, item in items[:_SHOWN])
    rules = ", ".join(dict.fromkeys(rule_id for rule_id, _ in new))
    detail = (
        f"With {spelled}, {profile.display_name} gives this lane {there} instead of {here}"
        + (f" ({rules})" if rules else "")
        + f": {why}"
    )
    first = items[0][1]
    evidence = tuple(
        Evidence(f"catalog:{profile.id}", detail=label, snippet=cut_snippet(_text(item))) for label, item in items
    )
    return finding_for(
        rule.rule_id,
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
