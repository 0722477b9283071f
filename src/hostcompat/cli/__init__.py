"""The `hostcompat` command line: parses arguments, calls the layers, prints.

Commands live one per module (`COMMAND_MODULES`); heavy imports (the `mcp` SDK) happen inside the commands that
talk to a server, so `hostcompat --version` and `--help` start fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from hostcompat._version import __version__
from hostcompat.cli._command import Command
from hostcompat.errors import HostCompatError

EXIT_USAGE = 2
"""Bad arguments or an unusable input (argparse uses 2 as well)."""

COMMAND_MODULES: tuple[str, ...] = ("check", "snapshot", "hosts", "scan", "clients", "rewrite", "proxy", "demo")
"""Modules of `hostcompat.cli` that each define a `COMMAND`, in the order `--help` lists them."""


def commands() -> list[Command]:
    """Every command of the CLI."""
    return [importlib.import_module(f"hostcompat.cli.{name}").COMMAND for name in COMMAND_MODULES]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the `hostcompat` command.

    With `only`, just that command's module is imported (the others get empty stubs), so running one command
    does not pay for importing every other one.
    """
    parser = argparse.ArgumentParser(prog="hostcompat", description="Make MCP servers work on every MCP host.")
    parser.add_argument("--version", action="version", version=f"hostcompat {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        if only is not None and name != only:
            subparsers.add_parser(name)
            continue
        command: Command = importlib.import_module(f"hostcompat.cli.{name}").COMMAND
        sub = subparsers.add_parser(command.name, help=command.help, description=command.description or command.help)
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments == ["--version"]:  # the fast path: no command module is imported
        sys.stdout.write(f"hostcompat {__version__}\n")
        return 0
    first = next((argument for argument in arguments if not argument.startswith("-")), None)
    parser = build_parser(first if first in COMMAND_MODULES else None)
    args = parser.parse_args(arguments)
    if args.command is None:
        parser.print_help(sys.stdout)
        return 0
    try:
        code: int = args.run(args)
    except HostCompatError as error:
        sys.stderr.write(f"hostcompat {args.command}: error: {error}\n")
        return EXIT_USAGE
    except BrokenPipeError:  # the reader (`| head`) went away: stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("hostcompat: interrupted\n")
        return 130
    return code


__all__ = ["COMMAND_MODULES", "EXIT_USAGE", "build_parser", "commands", "main"]
