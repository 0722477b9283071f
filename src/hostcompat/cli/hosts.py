"""`hostcompat hosts`: the host catalog, with where each fact comes from."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from hostcompat.cli._command import Command

_SUMMARY_FACTS = (
    ("MCP Apps", "ui.formats.mcp-apps"),
    ("OpenAI", "ui.formats.openai-apps-sdk"),
    ("mcp-ui", "ui.formats.mcp-ui-legacy"),
)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("host", nargs="*", help="host ids or aliases to show in full (default: list every host)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--catalog", action="append", default=[], metavar="FILE", help="a user file of host overrides")


def _run(args: argparse.Namespace) -> int:
    from hostcompat.engine.catalog import load_catalog

    catalog = load_catalog(overrides=args.catalog)
    hosts = [catalog.get(name) for name in args.host] if args.host else list(catalog.hosts)
    if args.format == "json":
        document: dict[str, Any] = {"catalog": catalog.header.to_dict(), "hosts": [h.to_dict() for h in hosts]}
        json.dump(document, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    if args.host:
        for host in hosts:
            sys.stdout.write(f"{host.display_name} ({host.id}, {host.kind})\n")
            for path, fact in sorted(host.facts.items()):
                note = f"  [{fact.note}]" if fact.note else ""
                sys.stdout.write(
                    f"  {path} = {json.dumps(fact.value)}  ({fact.provenance}, {fact.source}, {fact.date}){note}\n"
                )
            sys.stdout.write("\n")
        return 0
    width = max(len(host.id) for host in hosts)
    header = "  ".join(f"{label:<11}" for label, _ in _SUMMARY_FACTS)
    sys.stdout.write(f"{'id':<{width}}  {header}  name\n")
    for host in hosts:
        levels = "  ".join(f"{host.level(path):<11}" for _, path in _SUMMARY_FACTS)
        sys.stdout.write(f"{host.id:<{width}}  {levels}  {host.display_name}\n")
    facts = sum(len(host.facts) for host in hosts)
    sys.stdout.write(f"\n{len(hosts)} hosts, {facts} facts, each with provenance, source and date ")
    sys.stdout.write("(`hostcompat hosts ID` shows them).\n")
    return 0


COMMAND = Command(
    name="hosts",
    help="list the host catalog (what each MCP host supports, with the source and date of each fact)",
    add_arguments=_add_arguments,
    run=_run,
)

__all__ = ["COMMAND"]
