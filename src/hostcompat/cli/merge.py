"""`hostcompat merge A.json B.json … -o merged.json`: the reports of many runs (the shards of a batch) as one.

The merged document holds every server, in shard order when the reports are shards of one run, and a summary per
host across the servers (`hostSummary`: how many servers work, are degraded, blocked or unknown on it). The summary
is printed as a table; `-o` writes the merged JSON report, `--format json` prints it instead of the table.
Exit codes: 0 merged; 2 a report that cannot be read, or shards that do not make one whole run.
"""

from __future__ import annotations

import argparse
import sys

from hostcompat.cli._command import Command
from hostcompat.terminal import escape_json_text, write_json


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("reports", nargs="+", metavar="REPORT", help="JSON reports (check --format json)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the merged JSON report here")
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="what to print: the per-host summary, or the merged report as JSON (default: text)",
    )


def _run(args: argparse.Namespace) -> int:
    from hostcompat.output_files import check_output_path, write_output
    from hostcompat.report.indented_json import json_text
    from hostcompat.report.merge import merge_reports, summary_text
    from hostcompat.report.reader import read_report

    if args.output is not None:
        check_output_path(args.output)
    merged = merge_reports([read_report(path) for path in args.reports])
    text = json_text(merged)
    if args.output is not None:
        write_output(args.output, escape_json_text(text, terminal=False), for_terminal=escape_json_text)
    if args.format == "json":
        write_json(sys.stdout, text)
    else:
        sys.stdout.write(summary_text(merged))
    return 0


COMMAND = Command(
    name="merge",
    help="merge JSON reports (the shards of a batch run) into one, with a summary per host across servers",
    description=__doc__,
    add_arguments=_add_arguments,
    run=_run,
)

__all__ = ["COMMAND"]
