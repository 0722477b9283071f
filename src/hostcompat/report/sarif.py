"""SARIF 2.1.0 output: one result per finding, with its stable rule id, for code-scanning tools.

Each result names the host (for per-host findings) in its message and properties, the tools concerned as logical
locations, and the server's artifact (the config or snapshot file it came from, else a stable pseudo-path) as its
physical location, which code-scanning uploads require. A server that could not be checked is an error
notification of the run's invocation, which then is not `executionSuccessful`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final, cast

from hostcompat._regex import regex
from hostcompat._version import __version__
from hostcompat.wire_json import WireJSON, WireObject

if TYPE_CHECKING:
    from hostcompat.report.model import ReportDocument, TargetInfo

SARIF_SCHEMA: Final = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION: Final = "2.1.0"
INFORMATION_URI: Final = "https://pypi.org/project/mcp-hostcompat/"
_LEVELS: Final = {"blocker": "error", "degraded": "warning", "info": "note"}
_UNSAFE_PATH = regex(r"[^A-Za-z0-9._-]+")


def artifact_uri(target: TargetInfo) -> str:
    """The file a server's results point at: its config or snapshot file, else `mcp-servers/<name>`."""
    for key in ("artifact", "config", "snapshot"):
        value = target.get(key)
        if isinstance(value, str) and value:
            return value
    name = str(target.get("name") or target.get("display") or "server")
    return f"mcp-servers/{_UNSAFE_PATH.sub('-', name).strip('-') or 'server'}"


def _findings(document: WireJSON) -> Iterator[tuple[WireJSON, WireJSON | None, WireJSON]]:
    for server in document.get("servers", ()):
        for host in server.get("hosts") or ():
            for finding in host.get("findings") or ():
                yield server, host, finding
        for finding in server.get("hygiene") or ():
            yield server, None, finding


def _result(server: WireJSON, host: WireJSON | None, finding: WireJSON, rule_index: int) -> WireObject:
    target = cast("TargetInfo", server.get("target") or {})
    where = f"on {host.get('hostLabel') or host.get('hostId')}" if host is not None else "(server hygiene)"
    text = f"{finding.get('title', '')} {where}: {finding.get('detail', '')}".strip()
    remediation = finding.get("remediation")
    if remediation:
        text += f" Fix: {remediation}"
    tools = [str(tool) for tool in finding.get("tools") or ()]
    resources = [str(uri) for uri in finding.get("resources") or ()]
    location: WireObject = {"physicalLocation": {"artifactLocation": {"uri": artifact_uri(target)}}}
    logical = [{"name": tool, "kind": "function"} for tool in tools]
    logical += [{"name": uri, "kind": "resource"} for uri in resources]
    if logical:
        location["logicalLocations"] = logical
    fingerprint = "|".join(
        [str(finding.get("ruleId")), artifact_uri(target), str(host.get("hostId")) if host else "", *tools, *resources]
    )
    properties: WireObject = {"severity": finding.get("severity"), "lane": finding.get("lane")}
    if host is not None:
        properties.update(host=host.get("hostId"), verdict=host.get("verdict"))
    for key in ("provenance", "factSource", "factDate", "factSince", "factFixedIn"):
        if finding.get(key) is not None:
            properties[key] = finding[key]
    return {
        "ruleId": str(finding.get("ruleId")),
        "ruleIndex": rule_index,
        "level": _LEVELS.get(str(finding.get("severity")), "warning"),
        "message": {"text": text},
        "locations": [location],
        "partialFingerprints": {"hostcompat/v1": hashlib.sha256(fingerprint.encode()).hexdigest()},
        "properties": properties,
    }


def _notification(server: WireJSON) -> WireObject:
    """A server that could not be checked, as an error notification of the run's invocation."""
    target = cast("TargetInfo", server.get("target") or {})
    return {
        "level": "error",
        "message": {"text": f"{target.get('display', 'server')}: {server['error']}"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": artifact_uri(target)}}}],
    }


def render_sarif(report: ReportDocument) -> WireObject:
    """The SARIF 2.1.0 log for a report document."""
    document: WireJSON = report  # read as the untyped JSON a saved report may hold
    rules: dict[str, WireObject] = {}
    results: list[WireObject] = []
    for server, host, finding in _findings(document):
        rule_id = str(finding.get("ruleId"))
        if rule_id not in rules:
            rule: WireObject = {
                "id": rule_id,
                "name": rule_id,
                "shortDescription": {"text": str(finding.get("title") or rule_id)},
                "defaultConfiguration": {"level": _LEVELS.get(str(finding.get("severity")), "warning")},
            }
            if finding.get("remediation"):
                rule["help"] = {"text": str(finding["remediation"])}
            rules[rule_id] = rule
        results.append(_result(server, host, finding, list(rules).index(rule_id)))
    unchecked = [_notification(server) for server in document.get("servers", ()) if server.get("error")]
    invocation: WireObject = {"executionSuccessful": not unchecked}
    if unchecked:
        invocation["toolExecutionNotifications"] = unchecked
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "hostcompat",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": list(rules.values()),
                    }
                },
                "invocations": [invocation],
                "results": results,
            }
        ],
    }


__all__ = ["SARIF_SCHEMA", "SARIF_VERSION", "artifact_uri", "render_sarif"]
