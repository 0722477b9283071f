"""`hostcompat snapshot TARGET -o FILE`: probe one live server and save what it said, for an offline check later."""

from __future__ import annotations

import argparse
import sys

from hostcompat.cli._command import Command
from hostcompat.cli._probing import add_probe_arguments, as_host_profile, probe_options
from hostcompat.cli._targets import add_target_arguments, plan_targets
from hostcompat.errors import InvalidInput
from hostcompat.probe.snapshot import Snapshot
from hostcompat.terminal import clean_line


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser, allow_snapshot=False)
    add_probe_arguments(parser)
    parser.add_argument("-o", "--output", metavar="FILE", help="where to write the snapshot (JSON; required)")


def _run(args: argparse.Namespace) -> int:
    import anyio

    if args.output is None:
        after = args.server_command or ()
        if any(token in ("-o", "--output") or token.startswith("--output=") for token in after):
            raise InvalidInput("put -o FILE before `--`: everything after `--` is the server's command line")
        raise InvalidInput("snapshot needs -o FILE, where to write the snapshot")
    from hostcompat.output_files import check_output_path

    planned = plan_targets(args)
    if len(planned) != 1 or planned[0].target is None:
        raise InvalidInput("snapshot takes exactly one live server (a URL, `-- COMMAND …` or --demo)")
    check_output_path(args.output)  # a bad path fails now, not after the probe
    from hostcompat.probe import capture, write_snapshot  # capture loads the SDK

    target = planned[0].target
    options = probe_options(args, as_host_profile(args))

    async def run() -> Snapshot:
        return await capture(
            target,
            limits=options.limits,
            advertise=options.advertise,
            era=options.era,
            client_info=options.client_info,
            calls=options.calls,
        )

    snapshot = anyio.run(run)
    path = write_snapshot(snapshot, args.output)
    made = f", {len(snapshot.calls)} tool calls" if snapshot.calls else ""
    sys.stderr.write(f"wrote {clean_line(path)} ({len(snapshot.tools)} tools{made}, {len(snapshot.events)} events)\n")
    for event in snapshot.events:  # server text (stderr, error messages): one line each, nothing a terminal obeys
        sys.stderr.write(f"  [{clean_line(event.code)}] {clean_line(event.message)}\n")
    return 0


COMMAND = Command(
    command_line=True,
    name="snapshot",
    help="probe a live server and save what it said to a JSON snapshot (for `check` offline, in CI or a bug report)",
    add_arguments=_add_arguments,
    run=_run,
)

__all__ = ["COMMAND"]
