import io
import json
import os
from pathlib import Path

import pytest

from hostcompat.report import ReportDocument, render_html, render_markdown, render_rich, render_sarif, render_text
from tests.report.sample import document, server_info

SARIF_SCHEMA = (
    Path(__file__).resolve().parents[2]
    / "interop/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"
)


def test_text_says_each_finding_once_with_its_hosts() -> None:
    text = render_text(document("works", "degraded", "degraded"))
    assert text.count("- APPS-CAP-001 [degraded]") == 1
    assert "hosts: Host1, Host2" in text
    assert "fix: fix APPS-CAP-001" in text
    assert "[PROBE-TIMEOUT-LIST] tools/list timed out after 5 s" in text
    assert "1 works, 2 degraded, 0 blocked, 0 unknown" in text


def test_text_drops_control_characters_a_server_sent() -> None:
    doc = document("works")
    server_info(doc)["name"] = "evil\x1b[2Jname"
    assert "\x1b" not in render_text(doc)


def test_markdown_escapes_table_breaking_names() -> None:
    md = render_markdown(document("works", "degraded"))
    assert "`show|board`" in md  # a code span outside the table: its text as typed
    rows = [line for line in md.splitlines() if line.startswith("| Host")]
    assert len(rows) == 2
    assert all(row.count("|") == 6 for row in rows)


def test_sarif_has_one_result_per_finding_with_its_rule() -> None:
    sarif = render_sarif(document("works", "degraded", "blocked"))
    run = sarif["runs"][0]
    assert sarif["version"] == "2.1.0"
    assert len(run["results"]) == 3  # two host findings and one hygiene finding
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "mcp-servers/board"
    levels = sorted(result["level"] for result in run["results"])
    assert levels == ["error", "warning", "warning"]
    fingerprints = {result["partialFingerprints"]["hostcompat/v1"] for result in run["results"]}
    assert len(fingerprints) == 3


def test_sarif_validates_against_the_official_schema() -> None:
    if not SARIF_SCHEMA.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"the SARIF 2.1.0 schema is missing in CI: {SARIF_SCHEMA}")
        pytest.skip("the SARIF 2.1.0 schema comes with the npm interop packages (run .ci/run)")
    import jsonschema

    schema = json.loads(SARIF_SCHEMA.read_text("utf-8"))
    jsonschema.validate(render_sarif(document("degraded", "blocked")), schema)
    unchecked = document("unknown")
    unchecked["servers"][0]["error"] = "could not connect: the server exited (code 1) during initialize"
    jsonschema.validate(render_sarif(unchecked), schema)


def test_every_renderer_says_why_a_server_could_not_be_checked() -> None:
    doc = document("unknown")
    doc["servers"][0]["error"] = "could not connect: the server exited (code 1) during initialize"
    assert "could not be checked: could not connect" in render_text(doc)
    assert "**Could not be checked:** could not connect" in render_markdown(doc)
    assert "<strong>Could not be checked:</strong> could not connect" in render_html(doc)
    out = io.StringIO()
    if render_rich(doc, out, width=200):
        assert "could not be checked: could not connect" in out.getvalue()
    (notification,) = render_sarif(doc)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert "could not connect" in notification["message"]["text"]
    assert render_sarif(document("works"))["runs"][0]["invocations"] == [{"executionSuccessful": True}]


def test_markdown_neutralises_control_characters_a_server_sent() -> None:
    doc = document("degraded")
    server_info(doc)["name"] = "evil\x1bc\x1b]0;title\x07\u009b2J\u202ename"
    doc["servers"][0]["events"][0]["message"] = "line one\r\nhostcompat: forged \x1b[31mred"
    md = render_markdown(doc)
    assert not {"\x1b", "\x07", "\u009b", "\u202e", "\r"} & set(md)
    assert "forged" in md and not any(line.startswith("hostcompat: forged") for line in md.splitlines())


def test_rich_output_names_every_host() -> None:
    pytest.importorskip("rich")
    out = io.StringIO()
    assert render_rich(document("works", "blocked"), out, width=100)
    printed = out.getvalue()
    assert "Host0" in printed and "Host1" in printed and "blocked" in printed


def _unknown(doc: ReportDocument, index: int, lane: str, *reasons: str) -> None:
    doc["servers"][0]["hosts"][index]["lanes"][lane]["unknown"] = list(reasons)  # type: ignore[literal-required]


def test_a_reason_every_host_gives_is_said_once_and_one_some_give_names_them() -> None:
    doc = document("unknown", "unknown", "unknown")
    for index in range(3):
        _unknown(doc, index, "apps", "widget usage (tools metadata not loaded)")
    _unknown(doc, 0, "server", "no tool list")
    _unknown(doc, 2, "server", "no tool list", "Host2's own reason")
    text = render_text(doc, width=200)
    assert text.count("widget usage (tools metadata not loaded)") == 1
    assert "- every host (apps lane): widget usage (tools metadata not loaded)" in text
    assert "- 2 hosts (server lane): no tool list\n        hosts: Host0, Host2" in text
    assert "- Host2 (server lane): Host2's own reason" in text
    md = render_markdown(doc)
    assert md.count("widget usage") == 1 and "- **every host** (apps lane): widget usage" in md
    assert "- **2 hosts** (server lane): no tool list\n  - hosts: Host0, Host2" in md


def test_a_reason_that_names_its_own_host_is_one_reason_said_of_the_host() -> None:
    doc = document("unknown", "unknown", "works")
    _unknown(doc, 0, "apps", "whether Host0 supports message")
    _unknown(doc, 1, "apps", "whether Host1 supports message", "Host1 renders only in Host1x")
    text = render_text(doc, width=200)
    assert "- 2 hosts (apps lane): whether the host supports message\n        hosts: Host0, Host1" in text
    assert "- Host1 (apps lane): Host1 renders only in Host1x" in text  # one host: its own words, as it said them
    assert "Host0 supports" not in text
