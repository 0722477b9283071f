"""The host-compatibility engine: pure functions from a server's tools and widgets to per-host verdicts.

- `derive_server_requirements`: what a server needs (widget bridges, app-only tools, unknown dimensions), MCPJam's
  semantics, with a malformed `_meta` as a finding on that tool instead of an exception;
- `scan_widget_source` / `scan_widget_content` / `scan_widget_meta`: what a widget's code really calls, with
  evidence, telling the app's calls from the bundled SDK's wiring;
- `load_catalog`: the sourced host catalog (every fact with provenance, source and date) and user overrides;
- `evaluate_all_hosts` / `evaluate_host_compat`: works / degraded / blocked / unknown per host, lane by lane, with
  findings that carry a stable rule id, evidence and the host fact used;
- `check_server_hygiene`: a server's own MCP Apps hygiene.

No I/O (but reading the bundled catalog), and never the `mcp` SDK or pydantic: the offline check starts fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.engine.catalog import load_catalog as load_catalog
    from hostcompat.engine.catalog import validate_catalog as validate_catalog
    from hostcompat.engine.catalog_model import Catalog as Catalog
    from hostcompat.engine.catalog_model import Fact as Fact
    from hostcompat.engine.catalog_model import HostProfile as HostProfile
    from hostcompat.engine.evaluate import evaluate_all_hosts as evaluate_all_hosts
    from hostcompat.engine.evaluate import evaluate_host_compat as evaluate_host_compat
    from hostcompat.engine.evaluate_model import Evaluation as Evaluation
    from hostcompat.engine.evaluate_model import HostReport as HostReport
    from hostcompat.engine.evaluate_model import LaneVerdict as LaneVerdict
    from hostcompat.engine.finding_rules import RULES as RULES
    from hostcompat.engine.finding_rules import RuleInfo as RuleInfo
    from hostcompat.engine.finding_rules import rule_info as rule_info
    from hostcompat.engine.findings import Evidence as Evidence
    from hostcompat.engine.findings import Finding as Finding
    from hostcompat.engine.findings import Lane as Lane
    from hostcompat.engine.findings import Provenance as Provenance
    from hostcompat.engine.findings import Severity as Severity
    from hostcompat.engine.findings import Verdict as Verdict
    from hostcompat.engine.findings import weakest as weakest
    from hostcompat.engine.findings import worst as worst
    from hostcompat.engine.hygiene import check_server_hygiene as check_server_hygiene
    from hostcompat.engine.needs import ALL_NEEDS as ALL_NEEDS
    from hostcompat.engine.needs import MCPJAM_NEEDS as MCPJAM_NEEDS
    from hostcompat.engine.requirements import ServerRequirements as ServerRequirements
    from hostcompat.engine.requirements import derive_server_requirements as derive_server_requirements
    from hostcompat.engine.scan import scan_widget_content as scan_widget_content
    from hostcompat.engine.scan import scan_widget_source as scan_widget_source
    from hostcompat.engine.scan_meta import scan_widget_meta as scan_widget_meta
    from hostcompat.engine.scan_model import Evidence as ScanEvidence
    from hostcompat.engine.scan_model import MetaScan as MetaScan
    from hostcompat.engine.scan_model import NeedFinding as NeedFinding
    from hostcompat.engine.scan_model import WidgetScan as WidgetScan
    from hostcompat.engine.server_facts import ConnectionFacts as ConnectionFacts
    from hostcompat.engine.server_facts import WidgetUsage as WidgetUsage

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.engine.catalog": ["load_catalog", "validate_catalog"],
        "hostcompat.engine.catalog_model": ["Catalog", "Fact", "HostProfile"],
        "hostcompat.engine.evaluate": ["evaluate_all_hosts", "evaluate_host_compat"],
        "hostcompat.engine.evaluate_model": ["Evaluation", "HostReport", "LaneVerdict"],
        "hostcompat.engine.finding_rules": ["RULES", "RuleInfo", "rule_info"],
        "hostcompat.engine.findings": [
            "Evidence",
            "Finding",
            "Lane",
            "Provenance",
            "Severity",
            "Verdict",
            "weakest",
            "worst",
        ],
        "hostcompat.engine.hygiene": ["check_server_hygiene"],
        "hostcompat.engine.needs": ["ALL_NEEDS", "MCPJAM_NEEDS"],
        "hostcompat.engine.requirements": ["ServerRequirements", "derive_server_requirements"],
        "hostcompat.engine.scan": ["scan_widget_content", "scan_widget_source"],
        "hostcompat.engine.scan_meta": ["scan_widget_meta"],
        "hostcompat.engine.scan_model": ["MetaScan", "NeedFinding", "ScanEvidence=Evidence", "WidgetScan"],
        "hostcompat.engine.server_facts": ["ConnectionFacts", "WidgetUsage"],
    },
)

__all__ = [
    "ALL_NEEDS",
    "Catalog",
    "ConnectionFacts",
    "Evaluation",
    "Evidence",
    "Fact",
    "Finding",
    "HostProfile",
    "HostReport",
    "Lane",
    "LaneVerdict",
    "MCPJAM_NEEDS",
    "MetaScan",
    "NeedFinding",
    "Provenance",
    "RULES",
    "RuleInfo",
    "ScanEvidence",
    "ServerRequirements",
    "Severity",
    "Verdict",
    "WidgetScan",
    "WidgetUsage",
    "check_server_hygiene",
    "derive_server_requirements",
    "evaluate_all_hosts",
    "evaluate_host_compat",
    "load_catalog",
    "rule_info",
    "scan_widget_content",
    "scan_widget_meta",
    "scan_widget_source",
    "validate_catalog",
    "weakest",
    "worst",
]
