"""How one host handles what the server's tools return: output schemas, structured content and content types.

A server-lane check beyond MCPJam, from the catalog's `server.features.*` levels and the host's quirks: a `partial` or
`unsupported` level, or a quirk with a trigger, weighs on a server only as far as its own schemas and captured
results fire the fact's trigger (`evaluate_conditions`); a missing fact gives nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import Final, NamedTuple

from hostcompat.engine.catalog.model import Fact, HostProfile, QuirkRef
from hostcompat.engine.findings.make import make_evidence
from hostcompat.engine.findings.model import Evidence, Finding, Provenance, Severity, cut_snippet, parse_enum
from hostcompat.engine.findings.rules import finding_for, rule_info
from hostcompat.engine.server.digest import ServerDigest
from hostcompat.engine.verdicts.conditions import Judgement, judge, qualifier
from hostcompat.engine.verdicts.model import (
    MAX_EVIDENCE,
    HostAt,
    LaneBuilder,
    cut_text,
    fact_evidence,
    fact_fields,
    linked_client_rules,
    name_list,
    note_suffix,
    with_client_rules,
)
from hostcompat.engine.verdicts.triggers import TriggerOutcome

OUTPUT_SCHEMA_FACT: Final = "server.features.outputSchema"
STRUCTURED_CONTENT_FACT: Final = "server.features.structuredContent"

CONTENT_FACTS: Final = {
    "resource_link": "server.features.resourceLink",
    "resource": "server.features.embeddedResources",
    "image": "server.features.images",
    "audio": "server.features.audio",
}
"""Result content block type → the host fact about it."""

CONTENT_FIXES: Final = {
    "resource_link": ("Also describe the linked resource (name and URI) in a text block.", ("resource-link-to-text",)),
    "resource": ("Also put the embedded resource's text in a text block.", ()),
    "image": ("Describe the image in a text block too; the model on this host may not see it.", ()),
    "audio": ("Describe the audio in a text block too.", ()),
}
"""Content type → (the fix in words, the client rewrites that do it)."""

_MISHANDLED: Final = frozenset({"partial", "unsupported"})
_OUTPUT: Final = rule_info("SERVER-OUTPUT-001")
_STRUCTURED: Final = rule_info("SERVER-OUTPUT-002")
_CONTENT: Final = rule_info("SERVER-CONTENT-001")
_QUIRK: Final = rule_info("SERVER-QUIRK-001")

CONTENT_TRIGGERS: Final = {
    "resource_link": "result-content-resource-link",
    "resource": "result-content-resource",
    "image": "result-content-image",
    "audio": "result-content-audio",
}
"""Content type → the trigger a content-type fact has when it names none: the type in a captured result."""


def evaluate_result_handling(server: ServerDigest, lane: LaneBuilder) -> None:
    """Add the output-schema, structured-content and content-type findings of `lane.host` to `lane`.

    Each is a conditional host fact: it degrades only where this server's captured results (or schemas) fire its
    trigger, and is information where they do not decide it (see `hostcompat.engine.verdicts.conditions`).
    """
    surface = server.surface
    output, structured, content, _ = _result_facts(lane.host)
    if surface.output_schema_tools and output is not None:
        lane.facts.append(output)
        if output.value in _MISHANDLED:
            _output_schema(server, lane, output)
    if (surface.output_schema_tools or surface.structured_result_tools) and structured is not None:
        lane.facts.append(structured)
        if structured.value in _MISHANDLED:
            _structured_content(server, lane, structured)
    if server.surface.results:  # nothing captured: no content type is known (TOOL-CONTENT-002 says so)
        for kind, path, fact in content:
            lane.facts.append(fact)
            if fact.value in _MISHANDLED:
                _content_type(server, lane, kind, path, fact)


class _ResultFacts(NamedTuple):
    """The host's facts the result checks read: output schema, structured content, each content type's (type,
    path, fact), and the quirks judged on a server (with a trigger, not covered by a fact, not info only).
    """

    output: Fact | None
    structured: Fact | None
    content: tuple[tuple[str, str, Fact], ...]
    quirks: tuple[QuirkRef, ...]


def _result_facts(host: HostProfile) -> _ResultFacts:
    """The host's `_ResultFacts`, read once per host (kept in `host.memo`)."""
    found = host.memo.get("result-facts")
    if isinstance(found, _ResultFacts):
        return found
    content = tuple(
        (kind, path, fact) for kind, path in CONTENT_FACTS.items() if (fact := host.facts.get(path)) is not None
    )
    quirks = tuple(
        quirk for quirk in host.quirks if quirk.trigger is not None and quirk.covers is None and not quirk.info_only
    )
    found = _ResultFacts(host.facts.get(OUTPUT_SCHEMA_FACT), host.facts.get(STRUCTURED_CONTENT_FACT), content, quirks)
    host.memo["result-facts"] = found
    return found


def _output_schema(server: ServerDigest, lane: LaneBuilder, fact: Fact) -> None:
    judged = judge(
        server,
        lane,
        fact,
        trigger="result-missing-structured",
        severity=Severity.DEGRADED,
        uses=server.surface.output_schema_tools,
    )
    if judged.severity is None:
        return
    lane.add(_OUTPUT, judged.severity, judged.tools, _write_output_schema, server, lane.at, fact, judged)


def _write_output_schema(server: ServerDigest, at: HostAt, fact: Fact, judged: Judgement) -> Finding:
    host = at.host.display_name
    what = f"{host} ignores outputSchema" if fact.value == "unsupported" else f"{host} handles outputSchema only partly"
    return finding_for(
        "SERVER-OUTPUT-001",
        severity=judged.severity,
        detail=cut_text(f"Tool(s) {name_list(judged.tools)}: {what}.{qualifier(judged, at, fact)}{note_suffix(fact)}"),
        remediation=with_client_rules(
            "Return structuredContent that validates against the outputSchema in every non-error result, or "
            "drop the outputSchema for this host.",
            linked_client_rules(at.host, ("drop-output-schema",)),
        ),
        tools=judged.tools,
        evidence=(
            *_cited(judged, server.surface.output_schema_tools),
            fact_evidence(at.host, OUTPUT_SCHEMA_FACT, fact),
        ),
        **fact_fields(fact),
    )


def _cited(judged: Judgement, declared: Sequence[str]) -> tuple[Evidence, ...]:
    """The evidence a judgement cites: the data that fired it, else the declarations of the tools it names."""
    if judged.evidence:
        return judged.evidence
    names = frozenset(declared)  # a set: a tuple's `in` made this quadratic in the tools on large servers
    tools = list(islice((tool for tool in judged.tools if tool in names), MAX_EVIDENCE)) or judged.tools[:MAX_EVIDENCE]
    return tuple(make_evidence(f"tools/list:{cut_snippet(tool)}", "outputSchema") for tool in tools)


def _structured_content_fix(at: HostAt) -> str:
    fix = (
        "Keep content authoritative: put the human-readable result in content as well, and do not rely on "
        "structuredContent reaching the model on this host."
    )
    every_result = linked_client_rules(at.host, ("drop-structured-content",))
    if every_result:
        return with_client_rules(fix, every_result)
    with_images = linked_client_rules(at.host, ("drop-structured-content-with-images",))
    return with_client_rules(fix, with_images, only_when="when a result also holds an image")


def _structured_content(server: ServerDigest, lane: LaneBuilder, fact: Fact) -> None:
    uses = tuple(dict.fromkeys((*server.surface.output_schema_tools, *server.surface.structured_result_tools)))
    judged = judge(
        server, lane, fact, trigger="result-structured-replaces-content", severity=Severity.DEGRADED, uses=uses
    )
    if judged.severity is None:
        return
    lane.add(_STRUCTURED, judged.severity, judged.tools, _write_structured_content, server, lane.at, fact, judged)


def _write_structured_content(server: ServerDigest, at: HostAt, fact: Fact, judged: Judgement) -> Finding:
    how = "does not handle" if fact.value == "unsupported" else "handles only partly"
    return finding_for(
        "SERVER-OUTPUT-002",
        severity=judged.severity,
        detail=cut_text(
            f"Tool(s) {name_list(judged.tools)} return structuredContent, which {at.host.display_name} {how}."
            f"{qualifier(judged, at, fact)}{note_suffix(fact)}"
        ),
        remediation=_structured_content_fix(at),
        tools=judged.tools,
        evidence=(
            *_cited(judged, server.surface.output_schema_tools),
            fact_evidence(at.host, STRUCTURED_CONTENT_FACT, fact),
        ),
        **fact_fields(fact),
    )


def _content_type(server: ServerDigest, lane: LaneBuilder, kind: str, path: str, fact: Fact) -> None:
    judged = judge(
        server,
        lane,
        fact,
        trigger=CONTENT_TRIGGERS[kind],
        severity=Severity.DEGRADED,
        uses=server.surface.result_content.get(kind, ()),
    )
    if judged.severity is None:
        return
    lane.add(_CONTENT, judged.severity, judged.tools, _write_content_type, lane.at, kind, path, fact, judged)


def _write_content_type(at: HostAt, kind: str, path: str, fact: Fact, judged: Judgement) -> Finding:
    fix, rewrites = CONTENT_FIXES[kind]
    how = "does not handle" if fact.value == "unsupported" else "handles only partly"
    evidence = judged.evidence or tuple(
        make_evidence(f"call:{cut_snippet(tool)}", f"content[].type = {kind}") for tool in judged.tools[:MAX_EVIDENCE]
    )
    return finding_for(
        "SERVER-CONTENT-001",
        title=f"Host mishandles {kind} content",
        severity=judged.severity,
        detail=cut_text(
            f"The captured result of tool(s) {name_list(judged.tools)} has {kind} content, which "
            f"{at.host.display_name} {how}.{qualifier(judged, at, fact)}{note_suffix(fact)}"
        ),
        remediation=with_client_rules(fix, linked_client_rules(at.host, rewrites)),
        tools=judged.tools,
        evidence=(*evidence, fact_evidence(at.host, path, fact)),
        **fact_fields(fact),
    )


def provenance_of_label(label: str) -> Provenance:
    """A quirk's provenance label as a `Provenance`."""
    return parse_enum(Provenance, label)


def evaluate_quirks(server: ServerDigest, lane: LaneBuilder) -> None:
    """Add a SERVER-QUIRK-001 finding for each host quirk whose trigger this server's data fires.

    Quirks that `cover` a host fact are evaluated through that fact; `infoOnly` quirks and quirks without a
    trigger are listed with the host, not judged.
    """
    for quirk in _result_facts(lane.host).quirks:
        judged = judge(server, lane, quirk, trigger=None, severity=Severity.DEGRADED)
        if judged.severity is None or judged.outcome is None:
            continue
        lane.add(
            _QUIRK,
            judged.severity,
            judged.tools,
            _write_quirk,
            lane.at,
            quirk,
            judged,
            judged.outcome,
        )


def _write_quirk(at: HostAt, quirk: QuirkRef, judged: Judgement, outcome: TriggerOutcome) -> Finding:
    fix = (
        f"Put the hostcompat proxy or middleware in front of the server for this host: its rule {quirk.rule} "
        "rewrites this."
        if quirk.rule
        else f"Change the widget so that this no longer holds: {outcome.condition}."
        if outcome.trigger.startswith("widget-") and not outcome.trigger.startswith("widget-result")
        else f"Change what these tools return so that this no longer holds: {outcome.condition}."
    )
    return finding_for(
        "SERVER-QUIRK-001",
        title=cut_text(f"Known {at.host.display_name} bug: {quirk.text}"),
        severity=judged.severity,
        detail=cut_text(f"Tool(s) {name_list(judged.tools)}: {quirk.text}{qualifier(judged, at, quirk)}"),
        remediation=cut_text(fix),
        tools=judged.tools,
        evidence=(
            *judged.evidence,
            Evidence(f"catalog:{at.host.id}", detail=f"quirks.{quirk.id}", snippet=cut_snippet(quirk.text)),
        ),
        provenance=provenance_of_label(quirk.provenance),
        fact_source=cut_text(quirk.source),
        fact_date=quirk.date,
        fact_since=quirk.since,
        fact_fixed_in=quirk.fixed_in,
    )


__all__ = [
    "CONTENT_FACTS",
    "CONTENT_FIXES",
    "OUTPUT_SCHEMA_FACT",
    "STRUCTURED_CONTENT_FACT",
    "CONTENT_TRIGGERS",
    "evaluate_quirks",
    "evaluate_result_handling",
]
