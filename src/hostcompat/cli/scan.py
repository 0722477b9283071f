"""`hostcompat scan WIDGET.html`: what a widget's code really calls of its host, with evidence for each need.

The widget is untrusted: what the output quotes of it is neutralised for the terminal (`hostcompat.terminal`).
With `--cache-dir DIR` the whole scan is kept in DIR by the widget's bytes and the scanner's version, shared with
`check --cache-dir` (`cli._scan_cache`), so scanning the same widget again prints the same without reading its code.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from hostcompat.cli._command import Command
from hostcompat.cli._scan_cache import add_cache_arguments, open_cache
from hostcompat.cli._wrapping import wrap
from hostcompat.cli.command_line import terminal_width
from hostcompat.errors import InvalidInput
from hostcompat.terminal import clean_line, write_json

if TYPE_CHECKING:
    from hostcompat.engine.scan.model import WidgetScan

MAX_WIDGET_BYTES = 64 * 1024 * 1024


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("widget", help="an HTML file (or a bare script); `-` reads standard input")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument(
        "--all", action="store_true", help="also list mentions that do not count (definitions, strings)"
    )
    add_cache_arguments(parser)


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


def render_scan_text(scan: WidgetScan, name: str, *, show_all: bool = False, width: int = 80) -> str:
    """What a scan found, for a person: the needs with where each one is used, the code not analysed, the domains
    reached, and what the scanner could not do. Everything the widget wrote is one escaped line, wrapped to `width`.
    """
    used = scan.needs_used()
    needs = f"{len(used)} needs" + (f": {', '.join(used)}" if used else "")
    head = f"{name}: {needs}"
    lines = [head] if len(head) <= width else [f"{name}:", *wrap(needs, width, "  ")]
    if not scan.code_analysed:
        lines += wrap("the widget's code was NOT analysed (it loads its code from elsewhere): this is not a clean "
                       "bill", width, "  ")  # fmt: skip
    for finding in scan.findings:  # everything below quotes the widget: one line each, nothing a terminal obeys
        if not finding.counts and not show_all:
            continue
        mark = " (does not count)" if not finding.counts else ""
        head = f"{finding.need}: {finding.kind}, {finding.confidence} confidence, via {clean_line(finding.via)}{mark}"
        lines += wrap(head, width, "  ")
        if finding.evidence is not None:
            lines += wrap(f"line {finding.evidence.line}: {clean_line(finding.evidence.snippet)}", width, "      ")
        elif finding.detail:
            lines += wrap(clean_line(finding.detail), width, "      ")
    if scan.external_code:
        lines.append("  code it loads, not analysed:")
        for external in scan.external_code:
            text = f"{external.kind} {clean_line(external.url)} (line {external.evidence.line})"
            lines += wrap(text, width, "    - ", "        ")
    for directive in ("resource", "connect", "frame"):
        domains = scan.domains_for(directive)
        if domains:
            lines += wrap(f"{directive} domains: {clean_line(', '.join(domains))}", width, "  ")
    for limit in scan.limits:
        lines += wrap(f"limit: {clean_line(limit.detail)} ({limit.code})", width, "  ")
    return "\n".join(lines) + "\n"


def _scan(text: str, args: argparse.Namespace) -> WidgetScan:
    """The scan of `text`: the one kept in `--cache-dir` for the same bytes and scanner, else one run now (and kept)."""
    from hostcompat.engine.scan.widget import scan_widget_source

    cache = open_cache(args)
    if cache is None:
        return scan_widget_source(text)
    from hostcompat.widget_scans import content_key

    key = content_key({"text": text})  # what `scan_widget_content` reads of a text item: the text alone
    try:
        kept = None if key is None else cache.read_scan(key)
        if kept is not None:
            return kept
        scan = scan_widget_source(text)
        if key is not None:
            cache.write_scan(key, scan)
        return scan
    finally:
        cache.close()


def _run(args: argparse.Namespace) -> int:
    scan = _scan(_read(args.widget), args)
    if args.format == "json":
        write_json(sys.stdout, json.dumps(scan.to_dict(), indent=2, ensure_ascii=False) + "\n")
        return 0
    sys.stdout.write(render_scan_text(scan, clean_line(args.widget), show_all=args.all, width=terminal_width()))
    return 0


COMMAND = Command(
    name="scan",
    help="print what a widget uses of its host (tool calls, messages, links, downloads, …) with evidence",
    add_arguments=_add_arguments,
    run=_run,
)

__all__ = ["COMMAND", "render_scan_text"]
