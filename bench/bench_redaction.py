"""What keeping secrets out of a snapshot costs: `Snapshot.redacted` on 1,000, 10,000 and 20,000 tools (the probe's
item cap) with ten known secret values, one of them echoed in every hundredth description, and `Redactor.tail` on a
64 KiB stderr tail, ordinary and hostile.

Prints the best time of five runs per case, the input size, and the growth from one size to the next (x10 for ten
times the tools is linear). Run: `python bench/bench_redaction.py`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from hostcompat.probe.limits import DEFAULT_LIMITS
from hostcompat.probe.snapshot import Snapshot, coverage_of
from hostcompat.redaction import Redactor

SIZES = (1_000, 10_000, 20_000)
SECRETS = [f"sk-live-{index:02d}-9f8e7d6c5b4a" for index in range(10)]
TAIL = 64 * 1024


def make_tool(index: int) -> dict[str, Any]:
    description = f"Looks up things, using key {SECRETS[0]}." if index % 100 == 0 else "Looks up things."
    return {
        "name": f"tool_{index}",
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "what to find"}, "limit": {"type": "integer"}},
        },
        "_meta": {"ui": {"resourceUri": f"ui://bench/widget-{index % 20}.html"}},
    }


def snapshot_of(count: int) -> Snapshot:
    return Snapshot(
        target={"kind": "stdio", "command": "node", "args": ["server.js"], "env": {}, "cwd": None},
        captured_at="2026-01-01T00:00:00+00:00",
        client={},
        connection=None,
        initialize={"serverInfo": {"name": "bench", "version": "1"}, "capabilities": {"tools": {}}},
        tools=tuple(make_tool(index) for index in range(count)),
        resources=(),
        resource_templates=(),
        prompts=(),
        ui_resources={},
        limits=DEFAULT_LIMITS,
        coverage=coverage_of(tools="complete"),
        process={"exitCode": 0, "stderrTail": "ok\n" * 1000},
    )


def best_of_five(run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    redactor = Redactor.of(SECRETS)
    print(f"{'case':<40} {'input':>10} {'best':>10} {'growth':>8}")
    previous: float | None = None
    for count in SIZES:
        snapshot = snapshot_of(count)
        size = len(json.dumps([dict(tool) for tool in snapshot.tools]))
        redacted = snapshot.redacted(redactor)
        assert SECRETS[0] not in json.dumps([dict(tool) for tool in redacted.tools])
        seconds = best_of_five(partial(snapshot.redacted, redactor))
        growth = f"x{seconds / previous:.1f}" if previous else ""
        print(f"{f'Snapshot.redacted, {count:,} tools':<40} {size / 1e6:>8.1f}MB {seconds * 1e3:>8.1f}ms {growth:>8}")
        previous = seconds
    no_secret = Redactor()
    snapshot = snapshot_of(SIZES[-1])
    seconds = best_of_five(lambda: snapshot.redacted(no_secret))
    print(f"{f'... no known value, {SIZES[-1]:,} tools':<40} {'':>10} {seconds * 1e3:>8.1f}ms")
    for name, text in (
        ("tail, ordinary stderr", ("INFO starting worker 17 at https://h/api?page=2\n" * 2000)[-TAIL:]),
        ("tail, hostile: 'a.' repeated", ("a." * TAIL)[:TAIL]),
        ("tail, hostile: '?a' repeated", ("?a" * TAIL)[:TAIL]),
    ):
        seconds = best_of_five(partial(redactor.tail, text))
        print(f"{name:<40} {len(text) / 1024:>8.0f}KB {seconds * 1e3:>8.1f}ms")


if __name__ == "__main__":
    main()
