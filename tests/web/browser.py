"""The browser of the page tests: the system's Chromium driven by Playwright (sync API), skipped with a message
outside CI when it is missing and failing under CI=true (as the observed-run tests do).

The observed-run flags are kept, but for the dead proxy: these pages must reach the local server on loopback.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from hostcompat.observe.browser import LAUNCH_ARGS, browser_status, find_chromium

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
"""Where the tests keep screenshots (gitignored)."""

PWN_FLAG = "__hostcompat_pwned"
"""A window property a hostile payload would set; the tests assert it never is."""


def require_browser() -> None:
    problem = browser_status()
    if problem is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"the page tests need a browser in CI: {problem}")
    pytest.skip(f"no browser for the page tests: {problem}")


def page_args() -> list[str]:
    return [arg for arg in LAUNCH_ARGS if not arg.startswith(("--proxy-server", "--proxy-bypass-list"))]


@contextmanager
def chromium() -> Iterator[Any]:
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(), headless=True, args=page_args())
        try:
            yield browser
        finally:
            browser.close()


def watched_page(browser: Any, dialogs: list[str], errors: list[str]) -> Any:
    """A new page that records every dialog (and dismisses it) and every page error."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    return path


def chips(page: Any) -> set[tuple[str, str, str]]:
    """The matrix's verdict chips: (server index, host id, verdict)."""
    found = page.eval_on_selector_all(
        "#matrix button.chip",
        "els => els.map(e => [e.dataset.server, e.dataset.host, e.dataset.verdict])",
    )
    return {(str(s), str(h), str(v)) for s, h, v in found}


def expected_chips(report: Any) -> set[tuple[str, str, str]]:
    """The chips the matrix must show for a report the API returned: one per server and host it was judged on."""
    return {
        (str(index), host["hostId"], host["verdict"])
        for index, server in enumerate(report["servers"])
        for host in server["hosts"]
    }
