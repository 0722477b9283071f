"""How one host handles what the server's tools return: output schemas, structured content and content types.

A server-lane check beyond MCPJam, from the catalog's `server.features.*` levels: a `partial` or `unsupported`
level for something the server uses (an `outputSchema` on a tool, `structuredContent` or a content block type in
a captured result) is a finding carrying the fact's note; a missing fact gives nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from hostcompat.engine.catalog_model import Fact
from hostcompat.engine.evaluate_model import (
    MAX_EVIDENCE,
    LaneBuilder,
    PreparedServer,
    ToolSet,
    cut_text,
    fact_evidence,
    fact_fields,
    linked_client_rules,
    note_suffix,
    with_client_rules,
)
from hostcompat.engine.finding_rules import finding_for
from hostcompat.engine.findings import Evidence, Severity, cut_snippet

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


def evaluate_result_handling(server: PreparedServer, lane: LaneBuilder) -> None:
    """Add the output-schema, structured-content and content-type findings of `lane.host` to `lane`."""
    surface = server.surface
    if surface.output_schema_tools:
        _output_schema(lane, server.memoized("results.output-schema", lambda: _declared(server)))
    if surface.output_schema_tools or surface.structured_result_tools:
        _structured_content(lane, server.memoized("results.structured", lambda: _structured(server)))
    for kind, tools in surface.result_content.items():
        path = CONTENT_FACTS.get(kind)
        if path is not None:
            carrying = server.memoized(("results.content", kind), functools.partial(_carrying, kind, tools))
            _content_type(lane, kind, path, carrying)


def _declared(server: PreparedServer) -> ToolSet:
    tools = server.surface.output_schema_tools
    evidence = (Evidence(f"tools/list:{cut_snippet(tool)}", detail="outputSchema") for tool in tools[:MAX_EVIDENCE])
    return ToolSet.of(tools, evidence)


def _structured(server: PreparedServer) -> ToolSet:
    declared = frozenset(server.surface.output_schema_tools)
    tools = tuple(dict.fromkeys((*server.surface.output_schema_tools, *server.surface.structured_result_tools)))
    evidence = (
        Evidence(f"tools/list:{cut_snippet(tool)}", detail="outputSchema")
        if tool in declared
        else Evidence(f"call:{cut_snippet(tool)}", detail="structuredContent")
        for tool in tools[:MAX_EVIDENCE]
    )
    return ToolSet.of(tools, evidence)


def _carrying(kind: str, tools: Sequence[str]) -> ToolSet:
    evidence = (
        Evidence(f"call:{cut_snippet(tool)}", detail=f"content[].type = {kind}") for tool in tools[:MAX_EVIDENCE]
    )
    return ToolSet.of(tools, evidence)


def _mishandled(lane: LaneBuilder, path: str) -> Fact | None:
    fact = lane.fact(path)
    return fact if fact is not None and fact.value in _MISHANDLED else None


def _output_schema(lane: LaneBuilder, declared: ToolSet) -> None:
    fact = _mishandled(lane, OUTPUT_SCHEMA_FACT)
    if fact is None:
        return
    host = lane.host.display_name
    if fact.value == "unsupported":
        what, severity = f"{host} ignores outputSchema: results must carry their data in content too.", Severity.INFO
    else:
        what, severity = f"{host} handles outputSchema only partly.", None
    lane.findings.append(
        finding_for(
            "SERVER-OUTPUT-001",
            severity=severity,
            detail=cut_text(f"Tool(s) {declared.text} declare an outputSchema; {what}{note_suffix(fact)}"),
            remediation=with_client_rules(
                "Always return structuredContent that validates against the outputSchema, or drop the outputSchema "
                "for this host.",
                linked_client_rules(lane.host, ("drop-output-schema",)),
            ),
            tools=declared.tools,
            evidence=(*declared.evidence, fact_evidence(lane.host, OUTPUT_SCHEMA_FACT, fact)),
            **fact_fields(fact),
        )
    )


def _structured_content_fix(lane: LaneBuilder) -> str:
    fix = (
        "Keep content authoritative: put the human-readable result in content as well, and do not rely on "
        "structuredContent reaching the model on this host."
    )
    every_result = linked_client_rules(lane.host, ("drop-structured-content",))
    if every_result:
        return with_client_rules(fix, every_result)
    with_images = linked_client_rules(lane.host, ("drop-structured-content-with-images",))
    return with_client_rules(fix, with_images, only_when="when a result also holds an image")


def _structured_content(lane: LaneBuilder, structured: ToolSet) -> None:
    fact = _mishandled(lane, STRUCTURED_CONTENT_FACT)
    if fact is None:
        return
    how = "does not handle" if fact.value == "unsupported" else "handles only partly"
    lane.findings.append(
        finding_for(
            "SERVER-OUTPUT-002",
            detail=cut_text(
                f"Tool(s) {structured.text} return structuredContent, which {lane.host.display_name} {how}."
                f"{note_suffix(fact)}"
            ),
            remediation=_structured_content_fix(lane),
            tools=structured.tools,
            evidence=(*structured.evidence, fact_evidence(lane.host, STRUCTURED_CONTENT_FACT, fact)),
            **fact_fields(fact),
        )
    )


def _content_type(lane: LaneBuilder, kind: str, path: str, carrying: ToolSet) -> None:
    fact = _mishandled(lane, path)
    if fact is None:
        return
    fix, rewrites = CONTENT_FIXES[kind]
    how = "does not handle" if fact.value == "unsupported" else "handles only partly"
    lane.findings.append(
        finding_for(
            "SERVER-CONTENT-001",
            title=f"Host mishandles {kind} content",
            detail=cut_text(
                f"The captured result of tool(s) {carrying.text} has {kind} content, which "
                f"{lane.host.display_name} {how}.{note_suffix(fact)}"
            ),
            remediation=with_client_rules(fix, linked_client_rules(lane.host, rewrites)),
            tools=carrying.tools,
            evidence=(*carrying.evidence, fact_evidence(lane.host, path, fact)),
            **fact_fields(fact),
        )
    )


__all__ = [
    "CONTENT_FACTS",
    "CONTENT_FIXES",
    "OUTPUT_SCHEMA_FACT",
    "STRUCTURED_CONTENT_FACT",
    "evaluate_result_handling",
]
