"""What `check` and `snapshot` run against: a command after `--`, a URL, a snapshot file, a host config file, or the
built-in example server (`--demo`).

Parsing only: nothing here imports the `mcp` SDK, so `hostcompat check snapshot.json` stays an offline, fast path.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hostcompat.errors import InvalidInput

if TYPE_CHECKING:
    from hostcompat.host_configs import ServerConfig
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
    parser.add_argument("--header", action="append", default=[], metavar="NAME:VALUE", help="an HTTP header")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE", help="an environment variable")
    parser.add_argument("--cwd", help="the working directory of a server command")
    parser.add_argument("--transport", choices=("auto", "stdio", "http", "sse"), default="auto")
    parser.add_argument("--timeout", type=float, default=DEFAULT_LIMITS.total_timeout, help="seconds per server")


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
    if configs:
        from hostcompat.host_configs import read_host_config
    for config in configs:
        planned += [_from_config(server) for server in read_host_config(config) if not server.disabled]
    spec: list[str] = list(args.target)
    if spec:
        allow_snapshot = getattr(args, "config", None) is not None
        if len(spec) == 1 and allow_snapshot and spec[0].endswith(".json"):
            if not Path(spec[0]).is_file():
                raise InvalidInput(f"snapshot file {spec[0]!r} not found (to run a command, put it after `--`)")
            planned.append(Planned(spec[0], snapshot=Path(spec[0])))
        else:
            from hostcompat.probe.target import parse_target

            transport = args.transport
            target = parse_target(
                spec if len(spec) > 1 or not _is_url(spec[0]) else spec[0],
                transport=transport,
                headers=args.header,
                env=args.env,
                cwd=args.cwd,
            )
            planned.append(Planned(display_target(target), target))
    if not planned:
        raise InvalidInput("nothing to check: give a URL, a snapshot file, `-- COMMAND ARGS…`, --config or --demo")
    return planned


def display_target(target: Target) -> str:
    """A one-line name for a target, with secrets redacted (it goes into reports)."""
    from hostcompat.probe.target import describe_target

    described = describe_target(target)
    if described.get("kind") == "stdio":
        return " ".join([str(described.get("command", "")), *map(str, described.get("args", []))])
    return str(described.get("url") or described.get("label") or described.get("kind"))


def _is_url(text: str) -> bool:
    return text.startswith(("http://", "https://"))


def _from_config(server: ServerConfig) -> Planned:
    from hostcompat.probe.target import HttpTarget, SseTarget, StdioTarget

    label = f"{server.name} ({Path(server.source).name})"
    if server.transport == "stdio":
        assert server.command is not None  # a stdio ServerConfig always has one
        return Planned(label, StdioTarget(server.command, server.args, server.env, server.cwd), config=server.source)
    assert server.url is not None  # an http/sse ServerConfig always has one
    kind = HttpTarget if server.transport == "http" else SseTarget
    return Planned(label, kind(server.url, server.headers), config=server.source)


__all__ = ["DEMO_COMMAND", "Planned", "add_target_arguments", "display_target", "limits_from", "plan_targets"]
