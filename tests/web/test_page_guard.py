"""The guard, seen from a real browser: a page on another site cannot drive the local server, and a name rebound to
127.0.0.1 (DNS rebinding) gets nothing from it.

Chromium already keeps public pages off loopback (Local Network Access); these tests turn that off, as a browser
without it would be, so that what refuses the requests is hostcompat's own `Host` and `Origin` checks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from hostcompat.observe.browser import find_chromium
from tests.web.browser import page_args, require_browser, watched_page
from tests.web.support import Served

pytestmark = pytest.mark.timeout(120)

NO_BROWSER_GUARD = (
    "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,"
    "PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults"
)

ATTACK = """<!doctype html><script>
var post = (path, body) => fetch("%(base)s" + path, {method: "POST", mode: "no-cors",
  headers: {"Content-Type": "text/plain"}, body: body});
window.sent = Promise.all([post("/api/check", %(check)s), post("/api/scan", "<script>x()</" + "script>")])
  .then(() => "sent", (e) => String(e));
</script>"""


@pytest.fixture(scope="module")
def open_browser() -> Iterator[Any]:
    """Chromium without its own loopback protection, resolving rebind.test to 127.0.0.1."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        args = [*page_args(), NO_BROWSER_GUARD, "--host-resolver-rules=MAP rebind.test 127.0.0.1"]
        browser = playwright.chromium.launch(executable_path=find_chromium(), headless=True, args=args)
        try:
            yield browser
        finally:
            browser.close()


def test_a_page_on_another_site_is_refused_before_any_work(
    served: Served, open_browser: Any, board_snapshot: dict[str, Any]
) -> None:
    page = watched_page(open_browser, [], [])
    check = json.dumps(json.dumps({"snapshot": board_snapshot})).replace("</", "<\\/")  # the widget's own </script>
    html = ATTACK % {"base": served.base, "check": check}
    page.route("http://evil.test/**", lambda route: route.fulfill(content_type="text/html", body=html))
    answers: dict[str, int] = {}
    page.on(
        "response",
        lambda r: answers.update({r.url[len(served.base) :]: r.status}) if r.url.startswith(served.base) else None,
    )
    page.goto("http://evil.test/attack.html")
    page.wait_for_function("window.sent !== undefined")
    assert page.evaluate("window.sent") == "sent"  # the requests went out: the browser did not stop them
    page.wait_for_timeout(300)
    # the browser sent Origin: http://evil.test, and the guard said no (neither needs the token: only the guard refuses)
    assert answers == {"/api/check": 403, "/api/scan": 403}


def test_a_name_rebound_to_loopback_gets_nothing(served: Served, open_browser: Any) -> None:
    page = watched_page(open_browser, [], [])
    response = page.goto(f"http://rebind.test:{served.port}/?token={served.token}")
    assert response is not None and response.status == 403
    assert "Host header names another site" in page.text_content("body")
    assert page.locator("#matrix").count() == 0  # the page itself never loaded
    assert page.evaluate("fetch('/api/hosts').then(r => r.status)") == 403
