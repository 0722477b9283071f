"""Benchmark the widget scanner: per-need accuracy on the labelled corpus, and throughput against memory speed.

Accuracy is precision/recall per need over every labelled widget (the captured npm servers' widgets and the
hand-written pages), side by side with a plain string scan (a need is used when any of its spellings occurs
anywhere) and MCPJam's regex scan. Throughput is MB/s of the scanner over the real widgets and over a 50 MB input
with no matches, each next to one plain `str.find` pass over the same text (the memory-speed floor), with the
ratio. Run: `python bench/bench_scan.py` (after `npm ci` in interop/ and `python scripts/capture_widgets.py`).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # testkit: the corpus helpers shared with the tests

from hostcompat.engine.scan.needs import ALL_NEEDS  # noqa: E402
from hostcompat.engine.scan.widget import scan_widget_content, scan_widget_source  # noqa: E402
from testkit.widget_corpus import (  # noqa: E402  (imports follow the path set-up above)
    MCPJAM_PATTERNS,
    NAIVE_NEEDLES,
    Score,
    Widget,
    corpus_dir,
    corpus_widgets,
    fixture_widgets,
    mcpjam_scan,
    naive_scan,
    needle_scan,
    predictions,
    read_corpus,
    score,
)

NO_MATCH_CHARS = 50_000_000
_ABSENT = "\x00hostcompat-absent-needle\x00"


def timed(function: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


def load_widgets() -> list[Widget]:
    widgets = fixture_widgets()
    try:
        widgets = corpus_widgets(read_corpus()) + widgets
    except FileNotFoundError:
        print(f"no captured corpus in {corpus_dir()}: only the hand-written pages are measured", file=sys.stderr)
    return widgets


def _cell(result: Score | None) -> str:
    return f"{'':>13s}" if result is None else f"{result.precision:6.3f} {result.recall:6.3f}"


def report_accuracy(widgets: Sequence[Widget]) -> None:
    ours = score(predictions(widgets, lambda w: set(scan_widget_content(w.content).needs_used())), ALL_NEEDS)
    plain = score(predictions(widgets, lambda w: naive_scan(w.source)), ALL_NEEDS)
    mcpjam = score(predictions(widgets, lambda w: mcpjam_scan(w.source)), MCPJAM_PATTERNS)
    by_need = {result.need: result for result in mcpjam}
    captured = sum(1 for w in widgets if w.origin == "corpus")
    written = len(widgets) - captured
    print(f"accuracy per need over {len(widgets)} labelled widgets ({captured} captured, {written} hand-written)")
    print(f"  {'need':20s} {'used':>4s}  {'scanner P    R':>13s}  {'plain P     R':>13s}  {'MCPJam P    R':>13s}")
    for mine, naive in zip(ours, plain, strict=True):
        flag = "" if mine.precision >= 0.95 and mine.recall >= 0.95 and mine.f1 >= naive.f1 else "  <-- below target"
        line = f"  {mine.need:20s} {mine.support:4d}  {_cell(mine)}  {_cell(naive)}  {_cell(by_need.get(mine.need))}"
        print(line + flag)
    for name, results in (("scanner", ours), ("plain string scan", plain)):
        total = Score("all", *(sum(getattr(r, f) for r in results) for f in ("true_pos", "false_pos", "false_neg")))
        print(f"  micro-average {name:18s} precision {total.precision:.3f} recall {total.recall:.3f}")
    misses = [
        (w.key, sorted(w.expected - found), sorted(found - w.expected))
        for w in widgets
        for found in [set(scan_widget_content(w.content).needs_used())]
        if found != w.expected
    ]
    for key, missed, extra in misses:
        print(f"  mismatch {key}: missed {missed} extra {extra}")


def no_match_source(chars: int) -> str:
    """Minified-looking JavaScript with strings, templates, regexes, comments and braces but no bridge name."""
    rng = random.Random(20_260_126)
    words = ("alpha", "render", "state", "props", "node", "index", "width", "color", "frame", "layer", "point", "total")
    parts = ["<!doctype html><html><body><script>"]
    size = len(parts[0])
    i = 0
    while size < chars:
        a, b = rng.choice(words), rng.choice(words)
        piece = (
            f'function {a}{i}(e,t){{var {b}=e.{a}+t*{i},s="{a} {b}";if({b}>{i % 97})'
            f"{{return[{b},`${{s}}-{i}`,/{a}[0-9]+/g.test(s)]}}/* {b} */return{{k:{b},n:'{a}'}}}}\n"
        )
        parts.append(piece)
        size += len(piece)
        i += 1
    parts.append("</script></body></html>")
    return "".join(parts)


def _ratio_line(label: str, chars: int, scan_seconds: float, reference_seconds: float) -> None:
    mb = chars / 1e6
    scan_rate, reference_rate = mb / scan_seconds, mb / reference_seconds
    print(
        f"  {label:34s} {mb:7.2f} MB  scanner {scan_rate:7.1f} MB/s  reference {reference_rate:8.1f} MB/s"
        f"  ratio {scan_rate / reference_rate:.4f}x"
    )


def report_throughput(widgets: Sequence[Widget]) -> None:
    print("throughput, best of 3 (target: scanner >= 0.25x the single str.find pass)")
    print("  reference = one plain str.find pass over the same text (memory speed)")
    texts = [w.source for w in widgets if w.origin == "corpus"]
    source = no_match_source(NO_MATCH_CHARS)
    result = scan_widget_source(source, max_chars=len(source) + 1)
    assert not result.needs_used() and not result.limits, "the no-match input must give nothing and scan whole"
    no_match_scan = timed(lambda: scan_widget_source(source, max_chars=len(source) + 1))
    widgets_scan = timed(lambda: [scan_widget_source(text) for text in texts]) if texts else 0.0
    if texts:
        floor = timed(lambda: [text.find(_ABSENT) for text in texts])
        _ratio_line(f"{len(texts)} captured widgets", sum(len(t) for t in texts), widgets_scan, floor)
    _ratio_line("no-match input", len(source), no_match_scan, timed(lambda: source.find(_ABSENT)))
    count = sum(len(needles) for needles in NAIVE_NEEDLES.values())
    print(f"  reference = the plain string scan as {count} str.find passes (one per spelling of every need)")
    if texts:
        needle_seconds = timed(lambda: [needle_scan(text) for text in texts])
        _ratio_line(f"{len(texts)} captured widgets", sum(len(t) for t in texts), widgets_scan, needle_seconds)
    _ratio_line("no-match input", len(source), no_match_scan, timed(lambda: needle_scan(source)))


def main() -> int:
    widgets = load_widgets()
    report_accuracy(widgets)
    report_throughput(widgets)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
