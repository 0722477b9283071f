"""Folding one override document (a probe's file) into a user's own, and what that changed, fact by fact. Pure.

`fold_documents` merges host by host with the catalog's own merge rule (`merge_host`: facts replaced one by one,
variants by path and host context). `fact_changes` compares the catalog before and after, for each fact the folded
document names, in the host context that fact is limited to (its OS and registration path): added (no fact held
there before), changed (another value), or unchanged (the same value, perhaps from newer evidence).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from hostcompat._dataclass import dataclass
from hostcompat.engine.catalog.host_context import HostContext, in_context
from hostcompat.engine.catalog.merge import merge_host
from hostcompat.engine.catalog.model import Catalog, Fact, FactValue, HostProfile
from hostcompat.engine.catalog.schema import FACT_FIELDS, SCHEMA_VERSION
from hostcompat.wire_json import WireJSON, WireObject

ChangeKind = Literal["added", "changed", "unchanged"]


@dataclass(frozen=True)
class FactChange:
    """One fact the folded document names: where, in which host context, and its value before and after."""

    host: str
    path: str
    context: HostContext
    kind: ChangeKind
    before: Fact | None
    after: Fact

    def to_dict(self) -> WireObject:
        """The JSON form (values as the catalog writes them)."""
        return {
            "host": self.host,
            "path": self.path,
            "context": self.context.describe(),
            "change": self.kind,
            "before": _value(self.before.value) if self.before is not None else None,
            "beforeProvenance": self.before.provenance if self.before is not None else None,
            "after": _value(self.after.value),
            "afterProvenance": self.after.provenance,
        }


def _value(value: FactValue) -> object:
    return list(value) if isinstance(value, tuple) else value


def fold_documents(user: WireJSON | None, folded: WireJSON) -> WireObject:
    """`user`'s document (None: a new one) with `folded`'s hosts merged in by id, new ids appended; the user's
    header is kept (a new document takes `folded`'s schema version and date).
    """
    header = (user or {}).get("catalog")
    if not isinstance(header, dict):
        given = folded.get("catalog")
        date = given.get("date") if isinstance(given, dict) else None
        header = {"schemaVersion": SCHEMA_VERSION, **({"date": date} if isinstance(date, str) else {})}
    hosts = [dict(host) for host in (user or {}).get("hosts", []) if isinstance(host, dict)]
    index = {host.get("id"): position for position, host in enumerate(hosts)}
    for host in folded.get("hosts", []):
        if not isinstance(host, dict):
            continue
        at = index.get(host.get("id"))
        if at is None:
            index[host.get("id")] = len(hosts)
            hosts.append(dict(host))
        else:
            hosts[at] = merge_host(hosts[at], host)
    document: WireObject = {"catalog": header, "hosts": hosts}
    if isinstance((user or {}).get("$schema"), str):
        document = {"$schema": (user or {})["$schema"], **document}
    return document


def named_facts(host: WireJSON) -> Iterator[tuple[str, HostContext]]:
    """The facts a host object of an override document names: each path, in the context it is limited to."""

    def walk(node: object, prefix: str) -> Iterator[str]:
        if not isinstance(node, dict):
            return
        for key, child in node.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            if path in FACT_FIELDS:
                yield path
            elif any(name.startswith(path + ".") for name in FACT_FIELDS):
                yield from walk(child, path)

    for path in walk({key: value for key, value in host.items() if key != "variants"}, ""):
        yield path, _context_of(_dict(_lookup(host, path)))
    for variant in host.get("variants", []) or []:
        if isinstance(variant, dict) and variant.get("path") in FACT_FIELDS:
            yield str(variant["path"]), _context_of(variant)


def _dict(value: object) -> WireJSON:
    return value if isinstance(value, dict) else {}


def _lookup(host: WireJSON, path: str) -> object:
    node: object = host
    for part in path.split("."):
        node = _dict(node).get(part)
    return node


def _context_of(fact: WireJSON) -> HostContext:
    def first(key: str) -> str | None:
        values = fact.get(key)
        return str(values[0]) if isinstance(values, list) and values else None

    gates = fact.get("gate")
    return HostContext(first("os"), first("registration"), frozenset(gates if isinstance(gates, list) else ()))


def fact_changes(before: Catalog, after: Catalog, folded: WireJSON) -> tuple[FactChange, ...]:
    """For each fact `folded` names, its value in its host context before and after folding it in."""
    changes: list[FactChange] = []
    known = set(before.ids)
    for host in folded.get("hosts", []):
        host_id = host.get("id") if isinstance(host, dict) else None
        if not isinstance(host_id, str):
            continue
        now = after.get(host_id)
        was = before.get(host_id) if host_id in known else None
        seen: set[tuple[str, HostContext]] = set()
        for path, context in named_facts(host):
            if (path, context) in seen:
                continue
            seen.add((path, context))
            new = _in(now, context).facts.get(path)
            if new is None:
                continue
            old = _in(was, context).facts.get(path) if was is not None else None
            kind: ChangeKind = "added" if old is None else "unchanged" if old.value == new.value else "changed"
            changes.append(FactChange(host_id, path, context, kind, old, new))
    return tuple(changes)


def _in(host: HostProfile, context: HostContext) -> HostProfile:
    return in_context(host, context)


__all__ = ["ChangeKind", "FactChange", "fact_changes", "fold_documents", "named_facts"]
