"""The page with real servers: the npm example MCP App servers' matrices match the API, a host config file uploaded
on the page gives a servers-by-hosts matrix (and none of its secrets), and a verdict hostcompat's client rules improve
shows what it becomes with `hostcompat proxy` in front, in the page and in the HTML report."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from hostcompat.report import render_report
from tests.web.browser import chips, expected_chips, screenshot, watched_page
from tests.web.examples import proxied_snapshot
from tests.web.support import Served

pytestmark = pytest.mark.timeout(300)

SECRET = "config-secret-9d41c7"


def test_the_matrix_shows_exactly_the_verdicts_of_the_api_for_the_npm_example_servers(
    served: Served, browser: Any, npm_example_snapshots: dict[str, dict[str, Any]]
) -> None:
    errors: list[str] = []
    page = watched_page(browser, [], errors)
    for name, snapshot in npm_example_snapshots.items():
        run = served.check({"snapshot": snapshot})
        assert run["status"] == "done", (name, run.get("error"))
        page.goto(f"{served.base}/?report={run['id']}&theme=light")
        page.wait_for_selector(f"#matrix table[data-report='{run['id']}'] button.chip")
        assert chips(page) == expected_chips(run["report"]), name
        server_name = run["report"]["servers"][0]["server"]["name"]
        assert page.text_content("#matrix tbody th") == server_name
        assert server_name in page.eval_on_selector("#report-pick", "s => s.selectedOptions[0].textContent")
    screenshot(page, "page-npm-example.png")
    assert not errors


def test_a_config_file_uploaded_on_the_page_gives_a_servers_by_hosts_matrix(
    served: Served, browser: Any, tmp_path: Path
) -> None:
    board = [sys.executable, "-m", "hostcompat.examples.board"]
    config = {
        "mcpServers": {
            "board": {"command": board[0], "args": board[1:]},
            "board-with-key": {"command": board[0], "args": board[1:], "env": {"API_KEY": SECRET}},
            "missing": {"command": "hostcompat-no-such-command-here"},
        }
    }
    path = tmp_path / "claude_desktop_config.json"
    path.write_text(json.dumps(config))
    errors: list[str] = []
    page = watched_page(browser, [], errors)
    page.goto(f"{served.base}/?token={served.token}&theme=light")
    page.wait_for_selector("html[data-ready=true]")
    page.set_input_files("#snapshot-file", str(path))
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#status:has-text('checked claude_desktop_config.json')", timeout=120_000)
    run_id = page.get_attribute("#matrix table", "data-report")
    status, run = served.request("GET", f"/api/reports/{run_id}")
    assert status == 200 and run["status"] == "done"
    assert len(run["report"]["servers"]) == 3
    assert chips(page) == expected_chips(run["report"])
    rows = page.eval_on_selector_all("#matrix tbody tr th", "els => els.map(e => e.textContent)")
    assert rows == ["board", "board-with-key", "missing"]  # a config's servers go by their entries' names
    assert "not found on PATH" in page.text_content("#matrix td.error")
    assert page.locator("#progress li").count() >= 3  # each server's progress was shown
    assert SECRET not in page.content() and SECRET not in json.dumps(run)
    screenshot(page, "page-config.png")
    assert not errors


def test_without_the_token_a_config_file_is_not_sent(served: Served, browser: Any, tmp_path: Path) -> None:
    path = tmp_path / ".mcp.json"
    path.write_text(json.dumps({"mcpServers": {"x": {"command": "true"}}}))
    page = watched_page(browser, [], [])
    page.goto(served.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.set_input_files("#snapshot-file", str(path))
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#status.error")
    assert "with its token" in page.text_content("#status")
    assert page.locator("#matrix button.chip").count() == 0


def test_a_verdict_the_client_rules_improve_says_so_in_the_page_and_the_html_report(
    served: Served, browser: Any, tmp_path: Path
) -> None:
    run = served.check({"snapshot": proxied_snapshot()})
    codex = next(host for host in run["report"]["servers"][0]["hosts"] if host["hostId"] == "codex")
    assert codex["verdict"] in ("degraded", "blocked") and codex["withProxy"]["verdict"] == "works"
    page = watched_page(browser, [], [])
    page.goto(f"{served.base}/?report={run['id']}&theme=light")
    chip = page.locator("#matrix button.chip[data-host=codex]")
    assert "proxy" in (chip.get_attribute("class") or "")
    assert "works with hostcompat proxy in front" in (chip.get_attribute("title") or "")
    proxied = {h["hostId"] for h in run["report"]["servers"][0]["hosts"] if h.get("withProxy")}
    marked = page.eval_on_selector_all("#matrix button.chip.proxy", "els => els.map(e => e.dataset.host)")
    assert set(marked) == proxied
    chip.click()
    note = page.text_content("#detail .proxy-note")
    assert "hostcompat proxy in front: works" in note and "codex." in note
    tags = page.eval_on_selector_all("#detail .finding .tag", "els => els.length")
    assert tags == len([f for f in codex["findings"] if f["ruleId"] in codex["withProxy"]["fixed"]]) > 0
    screenshot(page, "page-with-proxy.png")
    path = tmp_path / "report-with-proxy.html"
    path.write_text(render_report(run["report"], "html"), encoding="utf-8")
    page.goto(path.as_uri())
    assert "works with hostcompat proxy in front" in (page.get_attribute("a.chip[title^='Codex']", "title") or "")
    page.click("a.chip[title^='Codex']")  # opens the host's findings
    assert "With hostcompat proxy in front: works" in page.text_content("details.host[open] p.proxy")
    screenshot(page, "report-with-proxy.png")
