"""Benchmark: one-at-a-time round trips through the era gateway, against a direct same-era connection and against
the proxy's plain pass-through.

Run `python bench/bench_era.py [--calls N]` from the repository root. The servers are the era test servers built on
the official SDK (a 2026-07-28-only one, and a handshake-era one); the clients are the SDK's, a handshake-era one
(offering 2025-11-25, named `codex-mcp-client`) and a 2026-07-28 one. Each mode makes N `tools/call` round trips in
a row after its session is up, and prints p50 and p99 latency in milliseconds:

- direct, legacy client -> legacy server, and modern client -> modern server (no proxy);
- pass-through: legacy client -> `hostcompat proxy --era-front legacy --era-back legacy` (the byte relay) and
  `hostcompat proxy` with detection (the byte relay after the handshake is answered);
- gateway: legacy client -> proxy -> modern server (envelope, translated results), and modern client -> proxy ->
  legacy server (envelope stripped, results completed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import Implementation

REPO = Path(__file__).resolve().parents[1]
ERA = REPO / "tests" / "clients" / "proxy" / "era"
MODERN_SERVER = [sys.executable, str(ERA / "modern_server.py")]
LEGACY_SERVER = [sys.executable, str(ERA / "legacy_server.py")]
PROXY = [sys.executable, "-m", "hostcompat.cli.proxy"]
CODEX = Implementation(name="codex-mcp-client", version="0.150.0")


async def measure(command: Sequence[str], mode: str, calls: int) -> list[float]:
    """Milliseconds per `tools/call echo` round trip, `calls` in a row, on a session of the SDK client in `mode`."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), str(REPO), env.get("PYTHONPATH", "")])
    params = StdioServerParameters(command=command[0], args=list(command[1:]), env=env)
    times: list[float] = []
    async with Client(params, mode=mode, client_info=CODEX) as client:
        await client.call_tool("echo", {"text": "warm"})
        for index in range(calls):
            start = time.perf_counter()
            await client.call_tool("echo", {"text": f"call {index}"})
            times.append((time.perf_counter() - start) * 1000)
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def main(calls: int) -> None:
    modes = [
        ("direct, legacy client -> legacy server", LEGACY_SERVER, "legacy"),
        ("direct, modern client -> modern server", MODERN_SERVER, "2026-07-28"),
        (
            "pass-through (eras given, byte relay)",
            [*PROXY, "--era-front", "legacy", "--era-back", "legacy", "--", *LEGACY_SERVER],
            "legacy",
        ),
        ("pass-through (eras detected)", [*PROXY, "--", *LEGACY_SERVER], "legacy"),
        ("gateway, legacy client -> modern server", [*PROXY, "--", *MODERN_SERVER], "legacy"),
        ("gateway, modern client -> legacy server", [*PROXY, "--", *LEGACY_SERVER], "2026-07-28"),
    ]
    print(f"{calls} sequential tools/call round trips per mode (ms)")
    print(f"{'mode':<44} {'p50':>7} {'p99':>7}")
    for name, command, mode in modes:
        times = await measure(command, mode, calls)
        print(f"{name:<44} {statistics.median(times):7.2f} {percentile(times, 0.99):7.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    anyio.run(main, parser.parse_args().calls)
