"""`--observe` for `check`, and the `observe` command's core: run a snapshot's widgets in headless Chromium under
the judged hosts' emulated bridges. Without a browser it says so and the check goes on without observed runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hostcompat.engine.catalog.host_context import HostContext
    from hostcompat.engine.catalog.model import Catalog
    from hostcompat.observe.session import Observation
    from hostcompat.probe.snapshot import Snapshot
    from hostcompat.probe.target import Target


def add_observe_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that bound an observed run."""
    parser.add_argument(
        "--observe-seconds",
        type=float,
        default=15.0,
        metavar="S",
        help="the most each widget runs before its buttons are pressed (default 15; it ends sooner once quiet)",
    )
    parser.add_argument("--no-explore", action="store_true", help="do not press the widgets' buttons")
    parser.add_argument(
        "--observe-live",
        action="store_true",
        help="forward the widgets' tools/call and resources/read to the live server (where the emulated host "
        "forwards them; tools annotated destructive are answered from the snapshot); default: the snapshot answers",
    )


def observe(
    snapshot: Snapshot,
    catalog: Catalog,
    host_ids: Sequence[str],
    args: argparse.Namespace,
    *,
    target: Target | None = None,
    host_versions: Mapping[str, str] | None = None,
    context: HostContext | None = None,
) -> tuple[Observation | None, list[dict[str, str]]]:
    """The observation of `snapshot`'s widgets under `host_ids` (every catalog host when empty), and report notes
    (why nothing was observed, which widgets were skipped, whether the live server answered the views).

    `target` is the live server (forwarded to with `--observe-live`); `host_versions` and `context` choose the
    catalog quirks replayed.
    """
    from hostcompat.observe.browser import BrowserUnavailable, browser_status
    from hostcompat.observe.runner import RunLimits

    problem = browser_status()
    if problem is not None:
        return None, [{"code": "CHECK-OBSERVE-UNAVAILABLE", "message": f"widgets not observed: {problem}"}]
    from hostcompat.observe.session import observe_snapshot

    hosts = [catalog.get(host) for host in host_ids] if host_ids else list(catalog.hosts)
    seconds = max(1.0, min(float(args.observe_seconds), 120.0))
    limits = RunLimits(run=seconds, hard=seconds + 15.0)
    try:
        live = target if getattr(args, "observe_live", False) else None
        observation = observe_snapshot(
            snapshot,
            hosts,
            limits=limits,
            explore=not args.no_explore,
            live=live,
            host_versions=host_versions,
            context=context,
        )
    except BrowserUnavailable as error:
        return None, [{"code": "CHECK-OBSERVE-UNAVAILABLE", "message": f"widgets not observed: {error}"}]
    notes = [
        {"code": "CHECK-OBSERVE-SKIPPED", "message": f"{skipped.uri}: not observed, {skipped.reason}"}
        for skipped in observation.skipped
    ]
    notes.extend({"code": "CHECK-OBSERVE-NOTE", "message": note} for note in observation.notes)
    return observation, notes


def observed_runs(observation: Observation | None) -> tuple[Any, ...]:
    """The runs to hand the engine (none without an observation)."""
    return () if observation is None else observation.runs


__all__ = ["add_observe_arguments", "observe", "observed_runs"]
