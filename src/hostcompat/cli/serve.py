"""`hostcompat serve`: the compatibility page and its HTTP API on 127.0.0.1 (by default), until interrupted.

The address printed at start-up carries a random token: the page opened with it may probe commands and URLs; without
it, the page can still check uploaded snapshots and scan widgets. Requests naming another Host or Origin are refused.
"""

from __future__ import annotations

import argparse

from hostcompat.cli._command import Command


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="the address to bind (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="the port (default: 8765; 0: any free port)")
    parser.add_argument("--catalog", action="append", default=[], metavar="FILE", help="a user file of host overrides")


def _run(args: argparse.Namespace) -> int:
    from hostcompat.web import serve

    serve(args.host, args.port, catalog_overrides=tuple(args.catalog), announce=lambda line: print(line, flush=True))
    return 0


COMMAND = Command(
    command_line=True,
    name="serve",
    help="serve the compatibility page and its HTTP API locally (a servers-by-hosts matrix, live checks)",
    description=__doc__,
    add_arguments=_add_arguments,
    run=_run,
)

__all__ = ["COMMAND"]
