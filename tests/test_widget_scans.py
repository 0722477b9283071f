"""`hostcompat.widget_scans`: a widget's scan keyed by its bytes and the scanner's version, scanned once a run."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import hostcompat.engine.scan.version as scanner_version
import hostcompat.widget_scans as widget_scans
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.pipeline import WidgetBudget, bound_values, check_snapshot, derive, scan_widgets
from hostcompat.widget_analysis import widgets_to_scan
from hostcompat.widget_scans import (
    ContentNeeds,
    MemoScans,
    NeedUse,
    content_key,
    needs_from_json,
    needs_to_json,
    scan_content,
)
from hostcompat.wire_json import WireJSON
from testkit.snapshots import make_snapshot, widget_tool

PAGE = (
    "<script>window.openai.callTool('x', {});"
    " if (window.openai.sendFollowUpMessage) window.openai.sendFollowUpMessage({prompt: 'a'})</script>"
)
ITEM: dict[str, Any] = {"uri": "ui://a/view.html", "mimeType": "text/html;profile=mcp-app", "text": PAGE}


def test_the_key_is_the_bytes_and_the_scanner_version(monkeypatch: pytest.MonkeyPatch) -> None:
    key = content_key(ITEM)
    assert key is not None and len(key) == 64
    assert content_key({**ITEM, "uri": "ui://elsewhere/view.html"}) == key  # the URI is not what is scanned
    assert content_key({**ITEM, "text": PAGE + " "}) != key
    assert content_key({**ITEM, "mimeType": "text/uri-list"}) != key  # the MIME type changes how text is read
    assert content_key({"uri": "ui://a", "blob": "PHNjcmlwdD4="}) != content_key(
        {"uri": "ui://a", "text": "PHNjcmlwdD4="}
    )
    assert content_key({"uri": "ui://a"}) is None
    assert content_key({**ITEM, "text": "\ud800 lone surrogate"}) is not None
    monkeypatch.setattr(scanner_version, "SCANNER_VERSION", "0.0.0+scan.999")
    assert content_key(ITEM) != key


def test_a_result_survives_its_json_form() -> None:
    needs = scan_content(ITEM)
    assert needs.uses and needs.seen and needs.code_analysed and needs.error is None
    assert needs_from_json(needs_to_json(needs)) == needs
    for other in (ContentNeeds(code_analysed=False), ContentNeeds(error="broken"), ContentNeeds(capped=True)):
        assert needs_from_json(needs_to_json(other)) == other


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("capped"),
        lambda d: d.update(extra=1),
        lambda d: d.update(uses=[["serverTools", "yes"]]),
        lambda d: d.update(uses="serverTools"),
        lambda d: d.update(seen=[["serverTools", "callTool", False, True, None]]),
        lambda d: d.update(seen=[["serverTools", "callTool", False, 1]]),
        lambda d: d.update(wrapperOnly=[1]),
        lambda d: d.update(codeAnalysed=1),
        lambda d: d.update(error=["x"]),
        lambda d: d.update(uses=[["a", True]] * 100_001),
    ],
)
def test_anything_but_the_written_form_is_no_result(change: Any) -> None:
    data = needs_to_json(scan_content(ITEM))
    change(data)
    assert needs_from_json(data) is None
    assert needs_from_json([1, 2]) is None


def test_the_same_widget_on_several_servers_is_scanned_once(monkeypatch: pytest.MonkeyPatch) -> None:
    scanned: list[str] = []

    def counted(item: WireJSON, deadline: float | None = None) -> ContentNeeds:
        scanned.append(str(item.get("uri")))
        return scan_content(item, deadline)

    monkeypatch.setattr(widget_scans, "scan_content", counted)
    scans = MemoScans()
    catalog = load_catalog()
    one = make_snapshot([widget_tool("show", "ui://a/view.html")], {"ui://a/view.html": ITEM})
    other_item = {**ITEM, "uri": "ui://b/page.html"}
    two = make_snapshot([widget_tool("draw", "ui://b/page.html")], {"ui://b/page.html": other_item})
    plain = [check_snapshot(snapshot, catalog) for snapshot in (one, two)]
    assert len(scanned) == 2  # each check alone scans its own
    scanned.clear()
    shared = [check_snapshot(snapshot, catalog, widget_scans=scans) for snapshot in (one, two)]
    assert shared == plain  # the report is the same, scanned once or twice
    assert scanned == ["ui://a/view.html"]
    assert plain[1]["widgets"][0]["uri"] == "ui://b/page.html"  # each server's widget keeps its own URI


def test_the_memo_shares_a_scan_only_for_the_same_bytes_read_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    scanned: list[object] = []

    def counted(item: WireJSON, deadline: float | None = None) -> ContentNeeds:
        scanned.append(item.get("text", item.get("blob")))
        return scan_content(item, deadline)

    monkeypatch.setattr(widget_scans, "scan_content", counted)
    scans = MemoScans()
    same_length = PAGE.replace("'x'", "'y'")
    copy = "".join(list(PAGE))  # the same text in another string object
    items = [
        ITEM,
        {**ITEM, "uri": "ui://b/view.html", "text": copy},
        {**ITEM, "text": same_length},
        {**ITEM, "mimeType": "text/html"},
        {"uri": "ui://a/view.html", "blob": PAGE},
        {"uri": "ui://a/view.html", "text": 5},
        {"uri": "ui://a/view.html", "text": 5},
    ]
    results = [scans.content_needs(item, None) for item in items]
    assert scanned == [PAGE, same_length, PAGE, PAGE, 5, 5]  # the copy is the same bytes; no text: scanned each time
    assert results[1] == results[0] and results[2] != results[0]
    assert results == [scan_content(item) for item in items]


def test_a_scan_through_a_source_finds_what_a_scan_in_place_finds() -> None:
    page = "<script>const app = new App(); app.openLink({url: 'https://x.example'})</script>"
    snapshot = make_snapshot(
        [widget_tool("show", "ui://a/view.html"), widget_tool("list", "ui://a/view.html")],
        {"ui://a/view.html": {**ITEM, "text": page + PAGE, "_meta": {"ui": {"permissions": {"camera": {}}}}}},
    )
    derived = derive(bound_values(snapshot))
    alone = scan_widgets(derived, WidgetBudget())
    scans = MemoScans()
    first = scan_widgets(derived, WidgetBudget(), scans)
    again = scan_widgets(derived, WidgetBudget(), scans)
    assert alone.widgets == first.widgets == again.widgets
    assert alone.widgets.usage is not None and alone.widgets.usage.sandbox_permission_names


def test_widgets_to_scan_are_those_the_analysis_reads_within_the_characters() -> None:
    pages = {f"ui://w/{n}.html": {**ITEM, "uri": f"ui://w/{n}.html", "text": PAGE + " " * n} for n in range(3)}
    tools = [widget_tool(f"t{n}", uri) for n, uri in enumerate(pages)]
    derived = derive(bound_values(make_snapshot(tools, pages)))
    items = widgets_to_scan(derived.snapshot, derived.requirements, WidgetBudget())
    assert [item["uri"] for item in items] == list(pages)
    room = len(PAGE) * 2 + 1  # the first and the second (one character more) fit; the third does not
    items = widgets_to_scan(derived.snapshot, derived.requirements, WidgetBudget(max_chars=room))
    assert [item["uri"] for item in items] == ["ui://w/0.html", "ui://w/1.html"]


def test_a_content_the_scanner_refuses_says_why() -> None:
    needs = scan_content({"uri": "ui://a", "blob": 5})
    assert needs.error and not needs.uses
    snapshot = make_snapshot(
        [widget_tool("show", "ui://a/view.html")], {"ui://a/view.html": {"uri": "ui://a/view.html"}}
    )
    analysis = scan_widgets(derive(bound_values(snapshot)), WidgetBudget(), MemoScans()).widgets
    assert analysis.usage is None
    assert "could not be scanned" in analysis.notes[0]["message"]


def test_need_use_is_the_report_entry_form() -> None:
    use = NeedUse(need="serverTools", detail="callTool", guarded=False, line=None, snippet=None)
    assert use.to_dict() == {"need": "serverTools", "detail": "callTool", "guarded": False}
    assert dataclasses.replace(use, line=3).to_dict()["line"] == 3


def test_warming_up_loads_the_scanner_in_a_fresh_interpreter() -> None:
    import subprocess
    import sys

    code = (
        "import sys\nfrom hostcompat.widget_scans import warm_up\n"
        "before = 'hostcompat.engine.scan.widget' in sys.modules\nwarm_up()\n"
        "print(before, 'hostcompat.engine.scan.widget' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]
