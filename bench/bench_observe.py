"""Benchmark observed runs: widgets observed per minute on this machine, with one browser for all runs and with a
browser started per run, the time per widget, and the wall time `--observe` adds to a check of basic-react.

Uses the captured widget corpus (interop/corpus, scripts/capture_widgets.py) and the system's Chromium. Run:
`python bench/bench_observe.py [--widgets N] [--concurrency 2]`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.observe.browser import browser_status
from hostcompat.observe.host_profile import emulate_host
from hostcompat.observe.runner import RunLimits, observe_all
from hostcompat.observe.session import snapshot_server
from hostcompat.observe.widget import widget_jobs
from hostcompat.probe.snapshot import Snapshot

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # testkit: the corpus helpers shared with the tests
from testkit.snapshots import corpus_snapshot  # noqa: E402

PACKAGES = (
    "server-basic-react",
    "server-basic-vanillajs",
    "server-scenario-modeler",
    "server-system-monitor",
    "server-budget-allocator",
    "server-shadertoy",
    "server-customer-segmentation",
    "server-cohort-heatmap",
)
LIMITS = RunLimits(settle=1.5, run=15.0, explore=5.0, hard=30.0)


def observe_round(snapshots: list[Snapshot], *, reuse: bool, concurrency: int) -> tuple[float, list[float]]:
    """Observe every snapshot's widgets under Claude in one batch; (wall seconds, per-run seconds)."""
    host = emulate_host(load_catalog().get("claude"))
    pairs = [(job, host) for snapshot in snapshots for job in widget_jobs(snapshot)[0]]
    handlers = [snapshot_server(snapshot) for snapshot in snapshots]
    by_tool = {
        str(tool.get("name")): handler
        for snapshot, handler in zip(snapshots, handlers, strict=True)
        for tool in snapshot.tools
    }

    async def server(method: str, params: Any) -> Mapping[str, Any]:
        name = params.get("name") if isinstance(params, Mapping) else None
        handler = by_tool.get(str(name), handlers[0])
        return await handler(method, params)

    started = time.perf_counter()
    records = observe_all(pairs, server, limits=LIMITS, concurrency=concurrency, reuse=reuse)
    return time.perf_counter() - started, [record.seconds for record in records]


def check_wall(observe: bool) -> float:
    """Wall seconds of `hostcompat check` on a basic-react snapshot, with or without --observe."""
    snapshot = corpus_snapshot("server-basic-react")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "basic-react.json"
        path.write_text(json.dumps(snapshot.to_dict()), encoding="utf-8")
        command = [sys.executable, "-m", "hostcompat", "check", str(path), "--host", "claude", "--fail-on", "never"]
        started = time.perf_counter()
        subprocess.run([*command, *(["--observe"] if observe else [])], check=True, capture_output=True, env=os.environ)
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--widgets", type=int, default=len(PACKAGES))
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--cores", type=int, default=2, help="pin this process and its browsers to N cores (Linux)")
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if args.cores and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[: args.cores]))  # children inherit it
        cores = len(os.sched_getaffinity(0))
    problem = browser_status()
    if problem is not None:
        print(f"skipped: {problem}")
        return
    snapshots = [corpus_snapshot(name) for name in PACKAGES[: args.widgets]]
    print(f"{len(snapshots)} example widgets under Claude's emulated bridge, on {cores} cores")
    for reuse in (True, False):
        wall, per_run = observe_round(snapshots, reuse=reuse, concurrency=args.concurrency)
        label = "one browser for all" if reuse else "a browser per run"
        print(
            f"  {label:<22} {len(per_run) / wall * 60:6.1f} widgets/min   wall {wall:6.1f} s   "
            f"per widget mean {sum(per_run) / len(per_run):5.1f} s, max {max(per_run):5.1f} s"
        )
    plain, observed = check_wall(False), check_wall(True)
    print(f"  check basic-react: {plain:5.2f} s, with --observe {observed:5.2f} s (+{observed - plain:5.2f} s)")


if __name__ == "__main__":
    main()
