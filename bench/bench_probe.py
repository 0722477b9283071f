"""Benchmark the probe: a 10,000-tool server (time, peak memory), and N servers probed concurrently vs one by one.

Run from the repository root: `python bench/bench_probe.py [--servers 20] [--repeat 3]`.
The concurrency target is "N servers at once take at most 1.5x the slowest one alone". Each server kind is
measured on its own: a tiny Python fixture (no SDK, so the probe's own overhead shows), the Python example server
(`hostcompat.examples.board`), and the MCP project's npm examples when `interop/node_modules` is installed.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import anyio

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the fixture servers live under tests/

from hostcompat.probe import Limits, Snapshot, StdioTarget, capture, capture_many  # noqa: E402  # after the path fix

NPM = REPO / "interop" / "node_modules" / "@modelcontextprotocol"
NPM_EXAMPLES = ("server-basic-react", "server-map", "server-budget-allocator", "server-everything")
LIMITS = Limits(connect_timeout=60.0, step_timeout=30.0, total_timeout=120.0)


def fixture(*args: str) -> StdioTarget:
    return StdioTarget(sys.executable, ["-m", "tests.probe.servers.many_tools", *args], cwd=str(REPO))


def board() -> StdioTarget:
    return StdioTarget(sys.executable, ["-m", "hostcompat.examples.board"], cwd=str(REPO))


def npm(index: int) -> StdioTarget:
    package = NPM_EXAMPLES[index % len(NPM_EXAMPLES)]
    mode = "stdio" if package == "server-everything" else "--stdio"
    return StdioTarget("node", [str(NPM / package / "dist" / "index.js"), mode], cwd=str(REPO / "interop"))


def check(snapshot: Snapshot) -> Snapshot:
    problems = [event.code for event in snapshot.events if event.severity == "error"]
    if problems or snapshot.is_unknown("tools"):
        raise SystemExit(f"probe of {snapshot.target} failed: {problems} {dict(snapshot.coverage)}")
    return snapshot


async def big_catalog(args: list[str], repeat: int) -> None:
    times, peaks = [], []
    tools = 0
    for _ in range(repeat):
        tracemalloc.start()
        started = time.perf_counter()
        snapshot = check(await capture(fixture("--count", "10000", *args), limits=LIMITS))
        times.append(time.perf_counter() - started)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        tools = len(snapshot.tools)
    label = "one page" if not args else f"pages of {args[-1]}"
    print(
        f"10,000-tool server ({label}): {tools} tools, median {statistics.median(times):.3f} s "
        f"(min {min(times):.3f}), peak traced memory {max(peaks) / 2**20:.1f} MiB"
    )


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


async def concurrency(kind: str, make: Callable[[int], StdioTarget], servers: int) -> None:
    alone = []
    for index in range(servers):
        started = time.perf_counter()
        check(await capture(make(index), limits=LIMITS))
        alone.append(time.perf_counter() - started)
    probe_cpu, server_cpu = cpu_seconds(resource.RUSAGE_SELF), cpu_seconds(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    for snapshot in await capture_many([make(index) for index in range(servers)], limits=LIMITS):
        check(snapshot)
    together = time.perf_counter() - started
    probe_cpu = cpu_seconds(resource.RUSAGE_SELF) - probe_cpu
    server_cpu = cpu_seconds(resource.RUSAGE_CHILDREN) - server_cpu
    slowest = max(alone)
    ratio = together / slowest
    verdict = "meets" if ratio <= 1.5 else "misses"
    print(
        f"{kind}: one by one {sum(alone):.2f} s (slowest {slowest:.2f} s), {servers} at once {together:.2f} s, "
        f"ratio to the slowest {ratio:.2f} ({verdict} the 1.5x target); "
        f"CPU while at once: probe {probe_cpu:.2f} s, servers {server_cpu:.2f} s"
    )


async def main(servers: int, repeat: int) -> None:
    print(f"python {sys.version.split()[0]}, {len(__import__('os').sched_getaffinity(0))} CPU(s)")
    await big_catalog([], repeat)
    await big_catalog(["--page-size", "500"], repeat)
    await concurrency("tiny Python fixture servers", lambda _index: fixture("--count", "50"), servers)
    slow = fixture("--count", "50", "--delay", "0.5")
    await concurrency("idle-bound fixture servers (0.5 s per answer)", lambda _index: slow, servers)
    await concurrency("hostcompat.examples.board (Python SDK)", lambda _index: board(), servers)
    if shutil.which("node") and all((NPM / package).is_dir() for package in NPM_EXAMPLES):
        await concurrency("npm example servers (node)", npm, servers)
    else:
        print("npm example servers: skipped (node or interop/node_modules missing)")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this process: {rss:.0f} MiB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--servers", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    anyio.run(main, options.servers, options.repeat)
