"""Markdown code spans hold text as typed: no backslash escapes inside backticks, and backticks in the text fenced."""

from hostcompat.report import render_markdown
from hostcompat.report.markdown import code_span
from tests.report.sample import document


def _target(doc: object, display: str) -> None:
    doc["servers"][0]["target"]["display"] = display  # type: ignore[index]


def test_target_in_a_code_span_has_no_backslash_escapes() -> None:
    doc = document("works")
    _target(doc, "snap_demo.json")
    md = render_markdown(doc)
    assert "Target: `snap_demo.json`" in md
    assert "snap\\_demo" not in md


def test_tool_names_in_code_spans_are_not_escaped() -> None:
    md = render_markdown(document("works", "degraded"))
    assert "`show|board`" in md
    assert "show\\|board" not in md


def test_code_span_fences_backticks_in_the_text() -> None:
    assert code_span("a`b") == "``a`b``"
    assert code_span("``x") == "``` ``x ```"
    assert code_span("plain_name*") == "`plain_name*`"


def test_code_span_stays_on_one_line() -> None:
    assert "\n" not in code_span("a\nb\x1b[2J")
    assert "\x1b" not in code_span("a\nb\x1b[2J")
