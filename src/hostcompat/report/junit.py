"""The report as JUnit XML (the Jenkins/Ant `junit-10.xsd` shape), for CI systems that show test results.

One `<testsuite>` per server (named by its target), one `<testcase>` per host (`classname` the server, `name` the
host id). A host whose verdict reaches `--fail-on` gets a `<failure>` whose text lists the host's findings, so the
JUnit view fails exactly where the exit code does (`--fail-on never`: no failures; the verdict is still in the
testcase's `<system-out>`). A server that could not be checked gets one testcase, `check`, with an `<error>` saying
why. The server's own hygiene findings go to its suite's `<system-out>`.

Every string that came from a server is made safe: characters XML 1.0 forbids are dropped, and the other characters
a terminal would obey are shown as escapes (`hostcompat.terminal.clean_line`), each value on one line.
The document is read as the untrusted JSON it may be (a saved report): a missing or odd value becomes text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final
from xml.etree import ElementTree as ET

from hostcompat._regex import regex
from hostcompat.report.document import verdict_rank
from hostcompat.terminal import clean_line
from hostcompat.wire_json import WireJSON, WireValue

if TYPE_CHECKING:
    from hostcompat.report.document import FailOn
    from hostcompat.report.model import ReportDocument

_XML_FORBIDDEN: Final = regex("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""What XML 1.0 does not allow in a document, escaped or not (its `Char` production)."""


def xml_safe(value: object) -> str:
    """`value` on one line that XML 1.0 can hold and a terminal cannot obey: forbidden characters dropped, the rest
    cleaned (`clean_line`).
    """
    return clean_line(_XML_FORBIDDEN.sub("", str(value)))


def render_junit(document: ReportDocument, fail_on: FailOn = "blocked") -> str:
    """The document as JUnit XML text (UTF-8, with its declaration, newline-terminated)."""
    root = ET.Element("testsuites", name="hostcompat")
    totals = [0, 0, 0]
    for server in _objects(document.get("servers")):
        suite = _suite(server, fail_on)
        root.append(suite)
        for index, key in enumerate(("tests", "failures", "errors")):
            totals[index] += int(suite.get(key, "0"))
    root.set("tests", str(totals[0]))
    root.set("failures", str(totals[1]))
    root.set("errors", str(totals[2]))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _suite(server: WireJSON, fail_on: FailOn) -> ET.Element:
    name = server_name(server)
    suite = ET.Element("testsuite", name=name)
    hosts = list(_objects(server.get("hosts")))
    error = server.get("error")
    failures = errors = 0
    if error or server.get("server") is None or not hosts:
        case = ET.SubElement(suite, "testcase", classname=name, name="check")
        why = xml_safe(error or "the server was not checked (no handshake or no host verdicts)")
        ET.SubElement(case, "error", message=why, type="not-checked").text = why
        errors += 1
    threshold = None if fail_on == "never" else verdict_rank(fail_on)
    for host in hosts:
        verdict = xml_safe(host.get("verdict"))
        case = ET.SubElement(suite, "testcase", classname=name, name=xml_safe(host.get("hostId")))
        if threshold is not None and verdict_rank(verdict) >= threshold:
            label = xml_safe(host.get("hostLabel") or host.get("hostId"))
            failure = ET.SubElement(case, "failure", message=f"{label}: {verdict}", type=verdict)
            failure.text = _findings_text(_objects(host.get("findings"))) or f"verdict {verdict}"
            failures += 1
        else:
            ET.SubElement(case, "system-out").text = f"verdict {verdict}\n" + _findings_text(
                _objects(host.get("findings"))
            )
    hygiene = _findings_text(_objects(server.get("hygiene")))
    if hygiene:
        ET.SubElement(suite, "system-out").text = "server hygiene:\n" + hygiene
    suite.set("tests", str(len(suite.findall("testcase"))))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suite.set("skipped", "0")
    return suite


def server_name(server: WireJSON) -> str:
    """The name of a server's suite: its target as the report shows it (redacted), else its handshake name."""
    target = server.get("target")
    display = target.get("display") if isinstance(target, dict) else None
    if display:
        return xml_safe(display)
    info = server.get("server")
    name = info.get("name") if isinstance(info, dict) else None
    return xml_safe(name or "server")


def _findings_text(findings: Iterable[WireJSON]) -> str:
    lines = []
    for finding in findings:
        head = (
            f"[{xml_safe(finding.get('severity'))}] {xml_safe(finding.get('ruleId'))}: {xml_safe(finding.get('title'))}"
        )
        lines.append(head)
        tools = finding.get("tools")
        if isinstance(tools, list) and tools:
            lines.append("  tools: " + ", ".join(xml_safe(tool) for tool in tools))
        lines.extend(f"  {key}: {xml_safe(finding.get(key))}" for key in ("detail", "remediation") if finding.get(key))
    return "\n".join(lines) + ("\n" if lines else "")


def _objects(value: WireValue) -> Iterable[WireJSON]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


__all__ = ["render_junit", "server_name", "xml_safe"]
