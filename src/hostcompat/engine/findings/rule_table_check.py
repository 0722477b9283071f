"""The rows of the rules a check raises about its own bounds: values it cut, widgets it did not read (whole).

Kept apart from `hostcompat.engine.findings.rule_table` (the rules about servers and hosts) and joined to it there.
"""

from __future__ import annotations

from typing import Final

_MCP: Final = "MCP specification, tools/list"
_SCANNER: Final = "hostcompat widget scanner (hostcompat.engine.scan.widget)"

CHECK_RULE_ROWS: Final[tuple[tuple[str, str, str, str, str, str], ...]] = (
    (
        "CHECK-LONG-001",
        "Tool value too long",
        "degraded",
        "server",
        "A tool's name, title or widget URI is over 1,024 characters. Hosts cap tool names near 64 characters (the "
        "MCP specification advises at most 128); the check cuts the value to 1,024 characters and goes on.",
        _MCP,
    ),
    (
        "CHECK-LONG-002",
        "Resource value too long",
        "degraded",
        "apps",
        "A resource's URI, name, title or MIME type is over 1,024 characters; the check cuts it to 1,024 characters "
        "and goes on.",
        _MCP,
    ),
    (
        "CHECK-SCAN-001",
        "Widget not analysed within the check's budget",
        "info",
        "apps",
        "The check's time (--timeout) or its widget size budget ran out before this widget's code was read, so what "
        "it needs of a host is unknown.",
        _SCANNER,
    ),
    (
        "CHECK-SCAN-002",
        "Widget analysed only in part",
        "info",
        "apps",
        "The widget holds more candidate bridge calls than the scanner looks at (or more scripts than it reads); "
        "the needs found are real, but later calls were not looked at.",
        _SCANNER,
    ),
)

__all__ = ["CHECK_RULE_ROWS"]
