"""Markdown output: a host-by-verdict table per server, why each unknown lane is unknown, then the findings with
their remediation (findings that say different things are listed apart, never merged).

Everything a server sent is untrusted: table cells and text are escaped so a tool name cannot break the table or
inject markup.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hostcompat._regex import regex
from hostcompat.report.grouping import shared_reasons
from hostcompat.report.view import FindingView, report_view
from hostcompat.terminal import clean_line

if TYPE_CHECKING:
    from hostcompat.report.model import ReportDocument

_ESCAPE = regex(r"([\\`*_{}\[\]<>()#+!|~])")
_ICONS = {"works": "✅ works", "degraded": "⚠️ degraded", "blocked": "⛔ blocked", "unknown": "❔ unknown"}


def escape_markdown(text: object) -> str:
    """`text` on one line, control characters neutralised (`hostcompat.terminal.clean_line`), with Markdown and
    HTML metacharacters escaped.
    """
    return _ESCAPE.sub(r"\\\1", clean_line(text))


def code_span(text: object) -> str:
    """`text` on one line as a Markdown code span: no backslash escapes inside (CommonMark shows them as typed), a
    fence of backticks one longer than any run in the text, and a space inside the fence when the text starts or
    ends with a backtick (or a space), as CommonMark strips one.
    """
    line = clean_line(text)
    longest = max((len(run) for run in re.findall(r"`+", line)), default=0)
    fence = "`" * (longest + 1)
    if line.startswith(("`", " ")) or line.endswith(("`", " ")):
        line = f" {line} "
    return f"{fence}{line}{fence}"


def _finding_lines(finding: FindingView) -> list[str]:
    tools = ", ".join(code_span(tool) for tool in finding.tools)
    head = f"- **{escape_markdown(finding.rule_id)}** ({escape_markdown(finding.severity)}): "
    line = head + escape_markdown(finding.title)
    if tools:
        line += f" — tools: {tools}"
    lines = [line]
    if finding.hosts:
        lines.append("  *Hosts:* " + ", ".join(escape_markdown(host) for host in finding.hosts))
    lines.append(f"  {escape_markdown(finding.detail)}")
    if finding.remediation is not None:
        lines.append(f"  *Fix:* {escape_markdown(finding.remediation)}")
    fact = finding.fact
    if fact is not None:
        lines.append(
            f"  *Host fact:* {escape_markdown(fact.provenance)}, {escape_markdown(fact.source)}"
            f" ({escape_markdown(fact.date)})"
        )
    return lines


def render_markdown(document: ReportDocument) -> str:
    """The Markdown report."""
    out: list[str] = []
    for server in report_view(document).servers:
        out.append(f"## {escape_markdown(server.name)}")
        out.append("")
        if server.has_display:
            out.append(f"Target: {code_span(server.display)}")
            out.append("")
        if server.error is not None:
            out.append(f"> **Could not be checked:** {escape_markdown(server.error)}")
            out.append("")
        if server.hosts:
            out += ["| host | verdict | apps | server | findings |", "|---|---|---|---|---|"]
            for host in server.hosts:
                verdict = _ICONS.get(host.verdict, escape_markdown(host.verdict))
                cells = [escape_markdown(host.label), verdict, escape_markdown(host.apps), escape_markdown(host.server)]
                out.append(f"| {' | '.join(cells)} | {host.findings} |")
            out.append("")
        for row in server.proxied:
            out.append(f"- {escape_markdown(row.line)}")
        if server.proxied:
            out.append("")
        for event in server.events:
            out.append(f"> **{escape_markdown(event.code)}**: {escape_markdown(event.message)}")
        if server.events:
            out.append("")
        if server.unknown:
            out += ["### Why unknown", ""]
            judged = len(server.hosts)
            for shared in shared_reasons(server.unknown):
                where = f"- **{escape_markdown(shared.who(judged))}** ({escape_markdown(shared.lane)} lane): "
                out.append(where + escape_markdown(shared.reason))
                if shared.listed(judged):
                    out.append("  - hosts: " + ", ".join(escape_markdown(host) for host in shared.hosts))
            out.append("")
        if server.findings:
            out += ["### Findings", ""]
            for finding in server.findings:
                out += _finding_lines(finding)
            out.append("")
        if server.hygiene:
            out += ["### Server hygiene", ""]
            for finding in server.hygiene:
                out += _finding_lines(finding)
            out.append("")
    return "\n".join(out).rstrip() + "\n"


__all__ = ["code_span", "escape_markdown", "render_markdown"]
