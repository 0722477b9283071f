"""Finding rules of evidence before verdict: a host quirk fired by this server's own data, and a bridge method no host
answers (rows as in `hostcompat.engine.findings.rule_table`).
"""

from __future__ import annotations

from typing import Final

EVIDENCE_RULE_ROWS: Final[tuple[tuple[str, str, str, str, str, str], ...]] = (
    (
        "SERVER-QUIRK-001",
        "Known host bug fired by this server's results",
        "degraded",
        "server",
        "A host quirk with a trigger (catalog quirks[].trigger) fires on this server's own data: a captured result "
        "or a schema shows the construct the host breaks on.",
        "hostcompat catalog quirks (each finding names its quirk's source)",
    ),
    (
        "RES-BRIDGE-001",
        "Widget sends a bridge method no spec defines",
        "degraded",
        "apps",
        "The widget's code sends a ui/… JSON-RPC method that the MCP Apps spec does not define (a camelCase "
        "ui/updateModelContext, or an early-draft name): no host answers it.",
        "SEP-1865 MCP Apps specification, the bridge methods (spec §7)",
    ),
)

__all__ = ["EVIDENCE_RULE_ROWS"]
