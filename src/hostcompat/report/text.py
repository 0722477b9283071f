"""Terminal output: a host-by-verdict table per server, why each unknown lane is unknown, then each finding once
with the hosts it applies to (findings that say different things are printed apart, never merged).

Plain text by default (CI logs, pipes); `render_rich` adds colour and a real table when `rich` is installed and the
output is a terminal. Server-sent strings are printed as text, never interpreted as markup.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TextIO

from hostcompat.report.grouping import UnknownReasons, group_findings, other_events, unknown_reasons
from hostcompat.terminal import clean_line as _clean
from hostcompat.wire_json import WireJSON

if TYPE_CHECKING:
    from hostcompat.report.model import ReportDocument

_MARKS = {"works": "ok", "degraded": "!!", "blocked": "XX", "unknown": "??"}


def render_text(document: ReportDocument, *, width: int = 100) -> str:
    """The plain-text report."""
    out: list[str] = []
    raw: WireJSON = document  # read as the untyped JSON a saved report may hold
    for server in raw.get("servers", ()):
        target = server.get("target") or {}
        info = server.get("server") or {}
        name = _clean(info.get("name") or target.get("display") or "server")
        version = f" {_clean(info['version'])}" if info.get("version") else ""
        out.append(f"{name}{version}  ({_clean(target.get('display', ''))})")
        if server.get("error"):
            out.append(f"  could not be checked: {_clean(server['error'])}")
        out.extend(f"  [{_clean(e.get('code'))}] {_clean(e.get('message', ''))}" for e in other_events(server))
        hosts = server.get("hosts") or []
        if hosts:
            label_width = max(len(_clean(h.get("hostLabel") or h.get("hostId"))) for h in hosts)
            for host in hosts:
                verdict = str(host.get("verdict"))
                label = _clean(host.get("hostLabel") or host.get("hostId"))
                count = len(host.get("findings") or ())
                noun = "finding" if count == 1 else "findings"
                out.append(f"  {_MARKS.get(verdict, '??')} {label:<{label_width}}  {verdict:<8}  {count} {noun}")
        summary = server.get("summary") or {}
        out.append("  " + ", ".join(f"{summary.get(v, 0)} {v}" for v in ("works", "degraded", "blocked", "unknown")))
        out += _unknown_block(unknown_reasons(hosts), width)
        for group in group_findings(hosts):
            out += _finding_block(group.finding, group.hosts, width)
        if server.get("hygiene"):
            out.append("")
            out.append("  Server hygiene:")
            for finding in server["hygiene"]:
                out += _finding_block(finding, (), width)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _unknown_block(lanes: list[UnknownReasons], width: int) -> list[str]:
    if not lanes:
        return []
    lines = ["", "  Why unknown:"]
    for lane in lanes:
        for reason in lane.reasons:
            text = f"{_clean(lane.host)} ({_clean(lane.lane)} lane): {_clean(reason)}"
            lines += _wrap(text, width, "    - ", "        ")
    return lines


def _finding_block(finding: Mapping[str, Any], hosts: tuple[str, ...], width: int) -> list[str]:
    indent = "      "
    head = f"  - {_clean(finding.get('ruleId'))} [{_clean(finding.get('severity'))}] {_clean(finding.get('title', ''))}"
    lines = ["", head]
    body: list[str] = []
    if hosts:
        body.append("hosts: " + ", ".join(_clean(h) for h in hosts))
    tools = finding.get("tools") or ()
    if tools:
        body.append("tools: " + ", ".join(_clean(t) for t in tools))
    if finding.get("detail"):
        body.append(_clean(finding["detail"]))
    if finding.get("remediation"):
        body.append("fix: " + _clean(finding["remediation"]))
    if finding.get("factSource"):
        body.append(
            f"host fact: {_clean(finding.get('provenance', 'unknown'))}, {_clean(finding['factSource'])}"
            f" ({_clean(finding.get('factDate', 'undated'))})"
        )
    for paragraph in body:
        lines += _wrap(paragraph, width, indent, indent + "  ")
    return lines


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    """`text` wrapped at spaces only (never inside a rule id, URL or name), so joining its lines gives it back."""
    return textwrap.wrap(
        text, width=width, initial_indent=first, subsequent_indent=rest, break_long_words=False, break_on_hyphens=False
    )


def render_rich(document: ReportDocument, stream: TextIO, *, width: int | None = None) -> bool:
    """Print the report with `rich` to `stream`; returns False (printing nothing) when `rich` is not installed."""
    try:
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text
    except ImportError:
        return False
    console = Console(file=stream, width=width, highlight=False)
    styles = {"works": "green", "degraded": "yellow", "blocked": "bold red", "unknown": "dim"}
    raw: WireJSON = document  # read as the untyped JSON a saved report may hold
    for server in raw.get("servers", ()):
        target = server.get("target") or {}
        info = server.get("server") or {}
        title = Text(_clean(info.get("name") or target.get("display") or "server"), style="bold")
        console.print(title, Text(f"  {_clean(target.get('display', ''))}", style="dim"))
        if server.get("error"):
            console.print(Text(f"  could not be checked: {_clean(server['error'])}", style="bold red"))
        for event in other_events(server):
            console.print(Text(f"  [{_clean(event.get('code'))}] {_clean(event.get('message', ''))}", style="yellow"))
        table = Table(show_edge=False, pad_edge=False)
        for column in ("host", "verdict", "apps", "server", "findings"):
            table.add_column(column)
        for host in server.get("hosts") or ():
            verdict = str(host.get("verdict"))
            lanes = host.get("lanes") or {}
            table.add_row(
                Text(_clean(host.get("hostLabel") or host.get("hostId"))),
                Text(verdict, style=styles.get(verdict, "")),
                Text(str((lanes.get("apps") or {}).get("verdict", ""))),
                Text(str((lanes.get("server") or {}).get("verdict", ""))),
                Text(str(len(host.get("findings") or ()))),
            )
        console.print(table)
        for line in _unknown_block(unknown_reasons(server.get("hosts") or ()), console.width - 2):
            console.print(Text(line))
        for group in group_findings(server.get("hosts") or ()):
            for line in _finding_block(group.finding, group.hosts, console.width - 2):
                console.print(Text(line))
        for finding in server.get("hygiene") or ():
            for line in _finding_block(finding, (), console.width - 2):
                console.print(Text(line))
        console.print()
    return True


__all__ = ["render_rich", "render_text"]
