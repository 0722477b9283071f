"""The scanner of the commit issue 18 was filed against (3cbc869), run here on the same bytes as today's: the issue
quotes that scanner's speed on its author's machine beside the targets, so its speed here scales them to this
machine; and per corpus widget it is the reference for "no slower on any corpus widget".

Both scanners run in processes of their own (a checkout's `src/` on `PYTHONPATH`), from `bench/bench_scan.py --json
FILE --start CHECKOUT`.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # testkit: the corpus helpers shared with the tests

from testkit.widget_corpus import Widget  # noqa: E402  (imports follow the path set-up above)


def _run_at(sources: Path, script: str, data: Path) -> Any:
    """The JSON that `script` prints, run in a process of its own with `sources` (a checkout's `src/`) on
    `PYTHONPATH` and the input file `data` as its argument.
    """
    env = {**os.environ, "PYTHONPATH": str(sources.resolve())}
    command = [sys.executable, "-c", script, str(data)]
    return json.loads(subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout)


_START_SCAN = r"""
import json, sys, time
from hostcompat.engine.scan.widget import scan_widget_source
batches, repeat = json.load(open(sys.argv[1], encoding="utf-8"))
def scan(batch):
    for text in batch:
        scan_widget_source(text, max_chars=len(text) + 1)
out = {}
for name, batch in batches.items():
    scan(batch)
    out[name] = []
    for _ in range(repeat):
        started = time.perf_counter()
        scan(batch)
        out[name].append(time.perf_counter() - started)
print(json.dumps(out))
"""


def start_scan(start: Path, batches: Mapping[str, Sequence[str]], repeat: int) -> dict[str, list[float]]:
    """Seconds of each of `repeat` runs (after a warm-up) of the scanner at `start` (its sources) over each batch, in
    a process of its own; the same call `scan_all` makes.
    """
    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "input.json"
        data.write_text(json.dumps([{k: list(v) for k, v in batches.items()}, repeat]), encoding="utf-8")
        timings: dict[str, list[float]] = _run_at(start / "src", _START_SCAN, data)
    return timings


_PER_WIDGET = r"""
import json, sys, time
from hostcompat.engine.scan.widget import scan_widget_source
texts, per_run = json.load(open(sys.argv[1], encoding="utf-8"))
clock = time.thread_time
out = []
for text in texts:
    def scan():
        scan_widget_source(text, max_chars=len(text) + 1)
    scan()
    started = clock()
    scan()
    count = max(1, min(10_000, int(per_run / max(clock() - started, 1e-7)) + 1))
    timed = []
    for _ in range(5):
        started = clock()
        for _ in range(count):
            scan()
        timed.append((clock() - started) / count)
    out.append(sorted(timed)[2])
print(json.dumps(out))
"""


def slowest_against_start(
    start: Path, corpus: Sequence[Widget], repeat: int, per_run: float
) -> tuple[list[float], Widget]:
    """Per corpus widget, the scanner's speed over 3cbc869's on the same widget (its CPU time over ours); the widget
    where it gains least (the lowest median over `repeat` rounds): its ratio in each round, and the widget.

    Each round runs both scanners over every widget, each in a process of its own with the same script (start's
    sources on `PYTHONPATH`, or this checkout's), one after the other, so a burst of load falls on both alike; a
    widget's time in a process is the median of five timed runs (each `per_run` seconds of calls, in CPU time).
    """
    rounds: list[list[float]] = []
    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "widgets.json"
        data.write_text(json.dumps([[w.source for w in corpus], per_run]), encoding="utf-8")
        for _ in range(repeat):
            theirs, ours = (_run_at(sources, _PER_WIDGET, data) for sources in (start / "src", ROOT / "src"))
            rounds.append([then / max(now, 1e-9) for then, now in zip(theirs, ours, strict=True)])
    per_widget = [list(values) for values in zip(*rounds, strict=True)]
    slowest = min(range(len(corpus)), key=lambda index: statistics.median(per_widget[index]))
    return per_widget[slowest], corpus[slowest]
