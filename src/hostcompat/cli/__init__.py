"""The `hostcompat` command line: parses arguments, calls the layers, prints.

Heavy imports (the `mcp` SDK) happen inside the commands that talk to a server, so
`hostcompat --version` and `--help` start fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from hostcompat._version import __version__


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `hostcompat` command."""
    parser = argparse.ArgumentParser(
        prog="hostcompat",
        description="Make MCP servers work on every MCP host.",
    )
    parser.add_argument("--version", action="version", version=f"hostcompat {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser(
        "demo",
        help="run the built-in example MCP App server against every kind of client and print each tool's mode",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stdout)
        return 0
    if args.command == "demo":
        from hostcompat.cli.demo import run_demo

        return run_demo(sys.stdout)
    parser.error(f"unknown command {args.command!r}")  # pragma: no cover - argparse rejects it first


__all__ = ["build_parser", "main"]
