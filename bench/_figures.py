"""The figures a bench script measured, as a small JSON document that `bench/summary.py` reads (issue 18).

A bench script given `--json FILE` measures only the figures issue 18 tracks and writes them here: each figure a
name, a unit, its samples and their median and min-max; the quoted references it holds (MCPJam's figures as quoted
in the issue, where its published npm package has no engine to run); and the figures it could not take, with why.
One module so every script writes the same shape and the summary reads it back the same way.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

SCHEMA = "hostcompat.bench-figures/1"


@dataclass(frozen=True)
class Spread:
    """The median and the min-max of some samples, and how many there were."""

    median: float
    low: float
    high: float
    count: int

    @classmethod
    def of(cls, samples: Iterable[float]) -> Spread:
        """The spread of `samples`; ValueError when there is none."""
        values = sorted(samples)
        if not values:
            raise ValueError("no samples")
        return cls(statistics.median(values), values[0], values[-1], len(values))

    def text(self, digits: int = 1) -> str:
        """`median (min-max)`, or just the median for one sample."""
        median = f"{self.median:,.{digits}f}"
        return median if self.count == 1 else f"{median} ({self.low:,.{digits}f}-{self.high:,.{digits}f})"


@dataclass(frozen=True)
class Figure:
    """One measured figure: its samples in `unit`, and a note (what it was measured on, the slowest case, ...)."""

    unit: str
    samples: tuple[float, ...]
    note: str = ""

    def spread(self) -> Spread:
        """The samples' median and min-max."""
        return Spread.of(self.samples)


@dataclass(frozen=True)
class Figures:
    """What one run of one bench script wrote: measured figures, quoted references, and figures not taken."""

    script: str
    measured: dict[str, Figure] = field(default_factory=dict)
    quoted: dict[str, Figure] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)


def measured(unit: str, samples: Iterable[float], note: str = "") -> Figure:
    """A figure from samples (seconds, MB/s, ...) already in `unit`."""
    return Figure(unit, tuple(float(value) for value in samples), note)


def quoted(unit: str, value: float, note: str = "quoted in issue 18") -> Figure:
    """A reference figure quoted (not measured here): one sample, and where it is quoted."""
    return Figure(unit, (float(value),), note)


def _figure_json(figure: Figure) -> dict[str, object]:
    spread = figure.spread()
    return {
        "unit": figure.unit,
        "median": spread.median,
        "min": spread.low,
        "max": spread.high,
        "samples": list(figure.samples),
        "note": figure.note,
    }


def write_figures(path: Path, figures: Figures) -> None:
    """Write `figures` to `path` as JSON."""
    document = {
        "schema": SCHEMA,
        "script": figures.script,
        "figures": {name: _figure_json(figure) for name, figure in figures.measured.items()},
        "quoted": {name: _figure_json(figure) for name, figure in figures.quoted.items()},
        "skipped": dict(figures.skipped),
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def _read_figure(name: str, raw: object) -> Figure:
    if not isinstance(raw, Mapping):
        raise ValueError(f"figure {name!r} is not an object")
    unit, samples, note = raw.get("unit"), raw.get("samples"), raw.get("note", "")
    if not isinstance(unit, str) or not isinstance(note, str) or not isinstance(samples, list) or not samples:
        raise ValueError(f"figure {name!r} needs a unit, a note and at least one sample")
    if not all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in samples):
        raise ValueError(f"figure {name!r} has a sample that is not a number")
    return Figure(unit, tuple(float(value) for value in samples), note)


def read_figures(path: Path) -> Figures:
    """The figures a script wrote to `path`; ValueError when the file is not such a document."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"unreadable figures file: {error}") from error
    if not isinstance(document, Mapping) or document.get("schema") != SCHEMA:
        raise ValueError(f"not a {SCHEMA} document")
    parts = {key: document.get(key, {}) for key in ("figures", "quoted", "skipped")}
    if not all(isinstance(part, Mapping) for part in parts.values()):
        raise ValueError("figures, quoted and skipped must be objects")
    skipped = {str(name): str(reason) for name, reason in parts["skipped"].items()}
    return Figures(
        str(document.get("script", "")),
        {str(name): _read_figure(name, raw) for name, raw in parts["figures"].items()},
        {str(name): _read_figure(name, raw) for name, raw in parts["quoted"].items()},
        skipped,
    )
