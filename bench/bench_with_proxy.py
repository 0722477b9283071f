"""What the verdict with hostcompat in front costs a check: one snapshot checked with and without the client rules.

The snapshot has many tools with dotted names (renamed for Codex, Cursor, Claude Code…) and a captured result with a
fractional priority and a resource link (rewritten for Codex), so several hosts are judged again. Prints the median
time of `check_snapshot` for every catalog host, without and with the bundled client rules, and how many hosts got a
verdict with the proxy in front.

    python bench/bench_with_proxy.py [--tools N] [--runs N]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time

from hostcompat.clients.rules import load_bundled_rules
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.pipeline import check_snapshot
from hostcompat.probe.calls import CallRecord
from testkit.snapshots import make_snapshot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=150)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    tools = [{"name": f"notes.read_{index}", "inputSchema": {"type": "object"}} for index in range(args.tools)]
    result = {
        "content": [
            {"type": "text", "text": "Issue #42", "annotations": {"priority": 0.6}},
            {"type": "resource_link", "uri": "file:///notes.md", "name": "notes"},
        ]
    }
    call = CallRecord(tool="notes.read_0", arguments={}, reason="auto", outcome="ok", result=result)
    snapshot = dataclasses.replace(make_snapshot(tools, {}), calls=(call,))
    catalog, rules = load_catalog(), load_bundled_rules()
    for label, client_rules in (("without client rules", ()), ("with client rules", rules)):
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            entry = check_snapshot(snapshot, catalog, client_rules=client_rules)
            times.append(time.perf_counter() - start)
        proxied = sum(1 for host in entry["hosts"] if "withProxy" in host)
        print(
            f"{label:>22}: median {statistics.median(times) * 1000:7.1f} ms over {args.runs} runs, "
            f"{len(entry['hosts'])} hosts, {proxied} with a verdict with the proxy in front"
        )


if __name__ == "__main__":
    main()
