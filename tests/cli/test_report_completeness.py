"""The text and Markdown reports print every finding the JSON report holds, and every reason behind an unknown lane.

Checked on real servers: the built-in demo and the MCP project's pdf example server (npm), each snapshotted once and
then checked offline in the three formats. A finding is identified by rule id, title and detail, as printed.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, cast

import pytest

from hostcompat.cli import main
from hostcompat.report import ReportDocument, escape_markdown, render_markdown, render_text

REPO = Path(__file__).resolve().parents[2]
PDF_ENTRY = REPO / "interop" / "node_modules" / "@modelcontextprotocol" / "server-pdf" / "dist" / "index.js"
FORMATS = ("json", "text", "markdown")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def snapshot(tmp: Path, *target: str) -> Path:
    path = tmp / "snapshot.json"
    code, _, err = run("snapshot", "-o", str(path), *target)
    assert code == 0, err
    return path


def reports(path: Path, *options: str) -> dict[str, str]:
    out = {}
    for form in FORMATS:
        _, out[form], err = run("check", str(path), "--format", form, "--fail-on", "never", *options)
        assert out[form], err
    return out


def findings(document: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {
        (finding["ruleId"], finding["title"], finding["detail"])
        for server in document["servers"]
        for host in server["hosts"]
        for finding in host["findings"]
    }


def said_of_the_host(text: str, label: str, host_id: str) -> str:
    """`text` as a finding grouped over several hosts says it: its own host named "the host", its id `<host id>`."""
    for name, word in ((label, "the host"), (host_id, "<host id>")):
        text = re.sub(rf"(?<![\w./-]){re.escape(name)}(?![\w/-])", word, text)
    return re.sub(r"(^|[.!?:]\s+)the host", r"\1The host", text)


def as_grouped(document: dict[str, Any]) -> dict[tuple[str, str, str], tuple[str, str, str]]:
    """Each finding (rule, title, detail) and the same as a group of hosts prints it: either form must be printed."""
    return {
        (finding["ruleId"], finding["title"], finding["detail"]): (
            finding["ruleId"],
            said_of_the_host(finding["title"], host["hostLabel"], host["hostId"]),
            said_of_the_host(finding["detail"], host["hostLabel"], host["hostId"]),
        )
        for server in document["servers"]
        for host in server["hosts"]
        for finding in host["findings"]
    }


def _plain(text: str) -> str:
    return " ".join(text.split())


def unwrapped(text: str) -> str:
    """The text report with each wrapped paragraph back on one line (continuations are indented two more)."""
    return re.sub(r"\n {8,}", " ", text)


def printed_in_text(text: str) -> set[tuple[str, str, str]]:
    """(rule id, title, paragraph) for each paragraph of each finding block of the text report."""
    found = set()
    blocks = re.findall(r"^  - (\S+) \[\w+\] (.*)\n((?:      .*\n?)*)", unwrapped(text), flags=re.MULTILINE)
    for rule, title, body in blocks:
        for line in body.splitlines():
            found.add((rule, title, line.strip()))
    return found


def missing_from_text(document: dict[str, Any], text: str) -> list[tuple[str, str, str]]:
    printed = printed_in_text(text)
    return sorted(
        key
        for key, grouped in as_grouped(document).items()
        if not any((form[0], _plain(form[1]), _plain(form[2])) in printed for form in (key, grouped))
    )


def missing_from_markdown(document: dict[str, Any], markdown: str) -> list[tuple[str, str, str]]:
    def printed(rule: str, title: str, detail: str) -> bool:
        head = re.escape(f"- **{escape_markdown(rule)}** (")
        pattern = (
            head
            + r"\w+\): "
            + re.escape(escape_markdown(title))
            + r".*\n(?:  .*\n)*?  "
            + re.escape(escape_markdown(detail))
            + r"\n"
        )
        return re.search(pattern, markdown) is not None

    return sorted(key for key, grouped in as_grouped(document).items() if not (printed(*key) or printed(*grouped)))


def unknown_lanes(document: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (host["hostLabel"], lane, reason)
        for server in document["servers"]
        for host in server["hosts"]
        for lane, verdict in host["lanes"].items()
        for reason in verdict["unknown"]
    ]


def assert_complete(out: dict[str, str]) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(out["json"])
    assert findings(document)
    assert missing_from_text(document, out["text"]) == []
    assert missing_from_markdown(document, out["markdown"]) == []
    for host, lane, reason in unknown_lanes(document):
        assert said_in_text(unwrapped(out["text"]), host, lane, reason), (host, lane, reason)
        assert said_in_markdown(out["markdown"], host, lane, reason), (host, lane, reason)
    return document


def said_in_text(text: str, host: str, lane: str, reason: str) -> bool:
    """Whether the (unwrapped) text report gives `host` this unknown reason: on a line of its own, or once for every
    host or for a list of hosts naming it, said of "the host" where the reason named its host.
    """
    if f"- {host} ({lane} lane): {reason}" in text:
        return True
    neutral = reason.replace(host, "the host")
    for line in text.splitlines():
        line = line.strip()
        if line == f"- every host ({lane} lane): {neutral}":
            return True
        head = f" hosts ({lane} lane): {neutral} hosts: "
        if line.startswith("- ") and head in line and host in line.split(head, 1)[1].split(", "):
            return True
    return False


def said_in_markdown(markdown: str, host: str, lane: str, reason: str) -> bool:
    """`said_in_text` for the Markdown report (a list of hosts is the reason's sub-item)."""
    if f"- **{escape_markdown(host)}** ({lane} lane): {escape_markdown(reason)}" in markdown:
        return True
    neutral = re.escape(escape_markdown(reason.replace(host, "the host")))
    if re.search(rf"^- \*\*every host\*\* \({lane} lane\): {neutral}$", markdown, flags=re.MULTILINE):
        return True
    listed = rf"^- \*\*\d+ hosts\*\* \({lane} lane\): {neutral}\n  - hosts: (.*)$"
    return any(escape_markdown(host) in m[1].split(", ") for m in re.finditer(listed, markdown, flags=re.MULTILINE))


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return snapshot(tmp_path_factory.mktemp("demo"), "--demo")


def test_the_demo_reports_print_every_finding_and_unknown_reason(demo: Path) -> None:
    document = assert_complete(reports(demo))
    assert unknown_lanes(document)


def test_two_postman_findings_of_one_rule_with_different_titles_are_both_printed(demo: Path) -> None:
    out = reports(demo, "--host", "postman")
    document = assert_complete(out)
    [host] = document["servers"][0]["hosts"]
    titles = [finding["title"] for finding in host["findings"]]
    assert len(titles) == 2 and len(set(titles)) == 2
    assert "2 findings" in out["text"]
    text = unwrapped(out["text"])
    assert all(text.count(title) == 1 and escape_markdown(title) in out["markdown"] for title in titles)


def test_the_renderers_never_merge_findings_that_say_different_things() -> None:
    def finding(title: str, detail: str) -> dict[str, Any]:
        return {"ruleId": "APPS-CAP-002", "severity": "info", "title": title, "detail": detail, "tools": ["t"]}

    hosts = [
        {"hostId": "a", "hostLabel": "A", "verdict": "unknown", "lanes": {}, "findings": [finding("X", "on Win")]},
        {"hostId": "b", "hostLabel": "B", "verdict": "unknown", "lanes": {}, "findings": [finding("X", "on Mac")]},
        {"hostId": "c", "hostLabel": "C", "verdict": "unknown", "lanes": {}, "findings": [finding("X", "on Win")]},
    ]
    document = cast(ReportDocument, {"servers": [{"server": {"name": "s"}, "hosts": hosts, "summary": {}}]})
    text, markdown = render_text(document), render_markdown(document)
    assert "hosts: A, C" in text and "hosts: B" in text
    assert "on Win" in text and "on Mac" in text
    assert "on Win" in markdown and "on Mac" in markdown


def test_a_finding_that_names_its_own_host_groups_with_the_same_finding_on_others_said_of_the_host() -> None:
    def host(host_id: str, label: str, detail: str) -> dict[str, Any]:
        finding = {"ruleId": "APPS-RENDER-001", "severity": "degraded", "title": "t", "detail": detail}
        finding["remediation"] = f"Try it on {label}, then record it for host '{host_id}'."
        return {"hostId": host_id, "hostLabel": label, "verdict": "degraded", "lanes": {}, "findings": [finding]}

    hosts = [
        host("zed", "Zed", "Zed does not render it. Zed lists it."),
        host("cline", "Cline", "Cline does not render it. Cline lists it."),
        host("n8n", "n8n", "n8n does not render it. Zed lists it."),  # says something else of another host
    ]
    document = cast(ReportDocument, {"servers": [{"server": {"name": "s"}, "hosts": hosts, "summary": {}}]})
    text, markdown = unwrapped(render_text(document)), render_markdown(document)
    assert "hosts: Zed, Cline" in text and "hosts: n8n" in text
    assert "The host does not render it. The host lists it." in text
    assert "fix: Try it on the host, then record it for host '<host id>'." in text
    assert "n8n does not render it. Zed lists it." in text  # a finding alone keeps its words
    assert "The host does not render it." in markdown and "n8n does not render it." in markdown


def _pdf_server() -> None:
    missing = [
        why
        for ok, why in ((shutil.which("node"), "node is not on PATH"), (PDF_ENTRY.is_file(), "no pdf server"))
        if not ok
    ]
    if missing:
        message = "interop: " + "; ".join(missing) + " (run npm ci in interop/)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.mark.interop
def test_the_pdf_server_reports_print_every_finding_and_unknown_reason(tmp_path: Path) -> None:
    _pdf_server()
    path = snapshot(tmp_path, "--", "node", str(PDF_ENTRY), "--stdio")
    document = assert_complete(reports(path))
    assert len(findings(document)) > 50  # many hosts, many capabilities: a real test of the grouping
    assert_actionable(document)


def assert_actionable(document: dict[str, Any]) -> None:
    """Every finding has a fix; a fix naming a hostcompat rule names a bundled one, and one sending the author to
    the catalog names the fact, the host and --catalog."""
    from hostcompat.clients import load_bundled_rules
    from hostcompat.engine.catalog.schema import FACT_FIELDS

    rules = {rule.id for rule in load_bundled_rules()}
    for server in document["servers"]:
        for host in server["hosts"]:
            for finding in host["findings"]:
                fix = finding.get("remediation") or ""
                assert fix, finding
                for named in re.findall(r"its rules? ([\w.,\- ]+?) rewrites?", fix):
                    assert {name.strip() for name in named.split(",")} <= rules, fix
                if "catalog" in fix:
                    fact = re.search(rf"the fact (\S+) of host '{re.escape(host['hostId'])}'", fix)
                    assert fact is not None and "--catalog FILE" in fix, fix
                    assert all(path in FACT_FIELDS for path in fact.group(1).split(" or ")), fix
        assert all(finding.get("remediation") for finding in server.get("hygiene") or ()), server["hygiene"]


def test_every_finding_on_the_demo_says_what_to_do(demo: Path) -> None:
    assert_actionable(json.loads(reports(demo)["json"]))
