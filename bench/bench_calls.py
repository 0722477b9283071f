"""Benchmark what tool calls add to a check: `hostcompat check` of server-everything with its automatic calls and
with `--no-calls`, side by side in one run, and where the time of the calls goes.

Run from the repository root: `python bench/bench_calls.py [--repeat 5]`. Needs node and `interop/node_modules`.
Each round runs both variants as subprocesses (the whole CLI, as a user runs it), alternating which goes first;
then one probe per variant in-process shows each call's duration and what the calls add to the snapshot.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import anyio

from hostcompat.probe import NO_CALLS, Snapshot, StdioTarget, capture, snapshot_to_json

REPO = Path(__file__).resolve().parents[1]
EVERYTHING = REPO / "interop" / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
COMMAND = ["node", str(EVERYTHING), "stdio"]


def check_once(*options: str) -> float:
    argv = [sys.executable, "-m", "hostcompat", "check", "--format", "json", "--fail-on", "never", *options]
    started = time.perf_counter()
    done = subprocess.run([*argv, "--", *COMMAND], capture_output=True, text=True, cwd=REPO, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or not json.loads(done.stdout)["servers"][0]["hosts"]:
        raise SystemExit(f"check failed ({done.returncode}): {done.stderr[-500:]}")
    return elapsed


def side_by_side(repeat: int) -> None:
    times: dict[str, list[float]] = {"with calls": [], "--no-calls": []}
    for round_ in range(repeat):
        order = ["with calls", "--no-calls"] if round_ % 2 == 0 else ["--no-calls", "with calls"]
        for variant in order:
            times[variant].append(check_once(*([] if variant == "with calls" else ["--no-calls"])))
    for variant, values in times.items():
        median = statistics.median(values)
        print(f"check of server-everything, {variant:>10}: median {median:6.2f} s (min {min(values):.2f})")
    added = statistics.median(times["with calls"]) - statistics.median(times["--no-calls"])
    print(f"added by tool calls: {added:+.2f} s per check (median against median, {repeat} rounds)")


async def probe_both() -> tuple[Snapshot, Snapshot]:
    target = StdioTarget(COMMAND[0], COMMAND[1:], cwd=str(REPO / "interop"))
    return await capture(target), await capture(target, calls=NO_CALLS)


def breakdown() -> None:
    with_calls, without = anyio.run(probe_both)
    print(f"probe alone: {with_calls.duration_seconds:.2f} s with calls, {without.duration_seconds:.2f} s without")
    for record in with_calls.calls:
        size = "-" if record.bytes is None else f"{record.bytes} B"
        print(f"  {record.tool:32} {record.outcome:10} {record.duration_seconds:6.3f} s  {size}")
    fast = sum(record.duration_seconds for record in with_calls.calls if record.outcome != "timeout")
    slow = sum(record.duration_seconds for record in with_calls.calls if record.outcome == "timeout")
    limit = with_calls.limits.call_timeout
    print(f"  calls that answered: {fast:.3f} s in all; calls cut at the {limit:g} s limit: {slow:.2f} s")
    shutdown = [event.code for event in with_calls.events if event.step == "shutdown"]
    print(f"  shutdown events with calls: {shutdown or 'none'}; without: {[e.code for e in without.events] or 'none'}")
    grown = len(snapshot_to_json(with_calls).encode()) - len(snapshot_to_json(without).encode())
    print(f"  snapshot size added by the calls: {grown / 1024:.1f} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="rounds of the side-by-side check (default 5)")
    args = parser.parse_args()
    if shutil.which("node") is None or not EVERYTHING.is_file():
        raise SystemExit("needs node and interop/node_modules (npm ci in interop/)")
    side_by_side(args.repeat)
    breakdown()


if __name__ == "__main__":
    main()
