"""`hostcompat check`: does this server work on Claude, ChatGPT, VS Code, Cursor, Codex, Goose …, and if not, why and
what to change. Probes live servers (or reads snapshots), evaluates every host in the catalog, prints a report.

Exit codes: 0 every verdict is better than `--fail-on`; 1 some host reached it, or a server could not be checked
(unreachable, crashed or timed out during the probe, a config entry that cannot be resolved), whatever `--fail-on`
says; 2 bad arguments or an unusable input (a malformed config or snapshot file, an unknown host id, an output path
that cannot be written).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hostcompat._dataclass import dataclass
from hostcompat.cli._command import Command
from hostcompat.cli._observing import add_observe_arguments
from hostcompat.cli._probing import (
    ProbeOptions,
    add_probe_arguments,
    as_host_profile,
    planned_redactor,
    probe_all,
    probe_options,
    start_live,
    stop_live,
)
from hostcompat.cli._scan_cache import add_cache_arguments, open_cache
from hostcompat.cli._targets import Planned, add_target_arguments, looks_like_host_config, plan_targets, redact_inputs
from hostcompat.errors import HostCompatError, InvalidInput
from hostcompat.probe.snapshot import Snapshot
from hostcompat.redaction import Redactor
from hostcompat.report import REPORT_FORMATS
from hostcompat.terminal import escape_json_text, is_terminal, write_json

if TYPE_CHECKING:
    from hostcompat.cli._scans import RunScans
    from hostcompat.engine.catalog.host_context import HostContext
    from hostcompat.engine.catalog.model import Catalog
    from hostcompat.probe._early import Started
    from hostcompat.report.model import ReportDocument, ShardInfo, TargetInfo


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser, allow_snapshot=True)
    add_probe_arguments(parser)
    parser.add_argument("--host", action="append", default=[], metavar="ID", help="only these hosts (id or alias)")
    parser.add_argument("--format", choices=REPORT_FORMATS, default="text", help="the report's format")
    parser.add_argument(
        "--fail-on",
        choices=("blocked", "degraded", "unknown", "never"),
        default="blocked",
        help="exit 1 when any host's verdict is this bad or worse (default: blocked)",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report here instead of standard output")
    parser.add_argument(
        "--baseline",
        metavar="REPORT",
        help="an earlier JSON report: exit 1 only on what got worse (a worse verdict, a new finding), instead of "
        "--fail-on; what got worse and what got better go to standard error",
    )
    parser.add_argument(
        "--shard",
        metavar="I/N",
        help="check only the I-th of N equal, contiguous parts of the server list (1 ≤ I ≤ N); "
        "`hostcompat merge` joins the N reports",
    )
    parser.add_argument("--catalog", action="append", default=[], metavar="FILE", help="a user file of host overrides")
    parser.add_argument(
        "--host-version",
        action="append",
        default=[],
        metavar="ID=VERSION",
        help="judge this version of a host instead of its current one (facts hold for the versions their sources show)",
    )
    parser.add_argument(
        "--host-context",
        action="append",
        default=[],
        metavar="[ID:]KEY=VALUE,…",
        help="judge hosts (or host ID) on an OS, registration path or feature gate instead of the common path: "
        "os=windows, registration=plugin, gate=NAME",
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=None,
        metavar="N",
        help="how many servers to probe at once (default: all at once)",
    )
    parser.add_argument(
        "--observe",
        action="store_true",
        help="also run each widget in headless Chromium under each judged host's emulated bridge (observed evidence)",
    )
    add_cache_arguments(parser)
    add_observe_arguments(parser)


def _run(args: argparse.Namespace) -> int:
    planned = plan_targets(args)
    shard = None
    if args.shard is not None:
        from hostcompat.report.merge import parse_shard, shard_slice

        shard = parse_shard(args.shard)
        planned = planned[shard_slice(len(planned), shard)]
    baseline = None
    if args.baseline is not None:
        from hostcompat.report.reader import read_report

        baseline = read_report(args.baseline)  # an unreadable baseline fails now, before any probe
    if args.output is not None:
        from hostcompat.output_files import check_output_path

        check_output_path(args.output)  # a bad path fails now, not after the probes
    planned = [item if item.prepare is None else item.prepare() for item in planned]  # installs, for this shard only
    offline = {  # written by any version: their targets and events are redacted again
        id(item): _read_snapshot(item.snapshot).redacted(Redactor()) for item in planned if item.snapshot is not None
    }
    live = [item for item in planned if item.target is not None]
    scans = _run_scans(args, live, offline)  # a snapshot checked alone has its widgets scanned from here on
    try:
        return _judged(args, planned, offline, live, scans, shard, baseline)
    finally:
        scans.close()


def _judged(
    args: argparse.Namespace,
    planned: list[Planned],
    offline: dict[int, Snapshot],
    live: list[Planned],
    scans: RunScans,
    shard: ShardInfo | None,
    baseline: ReportDocument | None,
) -> int:
    """The rest of `_run`: the catalog and hosts asked for, the probes, the check and its report."""
    from hostcompat.engine.catalog.load import load_catalog

    catalog = load_catalog(overrides=args.catalog)
    host_ids = [catalog.get(name).id for name in args.host]  # an unknown id fails here, before any probe starts
    host_versions = _host_versions(args.host_version, catalog)
    host_contexts = _host_contexts(args.host_context, catalog)
    as_host = as_host_profile(args, catalog)
    if as_host is not None and not host_ids:
        host_ids = [as_host.id]  # the server met as this host: judge it for this host
    options = probe_options(args, as_host)
    if options.calls.explicit and not live:
        raise InvalidInput("--call and --calls apply to live servers: a snapshot holds the calls made when taken")
    started = start_live(live, args.concurrency)  # the servers start while the checker is imported
    try:
        plan = _Plan(planned, offline, live, options, catalog, host_ids, host_versions, host_contexts)
        document = _checked(args, plan, started, scans)
    finally:
        stop_live(started)
    if shard is not None:
        document["shard"] = shard
    shown: ReportDocument = redact_inputs(document, args)
    _write(shown, args)
    if baseline is not None:
        from hostcompat.report.diff import diff_reports

        changes = diff_reports(baseline, shown)
        sys.stderr.write(changes.text())
        return 1 if changes.regressed else 0
    from hostcompat.report import exit_code

    return exit_code(document, args.fail_on)


@dataclass(frozen=True)
class _Plan:
    """What `_run` made of the arguments: the servers, how to probe them, and what to judge them against."""

    planned: list[Planned]
    offline: dict[int, Snapshot]
    live: list[Planned]
    options: ProbeOptions
    catalog: Catalog
    host_ids: list[str]
    host_versions: dict[str, str]
    host_contexts: dict[str | None, HostContext]


def _checked(args: argparse.Namespace, plan: _Plan, started: Started, scans: RunScans) -> ReportDocument:
    """Probe the live servers (`started`: those already starting) and judge every server (their widgets scanned by
    `scans`): the report document.
    """
    from hostcompat.clients.rules import load_bundled_rules
    from hostcompat.pipeline import WidgetBudget, check_snapshot
    from hostcompat.report import report_document, server_entry

    planned, offline, live, options = plan.planned, plan.offline, plan.live, plan.options
    catalog, host_ids, host_versions, host_contexts = (
        plan.catalog,
        plan.host_ids,
        plan.host_versions,
        plan.host_contexts,
    )
    as_of = time.strftime("%Y-%m-%d")  # the age of host facts is told against today (datetime costs start-up)
    budget = WidgetBudget(seconds=args.timeout)  # --timeout bounds the widget analysis of each server too
    if started:  # servers are starting: load the widget scanner in the meantime
        from hostcompat.widget_scans import warm_up

        warm_up()
    for snapshot in offline.values():
        scans.prescan(snapshot, budget)
    taken = probe_all(
        live, options, args.concurrency, on_snapshot=lambda _, taken: scans.prescan(taken, budget), started=started
    )
    snapshots = dict(zip((id(item) for item in live), taken, strict=True))
    snapshots.update(offline)
    entries = []
    for item in planned:
        if item.error is not None:
            entries.append(server_entry(target=_target_info(item), server=None, hosts=[], error=item.error))
            continue
        snapshot = snapshots[id(item)]
        observation, notes = (
            _observe(snapshot, catalog, host_ids, args, item.target, host_versions, host_contexts.get(None))
            if args.observe
            else (None, [])
        )
        entry = check_snapshot(
            snapshot,
            catalog,
            host_ids=host_ids or None,
            target=_target_info(item),
            host_versions=host_versions,
            as_of=as_of,
            widget_budget=budget,
            observed=() if observation is None else observation.runs,
            notes=notes,
            host_contexts=host_contexts,
            client_rules=load_bundled_rules(),
            widget_scans=scans,
        )
        entries.append(planned_redactor(item).json(entry, urls=False))
    return report_document(entries)


def _run_scans(args: argparse.Namespace, live: list[Planned], offline: dict[int, Snapshot]) -> RunScans:
    """The run's widget scans: kept in `--cache-dir`, done in worker processes while other servers are probed when
    there is more than one server and more than one core, and for one snapshot alone begun at once in a forked
    child (`cli._scan_ahead`) while this process loads the rest of the check.
    """
    from hostcompat.cli._scan_ahead import MAX_AHEAD_CHARS, AheadScans, cores, items_to_scan_ahead

    disk = open_cache(args)
    servers = len(live) + len(offline)
    ahead = None
    if disk is None and servers == 1 and offline:
        (snapshot,) = offline.values()
        ahead = AheadScans.start(items_to_scan_ahead(snapshot, MAX_AHEAD_CHARS), args.timeout)
    from hostcompat.cli._scans import RunScans  # after the fork: the child does not need it, and is not kept waiting

    workers = cores() if servers > 1 else 0
    return RunScans(workers=workers if workers > 1 else 0, disk=disk, ahead=ahead)


def _read_snapshot(path: Path) -> Snapshot:
    """The snapshot at `path`; a host config given as one is an error that says to pass it with `--config`."""
    from hostcompat.probe.snapshot import read_snapshot

    try:
        return read_snapshot(path)
    except HostCompatError as error:
        if not looks_like_host_config(path):
            raise
        raise InvalidInput(
            f"{path} is a host config, not a snapshot: check every server in it with `--config {path}`", value=str(path)
        ) from error


def _observe(snapshot: Snapshot, catalog: Catalog, host_ids: list[str], args: argparse.Namespace, *live: Any) -> Any:
    from hostcompat.cli._observing import observe

    target, versions, context = live
    return observe(snapshot, catalog, host_ids, args, target=target, host_versions=versions, context=context)


def _host_versions(pairs: list[str], catalog: Catalog) -> dict[str, str]:
    """`--host-version ID=VERSION` pairs as host id → version; a malformed pair or unknown host is a usage error."""
    from hostcompat.engine.catalog.schema import HOST_VERSION

    versions: dict[str, str] = {}
    for pair in pairs:
        name, sep, version = pair.partition("=")
        if not sep or not HOST_VERSION.match(version.strip()):
            raise InvalidInput(f"--host-version {pair!r}: expected ID=VERSION, such as claude-code=2.0.20", value=pair)
        versions[catalog.get(name.strip()).id] = version.strip()
    return versions


def _host_contexts(texts: list[str], catalog: Catalog) -> dict[str | None, HostContext]:
    """`--host-context [ID:]KEY=VALUE,…` as host id (None: every host) → context; later ones add to earlier ones."""
    from hostcompat.engine.catalog.host_context import COMMON, parse_host_context

    contexts: dict[str | None, HostContext] = {}
    for text in texts:
        name, context = parse_host_context(text)
        host_id = None if name is None else catalog.get(name).id
        contexts[host_id] = contexts.get(host_id, COMMON).merged(context)
    return contexts


def _target_info(item: Planned) -> TargetInfo:
    info: TargetInfo = {"display": item.label}
    if item.config is not None:
        info["config"] = item.config
    if item.snapshot is not None:
        info["snapshot"] = str(item.snapshot)
    return info


def _write(document: ReportDocument, args: argparse.Namespace) -> None:
    """The report to standard output or `-o FILE`; JSON and SARIF that reach a terminal have control characters
    escaped (the text and Markdown renderers neutralise them themselves).
    """
    if args.output is None and args.format == "text" and is_terminal(sys.stdout) and _render_rich(document):
        return
    from hostcompat.report.render import render_report

    if args.format == "text" and args.output is None:  # for a person: wrapped to the terminal and `$COLUMNS`
        from hostcompat.cli.command_line import terminal_width
        from hostcompat.report.text import render_text

        text = render_text(document, width=terminal_width())
    else:
        text = render_report(document, args.format, fail_on=args.fail_on)
    is_json = args.format in ("json", "sarif")
    if args.output is None:
        if is_json:
            write_json(sys.stdout, text)
        else:
            sys.stdout.write(text)
        return
    from hostcompat.output_files import write_output

    if is_json:
        write_output(args.output, escape_json_text(text, terminal=False), for_terminal=escape_json_text)
    else:
        write_output(args.output, text)


def _render_rich(document: ReportDocument) -> bool:
    """The report on a terminal, with `rich` (False when it is not installed); loads only for a terminal."""
    from hostcompat.cli.command_line import terminal_width
    from hostcompat.report.text import render_rich

    return render_rich(document, sys.stdout, width=terminal_width())


COMMAND = Command(
    command_line=True,
    name="check",
    help="check a server (live, from a snapshot, or every server in a host config) against every MCP host",
    description=__doc__,
    add_arguments=_add_arguments,
    run=_run,
)

__all__ = ["COMMAND"]
