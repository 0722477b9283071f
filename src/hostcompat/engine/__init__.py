"""The host-compatibility engine: pure functions from a server's tools and widgets to per-host verdicts.

- `derive_server_requirements`: what a server needs (widget bridges, app-only tools, unknown dimensions), MCPJam's
  semantics, with a malformed `_meta` as a finding on that tool instead of an exception;
- `scan_widget_source` / `scan_widget_content` / `scan_widget_meta`: what a widget's code really calls, with
  evidence, telling the app's calls from the bundled SDK's wiring;
- `load_catalog`: the sourced host catalog (every fact with provenance, source and date) and user overrides;
- `digest_server`: everything the verdicts read of one server, computed once (`ServerDigest`) and shared by every
  host and by the hygiene check;
- `evaluate_all_hosts` / `evaluate_host_compat`: works / degraded / blocked / unknown per host, lane by lane, with
  findings that carry a stable rule id, evidence and the host fact used;
- `check_server_hygiene`: a server's own MCP Apps hygiene.

No I/O (but reading the bundled catalog), and never the `mcp` SDK or pydantic: the offline check starts fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.engine.catalog.load import load_catalog as load_catalog
    from hostcompat.engine.catalog.load import validate_catalog as validate_catalog
    from hostcompat.engine.catalog.model import Catalog as Catalog
    from hostcompat.engine.catalog.model import Fact as Fact
    from hostcompat.engine.catalog.model import HostProfile as HostProfile
    from hostcompat.engine.findings.model import Evidence as Evidence
    from hostcompat.engine.findings.model import Finding as Finding
    from hostcompat.engine.findings.model import Lane as Lane
    from hostcompat.engine.findings.model import Provenance as Provenance
    from hostcompat.engine.findings.model import Severity as Severity
    from hostcompat.engine.findings.model import Verdict as Verdict
    from hostcompat.engine.findings.model import weakest as weakest
    from hostcompat.engine.findings.model import worst as worst
    from hostcompat.engine.findings.rules import RULES as RULES
    from hostcompat.engine.findings.rules import RuleInfo as RuleInfo
    from hostcompat.engine.findings.rules import rule_info as rule_info
    from hostcompat.engine.hygiene.check import check_server_hygiene as check_server_hygiene
    from hostcompat.engine.scan.meta import scan_widget_meta as scan_widget_meta
    from hostcompat.engine.scan.model import MetaScan as MetaScan
    from hostcompat.engine.scan.model import NeedFinding as NeedFinding
    from hostcompat.engine.scan.model import SourceLocation as SourceLocation
    from hostcompat.engine.scan.model import WidgetScan as WidgetScan
    from hostcompat.engine.scan.needs import ALL_NEEDS as ALL_NEEDS
    from hostcompat.engine.scan.needs import MCPJAM_NEEDS as MCPJAM_NEEDS
    from hostcompat.engine.scan.widget import scan_widget_content as scan_widget_content
    from hostcompat.engine.scan.widget import scan_widget_source as scan_widget_source
    from hostcompat.engine.server.digest import ServerDigest as ServerDigest
    from hostcompat.engine.server.digest import digest_server as digest_server
    from hostcompat.engine.server.facts import ConnectionFacts as ConnectionFacts
    from hostcompat.engine.server.facts import WidgetUsage as WidgetUsage
    from hostcompat.engine.server.requirements import ServerRequirements as ServerRequirements
    from hostcompat.engine.server.requirements import derive_server_requirements as derive_server_requirements
    from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts as evaluate_all_hosts
    from hostcompat.engine.verdicts.evaluate import evaluate_host_compat as evaluate_host_compat
    from hostcompat.engine.verdicts.model import Evaluation as Evaluation
    from hostcompat.engine.verdicts.model import HostReport as HostReport
    from hostcompat.engine.verdicts.model import LaneVerdict as LaneVerdict

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.engine.catalog.load": ["load_catalog", "validate_catalog"],
        "hostcompat.engine.catalog.model": ["Catalog", "Fact", "HostProfile"],
        "hostcompat.engine.verdicts.evaluate": ["evaluate_all_hosts", "evaluate_host_compat"],
        "hostcompat.engine.verdicts.model": ["Evaluation", "HostReport", "LaneVerdict"],
        "hostcompat.engine.findings.rules": ["RULES", "RuleInfo", "rule_info"],
        "hostcompat.engine.findings.model": [
            "Evidence",
            "Finding",
            "Lane",
            "Provenance",
            "Severity",
            "Verdict",
            "weakest",
            "worst",
        ],
        "hostcompat.engine.hygiene.check": ["check_server_hygiene"],
        "hostcompat.engine.scan.needs": ["ALL_NEEDS", "MCPJAM_NEEDS"],
        "hostcompat.engine.server.requirements": ["ServerRequirements", "derive_server_requirements"],
        "hostcompat.engine.scan.widget": ["scan_widget_content", "scan_widget_source"],
        "hostcompat.engine.scan.meta": ["scan_widget_meta"],
        "hostcompat.engine.scan.model": ["MetaScan", "NeedFinding", "SourceLocation", "WidgetScan"],
        "hostcompat.engine.server.facts": ["ConnectionFacts", "WidgetUsage"],
        "hostcompat.engine.server.digest": ["ServerDigest", "digest_server"],
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
    "ServerDigest",
    "ServerRequirements",
    "Severity",
    "SourceLocation",
    "Verdict",
    "WidgetScan",
    "WidgetUsage",
    "check_server_hygiene",
    "derive_server_requirements",
    "digest_server",
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
