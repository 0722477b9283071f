"""Benchmark the widget scanner: per-need accuracy on the labelled corpus, and throughput against memory speed.

Accuracy is precision/recall per need over every labelled widget (the captured npm servers' widgets and the
hand-written pages), side by side with a plain string scan (a need is used when any of its spellings occurs
anywhere) and MCPJam's regex scan. Throughput is MB/s of the scanner, native (C lexer and Hyperscan) and pure
Python, over the captured widgets and over 50 MB of real widget code with no early exit, next to MCPJam's patterns
run on the same bytes (every match, and first hit) and to MCPJam's own figures quoted in issue 18 (its npm package
is not installed here), with ratios; then per captured widget the scanner's speed over MCPJam's patterns on the
same bytes (every match and first hit in Python's `re`, every match in Node), the ratio taken per round of runs
that take turns (in CPU time), each widget's median with min-max and the slowest widgets first; then a generated
no-match input beside one `str.find` pass. Each figure is the median of `--repeat` runs with min-max. Run:
`python bench/bench_scan.py` (after `npm ci` in interop/ and `python scripts/capture_widgets.py`).

With `--json FILE --start CHECKOUT` (a checkout of 3cbc869, the commit issue 18 was filed against), that commit's
scanner also scans the same bytes, in a process of its own: the issue quotes it at 15 MB/s over the widgets and
16.7 MB/s over 50 MB of real code, on its author's machine, so the targets (90 MB/s; MCPJam's 88.7 MB/s) are scaled
to this machine by its speed here; and per corpus widget, both scanners' CPU time on it, each in a process of its
own, round after round: "no slower on any corpus widget" held against the scanner the issue set out to speed up.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # testkit: the corpus helpers shared with the tests

from hostcompat.engine.scan import prefilter as _prefilter  # noqa: E402
from hostcompat.engine.scan.js import lexer as _lexer  # noqa: E402
from hostcompat.engine.scan.needs import ALL_NEEDS  # noqa: E402
from hostcompat.engine.scan.widget import scan_widget_content, scan_widget_source  # noqa: E402
from testkit.widget_corpus import (  # noqa: E402  (imports follow the path set-up above)
    MCPJAM_PATTERNS,
    Score,
    Widget,
    corpus_dir,
    corpus_widgets,
    fixture_widgets,
    mcpjam_scan,
    naive_scan,
    predictions,
    read_corpus,
    score,
)

NO_MATCH_CHARS = 50_000_000
REAL_CODE_CHARS = 50_000_000
_ABSENT = "\x00hostcompat-absent-needle\x00"
MCPJAM_QUOTED = {"widgets": 1565.0, "real code": 88.7}
START_QUOTED = {"widgets": 15.0, "real code": 16.7}
"""The scanner's speed at 3cbc869 (MB/s), as quoted in issue 18 beside the targets: 90 MB/s over the widgets, MCPJam's
88.7 MB/s over the 50 MB of real code."""
TARGETS = {"widgets": 90.0, "real code": 88.7}
"""MCPJam's scan speed measured beside ours (issue 18): its early-exit scan over the 27 widgets, and its full scan
(every match, no early exit) over 50 MB of real widget code. Its published npm package is not installed here, so
these quoted figures are the named reference, next to the same patterns run by Python's `re` on the same bytes."""


def runs(function: Callable[[], object], repeat: int) -> list[float]:
    """Seconds of each of `repeat` runs (after one warm-up run)."""
    function()
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        seconds.append(time.perf_counter() - started)
    return seconds


@contextmanager
def pure_python() -> Iterator[None]:
    """The scanner without its native parts: no C lexer, no Hyperscan prefilter (what a plain install runs)."""
    native, matcher = _lexer._native, _prefilter._load_matcher
    _lexer._native = None
    _prefilter._load_matcher = lambda: None
    try:
        yield
    finally:
        _lexer._native = native
        _prefilter._load_matcher = matcher


_NODE_SCAN = r"""
const fs = require("fs");
const [texts, patterns, repeat] = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const regexes = patterns.map((p) => new RegExp(p, "g"));
const scan = (text) => {
  let n = 0;
  for (const r of regexes) { r.lastIndex = 0; while (r.exec(text) !== null) n++; }
  return n;
};
const time = (f) => { f(); const out = []; for (let i = 0; i < repeat; i++) { const t = process.hrtime.bigint(); f();
  out.push(Number(process.hrtime.bigint() - t) / 1e9); } return out; };
const all = time(() => texts.forEach(scan));
const each = texts.map((t) => time(() => scan(t)));
process.stdout.write(JSON.stringify({ all, each }));
"""


def _js_pattern(pattern: str) -> str:
    """A Python pattern of MCPJam's as JavaScript (which has no inline `(?i:...)` before V8 12.5)."""
    return re.sub(r"\(\?i:([A-Za-z]+)\)", lambda m: "".join(f"[{c.lower()}{c.upper()}]" for c in m.group(1)), pattern)


def node_full_scan(texts: Sequence[str], repeat: int) -> tuple[list[float], list[list[float]]] | None:
    """Seconds of MCPJam's patterns, every match, in Node's regex engine (V8, what MCPJam runs).

    The whole batch's runs, then each text's; None without node.
    """
    node = shutil.which("node")
    if node is None:
        return None
    patterns = [_js_pattern(p.pattern) for p in MCPJAM_PATTERNS.values()]
    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "input.json"
        data.write_text(json.dumps([list(texts), patterns, repeat]), encoding="utf-8")
        done = subprocess.run([node, "-e", _NODE_SCAN, str(data)], capture_output=True, text=True, check=True)
    timings = json.loads(done.stdout)
    return timings["all"], timings["each"]


def mcpjam_full_scan(source: str) -> int:
    """MCPJam's patterns with no early exit: every match of every pattern (the issue's "full scan")."""
    return sum(1 for pattern in MCPJAM_PATTERNS.values() for _ in pattern.finditer(source))


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


def real_code(texts: Sequence[str], chars: int) -> str:
    """The captured widgets one after another, repeated and cut to `chars` characters: real bundles as one page."""
    parts: list[str] = []
    size = 0
    while size < chars:
        for text in texts:
            parts.append(text)
            size += len(text)
    return "".join(parts)[:chars]


def _rate(label: str, mb: float, seconds: Sequence[float]) -> float:
    rates = sorted(mb / s for s in seconds)
    print(f"    {label:44s} {statistics.median(rates):8.1f} MB/s  (min-max {rates[0]:7.1f}-{rates[-1]:7.1f})")
    return statistics.median(rates)


def scan_all(batch: Sequence[str]) -> None:
    for text in batch:
        scan_widget_source(text, max_chars=len(text) + 1)


def mcpjam_full_all(batch: Sequence[str]) -> None:
    for text in batch:
        mcpjam_full_scan(text)


def mcpjam_first_all(batch: Sequence[str]) -> None:
    for text in batch:
        mcpjam_scan(text)


def report_input(label: str, batch: Sequence[str], repeat: int, quoted: tuple[str, float]) -> None:
    """One input's MB/s: the scanner both ways, MCPJam's patterns both ways, the quoted figure, and the ratios."""
    mb = sum(len(t) for t in batch) / 1e6
    print(f"  {label}: {mb:.2f} MB")
    reached = sorted({limit.code for t in batch for limit in scan_widget_source(t, max_chars=len(t) + 1).limits})
    print(f"    (scan limits reached: {', '.join(reached) or 'none'})")
    native = _rate("scanner, native (C lexer + Hyperscan)", mb, runs(partial(scan_all, batch), repeat))
    with pure_python():
        python = _rate("scanner, pure Python", mb, runs(partial(scan_all, batch), max(1, repeat // 2)))
    full = _rate("MCPJam's patterns, every match (Python re)", mb, runs(partial(mcpjam_full_all, batch), repeat))
    early = _rate("MCPJam's patterns, first hit (Python re)", mb, runs(partial(mcpjam_first_all, batch), repeat))
    node = node_full_scan(batch, repeat)
    in_node = _rate("MCPJam's patterns, every match (Node, V8)", mb, node[0]) if node else None
    kind, figure = quoted
    print(f"    {'MCPJam as quoted in issue 18 (' + kind + ', its own engine)':44s} {figure:8.1f} MB/s")
    print(
        f"    ratios: native/pure Python {native / python:.2f}x, native/MCPJam every match {native / full:.2f}x (re)"
        + (f" {native / in_node:.2f}x (Node)" if in_node else "")
        + f", native/MCPJam first hit {native / early:.2f}x (re), native/quoted {native / figure:.2f}x"
    )


def report_throughput(widgets: Sequence[Widget], repeat: int, shown: int = 5) -> None:
    texts = [w.source for w in widgets if w.origin == "corpus"]
    print(f"throughput, {repeat} timed runs per figure after a warm-up: median MB/s (min-max)")
    print(
        f"  native parts loaded: C lexer {_lexer.native_lexer()}, Hyperscan prefilter {_prefilter.native_prefilter()}"
    )
    if not texts:
        print("  no captured widgets: nothing to measure")
        return
    report_input(f"{len(texts)} captured widgets", texts, repeat, ("early exit", MCPJAM_QUOTED["widgets"]))
    real = [real_code(texts, REAL_CODE_CHARS)]
    report_input("real widget code as one page, no early exit", real, repeat, ("full scan", MCPJAM_QUOTED["real code"]))
    report_per_widget(widgets, repeat, shown)
    no_match = no_match_source(NO_MATCH_CHARS)
    mb = len(no_match) / 1e6
    print(f"  no-match input (generated, no bridge name): {mb:.2f} MB")
    _rate("scanner, native", mb, runs(partial(scan_all, [no_match]), repeat))
    _rate("one str.find pass (memory speed)", mb, runs(partial(no_match.find, _ABSENT), repeat))


PER_RUN_SECONDS = 0.02
"""A timed run of one widget repeats its scan until it lasts this long: a small widget's single scan (about
100 us) is too short for the clock on a shared machine."""
CLOCK = time.thread_time
"""The per-widget runs count this thread's CPU time: on a shared machine a run that waits for a core is not charged
for the wait (wall-clock rounds of a 100 us scan swing by 10x there), so the ratios compare work done."""


def calls_per_run(function: Callable[[], object]) -> int:
    """How many calls of `function` make one timed run of at least `PER_RUN_SECONDS` (after a warm-up call)."""
    function()
    started = CLOCK()
    function()
    once = max(CLOCK() - started, 1e-7)
    return max(1, min(10_000, int(PER_RUN_SECONDS / once) + 1))


def paired_runs(functions: Sequence[Callable[[], object]], repeat: int) -> list[list[float]]:
    """CPU seconds per call of each function, `repeat` runs each, the functions taking turns within every round (so
    a burst of load on a shared machine falls on all of them alike).
    """
    counts = [calls_per_run(function) for function in functions]
    seconds: list[list[float]] = [[] for _ in functions]
    for _ in range(repeat):
        for function, count, out in zip(functions, counts, seconds, strict=True):
            started = CLOCK()
            for _ in range(count):
                function()
            out.append((CLOCK() - started) / count)
    return seconds


def report_per_widget(widgets: Sequence[Widget], repeat: int, shown: int = 5) -> None:
    """Per captured widget: the scanner's speed over MCPJam's patterns on the same bytes (their time over ours), per
    round of runs; each widget's median ratio with its min-max, the slowest widgets first. In-process runs count CPU
    time (`CLOCK`); Node's runs are its own wall-clock timings.
    """
    corpus = [w for w in widgets if w.origin == "corpus"]
    references: dict[str, list[list[float]]] = {"every match, Python re": [], "first hit, Python re": []}
    ratios: dict[str, list[tuple[float, float, float, Widget]]] = {name: [] for name in references}
    for widget in corpus:
        ours, full, first = paired_runs(
            [
                partial(scan_widget_source, widget.source),
                partial(mcpjam_full_scan, widget.source),
                partial(mcpjam_scan, widget.source),
            ],
            repeat,
        )
        for name, theirs in (("every match, Python re", full), ("first hit, Python re", first)):
            per_round = sorted(t / o for t, o in zip(theirs, ours, strict=True))
            ratios[name].append((statistics.median(per_round), per_round[0], per_round[-1], widget))
    node = node_full_scan([w.source for w in corpus], repeat)
    if node is not None:
        ours_each = [paired_runs([partial(scan_widget_source, w.source)], repeat)[0] for w in corpus]
        ratios["every match, Node V8"] = []
        for widget, ours, theirs in zip(corpus, ours_each, node[1], strict=True):
            per_round = sorted(t / o for t, o in zip(theirs, ours, strict=True))
            ratios["every match, Node V8"].append((statistics.median(per_round), per_round[0], per_round[-1], widget))
    for engine, rows in ratios.items():
        rows.sort(key=lambda row: row[0])
        below = sum(1 for row in rows if row[0] < 1)
        middle = statistics.median(row[0] for row in rows)
        print(f"  per widget, scanner speed / MCPJam's patterns ({engine}), ratio per round of {repeat} (CPU time):")
        slowest = rows[0]
        print(
            f"    slowest {slowest[0]:.2f}x ({slowest[1]:.2f}-{slowest[2]:.2f}), median over widgets {middle:.2f}x,"
            f" {below} of {len(rows)} below 1x; the slowest:"
        )
        for ratio, low, high, widget in rows[:shown]:
            print(f"      {ratio:6.2f}x ({low:5.2f}-{high:5.2f})  {len(widget.source) / 1e3:8.1f} kB  {widget.key}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="scanner accuracy and throughput beside MCPJam's scan")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per figure (default 5)")
    parser.add_argument("--no-accuracy", action="store_true", help="throughput only")
    parser.add_argument("--widgets", type=int, default=5, help="slowest widgets listed per reference (default 5)")
    args = parser.parse_args(argv)
    widgets = load_widgets()
    if not args.no_accuracy:
        report_accuracy(widgets)
    report_throughput(widgets, max(1, args.repeat), max(0, args.widgets))
    return 0


def json_main(argv: Sequence[str]) -> int:
    """`--json FILE [--repeat N]`: only the figures `bench/summary.py` reads (issue 18), written to FILE: the native
    scanner's MB/s over the captured widgets and over 50 MB of real widget code, MCPJam's patterns (every match, in
    Node) on the same 50 MB, the slowest per-widget speed ratio to them, and MCPJam's figures as quoted.
    """
    from _figures import Figures, measured, quoted, write_figures  # bench/, the script's folder, is on the path
    from _scan_at_start import slowest_against_start, start_scan

    parser = argparse.ArgumentParser(description="the scan figures of issue 18, as JSON")
    parser.add_argument("--json", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--start", type=Path, metavar="CHECKOUT", help="a checkout of 3cbc869: the targets scaled")
    args = parser.parse_args(argv)
    if args.start is not None and not (args.start / "src" / "hostcompat").is_dir():
        raise SystemExit(f"--start: {args.start} is not a checkout of hostcompat (no src/hostcompat)")
    repeat = max(1, args.repeat)
    corpus = [w for w in load_widgets() if w.origin == "corpus"]
    if not corpus:
        raise SystemExit(f"no captured widget corpus in {corpus_dir()} (python scripts/capture_widgets.py)")
    texts = [w.source for w in corpus]
    figures = Figures("bench_scan")
    figures.quoted.update({key: quoted("MB/s", value) for key, value in MCPJAM_QUOTED.items()})
    mb = sum(len(t) for t in texts) / 1e6
    note = f"{len(texts)} captured widgets, {mb:.1f} MB"
    figures.measured["widgets"] = measured("MB/s", (mb / s for s in runs(partial(scan_all, texts), repeat)), note)
    real = [real_code(texts, REAL_CODE_CHARS)]
    mb = REAL_CODE_CHARS / 1e6
    note = f"{mb:.0f} MB of the captured widgets, repeated, as one page"
    figures.measured["real code"] = measured("MB/s", (mb / s for s in runs(partial(scan_all, real), repeat)), note)
    node_real = node_full_scan(real, repeat)
    node_each = node_full_scan(texts, repeat)
    if node_real is None or node_each is None:
        figures.skipped.update(dict.fromkeys(("real code, Node", "slowest widget, Node"), "node not found"))
    else:
        figures.measured["real code, Node"] = measured("MB/s", (mb / s for s in node_real[0]), "MCPJam's patterns")
        ours = [statistics.median(runs(partial(scan_widget_source, text), repeat)) for text in texts]
        ratio, key, size = min(
            (statistics.median(theirs) / mine, w.key, len(w.source))
            for mine, theirs, w in zip(ours, node_each[1], corpus, strict=True)
        )
        figures.measured["slowest widget, Node"] = measured("x", [ratio], f"slowest: {key} ({size / 1e3:.1f} kB)")
    if args.start is None:
        figures.skipped.update(dict.fromkeys(("widgets target scaled", "real code target scaled"), "needs --start"))
    else:
        batches = {"widgets": texts, "real code": real}
        for name, seconds in start_scan(args.start, batches, repeat).items():
            mb = sum(len(text) for text in batches[name]) / 1e6
            figures.measured[f"{name} at start"] = measured("MB/s", (mb / s for s in seconds), "3cbc869's scanner")
            why = f"{TARGETS[name]} MB/s x 3cbc869 here / its {START_QUOTED[name]} MB/s quoted in issue 18"
            scaled = (mb / s * TARGETS[name] / START_QUOTED[name] for s in seconds)
            figures.measured[f"{name} target scaled"] = measured("MB/s", scaled, why)
        ratios, widget = slowest_against_start(args.start, corpus, repeat, PER_RUN_SECONDS)
        note = f"slowest: {widget.key} ({len(widget.source) / 1e3:.1f} kB)"
        figures.measured["slowest widget, start"] = measured("x", ratios, note)
    write_figures(args.json, figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(json_main(sys.argv[1:]) if "--json" in sys.argv else main())
