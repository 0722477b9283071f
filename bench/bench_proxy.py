"""Benchmark: 1,000 concurrent tools/call through the proxy versus straight to the server.

Run `python bench/bench_proxy.py` from the repository root. The server is `@modelcontextprotocol/server-everything`
(from `interop/node_modules`): over stdio directly and through `hostcompat proxy -- …` (stdio front), and over
streamable HTTP directly and through the proxy's HTTP front (stdio back). Each round sends every call at once, then
waits for all answers (checking none is lost or doubled). Prints throughput, p50/p99 latency and the ratios.

The one-at-a-time round trips (the modes take turns, call by call) also run `bench/bare_relay.py`, a relay that only
copies bytes (the cost of the extra process alone), the same relay in C (`bench/bare_relay.c`, built with the
system's C compiler when there is one: the floor of a native proxy), and the stdio proxy on the standard asyncio loop
when uvloop is the default. They run in rounds (`--rounds`, 300 calls per mode each): the proxy's p50 over the
direct p50 is printed as the median and the min-max across rounds, beside the 1.3x target. On a shared or busy
machine the times move from run to run; the ratios, taken in turns, move less.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCMessage, jsonrpc_message_adapter

from hostcompat.clients.proxy import ProxyConfig, build_rules, http_proxy, stdio_upstream
from hostcompat.clients.proxy.event_loop import uvloop_available

REPO = Path(__file__).resolve().parents[1]
EVERYTHING = REPO / "interop" / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
CLIENT = {"name": "codex-mcp-client", "version": "0.150.0"}  # a client with rules, so the rewrites are measured too
ROUND_TRIP_CALLS = 300
"""Calls per mode in each round of the one-at-a-time round trips."""
TARGET_RATIO = 1.3
"""The proxied round trip's p50 over the direct one that the stdio proxy aims for (issue 18)."""

Streams = tuple[Any, Any]
NATIVE_RELAY = "bare relay in C (a native floor)"


@dataclass(frozen=True)
class Round:
    """One burst of calls: wall time and each call's latency (seconds)."""

    wall: float
    latencies: list[float]


def native_relay(folder: Path) -> Path | None:
    """`bench/bare_relay.c` compiled into `folder`; None (and why, on stderr) without a C compiler that builds it."""
    compiler = next((found for name in ("cc", "gcc", "clang") if (found := shutil.which(name))), None)
    if compiler is None:
        print("no C compiler: the native relay is not timed", file=sys.stderr)
        return None
    binary = folder / "bare_relay"
    source = Path(__file__).with_name("bare_relay.c")
    built = subprocess.run([compiler, "-O2", "-o", str(binary), str(source)], capture_output=True, text=True)
    if built.returncode != 0:
        print(f"the native relay did not build: {built.stderr.strip()[-500:]}", file=sys.stderr)
        return None
    return binary


def _message(body: dict[str, Any]) -> SessionMessage:
    message: JSONRPCMessage = jsonrpc_message_adapter.validate_python(body)
    return SessionMessage(message)


async def _handshake(read: Any, write: Any) -> None:
    params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": CLIENT}
    await write.send(_message({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": params}))
    while getattr((await read.receive()).message, "id", None) != "init":
        pass
    await write.send(_message({"jsonrpc": "2.0", "method": "notifications/initialized"}))


async def burst(read: Any, write: Any, calls: int, tag: int) -> Round:
    """Send `calls` echo calls at once and wait for every answer; checks none is lost or doubled."""
    sent: dict[str, float] = {}
    latencies: list[float] = []
    start = time.perf_counter()

    async def send_all() -> None:
        for index in range(calls):
            request_id = f"r{tag}-{index}"
            params = {"name": "echo", "arguments": {"message": f"call {index}"}}
            sent[request_id] = time.perf_counter()
            await write.send(_message({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}))

    async with anyio.create_task_group() as group:
        group.start_soon(send_all)
        seen: set[str] = set()
        while len(seen) < calls:
            item = await read.receive()
            request_id = getattr(item.message, "id", None)
            if isinstance(request_id, str) and request_id in sent:
                if request_id in seen:
                    raise AssertionError(f"{request_id} answered twice")
                seen.add(request_id)
                latencies.append(time.perf_counter() - sent[request_id])
    return Round(time.perf_counter() - start, latencies)


@asynccontextmanager
async def _stdio(command: list[str], env: dict[str, str] | None = None) -> AsyncIterator[Streams]:
    params = StdioServerParameters(command=command[0], args=command[1:], env={**os.environ, **(env or {})})
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as streams:
            yield streams


@asynccontextmanager
async def _http_direct(command: list[str]) -> AsyncIterator[Streams]:
    """server-everything serving streamable HTTP itself (on a free loopback port)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PORT": str(port)}
    async with await anyio.open_process(command, env=env, stdout=subprocess.DEVNULL) as process:
        assert process.stderr is not None
        async for chunk in process.stderr:  # it says when it listens
            if b"listening" in chunk:
                break
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(_drain, process.stderr)
                async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams:
                    yield streams
                group.cancel_scope.cancel()
        finally:
            process.terminate()


async def _drain(stream: Any) -> None:
    async for _ in stream:
        pass


@asynccontextmanager
async def _http_front(command: list[str]) -> AsyncIterator[Streams]:
    config = ProxyConfig(stdio_upstream(command), rules=build_rules())
    async with http_proxy(config) as proxy, streamable_http_client(proxy.url) as streams:
        yield streams


Connect = Callable[[], AbstractAsyncContextManager[Streams]]


async def measure(connect: Connect, calls: int, rounds: int) -> list[Round]:
    """`rounds` bursts of `calls` calls on one connection, after a small warm-up burst."""
    async with connect() as (read, write):
        await _handshake(read, write)
        await burst(read, write, 50, -1)  # warm up (JIT, connection pools)
        return [await burst(read, write, calls, tag) for tag in range(rounds)]


async def round_trips(connects: dict[str, Connect], calls: int, rounds: int) -> list[dict[str, list[float]]]:
    """Per round, the latencies of `calls` calls made one at a time on each connection (the round trip itself, no
    queueing).

    Every connection stays open and the calls go round them in turn, one call each, so a change in the machine's
    load hits every mode alike; the turn starts one mode later at each call, so no mode always follows the same one.
    """
    async with AsyncExitStack() as stack:
        streams = {label: await stack.enter_async_context(connect()) for label, connect in connects.items()}
        for read, write in streams.values():
            await _handshake(read, write)
            await burst(read, write, 20, -1)  # warm up
        measured: list[dict[str, list[float]]] = []
        order = list(streams)
        for round_index in range(rounds):
            latencies: dict[str, list[float]] = {label: [] for label in streams}
            for call in range(calls):
                for label in order[call % len(order) :] + order[: call % len(order)]:
                    read, write = streams[label]
                    tag = round_index * calls + call
                    latencies[label].append((await burst(read, write, 1, tag)).latencies[0])
            measured.append(latencies)
        return measured


def ratio_spread(rounds: list[dict[str, list[float]]], label: str, base: str) -> tuple[float, float, float]:
    """The p50 of `label` over the p50 of `base`, per round: median, min and max across rounds."""
    ratios = [statistics.median(one[label]) / statistics.median(one[base]) for one in rounds]
    return statistics.median(ratios), min(ratios), max(ratios)


async def first_answers(connects: dict[str, Connect], times: int) -> dict[str, list[float]]:
    """Seconds from starting each mode to the server's answer to `initialize`, `times` each, taking turns."""
    seconds: dict[str, list[float]] = {label: [] for label in connects}
    for _ in range(times):
        for label, connect in connects.items():
            start = time.perf_counter()
            async with connect() as (read, write):
                await _handshake(read, write)
                seconds[label].append(time.perf_counter() - start)
    return seconds


def summary(rounds: list[Round]) -> dict[str, float]:
    latencies = sorted(latency for one in rounds for latency in one.latencies)
    wall = statistics.median(one.wall for one in rounds)
    return {
        "calls_per_s": len(rounds[0].latencies) / wall,
        "wall_s": wall,
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
    }


async def main(calls: int, rounds: int, stdio_only: bool, baseline: Path | None) -> None:
    if not EVERYTHING.is_file():
        sys.exit(f"server-everything is not installed: run npm ci in {REPO / 'interop'}")
    server = ["node", str(EVERYTHING), "stdio"]
    proxy = [sys.executable, "-m", "hostcompat.cli.proxy"]
    loop = "uvloop" if uvloop_available() else "asyncio"
    front = f"proxy, stdio front ({loop} loop)"
    modes: list[tuple[str, Connect]] = [
        ("direct (stdio)", lambda: _stdio(server)),
        (front, lambda: _stdio([*proxy, "--", *server])),
        ("direct (HTTP)", lambda: _http_direct(["node", str(EVERYTHING), "streamableHttp"])),
        ("proxy, HTTP front", lambda: _http_front(server)),
    ]
    if stdio_only:
        modes = modes[:2]
    bare = [sys.executable, str(Path(__file__).with_name("bare_relay.py")), "--", *server]
    walks: list[tuple[str, Connect]] = [*modes[:2], ("bare relay (the floor)", lambda: _stdio(bare))]
    folder = Path(tempfile.mkdtemp(prefix="bench-proxy-"))
    native = native_relay(folder)
    if native is not None:
        walks.append((NATIVE_RELAY, lambda: _stdio([str(native), "--", *server])))
    if loop == "uvloop":  # the standard loop beside it, to show what uvloop is worth
        walks.append(
            ("proxy, stdio front (asyncio loop)", lambda: _stdio([*proxy, "--loop", "asyncio", "--", *server]))
        )
    if baseline is not None:  # another version of the proxy, taking turns with this one
        sources = {"PYTHONPATH": str(baseline / "src")}
        walks.append((f"proxy, {baseline.name} sources ({loop})", lambda: _stdio([*proxy, "--", *server], sources)))
    try:
        per_round = await round_trips(dict(walks), ROUND_TRIP_CALLS, rounds)
        started = {label: statistics.median(values) for label, values in (await first_answers(dict(walks), 5)).items()}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    results = {}
    for label, connect in modes:
        results[label] = summary(await measure(connect, calls, rounds))
    print(
        f"{calls} concurrent tools/call (echo) to server-everything, median of {rounds} rounds, client {CLIENT['name']}"
    )
    print(f"{'mode':<34}{'calls/s':>10}{'wall s':>9}{'p50 ms':>9}{'p99 ms':>9}")
    for label, row in results.items():
        print(f"{label:<34}{row['calls_per_s']:>10.0f}{row['wall_s']:>9.3f}{row['p50_ms']:>9.1f}{row['p99_ms']:>9.1f}")
    direct = "direct (stdio)"
    print(
        f"round trip, one call at a time, loopback stdio ({rounds} rounds of {ROUND_TRIP_CALLS} calls per mode, "
        "taking turns call by call): p50, and its ratio to direct as median [min-max] across rounds"
    )
    for label in per_round[0]:
        p50 = statistics.median(statistics.median(one[label]) for one in per_round)
        shown = f"  {label:<34}{p50 * 1000:>7.3f} ms"
        if label != direct:
            median, low, high = ratio_spread(per_round, label, direct)
            shown += f"  {median:.2f}x direct [{low:.2f}-{high:.2f}]"
            if label == front:
                shown += f"  target <= {TARGET_RATIO}x: {'met' if median <= TARGET_RATIO else 'not met'}"
        print(shown)
    print("  (a shared or busy machine moves these figures: compare the ratios, taken in turns, not the times)")
    print("start-up, spawn to the answer to initialize (median of 5, taking turns):")
    for label, seconds in started.items():
        print(f"  {label:<34}{seconds * 1000:>7.0f} ms")
    for label, base_label in ((front, "direct (stdio)"), ("proxy, HTTP front", "direct (HTTP)")):
        if label not in results:
            continue
        row, base = results[label], results[base_label]
        print(
            f"{label}: throughput {row['calls_per_s'] / base['calls_per_s']:.2f}x of {base_label}, "
            f"p50 {row['p50_ms'] / base['p50_ms']:.2f}x, p99 {row['p99_ms'] / base['p99_ms']:.2f}x"
        )


async def _json_figures(calls: int) -> dict[str, list[float]]:
    """Each stdio mode's one-at-a-time round trips (milliseconds): direct, the proxy's stdio front, the bare relay,
    and the bare relay in C when it builds.
    """
    server = ["node", str(EVERYTHING), "stdio"]
    proxy = [sys.executable, "-m", "hostcompat.cli.proxy", "--", *server]
    bare = [sys.executable, str(Path(__file__).with_name("bare_relay.py")), "--", *server]
    modes: dict[str, Connect] = {
        "direct": lambda: _stdio(server),
        "proxy": lambda: _stdio(proxy),
        "bare relay": lambda: _stdio(bare),
    }
    with tempfile.TemporaryDirectory(prefix="bench-proxy-") as folder:
        native = native_relay(Path(folder))
        if native is not None:
            modes["native relay"] = lambda: _stdio([str(native), "--", *server])
        (latencies,) = await round_trips(modes, calls, 1)
    return {label: [seconds * 1000 for seconds in values] for label, values in latencies.items()}


def json_main(argv: list[str]) -> None:
    """`--json FILE [--calls N]`: only the figures `bench/summary.py` reads (issue 18), written to FILE: round trips
    one call at a time over loopback stdio, direct, through the proxy and through the bare relay, taking turns.
    """
    from _figures import Figures, measured, write_figures  # bench/, the script's folder, is on the path

    parser = argparse.ArgumentParser(description="the proxy figures of issue 18, as JSON")
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args(argv)
    if not EVERYTHING.is_file():
        sys.exit(f"server-everything is not installed (npm ci in {REPO.name}/interop)")
    loop = "uvloop" if uvloop_available() else "asyncio"
    figures = Figures("bench_proxy")
    for label, values in anyio.run(_json_figures, max(1, args.calls)).items():
        note = f"{len(values)} calls to server-everything, taking turns" + (
            f", {loop} loop" if label == "proxy" else ", bench/bare_relay.c" if label == "native relay" else ""
        )
        figures.measured[label] = measured("ms", values, note)
    write_figures(args.json, figures)


if __name__ == "__main__" and "--json" in sys.argv:
    json_main(sys.argv[1:])
elif __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--stdio-only", action="store_true", help="skip the HTTP modes")
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="CHECKOUT",
        help="also time the stdio proxy from another checkout of this repository (its src/), in the same turns",
    )
    options = parser.parse_args()
    anyio.run(main, options.calls, options.rounds, options.stdio_only, options.baseline)
