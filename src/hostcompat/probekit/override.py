"""The probe's result as a catalog override file: which host it was, where it ran, and the facts it decided. Pure.

The host is the catalog host whose `clientInfoNames` (or id or alias) names the client that connected, else the one
the view's `hostInfo` names, else a new host named after the client. A known host's facts are written as
`variants` limited to the OS the view ran on and the registration path the user named (a probe shows what holds
there, not everywhere), or as plain facts with `common=True`; a new host's facts are plain facts. The document is
checked by the catalog's own validator before anyone writes it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.engine.catalog.load import apply_overrides
from hostcompat.engine.catalog.model import Catalog, HostProfile
from hostcompat.engine.catalog.schema import MAX_LONG_TEXT, MAX_SOURCE, SCHEMA_VERSION
from hostcompat.probekit.facts import Derived, Observed
from hostcompat.wire_json import WireObject

_OS_PATTERNS = (
    ("ios", regex(r"iphone|ipad|ipod", re.IGNORECASE)),
    ("android", regex(r"android", re.IGNORECASE)),
    ("windows", regex(r"\bwin", re.IGNORECASE)),
    ("macos", regex(r"\bmac", re.IGNORECASE)),
    ("linux", regex(r"linux|x11|cros", re.IGNORECASE)),
)


@dataclass(frozen=True)
class Seen:
    """Who ran the probe and where: the client's initialize, the transport, the OS, the registration path."""

    client_name: str | None
    client_version: str | None
    protocol_version: str | None = None
    ui_extension: bool | None = None
    capabilities: tuple[str, ...] = ()
    """The client's capabilities at initialize, by name (extensions by id)."""
    """Whether the client declared `io.modelcontextprotocol/ui` at initialize (None: it sent no initialize)."""
    transport: str = "stdio"
    os: str | None = None
    registration: str | None = None
    host_name: str | None = None
    host_version: str | None = None
    kit_version: str = "0"
    date: str = "1970-01-01"


def os_of(*texts: str) -> str | None:
    """The catalog OS (`windows`, `macos`, …) that a navigator platform or user agent names, first text first."""
    for text in texts:
        for name, pattern in _OS_PATTERNS:
            if text and pattern.search(text):
                return name
    return None


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60].strip("-")
    return slug or "unknown-host"


def find_host(catalog: Catalog, *names: str | None) -> HostProfile | None:
    """The catalog host one of `names` (a clientInfo or hostInfo name, in order) belongs to, if any."""
    for name in names:
        if not name:
            continue
        wanted = {name.strip().lower(), _slug(name)}
        for host in catalog.hosts:
            listed = host.facts.get("clientInfoNames")
            values = listed.value if listed is not None and isinstance(listed.value, tuple) else ()
            if wanted & {host.id, *host.aliases, *(str(value).lower() for value in values)}:
                return host
    return None


def summary(seen: Seen, derived: Derived) -> str:
    """The header description: who, where, when, and what stayed undecided."""
    client = " ".join(filter(None, (seen.client_name, seen.client_version))) or "a client that sent no initialize"
    host = " ".join(filter(None, (seen.host_name, seen.host_version))) or "no hostInfo"
    ext = {True: "declared", False: "not declared", None: "not known"}[seen.ui_extension]
    lines = [
        f"hostcompat probe-host {seen.kit_version}, {seen.date}: clientInfo {client} (MCP protocol "
        f"{seen.protocol_version or 'unknown'}, UI extension {ext}, capabilities "
        f"{', '.join(seen.capabilities) or 'none'}), hostInfo {host}, over {seen.transport}, "
        f"OS {seen.os or 'unknown'}, registration {seen.registration or 'not named'}.",
        *derived.remarks,
    ]
    return " ".join(lines)[:MAX_LONG_TEXT]


def _source(seen: Seen) -> str:
    who = " ".join(filter(None, (seen.client_name, seen.client_version))) or "an unnamed client"
    if seen.host_name and seen.host_name != seen.client_name:
        who += f" (hostInfo {' '.join(filter(None, (seen.host_name, seen.host_version)))})"
    where = ", ".join(filter(None, (seen.os, seen.registration, seen.transport)))
    return f"hostcompat probe-host {seen.kit_version} in {who}, {where}"[:MAX_SOURCE]


def _fact(item: Observed, seen: Seen) -> WireObject:
    value = list(item.value) if isinstance(item.value, tuple) else item.value
    fact: WireObject = {"value": value, "provenance": "probe", "source": _source(seen), "date": seen.date}
    fact["note"] = item.note[:MAX_LONG_TEXT]
    if item.trigger is not None:
        fact["trigger"] = item.trigger
    return fact


def _nest(facts: Sequence[tuple[str, WireObject]]) -> WireObject:
    tree: WireObject = {}
    for path, fact in facts:
        *groups, leaf = path.split(".")
        node = tree
        for group in groups:
            node = node.setdefault(group, {})
        node[leaf] = fact
    return tree


def _identity(host: HostProfile) -> WireObject:
    """A known host's id, name and kind: not needed to override it, but the published schema asks for them."""
    return {"id": host.id, "displayName": host.display_name, "kind": host.kind}


def build_override(
    catalog: Catalog, seen: Seen, derived: Derived, *, host_id: str | None = None, common: bool = False
) -> WireObject:
    """The override document for what the probe saw; `host_id` names the catalog host when the names do not.

    Raises:
        CatalogError: the document does not pass the catalog's validator (a bug, never the host's doing).
        HostCompatError: `host_id` is not in the catalog.
    """
    seen = replace(  # a name of only spaces or line breaks names nothing
        seen,
        client_name=seen.client_name if (seen.client_name or "").strip() else None,
        host_name=seen.host_name if (seen.host_name or "").strip() else None,
    )
    known = catalog.get(host_id) if host_id else find_host(catalog, seen.client_name, seen.host_name)
    facts = [(item.path, _fact(item, seen)) for item in derived.facts]
    transport = seen.transport if seen.transport in ("stdio", "streamable-http") else None
    if transport is not None:
        note = f"the probe server ran over {transport} and the host reached it"
        facts.append((f"server.transports.{transport}", _fact(Observed("", "supported", note), seen)))
    if seen.client_name:
        listed = known.facts.get("clientInfoNames") if known is not None else None
        names = tuple(str(v) for v in listed.value) if listed is not None and isinstance(listed.value, tuple) else ()
        if seen.client_name not in names:
            note = f"clientInfo.name {seen.client_name!r} seen at initialize"
            facts.append(("clientInfoNames", _fact(Observed("", (*names, seen.client_name), note), seen)))
    host: WireObject
    if known is None:
        name = seen.client_name or seen.host_name or "unknown host"
        host = {"id": host_id or _slug(name), "displayName": name, "kind": "other", **_nest(facts)}
    elif common or not (seen.os or seen.registration):
        host = {**_identity(known), **_nest(facts)}
    else:
        scope: WireObject = {}
        if seen.os:
            scope["os"] = [seen.os]
        if seen.registration:
            scope["registration"] = [seen.registration]
        top = [(path, fact) for path, fact in facts if path == "clientInfoNames"]
        variants = [{"path": path, **fact, **scope} for path, fact in facts if path != "clientInfoNames"]
        host = {**_identity(known), **_nest(top), "variants": variants}
    document: WireObject = {
        "catalog": {"schemaVersion": SCHEMA_VERSION, "date": seen.date, "description": summary(seen, derived)},
        "hosts": [host],
    }
    apply_overrides(catalog, document, source_name="the probe's override")
    return document


__all__ = ["Seen", "build_override", "find_host", "os_of", "summary"]
