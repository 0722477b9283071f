"""`hostcompat clients`: list the client compatibility rules, what each rewrites and its public source.

Reads the bundled rules merged with any user rule files (`--rules`), so what it prints is exactly what the
middleware would apply. Text for people, `--format json` for scripts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TextIO

from hostcompat.cli._command import Command
from hostcompat.clients.rewrites.operations import OPERATIONS
from hostcompat.clients.rules import Rule, load_rules
from hostcompat.errors import CatalogError
from hostcompat.terminal import clean_line
from hostcompat.wire_json import WireObject

USAGE_ERROR = 2
"""The exit code for unusable input (a rule file that does not load)."""


def _plain(value: Any) -> Any:
    """Rule parameters as plain JSON (read-only mappings and tuples become dicts and lists)."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _operation_summary(op: str) -> str:
    operation = OPERATIONS.get(op)
    return operation.summary if operation is not None else ""


def describe_rule(rule: Rule) -> WireObject:
    """One rule as a JSON object: id, clients and versions, methods, trigger, rewrite, source, date."""
    described: WireObject = {
        "id": rule.id,
        "title": rule.title,
        "enabled": rule.enabled,
        "clients": [{"name": match.name, "versions": str(match.versions)} for match in rule.clients],
        "methods": sorted(rule.methods),
        "trigger": {"kind": rule.trigger.kind, **_plain(rule.trigger.params)},
        "rewrite": {
            "op": rule.rewrite.op,
            "summary": _operation_summary(rule.rewrite.op),
            **_plain(rule.rewrite.params),
        },
        "source": {"url": rule.source.url, "kind": rule.source.kind},
        "date": rule.date,
        "references": list(rule.references),
        "origin": rule.origin,
    }
    if rule.symptom:
        described["symptom"] = rule.symptom
    if rule.notes:
        described["notes"] = rule.notes
    return described


def _parameters(params: Mapping[str, Any]) -> str:
    shown = [
        f"{key}={','.join(map(str, value)) if isinstance(value, tuple) else value}" for key, value in params.items()
    ]
    return f" ({'; '.join(shown)})" if shown else ""


def _clients_line(rule: Rule) -> str:
    return ", ".join(
        f"{match.name} (any version)" if match.versions.is_any else f"{match.name} {match.versions}"
        for match in rule.clients
    )


def render_text(rules: Sequence[Rule], out: TextIO) -> None:
    """Print the rules for people: a header, then one block per rule in rule-file order."""
    origins = ", ".join(dict.fromkeys(rule.origin for rule in rules))
    enabled = sum(rule.enabled for rule in rules)
    out.write(f"{len(rules)} client rules ({enabled} enabled) from {origins or 'nowhere'}\n")
    for rule in rules:
        state = "" if rule.enabled else "  [disabled]"
        out.write(f"\n{rule.id}{state}\n")
        out.write(f"  {rule.title}\n")
        out.write(f"  clients:  {_clients_line(rule)}\n")
        op = f"{rule.rewrite.op}{_parameters(rule.rewrite.params)}"
        out.write(f"  rewrites: {', '.join(sorted(rule.methods))}: {op}: {_operation_summary(rule.rewrite.op)}\n")
        out.write(f"  when:     {rule.trigger.kind}{_parameters(rule.trigger.params)}\n")
        out.write(f"  source:   {rule.source.url} ({rule.source.kind}, {rule.date})\n")
        for reference in rule.references:
            out.write(f"  see also: {reference}\n")


def render_json(rules: Iterable[Rule], out: TextIO) -> None:
    """Print the rules as one JSON document `{"rules": [...]}`."""
    json.dump({"rules": [describe_rule(rule) for rule in rules]}, out, indent=2, ensure_ascii=False)
    out.write("\n")


def run_clients(rule_files: Sequence[str], output_format: str, out: TextIO, err: TextIO) -> int:
    """List the merged rules on `out`; a rule file that does not load is reported on `err` (exit code 2)."""
    try:
        rules = load_rules(*rule_files)
    except CatalogError as error:
        err.write(f"hostcompat clients: {clean_line(error.message)}\n")
        return USAGE_ERROR
    if output_format == "json":
        render_json(rules, out)
    else:
        render_text(rules, out)
    return 0


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    parser.add_argument(
        "--rules",
        action="append",
        default=[],
        metavar="FILE",
        help="a user rule file merged over the bundled rules (adds, replaces by id, or disables); repeatable",
    )


def _run(args: argparse.Namespace) -> int:
    return run_clients(args.rules, args.format, sys.stdout, sys.stderr)


COMMAND = Command(
    name="clients",
    help="list the client compatibility rules: clients and versions, what each rewrites, source and date",
    add_arguments=_add_arguments,
    run=_run,
)


__all__ = ["COMMAND", "USAGE_ERROR", "describe_rule", "render_json", "render_text", "run_clients"]
