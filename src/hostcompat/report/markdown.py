"""Markdown output: a host-by-verdict table per server, why each unknown lane is unknown, then the findings with
their remediation (findings that say different things are listed apart, never merged).

Everything a server sent is untrusted: table cells and text are escaped so a tool name cannot break the table or
inject markup.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hostcompat.report.grouping import group_findings, other_events, unknown_reasons
from hostcompat.terminal import clean_line
from hostcompat.wire_json import WireJSON

if TYPE_CHECKING:
    from hostcompat.report.model import ReportDocument

_ESCAPE = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")
_ICONS = {"works": "✅ works", "degraded": "⚠️ degraded", "blocked": "⛔ blocked", "unknown": "❔ unknown"}


def escape_markdown(text: object) -> str:
    """`text` on one line, control characters neutralised (`hostcompat.terminal.clean_line`), with Markdown and
    HTML metacharacters escaped.
    """
    return _ESCAPE.sub(r"\\\1", clean_line(text))


def _finding_lines(finding: Mapping[str, Any], where: str, hosts: tuple[str, ...] = ()) -> list[str]:
    tools = ", ".join(f"`{escape_markdown(tool)}`" for tool in finding.get("tools") or ())
    head = f"- **{escape_markdown(finding.get('ruleId'))}** ({escape_markdown(finding.get('severity'))}{where}): "
    line = head + escape_markdown(finding.get("title", ""))
    if tools:
        line += f" — tools: {tools}"
    lines = [line]
    if hosts:
        lines.append("  *Hosts:* " + ", ".join(escape_markdown(host) for host in hosts))
    lines.append(f"  {escape_markdown(finding.get('detail', ''))}")
    if finding.get("remediation"):
        lines.append(f"  *Fix:* {escape_markdown(finding['remediation'])}")
    source = finding.get("factSource")
    if source:
        lines.append(
            f"  *Host fact:* {escape_markdown(finding.get('provenance', 'unknown'))}, {escape_markdown(source)}"
            f" ({escape_markdown(finding.get('factDate', 'undated'))})"
        )
    return lines


def render_markdown(document: ReportDocument) -> str:
    """The Markdown report."""
    out: list[str] = []
    raw: WireJSON = document  # read as the untyped JSON a saved report may hold
    for server in raw.get("servers", ()):
        target = server.get("target") or {}
        info = server.get("server") or {}
        title = info.get("name") or target.get("display") or "server"
        out.append(f"## {escape_markdown(title)}")
        out.append("")
        if target.get("display"):
            out.append(f"Target: `{escape_markdown(target['display'])}`")
            out.append("")
        if server.get("error"):
            out.append(f"> **Could not be checked:** {escape_markdown(server['error'])}")
            out.append("")
        hosts = server.get("hosts") or []
        if hosts:
            out += ["| host | verdict | apps | server | findings |", "|---|---|---|---|---|"]
            for host in hosts:
                lanes = host.get("lanes") or {}
                out.append(
                    "| {} | {} | {} | {} | {} |".format(
                        escape_markdown(host.get("hostLabel") or host.get("hostId")),
                        _ICONS.get(str(host.get("verdict")), escape_markdown(host.get("verdict"))),
                        escape_markdown((lanes.get("apps") or {}).get("verdict", "")),
                        escape_markdown((lanes.get("server") or {}).get("verdict", "")),
                        len(host.get("findings") or ()),
                    )
                )
            out.append("")
        events = other_events(server)
        for event in events:
            out.append(f"> **{escape_markdown(event.get('code'))}**: {escape_markdown(event.get('message', ''))}")
        if events:
            out.append("")
        unknown = unknown_reasons(hosts)
        if unknown:
            out += ["### Why unknown", ""]
            for lane in unknown:
                where = f"- **{escape_markdown(lane.host)}** ({escape_markdown(lane.lane)} lane): "
                out += [where + escape_markdown(reason) for reason in lane.reasons]
            out.append("")
        groups = group_findings(hosts)
        if groups:
            out += ["### Findings", ""]
            for group in groups:
                out += _finding_lines(group.finding, "", group.hosts)
            out.append("")
        if server.get("hygiene"):
            out += ["### Server hygiene", ""]
            for finding in server["hygiene"]:
                out += _finding_lines(finding, "")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


__all__ = ["escape_markdown", "render_markdown"]
