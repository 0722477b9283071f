"""Issue 18's figures in one run: each hostcompat figure beside its reference, repeated, with medians and min-max.

Runs each figure's bench script with `--json` (a subprocess each; the scripts take turns, run after run, so a change
in the machine's load hits them alike), `--repeat` times, and prints one table: the figure, hostcompat's median
(min-max) over the runs (each run's figure is that run's median), the reference (measured in the same runs, or
MCPJam's figure as quoted in issue 18), the ratio (median of the runs' ratios), the target and whether it is met.
A figure it cannot take (node, the widget corpus or the npm servers missing, a script failing) prints as
"not run: <reason>". The start-up figures run with byte code allowed (`--bytecode`), as an installed wheel runs.

MCPJam's references are quoted because its published npm packages carry no host-compat engine to run here: checked
on 2026-12-05, @mcpjam/sdk 0.8.16, 0.9.3 and 1.14.0, @mcpjam/inspector 1.0.4 and 1.0.24 and @mcpjam/cli 1.0.2 and
1.1.6 hold neither the catalog and evaluation nor the widget scan (MCPJam/inspector's `sdk/src/host-compat/`); the
scan rows also show MCPJam's patterns run by Node's own regex engine on the same bytes, measured in the run.

MCPJam's offline check was quoted from the issue author's machine, beside hostcompat's at the commit the issue was
filed against (221 and 474 ms); so were that commit's scan speeds (15 and 16.7 MB/s) and its time per host (64-73
us), beside targets set on that machine (90 MB/s, MCPJam's 88.7 MB/s, 20 us). With `--start CHECKOUT` (a checkout of
that commit, 3cbc869: `git worktree add ../start 3cbc869`), that hostcompat runs here in the same runs, and each
quoted figure or target is scaled by it to this machine (rows marked "scaled to this machine").

Run: `python bench/summary.py [--repeat 3] [--quick] [--only NAME] [--json FILE] [--start CHECKOUT]` (after `npm ci`
in interop/ and `python scripts/capture_widgets.py`; `--quick` runs each script twice with fewer samples, about two
minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from _figures import Figures, Spread, read_figures
from summary_rows import ROWS, Row

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
TIMEOUT = 900.0


def _node() -> str | None:
    return None if shutil.which("node") else "node not found"


def _installed(package: str) -> Callable[[], str | None]:
    def check() -> str | None:
        entry = REPO / "interop" / "node_modules" / "@modelcontextprotocol" / package / "dist" / "index.js"
        return _node() or (None if entry.is_file() else f"{package} not installed (npm ci in interop/)")

    return check


@dataclass(frozen=True)
class Source:
    """One bench script run with `--json`: its arguments in a full and a quick run, and what it needs first."""

    script: str
    args: tuple[str, ...]
    quick: tuple[str, ...]
    needs: Callable[[], str | None] = lambda: None


SOURCES = {
    "scan": Source("bench_scan.py", ("--repeat", "3"), ("--repeat", "2")),
    "startup": Source("bench_startup.py", ("--bytecode", "--runs", "5"), ("--bytecode", "--runs", "3")),
    "live": Source(
        "bench_startup.py",
        ("--live", "--bytecode", "--runs", "5"),
        ("--live", "--bytecode", "--runs", "3"),
        _installed("server-basic-react"),
    ),
    "batch": Source("bench_batch.py", ("--servers", "10", "--repeat", "2"), ("--servers", "10", "--repeat", "1")),
    "evaluate": Source("bench_evaluate.py", ("--batches", "5"), ("--batches", "3")),
    "bounds": Source("bench_bounds.py", (), ()),
    "proxy": Source("bench_proxy.py", ("--calls", "300"), ("--calls", "150"), _installed("server-everything")),
}


@dataclass
class Runs:
    """What the runs of one source gave: the figures of each run that worked, and why the others did not."""

    done: list[Figures]
    failed: list[str]


def _printable(text: str) -> str:
    """`text` with control characters replaced (it goes to a terminal) and cut to a line."""
    clean = "".join(c if c.isprintable() else "?" for c in text)
    return clean if len(clean) <= 200 else clean[:197] + "..."


def run_source(name: str, quick: bool, scratch: Path, index: int, extra: Sequence[str] = ()) -> Figures | str:
    """Run the source `name` once (with `extra` arguments); its figures, or why it gave none."""
    source = SOURCES[name]
    out = scratch / f"{name}-{index}.json"
    argv = [sys.executable, str(BENCH / source.script), *(source.quick if quick else source.args), *extra]
    argv += ["--json", str(out)]
    try:
        done = subprocess.run(
            argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        return f"{source.script} timed out after {TIMEOUT:.0f} s"
    if done.returncode != 0:
        lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
        return _printable(f"{source.script} exited {done.returncode}: {lines[-1] if lines else 'no message'}")
    try:
        return read_figures(out)
    except ValueError as error:
        return _printable(f"{source.script}: {error}")


def collect(
    names: Sequence[str], repeat: int, quick: bool, extra: dict[str, tuple[str, ...]] | None = None
) -> dict[str, Runs]:
    """Run every named source `repeat` times, taking turns (with its `extra` arguments); a source whose need is
    missing does not run.
    """
    results = {name: Runs([], []) for name in names}
    missing = {name: reason for name in names if (reason := SOURCES[name].needs()) is not None}
    for name, reason in missing.items():
        results[name].failed.append(reason)
        print(f"{name:<9} not run: {reason}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as scratch:
        for index in range(repeat):
            for name in names:
                if name in missing:
                    continue
                runs = results[name]
                started = time.perf_counter()
                outcome = run_source(name, quick, Path(scratch), index, (extra or {}).get(name, ()))
                took = time.perf_counter() - started
                if isinstance(outcome, str):
                    runs.failed.append(outcome)
                else:
                    runs.done.append(outcome)
                status = "ok" if not isinstance(outcome, str) else f"not run: {outcome}"
                print(f"run {index + 1}/{repeat} {name:<9} {took:6.1f} s  {status}", file=sys.stderr, flush=True)
    return results


@dataclass(frozen=True)
class Line:
    """A row's outcome: the spreads over the runs, the median ratio, whether the target is met; or why not run."""

    row: Row
    unit: str = ""
    ours: Spread | None = None
    reference: Spread | None = None
    ratio: float | None = None
    met: bool | None = None
    notes: tuple[str, ...] = ()
    not_run: str | None = None


def _missing(figures: Figures, name: str) -> str:
    return figures.skipped.get(name) or f"{figures.script} wrote no figure {name!r}"


def evaluate_row(row: Row, runs: Runs) -> Line:
    """The row's figures over the runs that gave them, or the reason it was not run."""
    if not runs.done:
        return Line(row, not_run=runs.failed[-1] if runs.failed else "not selected")
    ours: list[float] = []
    references: list[float] = []
    ratios: list[float] = []
    notes: list[str] = []
    for figures in runs.done:
        figure = figures.measured.get(row.figure)
        if figure is None:
            return Line(row, not_run=_missing(figures, row.figure))
        value = figure.spread().median
        ours.append(value)
        notes.append(figure.note)
        if row.reference is None:
            continue
        pool = figures.measured if row.reference_kind == "measured" else figures.quoted
        reference = pool.get(row.reference)
        if reference is None:
            return Line(row, not_run=_missing(figures, row.reference))
        references.append(reference.spread().median)
        if row.reference_note:
            notes.append(reference.note)
        ratios.append(value / references[-1])
    ratio = statistics.median(ratios) if ratios else None
    spread = Spread.of(ours)
    met = None if row.target is None else row.target.met(spread.median, ratio)
    unit = runs.done[0].measured[row.figure].unit
    kept = tuple(dict.fromkeys(note for note in notes if note))
    failed = len(runs.failed)
    if failed:
        kept += (f"{failed} of {failed + len(runs.done)} runs failed: {runs.failed[-1]}",)
    return Line(row, unit, spread, Spread.of(references) if references else None, ratio, met, kept)


def _amount(spread: Spread, unit: str, digits: int) -> str:
    return f"{spread.text(digits)}{unit}" if unit == "x" else f"{spread.text(digits)} {unit}"


def _reference_text(line: Line) -> str:
    row = line.row
    if line.reference is None:
        return f"{row.reference_label} (this run)"
    if row.reference_kind == "quoted":
        return f"{row.reference_label} {line.reference.median:,.{row.digits}f} {line.unit} (quoted)"
    return f"{row.reference_label} {_amount(line.reference, line.unit, row.digits)} (this run)"


def _ratio_text(ratio: float | None) -> str:
    if ratio is None:
        return "-"
    return f"{ratio:.0f}x" if ratio >= 10 else f"{ratio:.2f}x"


LEGEND = (
    "quoted: MCPJam's figure as quoted in issue 18 (the issue author's machine; its published npm packages carry no "
    "host-compat engine to run here); this run: measured beside hostcompat in the same runs; ratio: hostcompat / "
    "reference, median of the runs' ratios"
)


def table(lines: Sequence[Line]) -> list[str]:
    """The table's lines, with each figure's notes below it."""
    head = ("figure", "hostcompat", "reference", "ratio", "target", "met")
    cells: list[tuple[str, ...]] = []
    for line in lines:
        if line.not_run is not None or line.ours is None:
            cells.append((line.row.name, f"not run: {line.not_run}"))
            continue
        ratio = _ratio_text(line.ratio)
        met = "-" if line.met is None else ("yes" if line.met else "NO")
        target = line.row.target.text if line.row.target else "-"
        ours = _amount(line.ours, line.unit, line.row.digits)
        cells.append((line.row.name, ours, _reference_text(line), ratio, target, met))
    widths = [max([len(head[i]), *(len(c[i]) for c in cells if len(c) > 2)]) for i in range(len(head))]
    widths[0] = max(len(c[0]) for c in [head, *cells])
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip()]
    for line, row_cells in zip(lines, cells, strict=True):
        if len(row_cells) == 2:
            out.append(f"{row_cells[0].ljust(widths[0])}  {row_cells[1]}")
            continue
        out.append("  ".join(c.ljust(w) for c, w in zip(row_cells, widths, strict=True)).rstrip())
        out.extend(f"{'':{widths[0]}}    {note}" for note in line.notes)
    return out


def _spread_json(spread: Spread | None) -> dict[str, float] | None:
    if spread is None:
        return None
    return {"median": spread.median, "min": spread.low, "max": spread.high, "runs": spread.count}


def as_json(lines: Sequence[Line], repeat: int, quick: bool) -> dict[str, object]:
    """The whole table as a JSON document."""
    rows = []
    for line in lines:
        row = line.row
        rows.append(
            {
                "figure": row.name.strip(),
                "unit": line.unit,
                "hostcompat": _spread_json(line.ours),
                "reference": {
                    "kind": row.reference_kind,
                    "label": row.reference_label,
                    "value": _spread_json(line.reference),
                },
                "ratio": line.ratio,
                "target": row.target.text if row.target else None,
                "met": line.met,
                "notes": list(line.notes),
                "notRun": line.not_run,
            }
        )
    machine = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "loadAverage": os.getloadavg()[0]}
    return {"schema": "hostcompat.bench-summary/1", "repeat": repeat, "quick": quick, "machine": machine, "rows": rows}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, help="runs of each script (default 3; 2 with --quick)")
    parser.add_argument("--quick", action="store_true", help="fewer samples inside each script, two runs")
    parser.add_argument("--only", metavar="NAME", help="only the figures whose name or script contains NAME")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the table as JSON to FILE")
    parser.add_argument(
        "--start",
        type=Path,
        metavar="CHECKOUT",
        help="a checkout of 3cbc869 (issue 18's start): scales the quoted figures and targets to this machine",
    )
    args = parser.parse_args(argv)
    repeat = max(1, args.repeat if args.repeat is not None else 2 if args.quick else 3)
    wanted = args.only.lower() if args.only else ""
    rows = [row for row in ROWS if wanted in row.name.lower() or wanted in row.source]
    if not rows:
        parser.error(f"no figure matches {args.only!r}")
    names = list(dict.fromkeys(row.source for row in rows))
    started = time.perf_counter()
    scaled = ("startup", "scan", "evaluate")  # the sources whose quoted references --start scales to this machine
    extra: dict[str, tuple[str, ...]] = {}
    if args.start is not None:
        extra = {name: ("--start", str(args.start)) for name in scaled}
    results = collect(names, repeat, args.quick, extra)
    lines = [evaluate_row(row, results[row.source]) for row in rows]
    load = os.getloadavg()[0]
    print(
        f"issue 18 figures: {repeat} run(s) of each script{' (--quick)' if args.quick else ''}, "
        f"{time.perf_counter() - started:.0f} s; python {sys.version.split()[0]}, {os.cpu_count()} CPU(s), "
        f"load average {load:.1f}"
    )
    print("hostcompat and measured references: median (min-max) over the runs of each run's median")
    print("\n".join(table(lines)))
    print(textwrap.fill(LEGEND, width=118, break_on_hyphens=False))
    if args.json:
        args.json.write_text(json.dumps(as_json(lines, repeat, args.quick), indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
