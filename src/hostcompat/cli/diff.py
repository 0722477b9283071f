"""`hostcompat diff BASELINE.json NEW.json`: what got worse and what got better between two saved JSON reports.

The same comparison as `check --baseline`, offline (`hostcompat.report.diff`). Exit codes: 0 nothing got worse;
1 something did (a worse verdict, a new finding id, a server that can no longer be checked); 2 a report that cannot
be read.
"""

from __future__ import annotations

import argparse
import json
import sys

from hostcompat.cli._command import Command
from hostcompat.terminal import write_json


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("baseline", help="the earlier report (check --format json)")
    parser.add_argument("current", help="the new report (check --format json)")
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="text, or the changes as JSON (default: text)"
    )


def _run(args: argparse.Namespace) -> int:
    from hostcompat.report.diff import diff_reports
    from hostcompat.report.reader import read_report

    changes = diff_reports(read_report(args.baseline), read_report(args.current))
    if args.format == "json":
        write_json(sys.stdout, json.dumps(changes.document(), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(changes.text())
    return 1 if changes.regressed else 0


COMMAND = Command(
    name="diff",
    help="compare two JSON reports: what got worse (exit 1) and what got better",
    description=__doc__,
    add_arguments=_add_arguments,
    run=_run,
)

__all__ = ["COMMAND"]
