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
    from hostcompat.report.indented_json import json_text as json_text
    from hostcompat.report.markdown import escape_markdown as escape_markdown
    from hostcompat.report.markdown import render_markdown as render_markdown
    from hostcompat.report.model import BridgeName as BridgeName
    from hostcompat.report.model import ConnectionFactsEntry as ConnectionFactsEntry
    from hostcompat.report.model import EventEntry as EventEntry
    from hostcompat.report.model import EventSeverity as EventSeverity
    from hostcompat.report.model import EvidenceEntry as EvidenceEntry
    from hostcompat.report.model import FindingEntry as FindingEntry
    from hostcompat.report.model import HandshakeInfo as HandshakeInfo
    from hostcompat.report.model import HostEntry as HostEntry
    from hostcompat.report.model import LaneEntry as LaneEntry
    from hostcompat.report.model import LaneName as LaneName
    from hostcompat.report.model import Lanes as Lanes
    from hostcompat.report.model import ProvenanceName as ProvenanceName
    from hostcompat.report.model import ReportDocument as ReportDocument
    from hostcompat.report.model import RequirementsEntry as RequirementsEntry
    from hostcompat.report.model import Scalar as Scalar
    from hostcompat.report.model import ServerEntry as ServerEntry
    from hostcompat.report.model import ServerInfo as ServerInfo
    from hostcompat.report.model import SeverityName as SeverityName
    from hostcompat.report.model import Summary as Summary
    from hostcompat.report.model import TargetInfo as TargetInfo
    from hostcompat.report.model import ToolInfo as ToolInfo
    from hostcompat.report.model import VerdictName as VerdictName
    from hostcompat.report.model import WidgetBuckets as WidgetBuckets
    from hostcompat.report.model import WidgetTool as WidgetTool
    from hostcompat.report.model import WidgetUsageEntry as WidgetUsageEntry
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
        "hostcompat.report.indented_json": ["json_text"],
        "hostcompat.report.markdown": ["escape_markdown", "render_markdown"],
        "hostcompat.report.model": [
            "BridgeName",
            "ConnectionFactsEntry",
            "EventEntry",
            "EventSeverity",
            "EvidenceEntry",
            "FindingEntry",
            "HandshakeInfo",
            "HostEntry",
            "LaneEntry",
            "LaneName",
            "Lanes",
            "ProvenanceName",
            "ReportDocument",
            "RequirementsEntry",
            "Scalar",
            "ServerEntry",
            "ServerInfo",
            "SeverityName",
            "Summary",
            "TargetInfo",
            "ToolInfo",
            "VerdictName",
            "WidgetBuckets",
            "WidgetTool",
            "WidgetUsageEntry",
        ],
        "hostcompat.report.reader": ["MAX_REPORT_BYTES", "read_report", "report_from_json"],
        "hostcompat.report.render": ["REPORT_FORMATS", "ReportFormat", "render_report"],
        "hostcompat.report.sarif": ["SARIF_SCHEMA", "SARIF_VERSION", "artifact_uri", "render_sarif"],
        "hostcompat.report.text": ["render_rich", "render_text"],
    },
)

__all__ = [
    "BridgeName",
    "ConnectionFactsEntry",
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "EventEntry",
    "EventSeverity",
    "EvidenceEntry",
    "FailOn",
    "FindingEntry",
    "FindingGroup",
    "HandshakeInfo",
    "HostEntry",
    "LaneEntry",
    "LaneName",
    "Lanes",
    "MAX_REPORT_BYTES",
    "ProvenanceName",
    "REPORT_FORMATS",
    "REPORT_SCHEMA",
    "ReportDocument",
    "ReportFormat",
    "RequirementsEntry",
    "SARIF_SCHEMA",
    "SARIF_VERSION",
    "Scalar",
    "ServerEntry",
    "ServerInfo",
    "SeverityName",
    "Summary",
    "TargetInfo",
    "ToolInfo",
    "UnknownReasons",
    "VERDICTS",
    "VerdictName",
    "WidgetBuckets",
    "WidgetTool",
    "WidgetUsageEntry",
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
