"""The host probe kit: an MCP App server whose widget tests the host it runs in and writes a catalog override file.

`build_probe_server(options, catalog)` is the server (`hostcompat probe-host` runs it over stdio or streamable
HTTP); `derive_facts` and `build_override` turn what it saw into sourced facts (provenance `probe`) that the
catalog's validator accepts. Imports the `mcp` SDK only through the server module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.probekit.facts import Derived as Derived
    from hostcompat.probekit.facts import Observed as Observed
    from hostcompat.probekit.facts import derive_facts as derive_facts
    from hostcompat.probekit.override import Seen as Seen
    from hostcompat.probekit.override import build_override as build_override
    from hostcompat.probekit.report import ViewReport as ViewReport
    from hostcompat.probekit.report import read_report as read_report
    from hostcompat.probekit.server import ProbeOptions as ProbeOptions
    from hostcompat.probekit.server import ProbeState as ProbeState
    from hostcompat.probekit.server import build_probe_server as build_probe_server

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.probekit.facts": ["Derived", "Observed", "derive_facts"],
        "hostcompat.probekit.override": ["Seen", "build_override"],
        "hostcompat.probekit.report": ["ViewReport", "read_report"],
        "hostcompat.probekit.server": ["ProbeOptions", "ProbeState", "build_probe_server"],
    },
)

__all__ = [
    "Derived",
    "Observed",
    "ProbeOptions",
    "ProbeState",
    "Seen",
    "ViewReport",
    "build_override",
    "build_probe_server",
    "derive_facts",
    "read_report",
]
