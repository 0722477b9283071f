"""`--format junit`: one suite per server, one case per host, failures where `--fail-on` fails the run."""

from __future__ import annotations

from xml.etree import ElementTree as ET

import pytest

from hostcompat.report import render_report, report_document, server_entry
from tests.report.sample import document, server_info
from tests.report.xsd_rules import problems


def _cases(xml: str) -> dict[str, ET.Element]:
    root = ET.fromstring(xml.encode("utf-8"))
    return {case.attrib["name"]: case for case in root.iter("testcase")}


def test_the_validator_rejects_what_the_schema_forbids() -> None:
    assert problems('<testsuites><testsuite name="s" tests="1" failures="0" errors="0"/></testsuites>') == []
    assert problems("<testsuites><testsuite name='s' tests='1' failures='0'/></testsuites>")  # errors is required
    assert problems("<testsuites><testcase name='c'/></testsuites>")  # a testcase is not a child of testsuites
    assert problems("<testsuites time='1.5s'/>")  # SUREFIRE_TIME
    assert problems("<testsuites><testsuite name='s' tests='1' failures='0' errors='0' bogus='1'/></testsuites>")
    assert problems("<testsuites>text</testsuites>")


@pytest.mark.parametrize("fail_on", ["blocked", "degraded", "unknown", "never"])
def test_junit_validates_against_the_junit_schema(fail_on: str) -> None:
    xml = render_report(document("works", "degraded", "blocked", "unknown"), "junit", fail_on=fail_on)  # type: ignore[arg-type]
    assert problems(xml) == []


def test_a_host_fails_when_its_verdict_reaches_fail_on_with_its_findings_as_text() -> None:
    doc = document("works", "degraded", "blocked")
    cases = _cases(render_report(doc, "junit", fail_on="degraded"))
    assert list(cases) == ["host0", "host1", "host2"]
    assert {case.attrib["classname"] for case in cases.values()} == {"python -m board"}
    assert cases["host0"].find("failure") is None
    failure = cases["host1"].find("failure")
    assert failure is not None and failure.attrib["type"] == "degraded"
    assert "APPS-CAP-001: title of APPS-CAP-001" in (failure.text or "")
    assert "fix APPS-CAP-001" in (failure.text or "")
    blocked_only = _cases(render_report(doc, "junit", fail_on="blocked"))
    assert blocked_only["host1"].find("failure") is None and blocked_only["host2"].find("failure") is not None
    assert all(case.find("failure") is None for case in _cases(render_report(doc, "junit", fail_on="never")).values())
    root = ET.fromstring(render_report(doc, "junit", fail_on="degraded").encode())
    assert (root.attrib["tests"], root.attrib["failures"], root.attrib["errors"]) == ("3", "2", "0")


def test_a_server_that_could_not_be_checked_is_an_error() -> None:
    broken = server_entry(target={"display": "node gone.js"}, server=None, hosts=[], error="connection refused")
    xml = render_report(report_document([broken]), "junit")
    assert problems(xml) == []
    (case,) = _cases(xml).values()
    error = case.find("error")
    assert error is not None and error.attrib["message"] == "connection refused"
    assert ET.fromstring(xml.encode()).attrib["errors"] == "1"


def test_server_text_is_escaped_and_characters_xml_forbids_are_dropped() -> None:
    doc = document("blocked")
    server_info(doc)["name"] = "evil"
    doc["servers"][0]["target"]["display"] = 'a<b>&"c\x00\x01\x1b[2J\ud800\ufffe\u202e'
    doc["servers"][0]["hosts"][0]["findings"][0]["title"] = "]]></failure><x>\x0b"
    xml = render_report(doc, "junit")
    assert problems(xml) == []  # parses: escaped, and nothing XML 1.0 forbids
    for char in "\x00\x01\x0b\x1b\ud800\ufffe\u202e":
        assert char not in xml
    (case,) = _cases(xml).values()
    assert case.attrib["classname"].startswith('a<b>&"c')
    failure = case.find("failure")
    assert failure is not None and "]]></failure><x>" in (failure.text or "")


def test_a_saved_report_with_odd_values_still_renders() -> None:
    doc = document("blocked")
    doc["servers"][0]["hosts"][0]["findings"] = [{"ruleId": 3}, "not an object"]  # type: ignore[list-item,typeddict-item]
    doc["servers"][0]["target"] = {}
    assert problems(render_report(doc, "junit")) == []
