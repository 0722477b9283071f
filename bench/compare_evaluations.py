"""Fingerprint what evaluate_all_hosts gives, to check that a change to the engine leaves every verdict byte for byte.

Evaluates every captured corpus snapshot (`interop/corpus/*.json`, widgets scanned as `hostcompat check` does) on
every catalog host in several settings (common path, a check date, pinned host versions, host contexts, a subset of
hosts in reverse order), each again with synthetic captured results and an old and a new protocol version, and the
servers of `bench_evaluate.py` (10 and 1,000 tools, the pdf example, a typical, a plain and a malformed one, and
each host alone through evaluate_host_compat). Prints how many evaluations it made and the sha256 of their
`to_dict()` as JSON: run it before and after a change; the same hash means the same output. `--out FILE` writes
the JSON too, to diff. Run: `python bench/compare_evaluations.py [--out FILE]`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from hostcompat.engine.catalog.host_context import HostContext
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts, evaluate_host_compat
from hostcompat.pipeline import CheckSettings, bound_values, derive, judge, scan_widgets
from hostcompat.widget_analysis import WidgetBudget

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # testkit, and bench_evaluate beside this file
sys.path.insert(0, str(ROOT / "bench"))

from bench_evaluate import make_tool, make_tools_options, pdf_case  # noqa: E402

from testkit.snapshots import make_snapshot  # noqa: E402

VERSIONS = ("0.1", "1.0.0", "99.0", "2.0.21", "0.0.1", "10.5", "3.1", "1.2.3", "50", "0.9", "7.0", "2025.1", "1.104.0")


def settings_variants(host_ids: list[str]) -> dict[str, dict[str, Any]]:
    """Named keyword arguments of evaluate_all_hosts (and CheckSettings) that take different paths in the engine."""
    versions = dict(zip(host_ids[::3], VERSIONS, strict=False))
    return {
        "default": {},
        "asof": {"as_of": "2026-12-05"},
        "versions": {"host_versions": versions, "as_of": "2026-12-05"},
        "ctx-win": {"host_contexts": {None: HostContext(os="windows")}},
        "ctx-mixed": {
            "host_contexts": {
                None: HostContext(os="macos", registration="plugin"),
                host_ids[0]: HostContext(os="linux"),
            }
        },
        "subset": {"host_ids": tuple(reversed(host_ids[::2]))},
    }


def synthetic_results(tools: list[Any]) -> dict[str, Any]:
    """A captured result per tool: resource links, images and structured content on alternate tools."""
    results: dict[str, Any] = {}
    for index, tool in enumerate(tools):
        blocks: list[dict[str, Any]] = [{"type": "text", "text": "{}"}]
        if index % 2 == 0:
            blocks.append({"type": "resource_link", "uri": "file:///x", "name": "x"})
        if index % 3 == 0:
            blocks.append({"type": "image", "data": "AAAA", "mimeType": "image/png"})
        result: dict[str, Any] = {"content": blocks}
        if index % 2 == 1:
            result["structuredContent"] = {"a": index}
        results[tool["name"]] = result
    return results


def evaluations() -> dict[str, Any]:
    """Name → `to_dict()` of every evaluation the fingerprint covers, in a fixed order."""
    catalog = load_catalog()
    host_ids = [host.id for host in catalog.hosts]
    variants = settings_variants(host_ids)
    out: dict[str, Any] = {}
    for path in sorted((ROOT / "interop" / "corpus").glob("*.json")):
        if path.name == "index.json":
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        pages = {
            uri: entry["contents"][0] for uri, entry in data.get("uiResources", {}).items() if entry.get("contents")
        }
        snapshot = make_snapshot(data.get("tools", []), pages, data.get("resources", ()))
        scanned = scan_widgets(derive(bound_values(snapshot)), WidgetBudget())
        for name, options in variants.items():
            check = CheckSettings(catalog=catalog, **options)
            out[f"{path.stem}/{name}"] = judge(scanned, check).evaluation.to_dict()
        tools = list(data.get("tools", []))
        results = synthetic_results(tools)
        for name, options in {"results": {}, "results-asof": variants["versions"]}.items():
            for protocol in ("2025-11-25", "2024-11-05"):
                facts = {"protocolVersion": protocol, "serverInfo": {"name": "a-rather-long-server-name"}}
                evaluation = evaluate_all_hosts(
                    tools,
                    catalog,
                    widget_usage=scanned.widgets.usage,
                    call_results=results,
                    connection_facts=facts,
                    **options,
                )
                out[f"{path.stem}/{name}/{protocol}"] = evaluation.to_dict()
    typical = [make_tool(index + 1) for index in range(10)]
    malformed: list[Any] = [
        *typical,
        {"name": "bad1", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": 5}}},
        {"name": "bad2", "inputSchema": {"type": "object"}, "_meta": {"ui": "x", "openai/outputTemplate": 3}},
        {"name": "bad3"},
        7,
    ]
    cases: dict[str, tuple[list[Any], dict[str, Any]]] = {
        "mixed10": make_tools_options(10),
        "mixed1000": make_tools_options(1000),
        "bad-meta": (malformed, {"widget_usage": {"serverTools": ["tool_5"], "openLinks": ["tool_5", "tool_7"]}}),
        "typical": (typical, {"widget_usage": {"serverTools": ["tool_5"]}}),
        "plain": ([{"name": f"tool_{i}", "inputSchema": {"type": "object", "properties": {}}} for i in range(10)], {}),
    }
    pdf = pdf_case()
    if pdf is not None:
        cases = {"pdf": pdf, **cases}
    for name, (tools, options) in cases.items():
        for variant, settings in variants.items():
            out[f"bench-{name}/{variant}"] = evaluate_all_hosts(tools, catalog, **options, **settings).to_dict()
        evaluation = evaluate_all_hosts(tools, catalog, **options)
        out[f"bench-{name}/single"] = [
            evaluate_host_compat(evaluation.requirements, host, surface=evaluation.surface).to_dict()
            for host in catalog.hosts
        ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="also write the evaluations as JSON to this file")
    args = parser.parse_args()
    found = evaluations()
    text = json.dumps(found, ensure_ascii=False, indent=0)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    print(f"{len(found)} evaluations, sha256 {hashlib.sha256(text.encode()).hexdigest()}")


if __name__ == "__main__":
    main()
