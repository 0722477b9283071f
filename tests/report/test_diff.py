"""`report.diff`: what got worse and what got better between two documents, server by identity, host by id."""

from __future__ import annotations

import copy

from hostcompat.report import ReportDocument, VerdictName, report_document, server_entry
from hostcompat.report.diff import diff_reports, server_identity
from tests.report.sample import document, finding


def _two_servers() -> ReportDocument:
    first, second = document("works", "degraded"), document("blocked", "works")
    second["servers"][0]["target"]["display"] = "node other.js"
    return report_document([first["servers"][0], second["servers"][0]])


def test_one_server_worse_and_one_better() -> None:
    baseline = _two_servers()
    current = copy.deepcopy(baseline)
    board, other = current["servers"]
    board["hosts"][0]["verdict"] = "blocked"  # host0 of board: works → blocked, and a new finding
    board["hosts"][0]["findings"].append(finding("APPS-NEW-001", "blocker", ["t"]))
    other["hosts"][0]["verdict"] = "works"  # host0 of other: blocked → works, its finding gone
    other["hosts"][0]["findings"] = []
    changes = diff_reports(baseline, current)
    assert changes.regressed
    assert [change.describe() for change in changes.worse] == [
        "python -m board · host0: works → blocked",
        "python -m board · host0: new finding APPS-NEW-001",
    ]
    assert [change.describe() for change in changes.better] == [
        "node other.js · host0: blocked → works",
        "node other.js · host0: APPS-CAP-001 gone",
    ]
    text = changes.text()
    assert text.endswith("worse than the baseline: 2 worse, 2 better\n")
    assert "  + node other.js · host0: blocked → works" in text
    assert diff_reports(current, baseline).regressed  # the mirror image is worse too (APPS-CAP-001 is back)


def test_the_verdict_order_is_works_unknown_degraded_blocked() -> None:
    order: list[VerdictName] = ["works", "unknown", "degraded", "blocked"]
    for before_index, before in enumerate(order):
        for after_index, after in enumerate(order):
            baseline, current = document(before), document(after)
            current["servers"][0]["hosts"][0]["findings"] = baseline["servers"][0]["hosts"][0]["findings"]
            changes = diff_reports(baseline, current)
            assert changes.regressed == (after_index > before_index), (before, after)
            assert bool(changes.better) == (after_index < before_index), (before, after)


def test_identical_reports_have_no_changes_and_pass() -> None:
    changes = diff_reports(_two_servers(), _two_servers())
    assert (changes.worse, changes.better, changes.notes) == ((), (), ())
    assert changes.text() == "no worse than the baseline: 0 worse, 0 better\n"


def test_a_server_that_can_no_longer_be_checked_is_worse_and_only_that() -> None:
    baseline = _two_servers()
    broken = server_entry(target={"display": "node other.js"}, server=None, hosts=[], error="connection refused")
    current = report_document([baseline["servers"][0], broken])
    changes = diff_reports(baseline, current)
    assert [change.describe() for change in changes.worse] == [
        "node other.js: could not be checked: connection refused"
    ]
    assert changes.better == ()
    back = diff_reports(current, baseline)
    assert not back.regressed and [change.kind for change in back.better] == ["checked"]


def test_a_new_server_is_compared_with_works_and_a_gone_one_is_a_note() -> None:
    baseline = report_document([_two_servers()["servers"][1]])
    current = report_document([_two_servers()["servers"][0]])
    changes = diff_reports(baseline, current)
    assert "node other.js: only in the baseline" in changes.notes
    assert any("not in the baseline" in note for note in changes.notes)
    assert [change.describe() for change in changes.worse if change.kind == "verdict"] == [
        "python -m board · host1: works → degraded"
    ]


def test_hosts_only_on_one_side_are_notes_not_changes() -> None:
    baseline, current = document("works", "blocked"), document("works")
    changes = diff_reports(baseline, current)
    assert not changes.regressed and changes.better == ()
    assert changes.notes == ("python -m board · host1: only in the baseline",)


def test_identity_is_the_redacted_target_display_else_the_server_name() -> None:
    doc = document("works")
    assert server_identity(doc["servers"][0]) == "python -m board"
    doc["servers"][0]["target"] = {}
    assert server_identity(doc["servers"][0]) == "board"


def test_server_text_in_the_diff_is_terminal_safe() -> None:
    baseline, current = document("works"), document("blocked")
    for doc in (baseline, current):
        doc["servers"][0]["target"]["display"] = "evil\x1b[2J\u202ename"
    assert "\x1b" not in diff_reports(baseline, current).text()
    assert "\u202e" not in diff_reports(baseline, current).text()


def test_hygiene_findings_are_compared_as_the_servers_own() -> None:
    baseline, current = document("works"), document("works")
    current["servers"][0]["hygiene"].append(finding("HYG-NEW-001", "degraded", ["t"], lane="server"))
    baseline["servers"][0]["hygiene"].append(finding("HYG-OLD-001", "info", ["t"], lane="server"))
    changes = diff_reports(baseline, current)
    assert [change.describe() for change in changes.worse] == ["python -m board · (hygiene): new finding HYG-NEW-001"]
    assert [change.describe() for change in changes.better] == ["python -m board · (hygiene): HYG-OLD-001 gone"]
