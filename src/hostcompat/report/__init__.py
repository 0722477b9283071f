"""One report document per run, rendered as text, JSON, Markdown, SARIF or HTML; the exit code follows `--fail-on`.

Pure: no `mcp` import, and no I/O but `read_report` (a saved JSON report, read back to be rendered again);
`render_rich` uses `rich` when it is installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.report.document import EXIT_FAILED as EXIT_FAILED
    from hostcompat.report.document import EXIT_OK as EXIT_OK
    from hostcompat.report.document import EXIT_USAGE as EXIT_USAGE
    from hostcompat.report.document import REPORT_SCHEMA as REPORT_SCHEMA
    from hostcompat.report.document import VERDICTS as VERDICTS
    from hostcompat.report.document import FailOn as FailOn
    from hostcompat.report.document import check_document as check_document
    from hostcompat.report.document import exit_code as exit_code
    from hostcompat.report.document import report_document as report_document
    from hostcompat.report.document import server_entry as server_entry
    from hostcompat.report.document import summarize as summarize
    from hostcompat.report.document import verdict_rank as verdict_rank
    from hostcompat.report.grouping import FindingGroup as FindingGroup
    from hostcompat.report.grouping import UnknownReasons as UnknownReasons
    from hostcompat.report.grouping import group_findings as group_findings
    from hostcompat.report.grouping import unknown_reasons as unknown_reasons
    from hostcompat.report.html import render_html as render_html
    from hostcompat.report.json_text import json_text as json_text
    from hostcompat.report.markdown import escape_markdown as escape_markdown
    from hostcompat.report.markdown import render_markdown as render_markdown
    from hostcompat.report.reader import MAX_REPORT_BYTES as MAX_REPORT_BYTES
    from hostcompat.report.reader import read_report as read_report
    from hostcompat.report.reader import report_from_json as report_from_json
    from hostcompat.report.render import REPORT_FORMATS as REPORT_FORMATS
    from hostcompat.report.render import ReportFormat as ReportFormat
    from hostcompat.report.render import render_report as render_report
    from hostcompat.report.sarif import SARIF_SCHEMA as SARIF_SCHEMA
    from hostcompat.report.sarif import SARIF_VERSION as SARIF_VERSION
    from hostcompat.report.sarif import artifact_uri as artifact_uri
    from hostcompat.report.sarif import render_sarif as render_sarif
    from hostcompat.report.text import render_rich as render_rich
    from hostcompat.report.text import render_text as render_text

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.report.document": [
            "EXIT_FAILED",
            "EXIT_OK",
            "EXIT_USAGE",
            "FailOn",
            "REPORT_SCHEMA",
            "VERDICTS",
            "check_document",
            "exit_code",
            "report_document",
            "server_entry",
            "summarize",
            "verdict_rank",
        ],
        "hostcompat.report.grouping": ["FindingGroup", "UnknownReasons", "group_findings", "unknown_reasons"],
        "hostcompat.report.html": ["render_html"],
        "hostcompat.report.json_text": ["json_text"],
        "hostcompat.report.markdown": ["escape_markdown", "render_markdown"],
        "hostcompat.report.reader": ["MAX_REPORT_BYTES", "read_report", "report_from_json"],
        "hostcompat.report.render": ["REPORT_FORMATS", "ReportFormat", "render_report"],
        "hostcompat.report.sarif": ["SARIF_SCHEMA", "SARIF_VERSION", "artifact_uri", "render_sarif"],
        "hostcompat.report.text": ["render_rich", "render_text"],
    },
)

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "FailOn",
    "FindingGroup",
    "MAX_REPORT_BYTES",
    "REPORT_FORMATS",
    "REPORT_SCHEMA",
    "ReportFormat",
    "SARIF_SCHEMA",
    "SARIF_VERSION",
    "UnknownReasons",
    "VERDICTS",
    "artifact_uri",
    "check_document",
    "escape_markdown",
    "exit_code",
    "group_findings",
    "json_text",
    "read_report",
    "render_html",
    "render_markdown",
    "render_report",
    "render_rich",
    "render_sarif",
    "render_text",
    "report_document",
    "report_from_json",
    "server_entry",
    "summarize",
    "unknown_reasons",
    "verdict_rank",
]
