"""What `check` and `snapshot` run against: a command after `--`, a URL, a snapshot file, a host config file, or the
built-in example server (`--demo`).

Each argument before `--` is what it looks like: an `http(s)://` URL, or (for `check`) a `.json` snapshot file; anything
else is an error that says how to pass a command. Only what follows `--` is ever run (the CLI hands it over as
`args.server_command`, see `Command.command_line`).

Parsing only: nothing here imports the `mcp` SDK, so `hostcompat check snapshot.json` stays an offline, fast path.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hostcompat._dataclass import dataclass
from hostcompat.errors import InvalidInput

if TYPE_CHECKING:
    from hostcompat.probe.host_configs import ServerConfig
    from hostcompat.probe.target import Target
from hostcompat.probe.limits import DEFAULT_LIMITS, Limits

DEMO_COMMAND = (sys.executable, "-m", "hostcompat.examples.board")


@dataclass(frozen=True)
class Planned:
    """One thing to check: a live target to probe, or a snapshot file to read."""

    label: str
    target: Target | None = None
    snapshot: Path | None = None
    config: str | None = None
    """The config file that listed it, for reports (SARIF points its results there)."""
    error: str | None = None
    """Why it cannot be checked as configured (a config entry that cannot be resolved); then nothing is probed."""
    secrets: tuple[str, ...] = ()
    """Values no report may show besides the target's own (a registry entry's secret inputs)."""
    prepare: Callable[[], Planned] | None = None
    """Work to do before probing it, once the run knows it checks it (after `--shard`): a package to install."""


def add_target_arguments(parser: argparse.ArgumentParser, *, allow_snapshot: bool) -> None:
    """The target options shared by `check` and `snapshot`."""
    what = "a URL, a snapshot file (.json), or `-- COMMAND ARGS…`" if allow_snapshot else "a URL or `-- COMMAND ARGS…`"
    parser.add_argument("target", nargs="*", help=f"what to check: {what}")
    parser.add_argument("--demo", action="store_true", help="the built-in example MCP App server")
    if allow_snapshot:
        parser.add_argument(
            "--config",
            action="append",
            default=[],
            metavar="FILE",
            help="a host config file (claude_desktop_config.json, .vscode/mcp.json, .cursor/mcp.json, .mcp.json, "
            "Windsurf mcp_config.json, Zed settings.json, Codex config.toml); every server in it is checked",
        )
        parser.add_argument(
            "--input",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="the value of a VS Code ${input:NAME} variable of a --config file, or of a --registry entry's "
            "input (an environment variable, header or argument; repeat for each)",
        )
        parser.add_argument(
            "--registry",
            action="append",
            default=[],
            metavar="SERVER_JSON",
            help="an MCP Registry server.json: its first npm, PyPI or OCI package is started (npx, uvx or a cached "
            "virtualenv, docker), else its first remote URL is checked",
        )
        parser.add_argument(
            "--registry-list",
            action="append",
            default=[],
            metavar="FILE",
            help='many registry entries: a JSON array of server.json, or the registry API\'s {"servers": […]}',
        )
    parser.add_argument("--header", action="append", default=[], metavar="NAME:VALUE", help="an HTTP header")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE", help="an environment variable")
    parser.add_argument("--cwd", help="the working directory of a server command")
    parser.add_argument(
        "--transport",
        choices=("auto", "stdio", "http", "sse"),
        default="auto",
        help="how to reach the server: auto is stdio for a command, SSE for a URL ending in /sse, else Streamable HTTP",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_LIMITS.total_timeout,
        metavar="SECONDS",
        help="seconds per server, for the whole probe",
    )


CONFIG_KEYS = ("mcpServers", "servers", "context_servers")
"""The server lists of host config files (`host_configs`): a `.json` holding one is a config, not a snapshot."""


def looks_like_host_config(path: Path) -> bool:
    """Whether `path` is a JSON object with a host config's server list (read only to word an error)."""
    import json

    try:
        with path.open("rb") as stream:
            data = json.loads(stream.read(4 * 1024 * 1024))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and any(key in data for key in CONFIG_KEYS) and "schemaVersion" not in data


def limits_from(args: argparse.Namespace) -> Limits:
    """The probe limits the options ask for."""
    if args.timeout <= 0:
        raise InvalidInput("--timeout must be a positive number of seconds", value=args.timeout)
    connect = min(DEFAULT_LIMITS.connect_timeout, args.timeout)
    step = min(DEFAULT_LIMITS.step_timeout, args.timeout)
    return Limits(total_timeout=args.timeout, connect_timeout=connect, step_timeout=step)


def plan_targets(args: argparse.Namespace) -> list[Planned]:
    """Everything the arguments name, in order; `InvalidInput` when they name nothing or something unusable."""
    planned: list[Planned] = []
    if args.demo:
        from hostcompat.probe.target import StdioTarget  # imported only for live targets, not for a snapshot

        planned.append(
            Planned("demo: python -m hostcompat.examples.board", StdioTarget(DEMO_COMMAND[0], DEMO_COMMAND[1:]))
        )
    configs = getattr(args, "config", [])
    inputs = input_values(getattr(args, "input", []))
    registries = [(path, False) for path in getattr(args, "registry", [])]
    registries += [(path, True) for path in getattr(args, "registry_list", [])]
    if inputs and not configs and not registries:
        raise InvalidInput(
            "--input gives values to --config and --registry entries, and no --config or --registry is given"
        )
    if configs:
        from hostcompat.probe.host_configs import read_host_config
    for config in configs:
        planned += [_from_config(server) for server in read_host_config(config, inputs=inputs) if not server.disabled]
    if registries:
        from hostcompat.cli._registry_launch import planned_from_registry
        from hostcompat.cli.registry_json import read_registry
    for path, many in registries:
        planned += [planned_from_registry(entry) for entry in read_registry(path, inputs=inputs, many=many)]
    allow_snapshot = getattr(args, "config", None) is not None
    command: list[str] | None = getattr(args, "server_command", None)
    urls = [spec for spec in args.target if _is_url(spec)]
    for spec in args.target:
        if _is_url(spec):
            planned.append(_live(spec, args, alone=command is None))
        elif allow_snapshot and spec.endswith(".json"):
            if not Path(spec).is_file():
                raise InvalidInput(
                    f"snapshot file {spec!r} not found (to run a command, put it after `--`)", value=spec
                )
            planned.append(Planned(spec, snapshot=Path(spec)))
        else:
            raise InvalidInput(_not_a_target(spec, allow_snapshot, args), value=spec)
    if command is not None:
        if not command:
            raise InvalidInput("nothing after `--`: give the server's command line there", value=command)
        planned.append(_live(command, args, alone=not urls))
    if not planned:
        raise InvalidInput(
            "nothing to check: give a URL, a snapshot file, `-- COMMAND ARGS…`, --config, --registry or --demo"
        )
    return planned


def input_values(items: list[str]) -> dict[str, str]:
    """`--input NAME=VALUE` options as a mapping; `InvalidInput` for one without a name or `=`."""
    values: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise InvalidInput(f"--input must look like NAME=VALUE, got {item.split('=')[0]!r}…", value=name)
        values[name.strip()] = value
    return values


def redact_inputs(document: Any, args: argparse.Namespace) -> Any:
    """The report `document` with every `--input` value (typically a token) replaced wherever it appears.

    An input may end up anywhere a config entry uses it, a command's arguments included, and from there in the
    target a report describes or in what the server printed (`hostcompat.redaction.Redactor`, which skips values
    too short to search for).
    """
    inputs = input_values(getattr(args, "input", []))
    if not inputs:
        return document
    from hostcompat.redaction import Redactor

    return Redactor.of(inputs.values()).json(document, urls=False)


def _live(spec: str | list[str], args: argparse.Namespace, *, alone: bool) -> Planned:
    """A URL (a string) or a command line (a list) as a live target.

    Headers go to URLs and the environment and directory to the command; a target alone gets all of them, so an
    option that does not fit it is an error rather than ignored.
    """
    from hostcompat.probe.target import display_target, parse_target

    is_command = isinstance(spec, list)
    target = parse_target(
        spec,
        transport=args.transport,
        headers=args.header if alone or not is_command else (),
        env=args.env if alone or is_command else (),
        cwd=args.cwd if alone or is_command else None,
    )
    return Planned(display_target(target), target)


def _not_a_target(spec: str, allow_snapshot: bool, args: argparse.Namespace) -> str:
    what = (
        "a URL (http:// or https://) nor a snapshot file (.json)" if allow_snapshot else "a URL (http:// or https://)"
    )
    command = getattr(args, "command", None) or "check"
    if allow_snapshot and Path(spec).is_dir():
        return f"{spec!r} is a directory, neither {what}"
    return (
        f"{spec!r} is neither {what}; to check a server started by a command, put the command after `--`: "
        f"hostcompat {command} -- {spec} …"
    )


def _is_url(text: str) -> bool:
    return text[:8].lower().startswith(("http://", "https://"))


def _from_config(server: ServerConfig) -> Planned:
    """A config entry as a target, or as an error when it cannot be used as written or its command is missing."""
    from hostcompat.probe.host_configs import config_target

    label = f"{server.name} ({Path(server.source).name})"
    try:
        return Planned(label, config_target(server), config=server.source)
    except InvalidInput as error:  # InvalidHostConfig: the message names the file and the server
        return Planned(label, config=server.source, error=error.message)


__all__ = [
    "DEMO_COMMAND",
    "Planned",
    "add_target_arguments",
    "input_values",
    "limits_from",
    "plan_targets",
    "redact_inputs",
]
