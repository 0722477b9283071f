"""The `hostcompat` command line itself: the parser built from the command modules, and `main`, which runs one.

Commands live one per module of `hostcompat.cli` (`COMMAND_MODULES`); `main` imports only the one it runs, and
heavy imports (the `mcp` SDK) happen inside the commands that talk to a server, so `--version` and `--help` start
fast.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Final, NoReturn, TextIO

from hostcompat._version import __version__
from hostcompat.cli._command import Command
from hostcompat.errors import HostCompatError
from hostcompat.terminal import clean_line

EXIT_USAGE = 2
"""Bad arguments or an unusable input (argparse uses 2 as well)."""

COMMAND_MODULES: tuple[str, ...] = (
    "check",
    "snapshot",
    "observe",
    "preview",
    "hosts",
    "scan",
    "clients",
    "rewrite",
    "proxy",
    "demo",
    "diff",
    "merge",
    "serve",
    "probe_host",
)
"""Modules of `hostcompat.cli` that each define a `COMMAND`, in the order `--help` lists them (the command's name is
the module's with `-` for `_`)."""


class HelpFormatter(argparse.HelpFormatter):
    """argparse's own help formatter, sized as argparse sizes it, without importing `shutil` to do so.

    argparse builds a formatter for every `add_argument` (to check metavars), and its default one imports `shutil`
    (and with it `bz2`, `lzma`, `zlib`, `fnmatch`) just to read the terminal width: milliseconds on every run,
    `check <snapshot>` included. The width rule is `shutil.get_terminal_size`'s: `$COLUMNS`, else the terminal's,
    else 80.

    Every option's help shows its default when it has one worth showing (not None, False or an empty list) and
    its help does not already say it.
    """

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
    ) -> None:
        super().__init__(prog, indent_increment, max_help_position, _terminal_columns() - 2 if width is None else width)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        return help_with_default(action)


def help_with_default(action: argparse.Action) -> str | None:
    """An option's help, ending in `(default: …)` when it has a default to show that the help does not name."""
    text = action.help
    if text is None or text == argparse.SUPPRESS or not action.option_strings or "default" in text:
        return text
    default = action.default
    if default is None or default is argparse.SUPPRESS or isinstance(default, bool) or default == []:
        return text
    return f"{text} (default: %(default)s)"


def terminal_width() -> int:
    """The width text output is wrapped to: `$COLUMNS`, else the terminal's, else 80 (as `shutil` reports it)."""
    return _terminal_columns()


def _terminal_columns() -> int:
    """The column count `shutil.get_terminal_size()` reports (argparse's width source)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    stdout = sys.__stdout__
    if stdout is None:
        return 80
    try:
        size = os.get_terminal_size(stdout.fileno())
    except (AttributeError, ValueError, OSError):  # closed, detached or not a terminal
        return 80
    return size.columns or 80


def commands() -> list[Command]:
    """Every command of the CLI."""
    return [importlib.import_module(f"hostcompat.cli.{name}").COMMAND for name in COMMAND_MODULES]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the `hostcompat` command.

    With `only`, just that command's module is imported (the others get empty stubs), so running one command
    does not pay for importing every other one.
    """
    parser = argparse.ArgumentParser(
        prog="hostcompat", description="Make MCP servers work on every MCP host.", formatter_class=HelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"hostcompat {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        if only is not None and name != only:
            subparsers.add_parser(name.replace("_", "-"), formatter_class=HelpFormatter)
            continue
        command: Command = importlib.import_module(f"hostcompat.cli.{name}").COMMAND
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=command.description or command.help,
            formatter_class=HelpFormatter,
        )
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments == ["--version"]:  # the fast path: no command module is imported
        sys.stdout.write(f"hostcompat {__version__}\n")
        return 0
    chosen = _command_module(arguments)
    parser = build_parser(chosen)
    server_command: list[str] | None = None
    takes_command_line = chosen is not None and importlib.import_module(f"hostcompat.cli.{chosen}").COMMAND.command_line
    if takes_command_line and "--" in arguments:
        split = arguments.index("--")
        arguments, server_command = arguments[:split], arguments[split + 1 :]
    args = parser.parse_args(arguments)
    if args.command is None:
        parser.print_help(sys.stdout)
        return 0
    if takes_command_line:
        args.server_command = server_command
    try:
        code: int = args.run(args)
    except HostCompatError as error:
        sys.stderr.write(f"hostcompat {args.command}: error: {clean_line(error)}\n")
        return EXIT_USAGE
    except RecursionError:  # a reader that missed a deeply nested input: still an unusable input, not a crash
        sys.stderr.write(f"hostcompat {args.command}: error: an input is nested too deeply to be read\n")
        return EXIT_USAGE
    except BrokenPipeError:  # the reader (`| head`) went away: stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("hostcompat: interrupted\n")
        return 130
    except Exception as error:  # a bug: one line that says so, the traceback only when asked for
        if os.environ.get(DEBUG_VARIABLE):
            raise
        what = clean_line(f"{type(error).__name__}: {error}")[:300]
        sys.stderr.write(
            f"hostcompat {args.command}: internal error ({what}); this is a bug in hostcompat, please report it "
            f"(set {DEBUG_VARIABLE}=1 for the traceback)\n"
        )
        return EXIT_INTERNAL
    return code


DEBUG_VARIABLE: Final = "HOSTCOMPAT_DEBUG"
"""Set (to anything) to see the traceback of an internal error instead of its one-line summary."""
EXIT_INTERNAL: Final = 70
"""The exit code of an internal error (a bug): `EX_SOFTWARE` of sysexits.h."""


def _command_module(arguments: Sequence[str]) -> str | None:
    """The module of the command the arguments name (`probe-host` lives in probe_host.py); None for none."""
    first = next((argument for argument in arguments if not argument.startswith("-")), None)
    module = first.replace("-", "_") if first is not None else None
    return module if module in COMMAND_MODULES else None


def _import_command_frozen(arguments: Sequence[str]) -> None:
    """Import the named command's module (and what it imports) with the cyclic garbage collector paused, then
    freeze what exists: modules, classes and functions live as long as the process, so the collector need not walk
    them again on each of its passes while the command runs. The collector then runs once per `_YOUNG_PER_PASS`
    new containers rather than 700: a command makes them by the thousand (an offline `check`: some 40 passes,
    4 ms, before; now a few), and reference cycles are still collected.
    """
    chosen = _command_module(arguments)
    if chosen is None or not gc.isenabled():
        return
    gc.disable()
    try:
        with contextlib.suppress(ImportError):  # `main` imports it again, and says what is missing
            importlib.import_module(f"hostcompat.cli.{chosen}")
    finally:
        gc.freeze()
        gc.set_threshold(_YOUNG_PER_PASS, *gc.get_threshold()[1:])
        gc.enable()


_YOUNG_PER_PASS: Final = 50_000
"""New containers (lists, dicts, objects) between two passes of the cyclic garbage collector over the youngest."""


def _flushed(stream: TextIO) -> bool:
    """Flush `stream`; False if it failed (closed, say) and the ordinary exit should report it."""
    try:
        stream.flush()
    except BrokenPipeError:  # the reader went away: as `main` does, drop what is left
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    except (OSError, ValueError):
        return False
    return True


def run() -> NoReturn:
    """The `hostcompat` console script and `python -m hostcompat`: `main`, then leave without the interpreter's
    teardown (freeing every module and object takes longer than a small check itself).

    The standard streams are flushed and the `atexit` handlers run first (logging, temporary folders, process
    pools); every file `main` writes is closed (and atomically replaced) before it returns. With a thread still
    running, or on an interpreter without `atexit._run_exitfuncs`, the exit is the ordinary one.
    """
    _import_command_frozen(sys.argv[1:])
    code = main()
    if not all([_flushed(sys.stdout), _flushed(sys.stderr)]):
        raise SystemExit(code)
    threading = sys.modules.get("threading")
    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)
    if run_exit_functions is None or (threading is not None and threading.active_count() > 1):
        raise SystemExit(code)
    run_exit_functions()
    for stream in (sys.stdout, sys.stderr):  # an exit handler may have written
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


__all__ = [
    "COMMAND_MODULES",
    "EXIT_USAGE",
    "HelpFormatter",
    "build_parser",
    "commands",
    "help_with_default",
    "main",
    "run",
    "terminal_width",
]
