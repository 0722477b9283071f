"""`hostcompat hosts`: the host catalog, with where each fact comes from."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from hostcompat.cli._command import Command
from hostcompat.cli._wrapping import wrap
from hostcompat.cli.command_line import terminal_width

_SUMMARY_FACTS = (
    ("MCP Apps", "ui.formats.mcp-apps"),
    ("OpenAI", "ui.formats.openai-apps-sdk"),
    ("mcp-ui", "ui.formats.mcp-ui-legacy"),
)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("host", nargs="*", help="host ids or aliases to show in full (default: list every host)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument("--catalog", action="append", default=[], metavar="FILE", help="a user file of host overrides")
    parser.add_argument(
        "--coverage",
        action="store_true",
        help="per host: how many of the facts the verdicts read are known, unknown or assumed, and their age",
    )
    parser.add_argument(
        "--stale", type=_days, metavar="DAYS", help="list the facts whose evidence is older than DAYS days"
    )
    parser.add_argument("--as-of", metavar="YYYY-MM-DD", help="the date ages are measured to (default: today)")
    parser.add_argument(
        "--merge",
        metavar="FILE",
        help="fold an override file (a probe-host result) into the last --catalog FILE and show what changed",
    )


def _days(text: str) -> int:
    try:
        days = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of days") from None
    if not 0 <= days <= 100_000:
        raise argparse.ArgumentTypeError("DAYS must be between 0 and 100000")
    return days


def _run(args: argparse.Namespace) -> int:
    from hostcompat.engine.catalog.load import load_catalog

    if args.merge is not None:
        from hostcompat.cli._catalog_fold import merge_into_catalog

        return merge_into_catalog(args.merge, args.catalog, args.format, sys.stdout, terminal_width())

    catalog = load_catalog(overrides=args.catalog)
    hosts = [catalog.get(name) for name in args.host] if args.host else list(catalog.hosts)
    if args.coverage or args.stale is not None:
        from hostcompat.cli._coverage import write_coverage, write_stale

        as_of = _as_of(args.as_of)
        if args.coverage:
            write_coverage(catalog, hosts, as_of, args.format, sys.stdout)
        if args.stale is not None:
            write_stale(hosts, as_of, args.stale, args.format, sys.stdout)
        return 0
    if args.format == "json":
        document: dict[str, Any] = {"catalog": catalog.header.to_dict(), "hosts": [h.to_dict() for h in hosts]}
        json.dump(document, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    columns = terminal_width()
    if args.host:
        for host in hosts:
            out = wrap(f"{host.display_name} ({host.id}, {host.kind})", columns)
            for path, fact in sorted(host.facts.items()):
                note = f"  [{fact.note}]" if fact.note else ""
                text = f"{path} = {json.dumps(fact.value)}  ({fact.provenance}, {fact.source}, {fact.date}){note}"
                out += wrap(text, columns, "  ", "      ")
            sys.stdout.write("\n".join(out) + "\n\n")
        return 0
    width = max(len(host.id) for host in hosts)
    header = "  ".join(f"{label:<11}" for label, _ in _SUMMARY_FACTS)
    sys.stdout.write(f"{'id':<{width}}  {header}  name\n")
    for host in hosts:
        levels = "  ".join(f"{host.level(path):<11}" for _, path in _SUMMARY_FACTS)
        row = f"{host.id:<{width}}  {levels}  "
        name = wrap(host.display_name, max(columns - len(row), 12), "", " " * len(row))
        sys.stdout.write(row + "\n".join(name) + "\n")
    facts = sum(len(host.facts) for host in hosts)
    summary = (
        f"{len(hosts)} hosts, {facts} facts, each with provenance, source and date (`hostcompat hosts ID` shows them)."
    )
    sys.stdout.write("\n" + "\n".join(wrap(summary, columns, "", "")) + "\n")
    return 0


def _as_of(text: str | None) -> str:
    import datetime

    from hostcompat.engine.catalog.schema import date_problem
    from hostcompat.errors import InvalidInput

    if text is None:
        return datetime.date.today().isoformat()
    if date_problem(text, full=True) is not None:
        raise InvalidInput(f"--as-of {text!r} must be a date as YYYY-MM-DD")
    return text


COMMAND = Command(
    name="hosts",
    help="list the host catalog (what each MCP host supports, with the source and date of each fact)",
    add_arguments=_add_arguments,
    run=_run,
)

__all__ = ["COMMAND"]
