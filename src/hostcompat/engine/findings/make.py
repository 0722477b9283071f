"""Findings and evidence made cheaply on the engine's hot path, with the checks `Finding` and `Evidence` make.

An evaluation makes about a hundred findings, each with a few evidence items, from parts that already have the
right types (a registered rule, enums, tuples, texts the engine has cut); the dataclasses' checks, one function per
field, were most of the evaluation's cost. These constructors test the same conditions inline and fill the frozen
value directly; anything unusual goes through the checked constructor, which raises what it always did.
"""

from __future__ import annotations

from typing import Final

from hostcompat.engine.findings.model import (
    _CHECKED_RULE_IDS,
    MAX_FINDING_ITEMS,
    MAX_SNIPPET_CHARS,
    MAX_TEXT_CHARS,
    Evidence,
    Finding,
    Lane,
    Provenance,
    Severity,
    cut_snippet,
)


def make_finding(
    rule_id: str,
    lane: Lane,
    severity: Severity,
    title: str,
    detail: str,
    remediation: str | None,
    tools: tuple[str, ...],
    evidence: tuple[Evidence, ...],
    provenance: Provenance | None,
    fact_source: str | None,
    fact_date: str | None,
    resources: tuple[str, ...],
    fact_since: str | None,
    fact_fixed_in: str | None,
) -> Finding:
    """The `Finding` of these fields, made cheaply where they already have the types the checks want: the engine
    makes about a hundred findings per evaluation from a registered rule, enums, tuples and texts it has cut, and
    the dataclass's checks were most of its cost. Anything unusual (a text empty or too long, a list too long, a
    value of another type, a rule id not yet seen) takes the checked constructor, which raises what it always did.
    """
    if (
        type(rule_id) is str
        and rule_id in _CHECKED_RULE_IDS
        and type(lane) is Lane
        and type(severity) is Severity
        and type(title) is str
        and 0 < len(title) <= MAX_TEXT_CHARS
        and type(detail) is str
        and 0 < len(detail) <= MAX_TEXT_CHARS
        and (remediation is None or (type(remediation) is str and 0 < len(remediation) <= MAX_TEXT_CHARS))
        and type(tools) is tuple
        and len(tools) <= MAX_FINDING_ITEMS
        and type(resources) is tuple
        and len(resources) <= MAX_FINDING_ITEMS
        and type(evidence) is tuple
        and len(evidence) <= MAX_FINDING_ITEMS
        and (provenance is None or type(provenance) is Provenance)
        and (fact_source is None or (type(fact_source) is str and 0 < len(fact_source) <= MAX_TEXT_CHARS))
        and (fact_date is None or (type(fact_date) is str and 0 < len(fact_date) <= MAX_TEXT_CHARS))
        and (fact_since is None or (type(fact_since) is str and 0 < len(fact_since) <= MAX_TEXT_CHARS))
        and (fact_fixed_in is None or (type(fact_fixed_in) is str and 0 < len(fact_fixed_in) <= MAX_TEXT_CHARS))
        and _STR_TYPE.issuperset(map(type, tools))
        and (not resources or _STR_TYPE.issuperset(map(type, resources)))
        and _EVIDENCE_TYPE.issuperset(map(type, evidence))
    ):
        finding = object.__new__(Finding)
        fields = {
            "rule_id": rule_id,
            "lane": lane,
            "severity": severity,
            "title": title,
            "detail": detail,
            "remediation": remediation,
            "tools": tools,
            "evidence": evidence,
            "provenance": provenance,
            "fact_source": fact_source,
            "fact_date": fact_date,
            "resources": resources,
            "fact_since": fact_since,
            "fact_fixed_in": fact_fixed_in,
        }
        object.__setattr__(finding, "__dict__", fields)
        return finding
    return Finding(
        rule_id=rule_id,
        lane=lane,
        severity=severity,
        title=title,
        detail=detail,
        remediation=remediation,
        tools=tools,
        evidence=evidence,
        provenance=provenance,
        fact_source=fact_source,
        fact_date=fact_date,
        resources=resources,
        fact_since=fact_since,
        fact_fixed_in=fact_fixed_in,
    )


_STR_TYPE: Final = frozenset({str})
_EVIDENCE_TYPE: Final = frozenset({Evidence})


def make_evidence(source: str, detail: str | None = None, snippet: str | None = None) -> Evidence:
    """The `Evidence` of these fields (no offset or line), made cheaply where they are non-empty strings of a
    bounded length; anything else takes the checked constructor.
    """
    if (
        type(source) is str
        and 0 < len(source) <= MAX_TEXT_CHARS
        and (detail is None or (type(detail) is str and 0 < len(detail) <= MAX_TEXT_CHARS))
        and (snippet is None or type(snippet) is str)
    ):
        evidence = object.__new__(Evidence)
        cut = snippet if snippet is None or len(snippet) <= MAX_SNIPPET_CHARS else cut_snippet(snippet)
        fields = {"source": source, "detail": detail, "offset": None, "line": None, "snippet": cut}
        object.__setattr__(evidence, "__dict__", fields)
        return evidence
    return Evidence(source, detail=detail, snippet=snippet)


__all__ = ["make_evidence", "make_finding"]
