"""`hostcompat observe`: run a server's widgets in headless Chromium under chosen hosts' emulated bridges and print
what each did (the messages both ways, errors, timings, whether it painted) and the behavioural rules that fired.

Exit codes: 0 observed (whatever the widgets did); 1 no browser, or a server could not be reached; 2 bad arguments.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from hostcompat.cli._command import Command
from hostcompat.cli._observing import add_observe_arguments
from hostcompat.cli._probing import add_probe_arguments, as_host_profile, planned_redactor, probe_all, probe_options
from hostcompat.cli._targets import add_target_arguments, plan_targets
from hostcompat.errors import InvalidInput

if TYPE_CHECKING:
    from hostcompat.observe.session import Observation


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser, allow_snapshot=True)
    add_probe_arguments(parser)
    parser.add_argument("--host", action="append", default=[], metavar="ID", help="emulate these hosts (id or alias)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument("--catalog", action="append", default=[], metavar="FILE", help="a user file of host overrides")
    add_observe_arguments(parser)


def _run(args: argparse.Namespace) -> int:
    from hostcompat.cli._observing import observe
    from hostcompat.engine.catalog.load import load_catalog
    from hostcompat.probe.snapshot import read_snapshot
    from hostcompat.redaction import Redactor
    from hostcompat.report.indented_json import json_text

    planned = plan_targets(args)
    if len(planned) != 1:
        raise InvalidInput("observe takes one server (a snapshot, a URL or a command after --)", value=len(planned))
    catalog = load_catalog(overrides=args.catalog)
    host_ids = [catalog.get(name).id for name in args.host] or ["claude"]
    item = planned[0]
    if item.snapshot is not None:  # written by any version: redacted again, like check does
        snapshot = read_snapshot(item.snapshot).redacted(Redactor())
    else:
        snapshot = probe_all([item], probe_options(args, as_host_profile(args, catalog)), None)[0]
    observation, notes = observe(snapshot, catalog, host_ids, args, target=item.target)
    redactor = planned_redactor(item)  # what a widget echoes back (a token in a tool result) is the server's secret too
    if args.format == "json":
        document = {"notes": notes, **({} if observation is None else observation.to_dict())}
        sys.stdout.write(json_text(redactor.json(document, urls=False)))
    else:
        sys.stdout.write(redactor.text(_text(notes, observation)))
    return 1 if observation is None else 0


def _text(notes: list[dict[str, str]], observation: Observation | None) -> str:
    lines = [f"note: {_clean(note['message'])}" for note in notes]
    for run in () if observation is None else observation.runs:
        explored = "  buttons pressed" if run.explored else ""
        lines.append(f"{run.host_id:<12} {_clean(run.uri)}  {run.status}  {run.seconds:.1f} s{explored}")
        lines.append(f"  sent: {_clean(', '.join(run.methods)) or 'nothing'}")
        if run.refused:
            lines.append(f"  refused by the host: {', '.join(run.refused)}")
        lines.extend(f"  {_clean(note)}" for note in run.notes)
        lines.extend(f"  {issue.rule_id}: {_clean(issue.detail)}" for issue in run.issues)
    return "".join(f"{line}\n" for line in lines)


def _clean(text: str) -> str:
    """Server and widget text with control characters neutralised before it reaches a terminal."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


COMMAND = Command(
    name="observe",
    help="run a server's widgets in headless Chromium under chosen hosts' emulated bridges, print what they did",
    description=__doc__,
    add_arguments=_add_arguments,
    run=_run,
    command_line=True,
)

__all__ = ["COMMAND"]
