"""A small report document as a check produces it (two hosts, one hygiene finding, one probe event)."""

from hostcompat.report import (
    FindingEntry,
    HostEntry,
    LaneName,
    ProvenanceName,
    ReportDocument,
    ServerInfo,
    SeverityName,
    VerdictName,
    report_document,
    server_entry,
)


def finding(
    rule: str,
    severity: SeverityName,
    tools: list[str],
    *,
    lane: LaneName = "apps",
    provenance: ProvenanceName | None = None,
    fact_source: str | None = None,
    fact_date: str | None = None,
) -> FindingEntry:
    out: FindingEntry = {
        "ruleId": rule,
        "lane": lane,
        "severity": severity,
        "title": f"title of {rule}",
        "detail": f"detail of {rule}",
        "remediation": f"fix {rule}",
        "tools": tools,
        "evidence": [],
    }
    if provenance is not None:
        out["provenance"] = provenance
    if fact_source is not None:
        out["factSource"] = fact_source
    if fact_date is not None:
        out["factDate"] = fact_date
    return out


def host(host_id: str, verdict: VerdictName, findings: list[FindingEntry]) -> HostEntry:
    return {
        "hostId": host_id,
        "hostLabel": host_id.title(),
        "verdict": verdict,
        "provenance": "probe",
        "lanes": {
            "apps": {"verdict": verdict, "provenance": "probe", "unknown": []},
            "server": {"verdict": "works", "provenance": None, "unknown": []},
        },
        "findings": findings,
    }


def document(*verdicts: VerdictName) -> ReportDocument:
    hosts = [
        host(
            f"host{i}",
            v,
            [
                finding(
                    "APPS-CAP-001",
                    "degraded",
                    ["show|board"],
                    provenance="probe",
                    fact_source="src",
                    fact_date="2026-08-19",
                )
            ]
            if v != "works"
            else [],
        )
        for i, v in enumerate(verdicts)
    ]
    server = server_entry(
        target={"kind": "stdio", "display": "python -m board", "name": "board"},
        server={"name": "board", "version": "1.0", "protocolVersion": "2025-11-25"},
        hosts=hosts,
        hygiene=[finding("HYG-URI-001", "blocker", ["t"], lane="server")],
        events=[{"code": "PROBE-TIMEOUT-LIST", "message": "tools/list timed out after 5 s"}],
    )
    return report_document([server])


def server_info(doc: ReportDocument) -> ServerInfo:
    """The first server's handshake info (a sample always has one)."""
    info = doc["servers"][0]["server"]
    assert info is not None
    return info
