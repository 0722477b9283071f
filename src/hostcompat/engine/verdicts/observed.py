"""Observed evidence in a host's apps lane: what each widget was seen to do under this host's emulated bridge.

Each `ObservedRun` for the host adds an info finding saying what ran, for how long and how it ended, and one
finding per behavioural rule that fired. `observed_evidence` tells a capability finding whether the run reached
the need it is about ("seen: tools/call under Claude") or not ("static only: not reached in 8.0 s").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hostcompat.engine.findings.model import Evidence, cut_snippet
from hostcompat.engine.findings.rules import finding_for
from hostcompat.engine.server.digest import ServerDigest
from hostcompat.engine.server.observed import ObservedRun
from hostcompat.engine.verdicts.model import LaneBuilder, cut_text, name_list

_REMEDIATION: Final = {
    "OBS-INIT-001": "Connect the view to the host (ext-apps: new App(...).connect()) as the page loads.",
    "OBS-INIT-003": "Send appCapabilities in ui/initialize (App's constructor takes them; {} when it offers nothing).",
    "OBS-INIT-002": "Send ui/notifications/initialized once the ui/initialize answer arrives (App.connect does).",
    "OBS-JSONRPC-001": "Post only JSON-RPC 2.0 objects to the host: {jsonrpc: '2.0', method, params?, id?}.",
    "OBS-SIZE-001": "Send ui/notifications/size-changed when the content's size changes (App autoResize does).",
    "OBS-APPTOOLS-001": "Register a tools/list handler (App.onlisttools) when appCapabilities declares tools.",
    "OBS-MODE-001": "Request only modes listed in both appCapabilities and hostContext.availableDisplayModes.",
    "OBS-VIS-001": "Call only tools whose visibility includes 'app' from the view.",
    "OBS-REFUSE-001": "Catch a refused request and offer a fallback (check getHostCapabilities() first).",
    "OBS-RENDER-001": "Render something before the first host message arrives, and render tool results.",
    "OBS-HOSTILE-001": "Keep the view's work bounded: no busy loops, bounded memory, one message per event.",
    "OBS-NET-001": "Declare every origin the view reaches in _meta.ui.csp (connectDomains, resourceDomains).",
}


def runs_for(server: ServerDigest, host_id: str) -> tuple[ObservedRun, ...]:
    """The observed runs of the widgets under `host_id`."""
    return tuple(run for run in server.observed if run.host_id == host_id)


def evaluate_observed(server: ServerDigest, lane: LaneBuilder, renderable: frozenset[str]) -> None:
    """Add the observed-run findings of `lane.host` for the widget tools it renders to `lane`."""
    for run in runs_for(server, lane.host.id):
        tools = [tool for tool in run.tools if tool in renderable] or list(run.tools)
        evidence = [_run_evidence(run)]
        lane.add_finding(
            finding_for(
                "OBS-RUN-001",
                detail=cut_text(_summary(run, lane.host.display_name)),
                tools=tools,
                evidence=evidence,
            )
        )
        for issue in run.issues:
            lane.add_finding(
                finding_for(
                    issue.rule_id,
                    detail=cut_text(f"Under {lane.host.display_name}'s emulated bridge: {issue.detail}"),
                    remediation=_REMEDIATION.get(issue.rule_id),
                    tools=tools,
                    evidence=evidence,
                )
            )


def observed_evidence(
    server: ServerDigest, host_id: str, host_label: str, tools: Sequence[str], need: str
) -> list[Evidence]:
    """For each run of these tools' widgets under the host: whether the run reached `need`, as evidence."""
    out: list[Evidence] = []
    for run in runs_for(server, host_id):
        if not set(run.tools).intersection(tools):
            continue
        if need in run.reached:
            refused = " and the host refused it" if need in run.refused else ""
            detail = f"observed: the view used {need} within {run.seconds:.1f} s under {host_label}{refused}"
        else:
            how = ", its buttons pressed" if run.explored else ""
            detail = (
                f"static: {need} in code; not reached in {run.seconds:.1f} s of running under {host_label}{how} "
                f"({run.status})"
            )
        out.append(Evidence(f"observed:{cut_snippet(run.uri)}", detail=cut_snippet(detail)))
    return out


def _run_evidence(run: ObservedRun) -> Evidence:
    methods = ", ".join(run.methods[:12]) or "nothing"
    return Evidence(f"observed:{cut_snippet(run.uri)}", detail=cut_snippet(f"{run.status}; sent {methods}"))


def _summary(run: ObservedRun, host: str) -> str:
    methods = name_list(run.methods, limit=12) if run.methods else "no bridge message"
    explored = " with its buttons pressed" if run.explored else ""
    text = f"Ran {run.seconds:.1f} s under {host}'s emulated bridge{explored}: {run.status}; sent {methods}."
    if run.reached:
        text += f" Needs reached: {', '.join(run.reached)}."
    if run.refused:
        text += f" Refused by this host: {', '.join(run.refused)}."
    for note in run.notes[:3]:
        text += f" {note}"
    return text


__all__ = ["evaluate_observed", "observed_evidence", "runs_for"]
