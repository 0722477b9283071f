"""Benchmark a batch run: 20 stdio servers in one host config, checked in 1 shard and in 2 shards (run side by side,
as two CI jobs would) then merged, with the wall time of each.

Run from the repository root: `python bench/bench_batch.py [--servers 20] [--concurrency N]`.

`--against-slowest` measures the issue's multi-server target instead: `check --config` of `--servers` servers (say
10) against the slowest of them checked alone (`check --config` of a one-server config), interleaved round by round
(`--repeat` rounds), with the median and min-max of each and the ratio to the 1.5x target. In the same rounds it
times the floor: `bench/raw_client.py` (the same exchange with no SDK, no checking) against every server at once, and
against the slowest one alone. On a machine with fewer cores than servers, the servers' own start-up CPU makes the
floor itself more than 1.5x the slowest alone; the ratio to the floor says what hostcompat adds. `--baseline-src DIR`
also times the config check with another source tree first on the path (an older checkout's `src`), in the same
rounds.
The servers are the built-in demo and the pinned reference servers: the MCP project's npm examples and servers
(`interop/node_modules`) and its PyPI servers (`interop/pyservers`), as many as are installed, topped up with
copies of the demo. The merged 2-shard report is compared with the 1-shard one (same servers, same verdicts).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[1]
NPM = REPO / "interop" / "node_modules" / "@modelcontextprotocol"
PYSERVERS = REPO / "interop" / "pyservers" / "bin"
NPM_APPS = (
    "server-basic-vanillajs",
    "server-basic-react",
    "server-basic-preact",
    "server-basic-solid",
    "server-basic-svelte",
    "server-basic-vue",
    "server-budget-allocator",
    "server-cohort-heatmap",
    "server-customer-segmentation",
)
NPM_SERVERS = ("server-memory", "server-sequential-thinking", "server-everything")


def servers(count: int, workdir: Path) -> dict[str, dict[str, object]]:
    """`count` stdio servers for an `mcpServers` config: installed reference servers first, then demo copies."""
    found: dict[str, dict[str, object]] = {}
    for name in NPM_APPS:
        entry = NPM / name / "dist" / "index.js"
        if entry.is_file():
            found[name] = {"command": "node", "args": [str(entry), "--stdio"]}
    for name in NPM_SERVERS:
        entry = NPM / name / "dist" / "index.js"
        if entry.is_file():
            found[name] = {"command": "node", "args": [str(entry)], "env": {"HOME": str(workdir)}}
    python = {
        "mcp-server-time": ["--local-timezone", "UTC"],
        "mcp-server-git": ["--repository", str(REPO)],
    }
    for name, args in python.items():
        if (PYSERVERS / name).exists():
            found[name] = {"command": str(PYSERVERS / name), "args": args}
    chosen = dict(list(found.items())[: count - 1])
    demo: dict[str, object] = {"command": sys.executable, "args": ["-m", "hostcompat.examples.board"], "cwd": str(REPO)}
    index = 1
    while len(chosen) < count:
        chosen[f"demo-{index}"] = demo
        index += 1
    return chosen


def check(config: Path, out: Path, extra: list[str]) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "hostcompat", "check", "--config", str(config), "--format", "json"]
    argv += ["-o", str(out), "--fail-on", "never", "--timeout", "120", *extra]
    return subprocess.Popen(argv, cwd=REPO, stderr=subprocess.DEVNULL)


def timed(argv: list[str], env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return time.perf_counter() - started


def raw_command(entry: dict[str, object]) -> list[str]:
    """The no-SDK client (`bench/raw_client.py`) making the probe's exchange with the server of a config `entry`."""
    args = entry.get("args", [])
    words = [str(word) for word in args] if isinstance(args, list) else []
    return [sys.executable, str(REPO / "bench" / "raw_client.py"), "--", str(entry["command"]), *words]


def raw_env(entry: dict[str, object]) -> dict[str, str]:
    """The environment the config `entry` gives its server, over this one."""
    extra = entry.get("env", {})
    pairs = extra.items() if isinstance(extra, dict) else ()
    return {**os.environ, **{str(name): str(value) for name, value in pairs}}


def raw_at_once(entries: list[dict[str, object]]) -> float:
    """Wall seconds of the no-SDK client against all `entries` at once (as `check --config` probes them); a server
    the raw client cannot finish with stops the bench.
    """
    started = time.perf_counter()
    jobs = [
        subprocess.Popen(
            raw_command(entry),
            cwd=str(entry.get("cwd", REPO)),
            env=raw_env(entry),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for entry in entries
    ]
    failed = [job.args for job in jobs if job.wait() != 0]
    if failed:
        raise SystemExit(f"the raw client failed on {failed[0]!r}")
    return time.perf_counter() - started


def spread(times: list[float]) -> str:
    return f"median {statistics.median(times):5.2f} s (min {min(times):.2f}, max {max(times):.2f})"


class BatchTimes(NamedTuple):
    """Seconds of each run, round by round: the config check, each server checked alone, and the no-SDK floor (the
    raw client against every server at once, and against each alone).
    """

    together: list[float]
    alone: dict[str, list[float]]
    raw_together: list[float]
    raw_alone: dict[str, list[float]]

    def slowest(self) -> str:
        """The server whose check alone has the highest median."""
        return _slowest(self.alone)

    def raw_slowest(self) -> str:
        """The server the raw client takes longest with alone (median)."""
        return _slowest(self.raw_alone)


def _slowest(alone: dict[str, list[float]]) -> str:
    return max(alone, key=lambda name: statistics.median(alone[name]))


def against_slowest(listed: dict[str, dict[str, object]], work: Path, repeat: int, baseline: str | None) -> BatchTimes:
    """The config check of every server vs each server alone, and the raw client's floor of both, interleaved,
    `repeat` rounds.
    """
    config = work / "servers.json"
    config.write_text(json.dumps({"mcpServers": listed}), "utf-8")
    flags = ["--format", "json", "--fail-on", "never", "--timeout", "120", "-o", str(work / "out.json")]
    base = [sys.executable, "-m", "hostcompat", "check", *flags, "--config"]
    alone_configs = {}
    for name, entry in listed.items():
        path = work / f"alone-{name}.json"
        path.write_text(json.dumps({"mcpServers": {name: entry}}), "utf-8")
        alone_configs[name] = path
    old_env = None
    if baseline is not None:
        old_env = {**os.environ, "PYTHONPATH": os.pathsep.join([baseline, os.environ.get("PYTHONPATH", "")])}
    times = BatchTimes([], {name: [] for name in listed}, [], {name: [] for name in listed})
    before: list[float] = []
    for round_ in range(repeat):
        times.together.append(timed([*base, str(config)]))
        times.raw_together.append(raw_at_once(list(listed.values())))
        if old_env is not None:
            before.append(timed([*base, str(config)], old_env))
        for name, path in alone_configs.items():
            times.alone[name].append(timed([*base, str(path)]))
            times.raw_alone[name].append(raw_at_once([listed[name]]))
        worst = max(alone[-1] for alone in times.alone.values())
        print(
            f"  round {round_ + 1}: config {times.together[-1]:.2f} s, slowest alone this round {worst:.2f} s;"
            f" raw client, all at once {times.raw_together[-1]:.2f} s"
        )
    slowest = times.slowest()
    median = statistics.median
    ratio = median(times.together) / median(times.alone[slowest])
    print(f"check --config, {len(listed)} servers:   {spread(times.together)}")
    if before:
        print(f"  the same, --baseline-src:  {spread(before)}")
    print(f"slowest alone ({slowest}): {spread(times.alone[slowest])}")
    verdict = "meets" if ratio <= 1.5 else "misses"
    print(f"ratio of the medians: {ratio:.2f}x ({verdict} the 1.5x target)")
    if before:
        print(f"  baseline's ratio: {median(before) / median(times.alone[slowest]):.2f}x")
    raw_slowest = times.raw_slowest()
    floor_ratio = median(times.raw_together) / median(times.raw_alone[raw_slowest])
    print(f"floor, raw client on all {len(listed)} at once: {spread(times.raw_together)}")
    print(f"floor, raw client on the slowest alone ({raw_slowest}): {spread(times.raw_alone[raw_slowest])}")
    print(
        f"the floor's own ratio: {floor_ratio:.2f}x"
        + (" (above 1.5x: the servers' own start-up bounds this machine)" if floor_ratio > 1.5 else "")
    )
    print(f"check --config over the floor: {median(times.together) / median(times.raw_together):.2f}x")
    return times


def summary(path: Path) -> list[tuple[str, object, list[tuple[str, str]]]]:
    document = json.loads(path.read_text("utf-8"))
    return [
        (s["target"]["display"], s["error"], [(h["hostId"], h["verdict"]) for h in s["hosts"]])
        for s in document["servers"]
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=20)
    parser.add_argument("--concurrency", type=int, default=None, help="servers probed at once per job")
    parser.add_argument("--against-slowest", action="store_true", help="the config check vs the slowest server alone")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of --against-slowest")
    parser.add_argument("--baseline-src", metavar="DIR", help="with --against-slowest: also time this source tree")
    args = parser.parse_args()
    extra = [] if args.concurrency is None else ["--concurrency", str(args.concurrency)]
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        listed = servers(args.servers, work)
        config = work / "servers.json"
        config.write_text(json.dumps({"mcpServers": listed}), "utf-8")
        demos = sum(1 for name in listed if name.startswith("demo-"))
        print(f"{len(listed)} stdio servers: {len(listed) - demos} reference servers, {demos} demo copies")
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPU(s), load average {os.getloadavg()[0]:.1f}")
        if args.against_slowest:
            against_slowest(listed, work, args.repeat, args.baseline_src)
            return

        started = time.perf_counter()
        check(config, work / "whole.json", extra).wait()
        one = time.perf_counter() - started
        print(f"1 shard:              {one:7.1f} s")

        started = time.perf_counter()
        jobs = [check(config, work / f"shard-{i}.json", [*extra, "--shard", f"{i}/2"]) for i in (1, 2)]
        for job in jobs:
            job.wait()
        sharded = time.perf_counter() - started
        merge = [sys.executable, "-m", "hostcompat", "merge", str(work / "shard-1.json"), str(work / "shard-2.json")]
        merge_started = time.perf_counter()
        subprocess.run([*merge, "-o", str(work / "merged.json")], cwd=REPO, check=True, capture_output=True)
        merged = time.perf_counter() - merge_started
        speedup = one / (sharded + merged)
        print(f"2 shards side by side:{sharded:7.1f} s  (+ merge {merged:.2f} s; speed-up {speedup:.2f}x)")
        same = summary(work / "merged.json") == summary(work / "whole.json")
        failed = sum(1 for _, error, _ in summary(work / "whole.json") if error)
        print(f"merged == unsharded: {same}; servers not checked: {failed}")


def json_main(argv: list[str]) -> None:
    """`--json FILE [--servers 10] [--repeat N]`: only the figures `bench/summary.py` reads (issue 18), written to
    FILE: `check --config` of the servers and the slowest of them checked alone, interleaved round by round.
    """
    from _figures import Figures, measured, write_figures  # bench/, the script's folder, is on the path

    parser = argparse.ArgumentParser(description="the --config figures of issue 18, as JSON")
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--servers", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temp:
        listed = servers(args.servers, Path(temp))
        times = against_slowest(listed, Path(temp), max(1, args.repeat), None)
    slowest = times.slowest()
    demos = sum(1 for name in listed if name.startswith("demo-"))
    copies = "1 demo copy" if demos == 1 else f"{demos} demo copies"
    note = f"{len(listed)} stdio servers ({copies}); slowest alone: {slowest}"
    figures = Figures("bench_batch")
    figures.measured["config"] = measured("s", times.together, note)
    figures.measured["slowest alone"] = measured("s", times.alone[slowest], f"slowest alone: {slowest}")
    raw_slowest = times.raw_slowest()
    figures.measured["raw at once"] = measured("s", times.raw_together, "no-SDK client, every server at once")
    figures.measured["raw slowest alone"] = measured("s", times.raw_alone[raw_slowest], f"no-SDK client: {raw_slowest}")
    write_figures(args.json, figures)


if __name__ == "__main__":
    if "--json" in sys.argv:
        json_main(sys.argv[1:])
    else:
        main()
