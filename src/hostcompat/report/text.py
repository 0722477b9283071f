"""Terminal output: a host-by-verdict table per server, why each unknown lane is unknown, then each finding once
with the hosts it applies to (findings that say different things are printed apart, never merged).

Plain text by default (CI logs, pipes); `render_rich` adds colour and a real table when `rich` is installed and the
output is a terminal. Server-sent strings are printed as text, never interpreted as markup.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, TextIO

from hostcompat.report.grouping import UnknownReasons
from hostcompat.report.view import FindingView, report_view
from hostcompat.terminal import clean_line as _clean

if TYPE_CHECKING:
    from hostcompat.report.model import ReportDocument

_MARKS = {"works": "ok", "degraded": "!!", "blocked": "XX", "unknown": "??"}


def render_text(document: ReportDocument, *, width: int = 100) -> str:
    """The plain-text report."""
    out: list[str] = []
    for server in report_view(document).servers:
        version = f" {_clean(server.version)}" if server.version is not None else ""
        out.append(f"{_clean(server.name)}{version}  ({_clean(server.display)})")
        if server.error is not None:
            out.append(f"  could not be checked: {_clean(server.error)}")
        out.extend(f"  [{_clean(event.code)}] {_clean(event.message)}" for event in server.events)
        if server.hosts:
            label_width = max(len(_clean(host.label)) for host in server.hosts)
            for host in server.hosts:
                noun = "finding" if host.findings == 1 else "findings"
                out.append(
                    f"  {_MARKS.get(host.verdict, '??')} {_clean(host.label):<{label_width}}  {host.verdict:<8}"
                    f"  {host.findings} {noun}"
                )
        out.append("  " + ", ".join(f"{count} {verdict}" for verdict, count in server.summary))
        out += _unknown_block(server.unknown, width)
        for finding in server.findings:
            out += _finding_block(finding, width)
        if server.hygiene:
            out.append("")
            out.append("  Server hygiene:")
            for finding in server.hygiene:
                out += _finding_block(finding, width)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _unknown_block(lanes: tuple[UnknownReasons, ...], width: int) -> list[str]:
    if not lanes:
        return []
    lines = ["", "  Why unknown:"]
    for lane in lanes:
        for reason in lane.reasons:
            text = f"{_clean(lane.host)} ({_clean(lane.lane)} lane): {_clean(reason)}"
            lines += _wrap(text, width, "    - ", "        ")
    return lines


def _finding_block(finding: FindingView, width: int) -> list[str]:
    indent = "      "
    head = f"  - {_clean(finding.rule_id)} [{_clean(finding.severity)}] {_clean(finding.title)}"
    lines = ["", head]
    body: list[str] = []
    if finding.hosts:
        body.append("hosts: " + ", ".join(_clean(host) for host in finding.hosts))
    if finding.tools:
        body.append("tools: " + ", ".join(_clean(tool) for tool in finding.tools))
    if finding.has_detail:
        body.append(_clean(finding.detail))
    if finding.remediation is not None:
        body.append("fix: " + _clean(finding.remediation))
    if finding.fact is not None:
        fact = finding.fact
        body.append(f"host fact: {_clean(fact.provenance)}, {_clean(fact.source)} ({_clean(fact.date)})")
    for paragraph in body:
        lines += _wrap(paragraph, width, indent, indent + "  ")
    return lines


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    """`text` wrapped at spaces only (never inside a rule id, URL or name), so joining its lines gives it back."""
    return textwrap.wrap(
        text, width=width, initial_indent=first, subsequent_indent=rest, break_long_words=False, break_on_hyphens=False
    )


def render_rich(document: ReportDocument, stream: TextIO, *, width: int | None = None) -> bool:
    """Print the report with `rich` to `stream`; returns False (printing nothing) when `rich` is not installed.

    It says what `render_text` says (the same finding blocks, wrapped to the console), with a table of the hosts
    that also gives each lane's verdict.
    """
    try:
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text
    except ImportError:
        return False
    console = Console(file=stream, width=width, highlight=False)
    styles = {"works": "green", "degraded": "yellow", "blocked": "bold red", "unknown": "dim"}
    for server in report_view(document).servers:
        console.print(Text(_clean(server.name), style="bold"), Text(f"  {_clean(server.display)}", style="dim"))
        if server.error is not None:
            console.print(Text(f"  could not be checked: {_clean(server.error)}", style="bold red"))
        for event in server.events:
            console.print(Text(f"  [{_clean(event.code)}] {_clean(event.message)}", style="yellow"))
        table = Table(show_edge=False, pad_edge=False)
        for column in ("host", "verdict", "apps", "server", "findings"):
            table.add_column(column)
        for host in server.hosts:
            table.add_row(
                Text(_clean(host.label)),
                Text(host.verdict, style=styles.get(host.verdict, "")),
                Text(host.apps),
                Text(host.server),
                Text(str(host.findings)),
            )
        console.print(table)
        lines = _unknown_block(server.unknown, console.width - 2)
        for finding in (*server.findings, *server.hygiene):
            lines += _finding_block(finding, console.width - 2)
        for line in lines:
            console.print(Text(line))
        console.print()
    return True


__all__ = ["render_rich", "render_text"]
