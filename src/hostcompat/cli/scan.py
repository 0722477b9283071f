"""`hostcompat scan WIDGET.html`: what a widget's code really calls of its host, with evidence for each need.

The widget is untrusted: what the output quotes of it is neutralised for the terminal (`hostcompat.terminal`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from hostcompat.cli._command import Command
from hostcompat.errors import InvalidInput
from hostcompat.terminal import clean_line, write_json

MAX_WIDGET_BYTES = 64 * 1024 * 1024


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("widget", help="an HTML file (or a bare script); `-` reads standard input")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument(
        "--all", action="store_true", help="also list mentions that do not count (definitions, strings)"
    )


def _read(name: str) -> str:
    if name == "-":
        data = sys.stdin.buffer.read(MAX_WIDGET_BYTES + 1)
    else:
        try:
            with Path(name).open("rb") as stream:
                data = stream.read(MAX_WIDGET_BYTES + 1)
        except OSError as exc:
            raise InvalidInput(f"cannot read {name!r}: {exc.strerror or exc}", value=name) from exc
    if len(data) > MAX_WIDGET_BYTES:
        raise InvalidInput(f"{name!r} is larger than {MAX_WIDGET_BYTES} bytes", value=name)
    return data.decode("utf-8", errors="replace")


def _run(args: argparse.Namespace) -> int:
    from hostcompat.engine.scan.widget import scan_widget_source

    scan = scan_widget_source(_read(args.widget))
    if args.format == "json":
        write_json(sys.stdout, json.dumps(scan.to_dict(), indent=2, ensure_ascii=False) + "\n")
        return 0
    out = sys.stdout
    used = scan.needs_used()
    name = clean_line(args.widget)
    out.write(f"{name}: {len(used)} needs" + (f": {', '.join(used)}\n" if used else "\n"))
    if not scan.code_analysed:
        out.write("  the widget's code was NOT analysed (it loads its code from elsewhere): this is not a clean bill\n")
    for finding in scan.findings:  # everything below quotes the widget: one line each, nothing a terminal obeys
        if not finding.counts and not args.all:
            continue
        where = f"line {finding.evidence.line}: {finding.evidence.snippet!r}" if finding.evidence else finding.detail
        mark = "" if finding.counts else " (does not count)"
        out.write(
            f"  {finding.need:<20} {finding.kind:<12} {finding.confidence:<6} via {clean_line(finding.via)}{mark}\n"
        )
        out.write(f"      {clean_line(where)}\n")
    for external in scan.external_code:
        out.write(f"  external code: {clean_line(json.dumps(external.to_dict(), ensure_ascii=False))}\n")
    for directive in ("resource", "connect", "frame"):
        domains = scan.domains_for(directive)
        if domains:
            out.write(f"  {directive} domains: {clean_line(', '.join(domains))}\n")
    for limit in scan.limits:
        out.write(f"  limit: {clean_line(limit.to_dict())}\n")
    return 0


COMMAND = Command(
    name="scan",
    help="print what a widget uses of its host (tool calls, messages, links, downloads, …) with evidence",
    add_arguments=_add_arguments,
    run=_run,
)

__all__ = ["COMMAND"]
