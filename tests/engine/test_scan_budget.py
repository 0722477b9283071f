"""The scanner's work is bounded: a deadline, hits per pass and per scan, stretches per scan (issue 12, finding 4).

A widget made of nothing but bridge calls is the scanner's worst case (each hit gets a look at the code around it).
These tests count the looks and trace the memory instead of timing anything.
"""

from __future__ import annotations

import time
import tracemalloc

import pytest

from hostcompat.engine.scan.budget import MAX_PASS_HITS, MAX_SCAN_STRETCHES
from hostcompat.engine.scan.js import guards as _guards
from hostcompat.engine.scan.js import styles as _js_styles
from hostcompat.engine.scan.widget import scan_deadline, scan_widget_source
from hostcompat.errors import ScanTimedOut


def page(unit: str, count: int) -> str:
    return "<!DOCTYPE html><html><body><script>" + unit * count + "</script></body></html>"


CALL = 'window.openai.callTool("x");\n'


def test_a_scan_past_its_deadline_stops_with_scan_timed_out() -> None:
    with scan_deadline(time.monotonic() - 1), pytest.raises(ScanTimedOut):
        scan_widget_source(page(CALL, 5_000))
    assert scan_widget_source(page(CALL, 10)).findings  # outside the block, no deadline


def test_an_enclosing_deadline_still_holds_inside_a_later_one() -> None:
    with scan_deadline(time.monotonic() - 1), scan_deadline(None), pytest.raises(ScanTimedOut):
        scan_widget_source(page(CALL, 5_000))


def test_a_call_bomb_is_looked_at_only_up_to_the_hit_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    looks = []
    real = _guards.is_guarded

    def counting(*args: object, **kwargs: object) -> bool:
        looks.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_js_styles, "is_guarded", counting)
    scan = scan_widget_source(page(CALL, 60_000))
    assert len(looks) <= 2 * MAX_PASS_HITS  # was 120,000: two guard checks per call
    assert [limit.code for limit in scan.limits] == ["hits_capped"] and not scan.complete
    assert scan.needs_used() == ("serverTools", "openaiApps")
    assert len(scan.findings) == 24  # a dozen per need, as ever


def test_a_call_bomb_is_scanned_in_memory_a_small_multiple_of_its_size() -> None:
    source = page(CALL, 100_000)  # 2.9 MB
    tracemalloc.start()
    scan_widget_source(source)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 6 * len(source), f"{peak / len(source):.1f}x the input"  # was 55x: evidence for every call


def test_a_page_of_scripts_is_read_only_up_to_the_stretch_budget() -> None:
    scan = scan_widget_source(page("</script><script>a();", MAX_SCAN_STRETCHES + 500))
    assert [limit.code for limit in scan.limits] == ["hits_capped"]


def test_a_deep_nest_of_braces_costs_one_walk_per_brace_not_per_call() -> None:
    depth = 50_000
    source = "<script>" + "function f(a){ " * depth + CALL * 2_000 + "}" * depth + "</script>"
    scan = scan_widget_source(source)
    assert scan.needs_used() == ("serverTools", "openaiApps")
