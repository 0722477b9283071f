"""One report document per run, rendered as text, JSON, Markdown or SARIF; the exit code follows `--fail-on`.

Pure: no `mcp` import, and no I/O but `read_report` (a saved JSON report, read back to be rendered again);
`render_rich` uses `rich` when it is installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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
    from hostcompat.report.sarif import SARIF_SCHEMA as SARIF_SCHEMA
    from hostcompat.report.sarif import SARIF_VERSION as SARIF_VERSION
    from hostcompat.report.sarif import artifact_uri as artifact_uri
    from hostcompat.report.sarif import render_sarif as render_sarif
    from hostcompat.report.text import render_rich as render_rich
    from hostcompat.report.text import render_text as render_text

_EXPORTS: dict[str, tuple[str, str]] = {
    "EXIT_FAILED": ("hostcompat.report.document", "EXIT_FAILED"),
    "EXIT_OK": ("hostcompat.report.document", "EXIT_OK"),
    "EXIT_USAGE": ("hostcompat.report.document", "EXIT_USAGE"),
    "FailOn": ("hostcompat.report.document", "FailOn"),
    "FindingGroup": ("hostcompat.report.grouping", "FindingGroup"),
    "MAX_REPORT_BYTES": ("hostcompat.report.reader", "MAX_REPORT_BYTES"),
    "REPORT_SCHEMA": ("hostcompat.report.document", "REPORT_SCHEMA"),
    "SARIF_SCHEMA": ("hostcompat.report.sarif", "SARIF_SCHEMA"),
    "SARIF_VERSION": ("hostcompat.report.sarif", "SARIF_VERSION"),
    "UnknownReasons": ("hostcompat.report.grouping", "UnknownReasons"),
    "VERDICTS": ("hostcompat.report.document", "VERDICTS"),
    "artifact_uri": ("hostcompat.report.sarif", "artifact_uri"),
    "check_document": ("hostcompat.report.document", "check_document"),
    "escape_markdown": ("hostcompat.report.markdown", "escape_markdown"),
    "exit_code": ("hostcompat.report.document", "exit_code"),
    "group_findings": ("hostcompat.report.grouping", "group_findings"),
    "json_text": ("hostcompat.report.json_text", "json_text"),
    "render_html": ("hostcompat.report.html", "render_html"),
    "render_markdown": ("hostcompat.report.markdown", "render_markdown"),
    "render_rich": ("hostcompat.report.text", "render_rich"),
    "render_sarif": ("hostcompat.report.sarif", "render_sarif"),
    "render_text": ("hostcompat.report.text", "render_text"),
    "read_report": ("hostcompat.report.reader", "read_report"),
    "report_from_json": ("hostcompat.report.reader", "report_from_json"),
    "report_document": ("hostcompat.report.document", "report_document"),
    "server_entry": ("hostcompat.report.document", "server_entry"),
    "summarize": ("hostcompat.report.document", "summarize"),
    "unknown_reasons": ("hostcompat.report.grouping", "unknown_reasons"),
    "verdict_rank": ("hostcompat.report.document", "verdict_rank"),
}
"""Public name → (module, attribute): each is imported on first use (PEP 562), so importing one part
of the package never pays for the others."""


def __getattr__(name: str) -> Any:
    """Import a public name on first use."""
    try:
        module, attribute = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "FailOn",
    "FindingGroup",
    "MAX_REPORT_BYTES",
    "REPORT_SCHEMA",
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
