"""The page in a real headless Chromium: the matrix matches the API, uploads and live probes work, failures show,
and a hostile server runs no script, in the page or in the `--format html` report. Screenshots go to artifacts/."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from hostcompat.report import render_report
from tests.web.browser import PWN_FLAG, chips, expected_chips, screenshot, watched_page
from tests.web.hostile import hostile_snapshot
from tests.web.support import Served

pytestmark = pytest.mark.timeout(300)


_chips, _expected = chips, expected_chips


def test_the_matrix_shows_exactly_the_verdicts_of_the_api(
    served: Served, browser: Any, board_snapshot: dict[str, Any]
) -> None:
    run = served.check({"snapshot": board_snapshot})
    dialogs: list[str] = []
    errors: list[str] = []
    page = watched_page(browser, dialogs, errors)
    page.goto(f"{served.base}/?report={run['id']}&theme=light")
    page.wait_for_selector("#matrix button.chip")
    assert _chips(page) == _expected(run["report"])
    assert len(_chips(page)) == len(run["report"]["servers"][0]["hosts"]) > 10
    page.locator("#matrix button.chip[data-verdict=degraded], #matrix button.chip[data-verdict=blocked]").first.click()
    page.wait_for_selector("#detail h2")
    screenshot(page, "page-light.png")
    page.click("#theme")  # light → auto
    page.click("#theme")  # auto → dark
    assert page.get_attribute("html", "data-theme") == "dark"
    screenshot(page, "page-dark.png")
    assert not errors and not dialogs


def test_the_filters_hide_and_the_keyboard_opens_a_host(
    served: Served, browser: Any, board_snapshot: dict[str, Any]
) -> None:
    run = served.check({"snapshot": board_snapshot})
    page = watched_page(browser, [], [])
    page.goto(f"{served.base}/?report={run['id']}")
    page.wait_for_selector("#matrix button.chip")
    verdicts = {v for _, _, v in _chips(page)}
    some = sorted(verdicts)[0]
    page.uncheck(f"input[data-verdict={some}]")
    faded = page.eval_on_selector_all("#matrix button.chip.faded", "els => els.map(e => e.dataset.verdict)")
    assert faded and set(faded) == {some}
    page.locator("#matrix button.chip").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#detail h2")
    kinds = page.eval_on_selector_all("#kind option", "els => els.map(e => e.value)")
    assert len(kinds) > 2
    page.check(f"input[data-verdict={some}]")
    page.select_option("#kind", kinds[1])
    assert 0 < page.locator("#matrix button.chip").count() < len(_expected(run["report"]))
    page.select_option("#kind", "all")
    for verdict in verdicts:  # no verdict of the server's shown: its row goes, and the page says so
        page.uncheck(f"input[data-verdict={verdict}]")
    assert page.locator("#matrix tbody tr").count() == 0
    assert "1 server(s) with no verdict the filters show are hidden" in page.text_content("#matrix")


def test_a_host_shows_its_facts_versions_and_each_widgets_needs_with_line_and_snippet(
    served: Served, browser: Any, board_snapshot: dict[str, Any]
) -> None:
    run = served.check({"snapshot": board_snapshot})
    server = run["report"]["servers"][0]
    widget = server["widgets"][0]
    host = next(h for h in server["hosts"] if any(f.get("factSince") for f in h["findings"]))
    page = watched_page(browser, [], [])
    page.goto(f"{served.base}/?report={run['id']}&theme=light")
    page.click(f"#matrix button.chip[data-host='{host['hostId']}']")
    page.wait_for_selector("#detail .widget")
    terms = page.eval_on_selector_all("#detail .finding dt", "els => els.map(e => e.textContent)")
    assert "host fact" in terms and "versions" in terms
    since = next(f["factSince"] for f in host["findings"] if f.get("factSince"))
    assert f"{since} and later" in page.text_content("#detail")
    rows = page.eval_on_selector_all(
        "#detail .widget table.needs tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert [(r[0], r[2]) for r in rows] == [(n["need"], str(n.get("line", "_meta"))) for n in widget["needs"]]
    assert all(row[3] for row, need in zip(rows, widget["needs"], strict=True) if need.get("snippet"))
    assert "static evidence only" in page.text_content("#detail .widget")
    screenshot(page, "page-host-findings.png")


def test_a_snapshot_upload_works_and_two_reports_diff(
    served: Served, browser: Any, board_snapshot: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board_snapshot))
    page = watched_page(browser, [], [])
    page.goto(served.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.set_input_files("#snapshot-file", str(path))
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#matrix button.chip")
    assert "checked board.json" in page.text_content("#status")
    worse = json.loads(json.dumps(board_snapshot))
    worse["tools"] = [{**tool, "_meta": {"ui": {"resourceUri": "ui://nowhere"}}} for tool in worse["tools"]]
    path.write_text(json.dumps(worse))
    page.set_input_files("#snapshot-file", str(path))
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#report-pick option:nth-child(2)", state="attached")
    page.select_option("#diff-pick", "0")
    page.wait_for_selector("#diff h2")
    assert "Report #2 board.json compared with #1 board.json" in page.text_content("#diff")
    assert page.locator("#diff tr.worse").count() > 0
    screenshot(page, "page-diff.png")


def test_a_failing_probe_shows_its_error(served: Served, browser: Any) -> None:
    page = watched_page(browser, [], [])
    page.goto(f"{served.base}/?token={served.token}")
    page.wait_for_selector("html[data-ready=true]")
    page.fill("#target", f"{sys.executable} -c 'import sys; sys.exit(7)' --token=SECRET-TOKEN-5")
    page.click("#live-submit")
    page.wait_for_selector("#status.error")
    assert "the check failed" in page.text_content("#status")
    assert page.locator("#matrix td.error").count() == 1
    assert "SECRET-TOKEN-5" not in page.content()  # the typed command is named by the report's redacted form
    assert "--token=<redacted>" in page.text_content("#report-pick")


def test_without_the_token_the_page_cannot_start_a_command(served: Served, browser: Any) -> None:
    page = watched_page(browser, [], [])
    page.goto(served.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    assert page.is_disabled("#live-submit")
    status = page.evaluate(
        "fetch('/api/check', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({command: 'true'})}).then(r => r.status)"
    )
    assert status == 403


def _assert_inert(page: Any, dialogs: list[str]) -> None:
    page.wait_for_timeout(300)
    assert page.evaluate(f"window.{PWN_FLAG} === undefined")
    assert not dialogs
    assert page.locator("img, iframe, object, embed").count() == 0  # no server markup became an element
    assert page.locator("script").count() == 1  # the page's (or the report's) own script only
    assert page.locator("a[href^='javascript:']").count() == 0


def test_a_hostile_server_runs_no_script_in_the_page(served: Served, browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(hostile_snapshot()))
    dialogs: list[str] = []
    page = watched_page(browser, dialogs, [])
    page.goto(served.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.set_input_files("#snapshot-file", str(path))
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#matrix button.chip")
    chips = page.locator("#matrix button.chip")
    for index in range(min(chips.count(), 12)):
        chips.nth(index).click()
        page.wait_for_selector("#detail h2")
        _assert_inert(page, dialogs)
    page.locator("#matrix button.chip").first.click()
    snippets = page.eval_on_selector_all("#detail .widget code", "els => els.map(e => e.textContent)")
    assert any("<script>" in text for text in snippets)  # widget code and metadata are shown as text
    _assert_inert(page, dialogs)
    name = page.text_content("#matrix tbody th")
    assert "<script>" in name  # shown as text, not run
    assert "\x1b" not in name and "[31mred" in name  # an ANSI escape shows as text, its control character dropped
    screenshot(page, "page-hostile.png")


def test_a_hostile_server_runs_no_script_in_the_html_report(
    served: Served, browser: Any, board_snapshot: dict[str, Any], tmp_path: Path
) -> None:
    evil = served.check({"snapshot": hostile_snapshot()})["report"]
    board = served.check({"snapshot": board_snapshot})["report"]
    dialogs: list[str] = []
    page = watched_page(browser, dialogs, [])
    for name, report in (("report-hostile", evil), ("report-board", board)):
        path = tmp_path / f"{name}.html"
        path.write_text(render_report(report, "html"), encoding="utf-8")
        page.goto(path.as_uri())
        page.wait_for_selector("table")
        for summary in page.locator("details.host > summary").all()[:12]:
            summary.click()
        _assert_inert(page, dialogs)
        assert page.locator("article.widget table.needs").count() >= 1
        screenshot(page, f"{name}.png")
        columns = page.locator(".matrix th.host:visible").count()
        page.select_option("#kind", index=1)  # the first kind: its hosts' columns stay, the others go
        assert 0 < page.locator(".matrix th.host:visible").count() < columns
        screenshot(page, f"{name}-one-kind.png")
