"""One report document in one output format, as text: the format dispatch behind `hostcompat check --format`.

Each format imports only its own renderer, on first use: an offline check pays for one, not for all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    from hostcompat.report.document import FailOn
    from hostcompat.report.model import ReportDocument

ReportFormat = Literal["text", "json", "markdown", "sarif", "html", "junit"]
"""An output format of a report."""

REPORT_FORMATS: Final[tuple[ReportFormat, ...]] = ("text", "json", "markdown", "sarif", "html", "junit")
"""Every output format, the default (`text`) first."""


def render_report(document: ReportDocument, fmt: ReportFormat, *, fail_on: FailOn = "blocked") -> str:
    """The report document in one of `REPORT_FORMATS`, as text (JSON and SARIF indented, newline-terminated).

    `fail_on` matters to JUnit only: a host whose verdict reaches it is a failed testcase, as it fails the run.
    """
    if fmt == "junit":
        from hostcompat.report.junit import render_junit

        return render_junit(document, fail_on)
    if fmt == "json":
        from hostcompat.report.indented_json import json_text

        return json_text(document)
    if fmt == "sarif":
        from hostcompat.report.indented_json import json_text
        from hostcompat.report.sarif import render_sarif

        return json_text(render_sarif(document))
    if fmt == "markdown":
        from hostcompat.report.markdown import render_markdown

        return render_markdown(document)
    if fmt == "html":
        from hostcompat.report.html import render_html

        return render_html(document)
    from hostcompat.report.text import render_text

    return render_text(document)


__all__ = ["REPORT_FORMATS", "ReportFormat", "render_report"]
