"""`CompatReport`: one checked server's report, with the questions and assertions a server's own tests ask of it.

Pure (a wrapper over the report document, `hostcompat.report/1`): `verdict("claude")`, `findings("cursor")`,
`assert_verdict`, `assert_no_worse_than(baseline)`. Assertion messages name each finding (rule id, severity, title,
tools, fix) so a failing test says what to change; they are `AssertionError`s, as pytest expects, and also
`HostCompatError`s, like every error hostcompat raises on purpose.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from hostcompat.errors import HostCompatError
from hostcompat.terminal import clean_line

if TYPE_CHECKING:
    from hostcompat.report.model import FindingEntry, HostEntry, ReportDocument, ServerEntry, VerdictName

_ORDER = ("works", "unknown", "degraded", "blocked")


class CompatAssertionError(HostCompatError, AssertionError):
    """A compatibility assertion that does not hold; its message names the verdicts and findings behind it."""


class CompatReport:
    """The report of one server check (`document`: the JSON report document, as `check --format json` writes)."""

    def __init__(self, document: ReportDocument) -> None:
        """Wrap a report document holding one server (the first is used when it holds more)."""
        if not document.get("servers"):
            raise HostCompatError("a report with no server in it", value=document)
        self.document = document

    @property
    def server(self) -> ServerEntry:
        """The checked server's entry."""
        return self.document["servers"][0]

    @property
    def error(self) -> str | None:
        """Why the server could not be checked (it did not start, crashed, timed out …), else None."""
        return self.server.get("error")

    @property
    def host_ids(self) -> list[str]:
        """The ids of the hosts judged, in report order."""
        return [host["hostId"] for host in self.server.get("hosts") or ()]

    def host(self, host: str) -> HostEntry:
        """The entry of one host, by id or label (case-insensitive); an error naming the judged hosts if absent."""
        self._require_checked()
        wanted = host.strip().lower()
        for entry in self.server.get("hosts") or ():
            if wanted in (entry["hostId"].lower(), str(entry.get("hostLabel", "")).lower()):
                return entry
        raise CompatAssertionError(
            f"host {host!r} was not judged; the report has {', '.join(self.host_ids) or 'no host'}", value=host
        )

    def verdict(self, host: str) -> VerdictName:
        """The host's verdict: `works`, `unknown`, `degraded` or `blocked`."""
        return self.host(host)["verdict"]

    def findings(self, host: str | None = None) -> list[FindingEntry]:
        """The findings on one host, or (no host) the server's own hygiene findings."""
        if host is None:
            self._require_checked()
            return list(self.server.get("hygiene") or ())
        return list(self.host(host).get("findings") or ())

    def explain(self, host: str) -> str:
        """The host's verdict and each finding behind it, as lines for a person (what an assertion message says)."""
        entry = self.host(host)
        lines = [f"{entry['hostLabel']} ({entry['hostId']}): {entry['verdict']}"]
        lines += [describe_finding(finding) for finding in entry.get("findings") or ()]
        return "\n".join(lines)

    def assert_verdict(self, host: str, at_best: VerdictName = "works") -> None:
        """Fail unless the host's verdict is `at_best` or better (`works` < `unknown` < `degraded` < `blocked`)."""
        if at_best not in _ORDER:
            raise HostCompatError(f"no such verdict {at_best!r}: one of {', '.join(_ORDER)}", value=at_best)
        if _ORDER.index(self.verdict(host)) > _ORDER.index(at_best):
            raise CompatAssertionError(f"expected {at_best} or better on {host}, got:\n{self.explain(host)}")

    def assert_works(self, *hosts: str) -> None:
        """Fail unless every host named (every host judged, when none is) has the verdict `works`."""
        failing = [self.explain(host) for host in hosts or self.host_ids if self.verdict(host) != "works"]
        if failing:
            raise CompatAssertionError("not working on every host asked:\n" + "\n".join(failing))

    def assert_no_worse_than(self, baseline: CompatReport | ReportDocument | str | os.PathLike[str]) -> None:
        """Fail when something got worse than `baseline` (a report, a document or a JSON report file): a worse
        verdict on a host, a new finding, a server that could be checked before and cannot now. What got worse and
        what got better are both in the message.

        A baseline of one server is compared with this one whatever its target was called (a command line that
        names another machine's interpreter path is still this server).
        """
        from hostcompat.report.diff import diff_reports

        before = _document(baseline)
        servers = before.get("servers") or []
        if len(servers) == 1 and len(self.document["servers"]) == 1:
            renamed: ServerEntry = {**servers[0], "target": self.server["target"]}
            before = {**before, "servers": [renamed]}
        changes = diff_reports(before, self.document)
        if changes.regressed:
            raise CompatAssertionError("worse than the baseline:\n" + changes.text())

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the report as JSON (`check --format json`), e.g. a baseline for `assert_no_worse_than`."""
        from hostcompat.output_files import write_output
        from hostcompat.report.indented_json import json_text
        from hostcompat.terminal import escape_json_text

        write_output(path, escape_json_text(json_text(self.document), terminal=False))

    def _require_checked(self) -> None:
        if self.error is not None:
            raise CompatAssertionError(f"the server could not be checked: {clean_line(self.error)}")

    def __repr__(self) -> str:
        """The server and each host's verdict, short."""
        if self.error is not None:
            return f"<CompatReport not checked: {clean_line(self.error)[:120]}>"
        verdicts = ", ".join(f"{host['hostId']}={host['verdict']}" for host in self.server.get("hosts") or ())
        return f"<CompatReport {verdicts}>"


def describe_finding(finding: FindingEntry) -> str:
    """One finding on one line, then its fix: `  RULE-ID [severity] title (tools: a, b): detail`."""
    tools = finding.get("tools") or []
    where = f" (tools: {', '.join(tools)})" if tools else ""
    detail = f": {finding['detail']}" if finding.get("detail") else ""
    line = clean_line(f"{finding['ruleId']} [{finding['severity']}] {finding['title']}{where}{detail}")
    fix = finding.get("remediation")
    return f"  {line}" + (f"\n      fix: {clean_line(fix)}" if fix else "")


def _document(value: CompatReport | ReportDocument | str | os.PathLike[str]) -> ReportDocument:
    if isinstance(value, CompatReport):
        return value.document
    if isinstance(value, (str, os.PathLike)):
        from hostcompat.report.reader import read_report

        return read_report(value)
    return value


__all__ = ["CompatAssertionError", "CompatReport", "describe_finding"]
