"""A small report document as a check produces it (two hosts, one hygiene finding, one probe event)."""

from typing import Any

from hostcompat.report import report_document, server_entry


def finding(rule: str, severity: str, tools: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "ruleId": rule,
        "lane": "apps",
        "severity": severity,
        "title": f"title of {rule}",
        "detail": f"detail of {rule}",
        "remediation": f"fix {rule}",
        "tools": tools,
        "evidence": [],
        **extra,
    }


def host(host_id: str, verdict: str, findings: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "hostId": host_id,
        "hostLabel": host_id.title(),
        "verdict": verdict,
        "provenance": "probe",
        "lanes": {"apps": {"verdict": verdict, "provenance": "probe"}, "server": {"verdict": "works"}},
        "findings": findings,
    }


def document(*verdicts: str) -> dict[str, Any]:
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
                    factSource="src",
                    factDate="2026-08-19",
                )
            ]
            if v != "works"
            else [],
        )
        for i, v in enumerate(verdicts)
    ]
    server = server_entry(
        target={"kind": "stdio", "display": "python -m board", "name": "board"},
        server={"name": "board", "version": "1.0"},
        hosts=hosts,
        hygiene=[finding("HYG-URI-001", "blocker", ["t"], lane="server")],
        events=[{"code": "PROBE-TIMEOUT-LIST", "message": "tools/list timed out after 5 s"}],
    )
    return report_document([server])
