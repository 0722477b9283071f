"""How a command meets a live server: the probe options (shared by `check`, `snapshot` and `observe`), probing
many targets at once with a progress display, and the secret values a target's report part must not hold.

The command modules each import this one, never one another.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Final

from hostcompat._dataclass import dataclass
from hostcompat.cli._targets import Planned, limits_from
from hostcompat.errors import InvalidInput
from hostcompat.probe.calls import DEFAULT_CALLS, CallPlan, ExplicitCall, calls_from_json, parse_call
from hostcompat.probe.limits import Limits
from hostcompat.probe.options import MCP_APPS, Advertise, Era
from hostcompat.redaction import Redactor
from hostcompat.terminal import clean_line

if TYPE_CHECKING:
    from hostcompat.engine.catalog.model import Catalog, HostProfile
    from hostcompat.probe._early import Started
    from hostcompat.probe.snapshot import Snapshot

MAX_CALLS_FILE_BYTES: Final = 4 * 1024 * 1024
"""The largest `--calls` file read."""


def add_probe_arguments(parser: argparse.ArgumentParser) -> None:
    """How the probe presents itself: the options of every command that probes a live server."""
    parser.add_argument(
        "--advertise",
        choices=("mcp-apps", "none"),
        default=None,
        help="the client capability to advertise: the MCP Apps extension (the default) or none, to see what the "
        "server does for a client without it",
    )
    parser.add_argument(
        "--era",
        choices=("auto", "legacy", "modern"),
        default="auto",
        help="the protocol era: legacy (the initialize handshake), modern (server/discover), or auto (discover, "
        "else the handshake)",
    )
    parser.add_argument("--client-name", help="the clientInfo name to send (servers that detect hosts read it)")
    parser.add_argument(
        "--as-host",
        metavar="ID",
        help="meet the server as this catalog host would: its clientInfo name, and the MCP Apps extension only if "
        "it renders MCP Apps (--advertise and --client-name still win)",
    )
    parser.add_argument(
        "--call",
        action="append",
        default=[],
        metavar="TOOL=JSON",
        help="call this tool with these arguments (a JSON object; TOOL alone: none) and keep its result as evidence; "
        "repeatable. Named tools are called even when not read-only: name only tools that are safe to call",
    )
    parser.add_argument(
        "--calls",
        action="append",
        default=[],
        metavar="FILE",
        help='a JSON file of tools to call: {"TOOL": {arguments}, …} or [{"tool": "TOOL", "arguments": {…}}, …]',
    )
    parser.add_argument(
        "--no-calls",
        action="store_true",
        help="call no tool on its own (by default tools annotated readOnlyHint that need no arguments are called); "
        "tools named with --call or --calls are still called",
    )


@dataclass(frozen=True)
class ProbeOptions:
    """How to probe, as the options ask: the arguments of `hostcompat.probe.capture` besides the target."""

    limits: Limits
    advertise: Advertise
    era: Era
    client_info: Mapping[str, str] | None
    calls: CallPlan = DEFAULT_CALLS


def probe_options(args: argparse.Namespace, host: HostProfile | None = None) -> ProbeOptions:
    """The probe options the arguments ask for; `host` is the catalog host `--as-host` names (None without it)."""
    presented = None
    if host is not None or args.client_name:
        from hostcompat.cli._as_host import CLIENT_VERSION, present_as  # the client rules: not for a plain check

        presented = present_as(host, _as_host_version(args, host)) if host is not None else None
    if presented is not None and presented.note is not None and not args.client_name:
        sys.stderr.write(f"hostcompat: {clean_line(presented.note)}\n")
    if args.advertise is not None:
        advertise: Advertise = None if args.advertise == "none" else MCP_APPS
    else:
        advertise = MCP_APPS if presented is None else presented.advertise
    if args.client_name:
        client_info: Mapping[str, str] | None = {"name": args.client_name, "version": CLIENT_VERSION}
    else:
        client_info = None if presented is None else presented.client_info
    return ProbeOptions(
        limits=limits_from(args), advertise=advertise, era=args.era, client_info=client_info, calls=call_plan(args)
    )


def _as_host_version(args: argparse.Namespace, host: HostProfile) -> str | None:
    """The version `--as-host` presents: its `--host-version` when given, else the newest the sources name."""
    pairs: list[str] = getattr(args, "host_version", [])
    for pair in pairs:
        name, sep, version = pair.partition("=")
        if sep and version.strip() and name.strip() in (host.id, *host.aliases):
            return version.strip()
    from hostcompat.cli._as_host import known_version
    from hostcompat.clients.rules import load_bundled_rules

    return known_version(host, load_bundled_rules())


def call_plan(args: argparse.Namespace) -> CallPlan:
    """The tool calls the options ask for: `--calls` files first, then each `--call`, and `--no-calls`.

    Raises:
        InvalidInput: a `--call` that is not TOOL=JSON, or a `--calls` file that cannot be read or is malformed.
    """
    explicit = [call for path in args.calls for call in _read_calls_file(path)]
    explicit += [_parse_call_option(text) for text in args.call]
    return CallPlan(auto=not args.no_calls, explicit=tuple(explicit))


def _parse_call_option(text: str) -> ExplicitCall:
    try:
        return parse_call(text)
    except InvalidInput as error:
        raise InvalidInput(f"--call {text!r}: {error.message}", value=text) from error


def _read_calls_file(path: str) -> tuple[ExplicitCall, ...]:
    import json

    source = Path(path)
    try:
        if not source.is_file():
            raise InvalidInput(f"--calls {path!r}: not a regular file", value=path)
        with source.open("rb") as stream:
            data = stream.read(MAX_CALLS_FILE_BYTES + 1)
    except OSError as error:
        raise InvalidInput(f"--calls {path!r}: cannot read it: {error.strerror or error}", value=path) from error
    if len(data) > MAX_CALLS_FILE_BYTES:
        raise InvalidInput(f"--calls {path!r}: larger than {MAX_CALLS_FILE_BYTES} bytes", value=path)
    try:
        parsed = json.loads(data)
    except (ValueError, RecursionError) as error:
        raise InvalidInput(f"--calls {path!r}: not JSON: {error}", value=path) from error
    return calls_from_json(parsed, f"--calls {path!r}")


def as_host_profile(args: argparse.Namespace, catalog: Catalog | None = None) -> HostProfile | None:
    """The catalog host `--as-host` names (the bundled catalog unless given one); None without the option.

    Raises:
        CatalogError: no host, or more than one, has that id or alias.
    """
    if not args.as_host:
        return None
    if catalog is None:
        from hostcompat.engine.catalog.load import load_catalog

        catalog = load_catalog()
    return catalog.get(args.as_host)


def planned_redactor(item: Planned) -> Redactor:
    """The secret values of a live target, none for a snapshot file (its report part must not hold them either)."""
    if item.target is None:
        return Redactor.of(item.secrets)
    from hostcompat.probe.target import target_redactor

    return target_redactor(item.target) | Redactor.of(item.secrets)


def start_live(live: list[Planned], concurrency: int | None) -> Started:
    """Start now the stdio servers `probe_all` starts first (with `concurrency`), so their start-up overlaps what
    the command does before it probes them; hand the result to `probe_all`, and to `stop_live` in a `finally`.
    """
    targets = [item.target for item in live if item.target is not None]
    if not targets:  # an offline check imports nothing of the probe
        return {}
    from hostcompat.probe._early import start_now

    return start_now(targets[: concurrency or len(targets)])


def stop_live(started: Started) -> None:
    """Stop the servers `start_live` started that no probe took (after an error, say)."""
    if started:
        from hostcompat.probe._early import stop_now

        stop_now(started)


def probe_all(
    live: list[Planned],
    options: ProbeOptions,
    concurrency: int | None,
    on_snapshot: Callable[[int, Snapshot], None] | None = None,
    started: Started | None = None,
) -> list[Snapshot]:
    """Probe every live target at once, with a progress display that counts the servers done and names the ones
    running (`_progress`, on a terminal only); `on_snapshot(index, snapshot)` gets each snapshot as soon as it is
    taken; `started` are the servers `start_live` started.
    """
    if not live:
        return []
    import anyio

    from hostcompat.cli._progress import Progress
    from hostcompat.cli.command_line import terminal_width
    from hostcompat.probe._spawn import started_early

    targets = [item.target for item in live if item.target is not None]
    progress = Progress([item.label for item in live], sys.stderr, terminal_width())

    async def run() -> list[Snapshot]:
        async with started_early(targets[: concurrency or len(targets)], started):  # the first capture_many runs
            from hostcompat.probe import capture_many  # imported while the servers start

            return await capture_many(
                targets,
                limits=options.limits,
                advertise=options.advertise,
                era=options.era,
                client_info=options.client_info,
                concurrency=concurrency,
                calls=options.calls,
                on_progress=progress.update,
                on_snapshot=on_snapshot,
            )

    try:
        return anyio.run(run)
    finally:
        progress.close()


__all__ = [
    "MAX_CALLS_FILE_BYTES",
    "ProbeOptions",
    "add_probe_arguments",
    "as_host_profile",
    "call_plan",
    "planned_redactor",
    "probe_all",
    "probe_options",
    "start_live",
    "stop_live",
]
