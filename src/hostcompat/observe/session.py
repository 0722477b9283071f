"""Observe a server's widgets under the judged hosts: one run per widget and distinct emulated bridge, cited for
every host that bridge stands for. The server behind the host page answers from the snapshot (captured results,
the tool list, the `ui://` resources read), so an observed check needs no live server.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any

from hostcompat._dataclass import dataclass
from hostcompat.engine.catalog.host_context import HostContext
from hostcompat.engine.catalog.model import HostProfile
from hostcompat.engine.server.observed import ObservedRun
from hostcompat.observe.host_profile import EmulatedHost, emulate_host, renders_mcp_apps
from hostcompat.observe.live_server import live_server
from hostcompat.observe.record import RunRecord
from hostcompat.observe.rules import judge_run, timings
from hostcompat.observe.runner import RunLimits, ServerHandler, observe_all
from hostcompat.observe.widget import SkippedWidget, WidgetJob, sample_result, widget_jobs
from hostcompat.probe.snapshot import Snapshot
from hostcompat.probe.target import Target
from hostcompat.wire_json import WireJSON, WireObject


@dataclass(frozen=True)
class Observation:
    """The runs (one per widget and judged host), the raw records behind them, and the widgets not run."""

    runs: tuple[ObservedRun, ...]
    records: tuple[tuple[str, str, RunRecord], ...]
    """(widget URI, emulated host id, record) for each browser run made."""
    skipped: tuple[SkippedWidget, ...]
    notes: tuple[str, ...] = ()
    """What the observation as a whole says (the live server used or not reached, tools held back)."""
    hosts: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(emulated host id, the judged host ids its runs stand for): each distinct bridge was run once."""

    def to_dict(self) -> WireObject:
        """The JSON form: runs, each browser run's record with its timings, and the widgets skipped."""
        return {
            "runs": [run.to_dict() for run in self.runs],
            "records": [
                {"uri": uri, "hostId": host, "timings": timings(record), "record": record.to_dict()}
                for uri, host, record in self.records
            ],
            "skipped": [{"uri": s.uri, "tools": list(s.tools), "reason": s.reason} for s in self.skipped],
            "notes": list(self.notes),
            "bridges": [{"emulated": host, "standsFor": list(ids)} for host, ids in self.hosts],
        }


def snapshot_server(snapshot: Snapshot, call_results: Mapping[str, WireJSON] | None = None) -> ServerHandler:
    """The MCP server as the snapshot knows it: tools/call answers a captured result (else one built from the
    tool's outputSchema), tools/list the tools, resources/read the `ui://` contents read, resources/list the list.
    """
    tools = {str(tool.get("name")): tool for tool in snapshot.tools}

    async def handle(method: str, params: Any) -> Mapping[str, Any]:
        args = params if isinstance(params, Mapping) else {}
        if method == "tools/call":
            name = args.get("name")
            if not isinstance(name, str) or name not in tools:
                return {"error": {"code": -32602, "message": f"Unknown tool: {str(name)[:100]}"}}
            captured = (call_results or {}).get(name)
            return {"result": dict(captured) if captured is not None else sample_result(tools[name])}
        if method == "tools/list":
            return {"result": {"tools": [dict(tool) for tool in snapshot.tools]}}
        if method == "resources/list":
            return {"result": {"resources": [dict(item) for item in snapshot.resources]}}
        if method == "resources/templates/list":
            return {"result": {"resourceTemplates": [dict(item) for item in snapshot.resource_templates]}}
        if method == "resources/read":
            uri = args.get("uri")
            capture = snapshot.ui_resources.get(uri) if isinstance(uri, str) else None
            if capture is None or capture.error is not None:
                return {"error": {"code": -32002, "message": "Resource not found (not captured in the snapshot)"}}
            return {"result": {"contents": [dict(item) for item in capture.contents]}}
        return {"error": {"code": -32601, "message": "Method not found"}}

    return handle


def captured_results(snapshot: Snapshot) -> dict[str, WireJSON]:
    """Tool name → the result the probe's call of it returned, where one succeeded (what a host would deliver)."""
    captured = snapshot.call_results or {}
    return {name: result for name, result in captured.items() if result.get("isError") is not True}


def observe_snapshot(
    snapshot: Snapshot,
    hosts: Iterable[HostProfile],
    *,
    call_results: Mapping[str, WireJSON] | None = None,
    limits: RunLimits | None = None,
    explore: bool = True,
    concurrency: int = 2,
    reuse: bool = True,
    live: Target | None = None,
    host_versions: Mapping[str, str] | None = None,
    context: HostContext | None = None,
) -> Observation:
    """Run every widget of `snapshot` under each of `hosts` that renders MCP Apps (each distinct bridge once).

    The view gets the tool result the probe captured (`call_results`, by default the snapshot's successful calls),
    else one built from the tool's outputSchema. Its server requests are answered from the snapshot, or forwarded
    to the server at `live` (connected for the runs). `host_versions` (host id → version) and `context` decide
    which catalog quirks are replayed.

    Raises:
        BrowserUnavailable: Playwright or Chromium is missing or does not start.
    """
    arguments: dict[str, WireJSON] | None = None
    if call_results is None:
        call_results = captured_results(snapshot)
        arguments = {}
        for call in snapshot.calls:  # the arguments of the call whose result is delivered (the first that succeeded)
            if call.succeeded:
                arguments.setdefault(call.tool, call.arguments)
    jobs, skipped = widget_jobs(snapshot, call_results=call_results, call_arguments=arguments)
    emulated: dict[tuple[Any, ...], tuple[EmulatedHost, list[str]]] = {}
    for profile in hosts:
        if not renders_mcp_apps(profile):
            continue
        host = emulate_host(profile, version=(host_versions or {}).get(profile.id), context=context)
        emulated.setdefault(host.signature, (host, []))[1].append(profile.id)
    pairs = [(job, host) for job in jobs for host, _ in emulated.values()]
    notes: list[str] = []
    fallback = snapshot_server(snapshot, call_results)
    opener = None
    if live is not None:
        target = live

        def opener() -> AbstractAsyncContextManager[ServerHandler]:
            return live_server(target, snapshot, fallback, notes)

    records = (
        observe_all(
            pairs, fallback, limits=limits, explore=explore, concurrency=concurrency, reuse=reuse, open_server=opener
        )
        if pairs
        else []
    )
    runs: list[ObservedRun] = []
    kept: list[tuple[str, str, RunRecord]] = []
    by_signature = {host.signature: ids for host, ids in emulated.values()}
    for (job, host), record in zip(pairs, records, strict=True):
        kept.append((job.uri, host.host_id, record))
        run = _judge(job, host, record)
        runs.extend(ObservedRun(**{**_fields(run), "host_id": host_id}) for host_id in by_signature[host.signature])
    bridges = tuple((host.host_id, tuple(ids)) for host, ids in emulated.values())
    return Observation(tuple(runs), tuple(kept), tuple(skipped), tuple(notes), bridges)


def _judge(job: WidgetJob, host: EmulatedHost, record: RunRecord) -> ObservedRun:
    return judge_run(
        record,
        host,
        uri=job.uri,
        tools=job.tools,
        model_only_tools=job.model_only_tools,
        declared_origins=job.declared_origins,
    )


def _fields(run: ObservedRun) -> dict[str, Any]:
    return {name: getattr(run, name) for name in run.__dataclass_fields__}


__all__ = ["Observation", "captured_results", "observe_snapshot", "snapshot_server"]
