"""Benchmark the widget scanner: accuracy on the hand-labelled real widgets, and speed on large inputs.

Accuracy is precision/recall over (widget, need) pairs against tests/engine/widget_labels.json,
side by side with MCPJam's naive approach (a need is used when any of its method-name strings
appears anywhere). Speed is wall time on the biggest real bundle and on synthetic 5 MB, 16 MB and
over-budget inputs. Run: `python bench/bench_scan.py` (after `npm ci` in interop/ for the corpus).
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

from hostcompat.engine.scan import DEFAULT_MAX_SCAN_CHARS, scan_widget_source

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "tests" / "engine" / "widget_labels.json"
NODE_MODULES = ROOT / "interop" / "node_modules"

NAIVE_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "serverTools": (re.compile(r"tools/call"), re.compile(r"\bcallTool\b"), re.compile(r"\bcallServerTool\b")),
    "serverResources": (re.compile(r"resources/read"), re.compile(r"\breadResource\b")),
    "message": (re.compile(r"ui/message"), re.compile(r"\bsendFollowUpMessage\b", re.IGNORECASE)),
    "updateModelContext": (re.compile(r"ui/update-model-context"), re.compile(r"\bsetWidgetState\b")),
    "openLinks": (re.compile(r"ui/open-link"), re.compile(r"\bopenExternal\b")),
    "downloadFile": (
        re.compile(r"ui/download-file"),
        re.compile(r"\bgetFileDownloadUrl\b"),
        re.compile(r"\buploadFile\b"),
    ),
    "logging": (re.compile(r"notifications/message"),),
}
"""MCPJam's source scan (its seven source-detectable needs): any match anywhere counts."""

SOURCE_NEEDS = tuple(NAIVE_PATTERNS)


def naive_scan(source: str) -> set[str]:
    return {need for need, patterns in NAIVE_PATTERNS.items() if any(p.search(source) for p in patterns)}


def accurate_scan(source: str) -> set[str]:
    return set(scan_widget_source(source).needs_used())


def precision_recall(pairs: Iterable[tuple[set[str], set[str]]], space: tuple[str, ...] | None) -> tuple[float, float]:
    true_pos = false_pos = false_neg = 0
    for predicted, expected in pairs:
        if space is not None:
            predicted, expected = predicted & set(space), expected & set(space)
        true_pos += len(predicted & expected)
        false_pos += len(predicted - expected)
        false_neg += len(expected - predicted)
    precision = true_pos / (true_pos + false_pos) if true_pos + false_pos else 1.0
    recall = true_pos / (true_pos + false_neg) if true_pos + false_neg else 1.0
    return precision, recall


def timed(function: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


def synthetic_bundle(chars: int) -> str:
    """Minified-looking JavaScript of about `chars` characters, exercising every lexer path."""
    block = (
        'var a{i}="str\\"{i}",b{i}=`t${{c{i}+1}}x`,r{i}=/re[/]x{i}/g;'
        "function f{i}(e,t){{return e/t+r{i}.test(t)?{{k:e}}:[t,'q']}}"
        "/* comment {i} tools/call */const o{i}={{method:g{i},params:{{n:{i}}}}};"
        'h{i}.addEventListener("click",()=>app.callServerTool({{name:"t{i}",arguments:{{}}}}));\n'
    )
    parts: list[str] = ["<!DOCTYPE html><html><body><script type=module>"]
    size = len(parts[0])
    i = 0
    while size < chars:
        piece = block.format(i=i)
        parts.append(piece)
        size += len(piece)
        i += 1
    parts.append("</script></body></html>")
    return "".join(parts)


def corpus() -> list[tuple[str, str, set[str]]]:
    labels = json.loads(LABELS.read_text(encoding="utf-8"))["widgets"]
    found = []
    for widget, label in sorted(labels.items()):
        path = NODE_MODULES / widget
        if path.is_file():
            found.append((widget, path.read_text(encoding="utf-8"), set(label["needs"])))
    return found


def report_accuracy(widgets: list[tuple[str, str, set[str]]]) -> None:
    naive = [(naive_scan(source), expected) for _, source, expected in widgets]
    accurate = [(accurate_scan(source), expected) for _, source, expected in widgets]
    print(f"accuracy on {len(widgets)} labelled real widgets ((widget, need) pairs)")
    print(f"  {'approach':34s} {'needs compared':24s} {'precision':>9s} {'recall':>7s}")
    rows = [
        ("naive (any method-name string)", "MCPJam's 7 source needs", naive, SOURCE_NEEDS),
        ("hostcompat scanner", "MCPJam's 7 source needs", accurate, SOURCE_NEEDS),
        ("hostcompat scanner", "all 17 needs", accurate, None),
    ]
    for name, space_name, pairs, space in rows:
        precision, recall = precision_recall(pairs, space)
        print(f"  {name:34s} {space_name:24s} {precision:9.3f} {recall:7.3f}")
    print("  per widget (naive false positives on source needs | scanner misses / extras):")
    for (widget, _, expected), (naive_found, _), (found, _) in zip(widgets, naive, accurate, strict=True):
        extra_naive = sorted((naive_found - expected) & set(SOURCE_NEEDS))
        missed, extra = sorted(expected - found), sorted(found - expected)
        short = widget.split("/")[1]
        print(f"    {short:30s} naive+{len(extra_naive)} {','.join(extra_naive):60s} | -{missed} +{extra}")


def report_speed(widgets: list[tuple[str, str, set[str]]]) -> None:
    print("scan time (best of 3)")
    if widgets:
        name, biggest, _ = max(widgets, key=lambda w: len(w[1]))
        seconds = timed(lambda: scan_widget_source(biggest))
        mb = len(biggest) / 1e6
        label = name.split("/")[1]
        print(f"  biggest real bundle {label:24s} {mb:6.2f} MB {seconds * 1000:8.0f} ms {mb / seconds:6.1f} MB/s")
        total = sum(len(source) for _, source, _ in widgets) / 1e6
        seconds = timed(lambda: [scan_widget_source(source) for _, source, _ in widgets], repeat=1)
        print(f"  all {len(widgets)} real widgets {'':25s} {total:6.2f} MB {seconds * 1000:8.0f} ms")
    for chars in (5_000_000, 16_000_000, DEFAULT_MAX_SCAN_CHARS + 4_000_000):
        source = synthetic_bundle(chars)
        scan = scan_widget_source(source)
        seconds = timed(partial(scan_widget_source, source), repeat=2)
        mb = len(source) / 1e6
        limits = ",".join(limit.code for limit in scan.limits) or "none"
        print(f"  synthetic {'':33s} {mb:6.2f} MB {seconds * 1000:8.0f} ms {mb / seconds:6.1f} MB/s limits={limits}")


def main() -> int:
    widgets = corpus()
    if widgets:
        report_accuracy(widgets)
    else:
        print("no widget corpus: run `npm ci` in interop/ to measure accuracy", file=sys.stderr)
    report_speed(widgets)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
