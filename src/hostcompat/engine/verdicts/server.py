"""The server lane of one host: protocol version, tool count, tool names and input schemas against its limits.

MCPJam checks only the protocol version. hostcompat adds the per-host limits of the client quirk reports, each
only where the catalog has the fact (no fact, no finding: nothing is guessed), and names the hostcompat client
rule that rewrites the problem away when the host's catalog quirks link one.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.engine.catalog.model import Fact, HostProfile
from hostcompat.engine.catalog.schema import NO_LIMIT
from hostcompat.engine.findings.model import Evidence, Finding, Severity, cut_snippet
from hostcompat.engine.findings.rules import finding_for, rule_info
from hostcompat.engine.server.digest import ServerDigest
from hostcompat.engine.verdicts.conditions import add_limit_finding, version_note
from hostcompat.engine.verdicts.model import (
    HostAt,
    LaneBuilder,
    ToolSet,
    cut_text,
    fact_evidence,
    fact_fields,
    linked_client_rules,
    name_list,
    note_suffix,
    weakest_of,
    with_client_rules,
)
from hostcompat.engine.verdicts.results import evaluate_quirks, evaluate_result_handling

PROTOCOL_VERSIONS: Final = "server.protocolVersions"
MAX_TOOLS_FACT: Final = "server.limits.maxTools"
NAME_LENGTH_FACT: Final = "server.limits.toolNameMaxLength"
NAME_CHARSET_FACT: Final = "server.limits.toolNameCharset"
NAME_PREFIX_FACT: Final = "server.limits.toolNamePrefixCounts"
NAME_FORMAT_FACT: Final = "server.limits.toolNameFormat"
SCHEMA_FACT: Final = "server.limits.schemaFeaturesRejected"
CONDITIONAL_SCHEMA_FACT: Final = "server.limits.schemaFeaturesRejectedConditionally"
"""Constructs a host rejects only in some setups (the fact's note says which): an info finding, not degraded."""

TOOL_LIMIT_FACTS: Final = (MAX_TOOLS_FACT, NAME_LENGTH_FACT, NAME_CHARSET_FACT, SCHEMA_FACT)
"""Facts checked tool by tool: with an incomplete tool list, a host that has one of them stays unknown."""

SCHEMA_FIXES: Final = {
    "$ref": ("Inline $ref references (FastMCP does it with dereference_schemas=True).", "inline-schema-refs"),
    "$defs": ("Inline $ref references and drop $defs.", "inline-schema-refs"),
    "definitions": ("Inline $ref references and drop definitions.", "inline-schema-refs"),
    "ref-with-siblings": (
        "Inline $ref references; keep only description and default beside one.",
        "inline-schema-refs",
    ),
    "$schema": ("Leave $schema out of inputSchema.", "drop-schema-dialect"),
    "$schema-2020-12": ("Leave $schema out of inputSchema.", "drop-schema-dialect"),
    "type-with-anyOf": ("Move type into each anyOf branch.", "move-type-into-anyof"),
    "type-array": ("Write a list of types as anyOf of single types.", None),
    "type-array-argument": ("Write the argument's list of types as anyOf of single types.", None),
    "anyOf-in-items": ("Avoid anyOf directly inside items.", None),
    "bare-title": ("Give every schema node a type (a node that is only a title fails).", None),
    "oneOf": ("Use anyOf instead of oneOf.", None),
    "object-without-properties": ("Give every object schema a properties object, even an empty one.", None),
    "missing-type": (
        "Give every property a type: a type keyword, an enum or const, or anyOf branches that each have one.",
        "add-missing-schema-types",
    ),
    "additionalProperties-not-false": ("Set additionalProperties to false on every object schema.", None),
    "combinator-at-root": (
        "Make the top level of inputSchema a plain object schema: move anyOf, oneOf or allOf into a property.",
        None,
    ),
}
"""Schema construct → (the fix in words, the client rewrite that does it, if any)."""

_PROTO: Final = rule_info("SERVER-PROTO-001")
_LIMIT: Final = rule_info("SERVER-LIMIT-001")
_NAME_LENGTH: Final = rule_info("SERVER-NAME-001")
_NAME_CHARSET: Final = rule_info("SERVER-NAME-002")
_SCHEMA: Final = rule_info("SERVER-SCHEMA-001")
_SCHEMA_CONDITIONAL: Final = rule_info("SERVER-SCHEMA-002")


def evaluate_server_lane(server: ServerDigest, lane: LaneBuilder) -> None:
    """Add the server-lane findings of `lane.host` for `server` to `lane`, in a fixed order."""
    plan = _server_plan(lane.host)
    for finding in server.tool_findings:
        _tool_finding_on(finding, lane)
    lane.facts.extend(plan.consulted)
    if plan.protocol is not None:
        _protocol(server, lane, plan.protocol)
    if plan.max_tools is not None:
        _tool_count(server, lane, plan.max_tools)
    if plan.name_length is not None:
        _name_length(server, lane, *plan.name_length)
    if plan.charset is not None:
        _name_charset(server, lane, *plan.charset)
    used = server.surface.schema_uses  # the constructs the server uses (a plain mapping, quick to ask)
    for fact, features, conditional in plan.schemas:
        for feature in features:
            if feature in used:
                _schema_finding(lane, feature, server.schema_uses[feature], fact, conditional=conditional)
    evaluate_result_handling(server, lane)
    evaluate_quirks(server, lane)
    if not server.tools_complete and plan.limits_known:
        seen = server.tool_list is not None and server.tool_list.loaded
        lane.unknown_because(
            "tool list incomplete: only the tools seen were checked against this host's limits"
            if seen
            else "no tool list: the server's tools were not checked against this host's limits"
        )


@dataclass(frozen=True)
class _ServerPlan:
    """The host's server-lane facts, read once per host: those every server consults (tool count, name length
    and how names are counted, charset, schema constructs), the protocol versions, and each check's fact where it
    can fire (None where the host has no usable fact, so the check is skipped).
    """

    consulted: tuple[Fact, ...]
    """The weakest of the facts every server consults (only it counts for the lane's provenance)."""
    protocol: Fact | None
    max_tools: tuple[Fact, int] | None
    name_length: tuple[Fact, int, Fact | None, Fact | None] | None
    charset: tuple[Fact, re.Pattern[str]] | None
    schemas: tuple[tuple[Fact, tuple[str, ...], bool], ...]
    limits_known: bool


def _server_plan(host: HostProfile) -> _ServerPlan:
    """The host's `_ServerPlan`, worked out once per host (kept in `host.memo`)."""
    found = host.memo.get("server-plan")
    if isinstance(found, _ServerPlan):
        return found
    scratch = LaneBuilder(host)
    count = scratch.fact(MAX_TOOLS_FACT)
    limit = scratch.fact(NAME_LENGTH_FACT)
    name_length = None
    if limit is not None and isinstance(limit.value, int) and limit.value != NO_LIMIT:
        prefix = scratch.fact(NAME_PREFIX_FACT)
        name_format = scratch.fact(NAME_FORMAT_FACT) if prefix is not None and prefix.value is True else None
        name_length = (limit, limit.value, prefix, name_format)
    charset = scratch.fact(NAME_CHARSET_FACT)
    pattern = None if charset is None or not isinstance(charset.value, str) else _charset_pattern(charset.value)
    schemas = []
    for path in (SCHEMA_FACT, CONDITIONAL_SCHEMA_FACT):
        fact = scratch.fact(path)
        if fact is not None and isinstance(fact.value, tuple):
            schemas.append((fact, fact.value, path == CONDITIONAL_SCHEMA_FACT))
    usable_count = count is not None and isinstance(count.value, int) and count.value != NO_LIMIT
    plan = _ServerPlan(
        consulted=weakest_of(scratch.facts),
        protocol=host.facts.get(PROTOCOL_VERSIONS),
        max_tools=(count, count.value) if usable_count and count is not None and isinstance(count.value, int) else None,
        name_length=name_length,
        charset=None if charset is None or pattern is None else (charset, pattern),
        schemas=tuple(schemas),
        limits_known=any(path in host.facts for path in TOOL_LIMIT_FACTS),
    )
    host.memo["server-plan"] = plan
    return plan


_WIDGET_FORMATS: Final = ("ui.formats.mcp-apps", "ui.formats.openai-apps-sdk")


def _tool_finding_on(finding: Finding, lane: LaneBuilder) -> None:
    """A malformed tool entry or `_meta` as it matters on this host.

    A `_meta` problem only breaks the widget of that one tool, so it is at most `degraded` (the tool still answers in
    text); on a host that renders no widget format it changes nothing and is `info`. A malformed tool entry hurts
    every host alike and keeps its severity.
    """
    severity = finding.severity
    if finding.rule_id.startswith("META-") and severity is not Severity.INFO:
        if not any(lane.host.level(path) != "unsupported" for path in _WIDGET_FORMATS):
            severity = Severity.INFO
        elif severity is Severity.BLOCKER:
            severity = Severity.DEGRADED
    if severity is finding.severity:
        lane.add_finding(finding)
    else:
        lane.pending.append(
            (finding.rule_id, finding.lane, severity, finding.tools, _with_severity, (finding, severity))
        )


def _with_severity(finding: Finding, severity: Severity) -> Finding:
    return dataclasses.replace(finding, severity=severity)


def _protocol(server: ServerDigest, lane: LaneBuilder, fact: Fact) -> None:
    facts = server.requirements.connection_facts
    version = None if facts is None else facts.protocol_version
    if version is None:
        return
    lane.facts.append(fact)
    if not isinstance(fact.value, tuple) or not fact.value or version in fact.value:
        return
    lane.unknown_because(f"protocol version {version} is not one {lane.host.display_name} is known to speak")
    lane.add(_PROTO, None, (), _write_protocol, lane.at, version, fact, fact.value)


def _write_protocol(at: HostAt, version: str, fact: Fact, speaks: tuple[str, ...]) -> Finding:
    host = at.host.display_name
    return finding_for(
        "SERVER-PROTO-001",
        detail=cut_text(
            f"The server negotiated protocol version {cut_snippet(version)}; {host} is known to speak "
            f"{', '.join(speaks)}.{note_suffix(fact)}"
        ),
        remediation="Keep supporting the host's protocol versions (negotiate down when the client asks for one).",
        evidence=(
            Evidence("initialize", detail="protocolVersion", snippet=version),
            fact_evidence(at.host, PROTOCOL_VERSIONS, fact),
        ),
        **fact_fields(fact),
    )


def _tool_count(server: ServerDigest, lane: LaneBuilder, limit: tuple[Fact, int]) -> None:
    fact, cap = limit
    names = server.requirements.tool_names
    if len(names) <= cap:
        return
    excess = names[cap:]
    add_limit_finding(lane, _LIMIT, excess, fact, _write_tool_count, lane.at, names, excess, fact, cap)


def _write_tool_count(
    severity: Severity | None, at: HostAt, names: tuple[str, ...], excess: tuple[str, ...], fact: Fact, cap: int
) -> Finding:
    return finding_for(
        "SERVER-LIMIT-001",
        detail=cut_text(
            f"The server lists {len(names)} tools; {at.host.display_name} takes at most {cap} (the user's other "
            f"servers count too), so {len(excess)} tool(s) such as {name_list(excess)} may be left out."
            f"{note_suffix(fact)}{version_note(at, fact)}"
        ),
        remediation=with_client_rules(
            f"Offer at most {cap} tools (fewer leaves room for other servers), or group them behind a router tool.",
            linked_client_rules(at.host, ("cap-tool-count",)),
        ),
        tools=excess,
        evidence=(
            Evidence("tools/list", detail=f"{len(names)} tools"),
            fact_evidence(at.host, MAX_TOOLS_FACT, fact),
        ),
        severity=severity,
        **fact_fields(fact),
    )


def _name_length(
    server: ServerDigest,
    lane: LaneBuilder,
    limit_fact: Fact,
    limit: int,
    prefix_fact: Fact | None,
    format_fact: Fact | None,
) -> None:
    facts = server.requirements.connection_facts
    server_name = None if facts is None else facts.server_name
    template, how = _counted_form(prefix_fact, format_fact, server_name)
    counted = template.replace("{server}", server_name or "")
    extra = len(counted) - len("{tool}")
    over = server.long_names(counted, limit)
    if not over.tools:
        return
    write = _write_name_length
    add_limit_finding(lane, _NAME_LENGTH, over.tools, limit_fact, write, lane.at, over, limit_fact, limit, extra, how)


def _write_name_length(
    severity: Severity | None, at: HostAt, over: ToolSet, limit_fact: Fact, limit: int, extra: int, how: str
) -> Finding:
    return finding_for(
        "SERVER-NAME-001",
        detail=cut_text(
            f"{len(over.tools)} tool name(s) are longer than {at.host.display_name}'s limit of {limit} "
            f"characters {how}: {over.text}.{note_suffix(limit_fact)}{version_note(at, limit_fact)}"
        ),
        remediation=with_client_rules(
            f"Shorten the tool names to at most {max(limit - extra, 1)} characters.",
            linked_client_rules(at.host, ("truncate-tool-names",)),
        ),
        tools=over.tools,
        evidence=(*over.evidence, fact_evidence(at.host, NAME_LENGTH_FACT, limit_fact)),
        severity=severity,
        **fact_fields(limit_fact),
    )


def _counted_form(prefix: Fact | None, name_format: Fact | None, server_name: str | None) -> tuple[str, str]:
    """The name as the host counts it (a template over {server} and {tool}) and how that was decided.

    Without a known format the server name is counted without separators, and without a known server name it is
    not counted at all: both give a lower bound, so every name reported is too long whatever the rest.
    """
    if prefix is None:
        return "{tool}", "(the bare name; whether the host adds the server name is not recorded)"
    if prefix.value is not True:
        return "{tool}", "(the bare name; the host does not count the server name)"
    template = name_format.value if name_format is not None and isinstance(name_format.value, str) else None
    if server_name is None:
        bare = "{tool}" if template is None else template.replace("{server}", "")
        return bare, "(the server name was not known and is not counted, so real names are longer)"
    if template is None:
        return "{server}{tool}", f"(counting the server name {cut_snippet(repr(server_name))} without separators)"
    return template, f"(counted as {template!r} with the server name {cut_snippet(repr(server_name))})"


@functools.lru_cache(maxsize=64)
def _charset_pattern(charset: str) -> re.Pattern[str] | None:
    try:
        return re.compile(f"(?:{charset})+")
    except re.error:
        return None


def _name_charset(server: ServerDigest, lane: LaneBuilder, fact: Fact, pattern: re.Pattern[str]) -> None:
    bad = server.names_outside(pattern)
    if not bad.tools:
        return
    add_limit_finding(lane, _NAME_CHARSET, bad.tools, fact, _write_name_charset, lane.at, bad, fact)


def _write_name_charset(severity: Severity | None, at: HostAt, bad: ToolSet, fact: Fact) -> Finding:
    return finding_for(
        "SERVER-NAME-002",
        detail=cut_text(
            f"{len(bad.tools)} tool name(s) have characters outside {fact.value}, which "
            f"{at.host.display_name} requires: {bad.text}.{note_suffix(fact)}{version_note(at, fact)}"
        ),
        remediation=with_client_rules(
            f"Use only {fact.value} in tool names (replace the others with '_').",
            linked_client_rules(at.host, ("sanitize-tool-names",)),
        ),
        tools=bad.tools,
        evidence=(*bad.evidence, fact_evidence(at.host, NAME_CHARSET_FACT, fact)),
        severity=severity,
        **fact_fields(fact),
    )


def _schema_finding(lane: LaneBuilder, feature: str, uses: ToolSet, fact: Fact, *, conditional: bool) -> None:
    rule = _SCHEMA_CONDITIONAL if conditional else _SCHEMA
    add_limit_finding(lane, rule, uses.tools, fact, _write_schema_finding, lane.at, feature, uses, fact, conditional)


def _write_schema_finding(
    severity: Severity | None, at: HostAt, feature: str, uses: ToolSet, fact: Fact, conditional: bool
) -> Finding:
    fix, rewrite = SCHEMA_FIXES.get(feature, ("Rewrite the schema without this construct.", None))
    host = at.host.display_name
    when = " in some setups" if conditional else ""
    return finding_for(
        "SERVER-SCHEMA-002" if conditional else "SERVER-SCHEMA-001",
        title=f"Input schema uses {feature}, which this host rejects{when}",
        detail=cut_text(
            f"The inputSchema of {len(uses.tools)} tool(s) uses {feature}, which {host} rejects{when}: "
            f"{uses.text}.{note_suffix(fact)}{version_note(at, fact)}"
        ),
        remediation=with_client_rules(fix, linked_client_rules(at.host, (rewrite,)) if rewrite else ()),
        tools=uses.tools,
        evidence=(
            *uses.evidence,
            fact_evidence(at.host, CONDITIONAL_SCHEMA_FACT if conditional else SCHEMA_FACT, fact),
        ),
        severity=severity,
        **fact_fields(fact),
    )


__all__ = [
    "CONDITIONAL_SCHEMA_FACT",
    "MAX_TOOLS_FACT",
    "NAME_CHARSET_FACT",
    "NAME_FORMAT_FACT",
    "NAME_LENGTH_FACT",
    "NAME_PREFIX_FACT",
    "PROTOCOL_VERSIONS",
    "SCHEMA_FACT",
    "SCHEMA_FIXES",
    "TOOL_LIMIT_FACTS",
    "evaluate_server_lane",
]
