"""One report document per run, rendered as text, JSON, Markdown or SARIF; the exit code follows `--fail-on`.

Pure: no I/O, no `mcp` import; `render_rich` uses `rich` when it is installed.
"""

from hostcompat.report.document import (
    EXIT_FAILED as EXIT_FAILED,
)
from hostcompat.report.document import (
    EXIT_OK as EXIT_OK,
)
from hostcompat.report.document import (
    EXIT_USAGE as EXIT_USAGE,
)
from hostcompat.report.document import (
    REPORT_SCHEMA as REPORT_SCHEMA,
)
from hostcompat.report.document import (
    VERDICTS as VERDICTS,
)
from hostcompat.report.document import (
    FailOn as FailOn,
)
from hostcompat.report.document import (
    check_document as check_document,
)
from hostcompat.report.document import (
    exit_code as exit_code,
)
from hostcompat.report.document import (
    report_document as report_document,
)
from hostcompat.report.document import (
    server_entry as server_entry,
)
from hostcompat.report.document import (
    summarize as summarize,
)
from hostcompat.report.document import (
    verdict_rank as verdict_rank,
)
from hostcompat.report.grouping import FindingGroup as FindingGroup
from hostcompat.report.grouping import group_findings as group_findings
from hostcompat.report.markdown import escape_markdown as escape_markdown
from hostcompat.report.markdown import render_markdown as render_markdown
from hostcompat.report.sarif import SARIF_SCHEMA as SARIF_SCHEMA
from hostcompat.report.sarif import SARIF_VERSION as SARIF_VERSION
from hostcompat.report.sarif import artifact_uri as artifact_uri
from hostcompat.report.sarif import render_sarif as render_sarif
from hostcompat.report.text import render_rich as render_rich
from hostcompat.report.text import render_text as render_text

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "FailOn",
    "FindingGroup",
    "REPORT_SCHEMA",
    "SARIF_SCHEMA",
    "SARIF_VERSION",
    "VERDICTS",
    "artifact_uri",
    "check_document",
    "escape_markdown",
    "exit_code",
    "group_findings",
    "render_markdown",
    "render_rich",
    "render_sarif",
    "render_text",
    "report_document",
    "server_entry",
    "summarize",
    "verdict_rank",
]
