"""Issue 18's figures and targets, as `bench/summary.py` prints them: each row names a bench script's figure, its
reference (measured in the same run, quoted from the issue, or none) and the target it is held to.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    """`value` (the figure itself, or its ratio to the reference) at least or at most `bound`."""

    on: str  # "value" or "ratio"
    at_least: bool
    bound: float
    text: str

    def met(self, value: float, ratio: float | None) -> bool | None:
        """Whether the target is met by the medians; None when it needs a ratio there is none of."""
        checked = value if self.on == "value" else ratio
        if checked is None:
            return None
        return checked >= self.bound if self.at_least else checked <= self.bound


@dataclass(frozen=True)
class Row:
    """One line of the table: a figure of a source, its reference (a figure measured in the same run, a quoted
    one, or none) and its target.
    """

    name: str
    source: str
    figure: str
    reference: str | None
    reference_kind: str  # "measured", "quoted" or "none"
    reference_label: str
    target: Target | None
    digits: int = 1
    reference_note: bool = False  # the reference's own note is printed below the figure's


def _at_least(bound: float, text: str, on: str = "ratio") -> Target:
    return Target(on, True, bound, text)


def _at_most(bound: float, text: str, on: str = "ratio") -> Target:
    return Target(on, False, bound, text)


ROWS = (
    Row(
        "widget scan, corpus widgets",
        "scan",
        "widgets",
        "widgets",
        "quoted",
        "MCPJam, first hit",
        _at_least(90, ">= 90 MB/s", "value"),
    ),
    Row(
        "  corpus widgets, 90 MB/s scaled to this machine",
        "scan",
        "widgets",
        "widgets target scaled",
        "measured",
        "90 MB/s x (3cbc869 here / 15 MB/s)",
        _at_least(1, ">= 1x the scaled target"),
        reference_note=True,
    ),
    Row(
        "scan, 50 MB real code, no early exit",
        "scan",
        "real code",
        "real code",
        "quoted",
        "MCPJam, full scan",
        _at_least(1, ">= 1x MCPJam"),
    ),
    Row(
        "  50 MB, MCPJam's 88.7 MB/s scaled to this machine",
        "scan",
        "real code",
        "real code target scaled",
        "measured",
        "88.7 MB/s x (3cbc869 here / 16.7 MB/s)",
        _at_least(1, ">= 1x the scaled MCPJam"),
        reference_note=True,
    ),
    Row(
        "  same bytes, MCPJam's patterns in Node",
        "scan",
        "real code",
        "real code, Node",
        "measured",
        "MCPJam's patterns in V8",
        _at_least(1, ">= 1x"),
    ),
    Row(
        "scan, slowest corpus widget (speed ratio)",
        "scan",
        "slowest widget, Node",
        None,
        "none",
        "MCPJam's patterns in V8, same widget",
        _at_least(1, ">= 1x on every widget", "value"),
        digits=3,
    ),
    Row(
        "  slowest corpus widget, against 3cbc869",
        "scan",
        "slowest widget, start",
        None,
        "none",
        "3cbc869's scanner, same widget",
        _at_least(1, ">= 1x on every widget", "value"),
        digits=2,
    ),
    Row(
        "offline check, pdf snapshot",
        "startup",
        "check pdf",
        "check pdf",
        "quoted",
        "MCPJam",
        _at_most(0.5, "<= 0.5x MCPJam"),
        digits=0,
    ),
    Row(
        "  offline check, MCPJam scaled to this machine",
        "startup",
        "check pdf",
        "mcpjam scaled",
        "measured",
        "MCPJam x (3cbc869 here / 474 ms)",
        _at_most(0.5, "<= 0.5x MCPJam"),
        digits=0,
        reference_note=True,
    ),
    Row(
        "live check -- node server-basic-react",
        "live",
        "live",
        "raw client",
        "measured",
        "raw client",
        _at_most(1.3, "<= 1.3x raw client"),
        digits=0,
    ),
    Row(
        "check --config, 10 servers",
        "batch",
        "config",
        "slowest alone",
        "measured",
        "slowest alone",
        _at_most(1.5, "<= 1.5x slowest alone"),
        digits=2,
    ),
    Row(
        "  the floor: no-SDK client, same servers at once",
        "batch",
        "raw at once",
        "raw slowest alone",
        "measured",
        "its slowest alone",
        None,
        digits=2,
    ),
    Row(
        "  check --config over that floor",
        "batch",
        "config",
        "raw at once",
        "measured",
        "the floor",
        _at_most(1.5, "<= 1.5x the floor"),
        digits=2,
    ),
    Row(
        "evaluate_all_hosts per host, pdf capture",
        "evaluate",
        "pdf",
        "per host",
        "quoted",
        "MCPJam",
        _at_most(20, "<= 20 us", "value"),
    ),
    Row(
        "  pdf capture, 20 us scaled to this machine",
        "evaluate",
        "pdf",
        "target scaled",
        "measured",
        "20 us x (3cbc869 here / 73 us)",
        _at_most(1, "<= 1x the scaled 20 us"),
        reference_note=True,
    ),
    Row(
        "evaluate_all_hosts per host, 10 tools",
        "evaluate",
        "10 tools",
        "per host",
        "quoted",
        "MCPJam",
        _at_most(20, "<= 20 us", "value"),
    ),
    Row(
        "  10 tools, 20 us scaled to this machine",
        "evaluate",
        "10 tools",
        "target scaled",
        "measured",
        "20 us x (3cbc869 here / 73 us)",
        _at_most(1, "<= 1x the scaled 20 us"),
    ),
    Row(
        "  per host and tool, 10,000 tools",
        "evaluate",
        "10,000 tools",
        "1,000 tools",
        "measured",
        "at 1,000 tools",
        _at_most(2, "<= 2 us (20 us / 10 tools)", "value"),
        digits=3,
    ),
    Row(
        "peak RSS, snapshot with a 50 MB widget",
        "bounds",
        "50 MB widget",
        "50 MB widget",
        "quoted",
        "MCPJam",
        _at_most(1, "<= 1x MCPJam"),
        digits=0,
    ),
    Row(
        "proxy round trip p50, loopback stdio",
        "proxy",
        "proxy",
        "direct",
        "measured",
        "direct",
        _at_most(1.3, "<= 1.3x direct"),
        digits=3,
    ),
    Row(
        "  bare relay round trip p50 (the floor)",
        "proxy",
        "bare relay",
        "direct",
        "measured",
        "direct",
        None,
        digits=3,
    ),
    Row(
        "  the same relay in C (a native proxy's floor)",
        "proxy",
        "native relay",
        "direct",
        "measured",
        "direct",
        None,
        digits=3,
    ),
)
