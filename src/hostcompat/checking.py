"""A check of one server, from its snapshot to its part of the report: the data flow of `hostcompat check`.

snapshot → scan each widget the tools name (`engine.scan`) → widget usage per tool → `engine.evaluate_all_hosts`
→ host reports, plus the server's own MCP Apps hygiene (`engine.hygiene`) and what the probe saw happen.

Pure: it reads a `Snapshot` (plain data) and a host catalog, and never imports the `mcp` SDK, so checking a saved
snapshot is fast and offline.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from hostcompat.engine.catalog_model import Catalog
from hostcompat.engine.evaluate import evaluate_all_hosts
from hostcompat.engine.host_context import HostContext
from hostcompat.engine.hygiene import check_server_hygiene
from hostcompat.engine.requirements import derive_server_requirements
from hostcompat.engine.server_facts import MAX_FACT_CHARS, ConnectionFacts, WidgetUsage
from hostcompat.errors import HostCompatError
from hostcompat.probe.snapshot import Snapshot
from hostcompat.report.document import server_entry


@dataclass(frozen=True)
class WidgetAnalysis:
    """What the widgets of a server need, per tool; `usage` is None when some widget could not be analysed."""

    usage: WidgetUsage | None
    notes: tuple[dict[str, str], ...]
    """Why a widget was not analysed, as report events (`code`, `message`)."""


def analyse_widgets(snapshot: Snapshot) -> WidgetAnalysis:
    """Scan every widget the snapshot's tools name and attribute each need to the tools using that widget."""
    requirements = derive_server_requirements(list(snapshot.tools))
    uses: list[tuple[str, str, bool]] = []
    permissions: dict[str, list[str]] = {}
    notes: list[dict[str, str]] = []
    for uri, tools in requirements.widget_tools_by_uri.items():
        scanned = _scan_widget(snapshot, uri)
        if isinstance(scanned, str):
            notes.append({"code": "CHECK-WIDGET-NOT-ANALYSED", "message": f"{uri}: {scanned}"})
            continue
        needs, names = scanned
        for tool in tools:
            uses.extend((tool, need, guarded) for need, guarded in needs)
            if names:
                permissions[tool] = list(names)
    if notes:
        return WidgetAnalysis(None, tuple(notes))
    return WidgetAnalysis(WidgetUsage.from_tool_uses(uses, sandbox_permissions=permissions), ())


def _scan_widget(snapshot: Snapshot, uri: str) -> tuple[list[tuple[str, bool]], tuple[str, ...]] | str:
    """The (need, guarded) uses and permission names of one widget, or why it could not be analysed."""
    capture = snapshot.ui_resources.get(uri)
    if capture is None:
        return "the probe did not read it"
    if capture.error is not None:
        return f"reading it failed ({capture.error.get('message', 'error')})"
    if capture.truncated:
        return "it was larger than the probe's per-resource limit and was cut"
    items = [item for item in capture.contents if item.get("uri") == uri] or list(capture.contents[:1])
    if not items:
        return "resources/read returned no contents"
    from hostcompat.engine.scan import scan_widget_content  # the scanner loads only for servers with widgets
    from hostcompat.engine.scan_meta import scan_widget_meta
    from hostcompat.engine.widget_needs import attributed_needs

    names: list[str] = []
    try:
        scan = scan_widget_content(items[0])
        meta_scan = scan_widget_meta(_ui_meta_holder(items[0], snapshot.resource_listing(uri)))
    except HostCompatError as error:
        return f"its content could not be scanned ({error})"
    if not scan.code_analysed:
        return "its code is loaded from elsewhere and was not analysed"
    uses = [
        *attributed_needs(scan),
        *((f.need, f.kind == "guarded-call") for f in meta_scan.findings if f.counts),
    ]
    names.extend(meta_scan.permission_names)
    return uses, tuple(dict.fromkeys(names))


def _ui_meta_holder(item: Mapping[str, Any], listing: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The `_meta` whose `ui` applies: the content item's when it has one, else the listing entry's (the spec)."""
    meta = item.get("_meta")
    if isinstance(meta, Mapping) and isinstance(meta.get("ui"), Mapping):
        return meta
    listing_meta = (listing or {}).get("_meta")
    return listing_meta if isinstance(listing_meta, Mapping) else None


PROBE_HANDSHAKE_VERSION = "2025-11-25"
"""The protocol version the probe (the `mcp` SDK's client) asks for in an `initialize` handshake."""


def connection_facts(snapshot: Snapshot) -> ConnectionFacts:
    """The facts of the connection the engine's server lane uses.

    The negotiated protocol version says something about the server only when the server chose it: the probe asks
    for the newest version, so a server that speaks it simply agrees, and a host asking for an older one gets that
    one instead. Only a handshake the server answered with an older version than the probe asked for (the server
    cannot speak newer) is passed on, for the engine to compare with each host's versions.
    """
    info = snapshot.server_info or {}
    era = (snapshot.connection or {}).get("era")
    version = snapshot.protocol_version
    chosen = version if era == "handshake" and version != PROBE_HANDSHAKE_VERSION else None
    return ConnectionFacts(
        protocol_version=_fact(chosen),
        transport=_fact(snapshot.target.get("kind")),
        server_name=_fact(info.get("name")),
        server_version=_fact(info.get("version")),
    )


def _fact(value: object) -> str | None:
    """A server-sent value usable as a connection fact: a non-empty, bounded string, else unknown."""
    return value if isinstance(value, str) and 0 < len(value) <= MAX_FACT_CHARS else None


def check_snapshot(
    snapshot: Snapshot,
    catalog: Catalog,
    *,
    host_ids: Iterable[str] | None = None,
    target: Mapping[str, Any] | None = None,
    host_versions: Mapping[str, str] | None = None,
    as_of: str | None = None,
    host_contexts: Mapping[str | None, HostContext] | None = None,
) -> dict[str, Any]:
    """One server's part of the report document, from its snapshot.

    `host_versions` pins the host versions to judge (host id → version; by default each host's current one), and
    `as_of` is the date of the check, against which the age of old host facts is told, and `host_contexts` the OS,
    registration path or gates to judge hosts in (host name, None for every host → context; default the common path).
    """
    widgets = analyse_widgets(snapshot)
    evaluation = evaluate_all_hosts(
        list(snapshot.tools) if snapshot.initialize is not None else None,
        catalog,
        widget_usage=widgets.usage,
        connection_facts=connection_facts(snapshot),
        tools_truncated=snapshot.is_unknown("tools"),
        host_ids=list(host_ids) if host_ids else None,
        host_versions=host_versions,
        as_of=as_of,
        host_contexts=host_contexts,
    )
    ui_resources = {
        uri: {"error": dict(capture.error)} if capture.error is not None else {"contents": list(capture.contents)}
        for uri, capture in snapshot.ui_resources.items()
        if not capture.truncated
    }
    hygiene = check_server_hygiene(list(snapshot.tools), list(snapshot.resources), ui_resources)
    events = [{"code": e.code, "message": e.message, "severity": e.severity} for e in snapshot.events]
    info = snapshot.server_info or {}
    server = {
        "name": info.get("name"),
        "version": info.get("version"),
        "protocolVersion": snapshot.protocol_version,
    }
    return server_entry(
        target={**dict(snapshot.target), **dict(target or {})},
        server=server if snapshot.initialize is not None else None,
        hosts=[report.to_dict() for report in evaluation.reports],
        hygiene=[finding.to_dict() for finding in hygiene],
        events=[*events, *widgets.notes],
        requirements=evaluation.requirements.to_dict(),
    )


__all__ = ["WidgetAnalysis", "analyse_widgets", "check_snapshot", "connection_facts"]
