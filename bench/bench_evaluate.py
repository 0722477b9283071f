"""Benchmark evaluate_all_hosts over the bundled catalog for 10, 1,000 and 10,000 tools.

Prints the time per call and per host for each size, and how much the time grows from one size to the next
(x10 for ten times the tools is linear). The target is at most 50 microseconds per host for a 10-tool server. Run:
`python bench/bench_evaluate.py`.
"""

from __future__ import annotations

import time
from typing import Any

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts

SIZES = (10, 1_000, 10_000)
TARGET_US_PER_HOST_AT_10 = 50.0
MIN_SECONDS = 1.0


def make_tool(index: int) -> dict[str, Any]:
    """A realistic mix: every 5th tool an MCP App (every 3rd of those app-only), every 7th an OpenAI widget,
    some schemas with $defs/$ref, some dotted or long names, some output schemas.
    """
    name = f"tool_{index}" if index % 11 else f"group.tool-with-a-rather-long-descriptive-name.{index}"
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
    }
    if index % 4 == 0:
        schema["properties"]["filter"] = {"$ref": "#/$defs/Filter"}
        schema["$defs"] = {"Filter": {"type": "object", "properties": {"field": {"type": "string"}}}}
    tool: dict[str, Any] = {"name": name, "description": "Does one thing.", "inputSchema": schema}
    if index % 5 == 0:
        ui: dict[str, Any] = {"resourceUri": f"ui://bench/widget-{index % 20}.html"}
        if index % 15 == 0:
            ui["visibility"] = ["app"]
        tool["_meta"] = {"ui": ui}
    elif index % 7 == 0:
        tool["_meta"] = {"openai/outputTemplate": f"ui://bench/openai-{index % 20}.html"}
    if index % 6 == 0:
        tool["outputSchema"] = {"type": "object"}
    return tool


def make_usage(tools: list[dict[str, Any]]) -> dict[str, Any]:
    widgets = [tool["name"] for tool in tools if "_meta" in tool]
    return {
        "serverTools": widgets,
        "message": widgets[::2],
        "downloadFile": widgets[::3],
        "logging": widgets[::4],
        "guardedCalls": {"downloadFile": widgets[::6]},
    }


def seconds_per_call(tools: list[dict[str, Any]], options: dict[str, Any], catalog: Any) -> float:
    """Best of five batches, each repeated until it takes MIN_SECONDS / 5."""
    evaluate_all_hosts(tools, catalog, **options)
    best = float("inf")
    for _ in range(5):
        runs, start = 0, time.perf_counter()
        while True:
            evaluate_all_hosts(tools, catalog, **options)
            runs += 1
            elapsed = time.perf_counter() - start
            if elapsed >= MIN_SECONDS / 5:
                break
        best = min(best, elapsed / runs)
    return best


def main() -> None:
    catalog = load_catalog()
    hosts = len(catalog.hosts)
    print(f"evaluate_all_hosts over {hosts} catalog hosts (derivation, surface and every host included)")
    print(f"{'tools':>7} {'ms/call':>10} {'us/host':>10} {'us/host/tool':>13} {'time x vs previous size':>24}")
    previous: tuple[int, float] | None = None
    per_host_at_10 = 0.0
    for size in SIZES:
        tools, options = make_tools_options(size)
        per_call = seconds_per_call(tools, options, catalog)
        per_host = per_call / hosts * 1e6
        per_host_at_10 = per_host if size == SIZES[0] else per_host_at_10
        growth = "" if previous is None else f"x{per_call / previous[1]:.1f} for x{size // previous[0]} tools"
        print(f"{size:>7} {per_call * 1e3:>10.2f} {per_host:>10.1f} {per_host / size:>13.3f} {growth:>24}")
        previous = (size, per_call)
    plain = [{"name": f"tool_{index}", "inputSchema": {"type": "object", "properties": {}}} for index in range(10)]
    typical = [make_tool(index + 1) for index in range(10)]  # one MCP App widget, one OpenAI widget, two with $defs
    cases: tuple[tuple[str, tuple[list[dict[str, Any]], dict[str, Any]]], ...] = (
        ("mixed 10-tool server", make_tools_options(SIZES[0])),
        ("typical 10-tool server", (typical, {"widget_usage": {"serverTools": ["tool_5"]}})),
        ("plain 10-tool server", (plain, {})),
    )
    for label, (tools, options) in cases:
        evaluation = evaluate_all_hosts(tools, catalog, **options)
        findings = sum(len(report.findings) for report in evaluation.reports) / hosts
        value = per_host_at_10 if label.startswith("mixed") else seconds_per_call(tools, options, catalog) / hosts * 1e6
        verdict = "meets" if value <= TARGET_US_PER_HOST_AT_10 else "misses"
        print(
            f"{label}: {value:.1f} us per host, {findings:.1f} findings per host "
            f"({verdict} the {TARGET_US_PER_HOST_AT_10:.0f} us target)"
        )


def make_tools_options(size: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The mixed server of `size` tools and the evaluation options used for it."""
    tools = [make_tool(index) for index in range(size)]
    options = {
        "widget_usage": make_usage(tools),
        "connection_facts": {"protocolVersion": "2025-11-25", "serverInfo": {"name": "bench-server"}},
        "call_results": {tools[0]["name"]: {"content": [{"type": "resource_link", "uri": "file:///x"}]}},
    }
    return tools, options


if __name__ == "__main__":
    main()
