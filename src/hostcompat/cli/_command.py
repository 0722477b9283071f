"""One CLI command: its name, its help, how it adds its arguments and how it runs.

Each command lives in its own module under `hostcompat.cli` and exposes `COMMAND`. Command modules import only
the standard library and pure layers at module level; anything heavy (the `mcp` SDK) is imported inside `run`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from hostcompat._dataclass import dataclass


@dataclass(frozen=True)
class Command:
    """A `hostcompat` subcommand."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    description: str | None = None
    command_line: bool = False
    """Everything after the first `--` is a server's command line: `run` gets it as `args.server_command` (None
    when there is no `--`), and argparse never sees it, so no argument before `--` is ever taken for a command."""


def no_arguments(parser: argparse.ArgumentParser) -> None:
    """For commands that take no arguments."""


__all__ = ["Command", "no_arguments"]
