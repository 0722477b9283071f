"""Terminal output: a host-by-verdict table per server, why each unknown lane is unknown, then each finding once
with the hosts it applies to (findings that say different things are printed apart, never merged).

Plain text by default (CI logs, pipes); `render_rich` adds colour and a real table when `rich` is installed and the
output is a terminal. Both end, for several servers, with each host across them, and wrap to the width given (the
terminal's). Server-sent strings are printed as text, never interpreted as markup.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, TextIO

from hostcompat.report.grouping import shared_reasons
from hostcompat.report.view import SUMMARY_ORDER, FindingView, ReportView, ServerView, report_view
from hostcompat.terminal import clean_line as _clean

if TYPE_CHECKING:
    from hostcompat.report.model import ReportDocument

_MARKS = {"works": "ok", "degraded": "!!", "blocked": "XX", "unknown": "??"}


def render_text(document: ReportDocument, *, width: int = 100) -> str:
    """The plain-text report, every line at most `width` columns (a word longer than that aside: never cut)."""
    view = report_view(document)
    out: list[str] = []
    for server in view.servers:
        out += _server_head(server, width)
        if server.hosts:
            label_width = max(len(_clean(host.label)) for host in server.hosts)
            for host in server.hosts:
                noun = "finding" if host.findings == 1 else "findings"
                out.append(
                    f"  {_MARKS.get(host.verdict, '??')} {_clean(host.label):<{label_width}}  {host.verdict:<8}"
                    f"  {host.findings} {noun}"
                )
        out += _server_tail(server, width)
        out.append("")
    out += summary_lines(view, width)
    return "\n".join(out).rstrip() + "\n"


def _server_head(server: ServerView, width: int) -> list[str]:
    """The server's name and target, why it could not be checked, and its probe events: what precedes its hosts."""
    version = f" {_clean(server.version)}" if server.version is not None else ""
    lines = _wrap(f"{_clean(server.name)}{version}  ({_clean(server.display)})", width, "", "    ")
    if server.error is not None:
        lines += _wrap(f"could not be checked: {_clean(server.error)}", width, "  ", "    ")
    for event in server.events:
        lines += _wrap(f"[{_clean(event.code)}] {_clean(event.message)}", width, "  ", "    ")
    return lines


def _server_tail(server: ServerView, width: int) -> list[str]:
    """The verdict counts, why lanes are unknown, the findings and the server hygiene: what follows its hosts."""
    lines = ["  " + ", ".join(f"{count} {verdict}" for verdict, count in server.summary)]
    for row in server.proxied:
        lines += _wrap(_clean(row.line), width, "  ", "    ")
    lines += _unknown_block(server, width)
    for finding in server.findings:
        lines += _finding_block(finding, width)
    if server.hygiene:
        lines += ["", "  Server hygiene:"]
        for finding in server.hygiene:
            lines += _finding_block(finding, width)
    return lines


def summary_lines(view: ReportView, width: int) -> list[str]:
    """Each host across the servers (how many work, are degraded, blocked, unknown) when there are several."""
    if len(view.servers) < 2:
        return []
    checked = len(view.servers) - view.unchecked
    head = f"Across {len(view.servers)} servers ({checked} checked, {view.unchecked} could not be):"
    lines = ["", *_wrap(head, width, "", "  ")]
    if not view.tallies:
        return lines
    label_width = max(4, *(len(_clean(tally.label)) for tally in view.tallies))
    lines.append(f"  {'host':<{label_width}}  " + "  ".join(SUMMARY_ORDER))
    for tally in view.tallies:
        counts = "  ".join(
            f"{count:>{len(verdict)}}" for verdict, count in zip(SUMMARY_ORDER, tally.counts, strict=True)
        )
        lines.append(f"  {_clean(tally.label):<{label_width}}  {counts}")
    return lines


def _unknown_block(server: ServerView, width: int) -> list[str]:
    """Why lanes are unknown: each reason once, with the hosts that give it."""
    if not server.unknown:
        return []
    lines = ["", "  Why unknown:"]
    judged = len(server.hosts)
    for shared in shared_reasons(server.unknown):
        text = f"{_clean(shared.who(judged))} ({_clean(shared.lane)} lane): {_clean(shared.reason)}"
        lines += _wrap(text, width, "    - ", "        ")
        if shared.listed(judged):
            hosts = "hosts: " + ", ".join(_clean(host) for host in shared.hosts)
            lines += _wrap(hosts, width, "        ", "          ")
    return lines


def _finding_block(finding: FindingView, width: int) -> list[str]:
    indent = "      "
    head = f"{_clean(finding.rule_id)} [{_clean(finding.severity)}] {_clean(finding.title)}"
    lines = ["", *_wrap(head, width, "  - ", "        ")]
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
    """`text` wrapped at spaces (never inside a rule id, URL or name that fits on a line: only a word wider than a
    whole line is split, so that no line is wider than `width` and nothing is cut).

    Text that fits on the first line, holds no whitespace but spaces and does not end in one is that line as it
    is, which is what `textwrap` makes of it too, without splitting and joining it (most lines of a report).
    """
    if text and len(first) + len(text) <= width and text.isprintable() and text[-1] != " ":
        return [first + text]
    return textwrap.wrap(
        text, width=width, initial_indent=first, subsequent_indent=rest, break_long_words=True, break_on_hyphens=False
    )


def render_rich(document: ReportDocument, stream: TextIO, *, width: int | None = None) -> bool:
    """Print the report with `rich` to `stream`; returns False (printing nothing) when `rich` is not installed.

    It says what `render_text` says (the same lines, wrapped to the console: the verdict counts, the findings, the
    "Server hygiene" heading, the summary across servers), with a table of the hosts that also gives each lane's
    verdict.
    """
    try:
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text
    except ImportError:
        return False
    console = Console(file=stream, width=width, highlight=False)
    styles = {"works": "green", "degraded": "yellow", "blocked": "bold red", "unknown": "dim"}
    view = report_view(document)
    wrap = console.width
    for server in view.servers:
        head = _server_head(server, wrap)
        for index, line in enumerate(head):
            style = "bold" if index == 0 else "bold red" if "could not be checked" in line else "yellow"
            console.print(Text(line, style=style), crop=False)
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
        if server.hosts:
            console.print(table)
            console.print()  # the verdict counts stand apart from the table, as the findings below them do
        for line in _server_tail(server, wrap):
            console.print(Text(line), crop=False, soft_wrap=True)
        console.print()
    for line in summary_lines(view, wrap):
        console.print(Text(line), crop=False, soft_wrap=True)
    return True


__all__ = ["render_rich", "render_text"]
