"""The one view the text, rich and Markdown reports draw from: they say the same things, and a report of any shape
is read without failing.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import cast

import pytest

from hostcompat.report import ReportDocument, render_markdown, render_rich, render_text
from hostcompat.report.view import report_view
from tests.cli._support import run
from tests.report.sample import document

FIXTURE = Path(__file__).resolve().parents[2] / "tests" / "probe" / "fixtures" / "board-snapshot-v1.json"
WIDTH = 100


@pytest.fixture(scope="module")
def checked_fixture() -> ReportDocument:
    code, out, err = run("check", str(FIXTURE), "--format", "json", "--fail-on", "never")
    assert code == 0, err
    parsed: ReportDocument = json.loads(out)
    return parsed


def rich_lines(doc: ReportDocument) -> list[str]:
    pytest.importorskip("rich")
    out = io.StringIO()
    assert render_rich(doc, out, width=WIDTH + 2)  # the blocks wrap to the console less a margin of 2
    return [line.rstrip() for line in out.getvalue().splitlines()]


def documents(checked_fixture: ReportDocument) -> list[ReportDocument]:
    return [document("works", "degraded", "blocked", "unknown"), checked_fixture]


def test_text_and_rich_say_the_same_of_every_finding_and_unknown_lane(checked_fixture: ReportDocument) -> None:
    for doc in documents(checked_fixture):
        text = render_text(doc, width=WIDTH).splitlines()
        rich = rich_lines(doc)
        counts = next(i for i, line in enumerate(text) if " works, " in line)
        after_table = max(i for i, line in enumerate(rich) if "│" in line) + 1
        told = " ".join(text[counts:]).split()
        shown = " ".join(rich[after_table:]).split()
        assert told and told == shown  # the same words in the same order: counts, findings, hygiene heading


def test_text_and_rich_list_the_same_hosts_and_verdicts(checked_fixture: ReportDocument) -> None:
    for doc in documents(checked_fixture):
        (server,) = report_view(doc).servers
        text = render_text(doc, width=WIDTH)
        rows = [[cell.strip() for cell in line.split("│")] for line in rich_lines(doc) if "│" in line]
        assert [(row[0], row[1], row[4]) for row in rows] == [
            (host.label, host.verdict, str(host.findings)) for host in server.hosts
        ]
        for host in server.hosts:
            noun = "finding" if host.findings == 1 else "findings"
            assert f" {host.label} " in text and f"  {host.verdict:<8}  {host.findings} {noun}" in text


def test_the_view_reads_a_report_of_any_shape() -> None:
    odd = cast(
        ReportDocument,
        {
            "schema": "hostcompat.report/1",
            "servers": [
                "not a server",
                {"hosts": "x", "events": "y", "summary": [], "hygiene": {}, "server": 3, "target": []},
                {"hosts": [1, {"hostId": "h", "findings": [2, {"tools": 5}], "lanes": []}], "hygiene": [None, {}]},
            ],
        },
    )
    first, second = report_view(odd).servers
    assert (first.name, first.display, first.hosts, first.hygiene, first.events) == ("server", "", (), (), ())
    assert first.summary == (("works", "0"), ("degraded", "0"), ("blocked", "0"), ("unknown", "0"))
    (host,) = second.hosts
    assert (host.label, host.verdict, host.apps, host.findings) == ("h", "None", "", 2)
    (finding,) = second.findings
    assert (finding.rule_id, finding.tools, finding.hosts) == ("None", (), ("h",))
    assert [hygiene.rule_id for hygiene in second.hygiene] == ["None"]
    assert render_text(odd) and render_markdown(odd)
    assert rich_lines(odd)
