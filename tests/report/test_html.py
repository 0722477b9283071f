"""The one-file HTML report: every finding the JSON has, and nothing a server sent ever becomes markup or script."""

from __future__ import annotations

import html.parser
from typing import Any, cast

from hostcompat.report import ReportDocument, render_html, report_document, server_entry
from hostcompat.report.html import CSP

EVIL = '<script>alert(1)</script><img src=x onerror=alert(2)>"\x1b]0;pwned\x07\u202e'


def _hostile_document() -> ReportDocument:
    finding = {
        "ruleId": "SERVER-NAME-002",
        "lane": "server",
        "severity": "degraded",
        "title": EVIL,
        "detail": EVIL,
        "remediation": "javascript:alert(3)",
        "tools": [EVIL],
        "evidence": [{"source": f"tools/list:{EVIL}", "detail": EVIL, "snippet": EVIL, "line": 3}],
        "provenance": "observed",
        "factSource": EVIL,
        "factDate": "2026-01",
        "factSince": EVIL,
    }
    host = {
        "hostId": "cursor",
        "hostLabel": EVIL,
        "hostKind": EVIL,
        "verdict": "degraded",
        "lanes": {
            "apps": {"verdict": "works", "provenance": "observed", "unknown": [EVIL]},
            "server": {"verdict": "degraded", "provenance": None, "unknown": []},
        },
        "findings": [finding, {**finding, "evidence": [{"source": "observed:ui://w", "detail": EVIL}]}],
        "provenance": "observed",
    }
    widget = {
        "uri": "ui://w",
        "tools": [EVIL],
        "needs": [{"need": EVIL, "detail": EVIL, "guarded": True, "line": 7, "snippet": EVIL}],
        "moreNeeds": 2,
    }
    entry = server_entry(
        target={"display": EVIL},
        server={"name": EVIL, "version": EVIL, "protocolVersion": EVIL},
        hosts=[host],
        hygiene=[finding],
        events=[{"code": EVIL, "message": EVIL}],
        widgets=[widget],
    )
    return report_document([entry])


class _Markup(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes.extend(attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_nothing_a_server_sent_becomes_a_tag_an_attribute_or_a_script() -> None:
    page = render_html(_hostile_document())
    markup = _Markup()
    markup.feed(page)
    assert markup.tags.count("script") == 1  # the page's own
    assert "img" not in markup.tags
    assert not [name for name, _ in markup.attributes if name.startswith("on")]
    assert not [value for name, value in markup.attributes if name == "href" and not (value or "").startswith("#")]
    text = "".join(markup.text)
    assert "<script>alert(1)</script>" in text  # shown as text, escaped in the file
    assert "\x1b" not in page and "\u202e" not in page and "\x07" not in page


def test_the_policy_admits_only_the_pages_own_script_and_no_network() -> None:
    page = render_html(_hostile_document())
    assert f'content="{CSP.replace(chr(39), "&#x27;")}"' in page
    assert "default-src 'none'" in CSP and "script-src 'sha256-" in CSP and "'unsafe-inline'" not in CSP.split(";")[2]
    assert "http://" not in page and "https://" not in page


def test_every_finding_of_every_host_is_in_the_page() -> None:
    document = _hostile_document()
    page = render_html(document)
    assert page.count('class="finding"') == 3  # the host's two findings and the hygiene finding
    assert 'id="s0-h0"' in page and 'href="#s0-h0"' in page


def test_a_report_of_any_shape_renders() -> None:
    odd: dict[str, Any] = {
        "schema": "hostcompat.report/1",
        "tool": "0" * 50,
        "servers": [
            "not a server",
            {"hosts": "x", "events": "y", "summary": [], "hygiene": {}, "server": 3, "target": []},
            {"hosts": [1, {"hostId": "h", "findings": [2, {"evidence": "e", "tools": 5}], "lanes": []}]},
        ],
    }
    page = render_html(cast(ReportDocument, odd))  # a saved report is rendered whatever its shape
    assert page.startswith("<!DOCTYPE html>") and page.count("<section id=") == 2


def test_each_widget_shows_its_needs_with_line_and_snippet_and_what_was_observed() -> None:
    markup = _Markup()
    markup.feed(render_html(_hostile_document()))
    text = "".join(markup.text)
    assert "Widgets and the needs they use" in text and "2 more use(s) not listed" in text
    assert "(guarded)7<script>alert(1)</script>" in text.replace("\n", "")  # the need's line, then its snippet
    assert "Observed:" in text and "SERVER-NAME-002 <script>" in text


def test_a_host_fact_shows_the_versions_its_source_bounds_it_to() -> None:
    markup = _Markup()
    markup.feed(render_html(_hostile_document()))
    text = "".join(markup.text)
    assert 'versions<script>alert(1)</script><img src=x onerror=alert(2)>"]0;pwned and later' in text
    assert text.count(" and later") == 3  # every finding of the fact (two on the host, one in hygiene)


def test_host_kinds_filter_under_our_own_names_and_servers_sort() -> None:
    page = render_html(_hostile_document())
    markup = _Markup()
    markup.feed(page)
    kinds = {value for name, value in markup.attributes if name == "data-kind"}
    assert kinds == {"k0"}  # the report's kind string is shown as an option's text, never used as an attribute
    assert '<option value="k0"><script>' not in page and '<option value="k0">&lt;script&gt;' in page
    assert 'id="sort"' in page and 'data-worst="2"' in page  # degraded is the server's worst verdict
