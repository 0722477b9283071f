"""The `hostcompat` command line: parses arguments, calls the layers, prints.

Commands live one per module (`COMMAND_MODULES`); heavy imports (the `mcp` SDK) happen inside the commands that
talk to a server, so `hostcompat --version` and `--help` start fast. The parser and `main` live in
`hostcompat.cli.command_line`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.cli.command_line import COMMAND_MODULES as COMMAND_MODULES
    from hostcompat.cli.command_line import EXIT_USAGE as EXIT_USAGE
    from hostcompat.cli.command_line import HelpFormatter as HelpFormatter
    from hostcompat.cli.command_line import build_parser as build_parser
    from hostcompat.cli.command_line import commands as commands
    from hostcompat.cli.command_line import main as main
    from hostcompat.cli.command_line import run as run

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.cli.command_line": [
            "COMMAND_MODULES",
            "EXIT_USAGE",
            "HelpFormatter",
            "build_parser",
            "commands",
            "main",
            "run",
        ],
    },
)

__all__ = [
    "COMMAND_MODULES",
    "EXIT_USAGE",
    "HelpFormatter",
    "build_parser",
    "commands",
    "main",
    "run",
]
