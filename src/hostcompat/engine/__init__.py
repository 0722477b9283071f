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

from hostcompat.engine.catalog import load_catalog, validate_catalog
from hostcompat.engine.catalog_model import Catalog, Fact, HostProfile
from hostcompat.engine.evaluate import evaluate_all_hosts, evaluate_host_compat
from hostcompat.engine.evaluate_model import Evaluation, HostReport, LaneVerdict
from hostcompat.engine.finding_rules import RULES, RuleInfo, rule_info
from hostcompat.engine.findings import Evidence, Finding, Lane, Provenance, Severity, Verdict, weakest, worst
from hostcompat.engine.hygiene import check_server_hygiene
from hostcompat.engine.needs import ALL_NEEDS, MCPJAM_NEEDS
from hostcompat.engine.requirements import ServerRequirements, derive_server_requirements
from hostcompat.engine.scan import scan_widget_content, scan_widget_source
from hostcompat.engine.scan_meta import scan_widget_meta
from hostcompat.engine.scan_model import Evidence as ScanEvidence
from hostcompat.engine.scan_model import MetaScan, NeedFinding, WidgetScan
from hostcompat.engine.server_facts import ConnectionFacts, WidgetUsage

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
