"""The catalog's frozen data model: facts, quirk references, host profiles and the catalog with name lookup.

Plain frozen dataclasses over already-validated data; `hostcompat.engine.catalog.load` builds them from JSON.
"""

from __future__ import annotations

import re
import types
from collections.abc import Mapping
from dataclasses import field
from typing import NoReturn, TypeAlias

from hostcompat._dataclass import dataclass
from hostcompat.engine.catalog.schema import FACT_FIELDS, fail, show_value
from hostcompat.errors import CatalogError
from hostcompat.wire_json import WireObject

FactValue: TypeAlias = str | int | bool | tuple[str, ...]
"""A fact's value: a level or text, a number, a flag, or a list of names (as a tuple)."""


@dataclass(frozen=True)
class Fact:
    """One claim about a host: its value, where it comes from, the source and the date (ISO, as precise as given)."""

    value: FactValue
    provenance: str
    source: str
    date: str
    note: str | None = None
    trigger: str | None = None
    """The server data that makes the fact bite (an id of `catalog_schema.TRIGGERS`); None: it always holds."""
    info_only: bool = False
    """Nothing the engine can read from a server decides whether the fact bites: it is reported, never degrades."""
    since: str | None = None
    """The first host version the fact holds for, when the source gives one."""
    fixed_in: str | None = None
    """The first host version where it no longer holds, when the source gives one."""
    os: tuple[str, ...] = ()
    """The operating systems it holds on (empty: any, the common path)."""
    registration: tuple[str, ...] = ()
    """The registration paths it holds for (empty: any, the common path)."""
    gate: tuple[str, ...] = ()
    """The server-side feature gates it holds behind (empty: none needed)."""

    def to_dict(self) -> WireObject:
        """The JSON form of the fact (lists for tuples)."""
        out: WireObject = {
            "value": list(self.value) if isinstance(self.value, tuple) else self.value,
            "provenance": self.provenance,
            "source": self.source,
            "date": self.date,
        }
        if self.note is not None:
            out["note"] = self.note
        out.update(condition_dict(self.trigger, self.info_only, self.since, self.fixed_in))
        out.update(context_dict(self))
        return out


@dataclass(frozen=True)
class FactVariant:
    """A fact at `path` that holds only in the host context its `os`, `registration` or `gate` names."""

    path: str
    fact: Fact

    def to_dict(self) -> WireObject:
        """The JSON form: the fact's keys after `path`."""
        return {"path": self.path, **self.fact.to_dict()}


@dataclass(frozen=True)
class QuirkRef:
    """A known client quirk of a host: a catalog id, a short text, its source, and the client rule that works
    around it (`rule`, an id in the bundled client-rules catalog) when there is one.
    """

    id: str
    text: str
    provenance: str
    source: str
    date: str
    note: str | None = None
    rule: str | None = None
    trigger: str | None = None
    """The server data that makes the quirk bite (an id of `catalog_schema.TRIGGERS`)."""
    info_only: bool = False
    """Nothing the engine can read from a server decides it: listed with the host, never a verdict."""
    since: str | None = None
    fixed_in: str | None = None
    covers: str | None = None
    """The path of the host fact the engine evaluates this quirk through (so it is not reported twice)."""
    os: tuple[str, ...] = ()
    registration: tuple[str, ...] = ()
    gate: tuple[str, ...] = ()
    """The host context it holds in (as on `Fact`; empty: the common path)."""

    def to_dict(self) -> WireObject:
        """The JSON form of the quirk reference."""
        out: WireObject = {
            "id": self.id,
            "text": self.text,
            "provenance": self.provenance,
            "source": self.source,
            "date": self.date,
        }
        if self.note is not None:
            out["note"] = self.note
        if self.rule is not None:
            out["rule"] = self.rule
        out.update(condition_dict(self.trigger, self.info_only, self.since, self.fixed_in))
        out.update(context_dict(self))
        if self.covers is not None:
            out["covers"] = self.covers
        return out


def condition_dict(trigger: str | None, info_only: bool, since: str | None, fixed_in: str | None) -> WireObject:
    """The JSON keys of a fact's or quirk's conditions that are set."""
    out: WireObject = {}
    if trigger is not None:
        out["trigger"] = trigger
    if info_only:
        out["infoOnly"] = True
    if since is not None:
        out["since"] = since
    if fixed_in is not None:
        out["fixedIn"] = fixed_in
    return out


def context_dict(item: Fact | QuirkRef) -> WireObject:
    """The JSON keys of the host context a fact or quirk is limited to, where it is."""
    scope = {"os": item.os, "registration": item.registration, "gate": item.gate}
    return {key: list(values) for key, values in scope.items() if values}


@dataclass(frozen=True)
class HostProfile:
    """What one host supports. `facts` maps dotted paths (see `FACT_FIELDS`) to facts; absent means unknown."""

    id: str
    display_name: str
    kind: str
    aliases: tuple[str, ...] = ()
    description: str | None = None
    facts: Mapping[str, Fact] = field(default_factory=lambda: types.MappingProxyType({}), hash=False)
    quirks: tuple[QuirkRef, ...] = ()
    variants: tuple[FactVariant, ...] = ()
    """Facts that replace the one at their path in the host context they name (see `catalog.host_context`)."""
    memo: dict[object, object] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)
    """What `catalog.host_context` derived from this (frozen) profile, kept so that each host costs it once: the
    profile in a context, and the other contexts it names. Not part of the host's value."""

    def fact(self, path: str) -> Fact | None:
        """The fact at `path` (e.g. `ui.mcpApps.features.downloadFile`), or None when the sources do not say."""
        if path not in FACT_FIELDS:
            _unknown_path(path)
        return self.facts.get(path)

    def level(self, path: str) -> str:
        """The support level at `path`; `unknown` when no source gives it."""
        spec = FACT_FIELDS.get(path)
        if spec is None or spec.kind != "level":
            _unknown_path(path, levels_only=True)
        found = self.facts.get(path)
        return "unknown" if found is None else str(found.value)

    def to_dict(self) -> WireObject:
        """The JSON form of the host, nested as in the catalog file, facts in schema order."""
        out: WireObject = {"id": self.id, "displayName": self.display_name, "kind": self.kind}
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.description is not None:
            out["description"] = self.description
        for path in FACT_FIELDS:
            if path in self.facts:
                *groups, leaf = path.split(".")
                node = out
                for group in groups:
                    node = node.setdefault(group, {})
                node[leaf] = self.facts[path].to_dict()
        if self.variants:
            out["variants"] = [variant.to_dict() for variant in self.variants]
        if self.quirks:
            out["quirks"] = [quirk.to_dict() for quirk in self.quirks]
        return out


@dataclass(frozen=True)
class CatalogHeader:
    """The catalog's own metadata: schema version, the catalog date and a description."""

    schema_version: int
    date: str
    description: str | None = None

    def to_dict(self) -> WireObject:
        """The JSON form of the header."""
        out: WireObject = {"schemaVersion": self.schema_version, "date": self.date}
        if self.description is not None:
            out["description"] = self.description
        return out


@dataclass(frozen=True)
class Catalog:
    """A validated set of host profiles; `sources` names the documents it was built from, in order."""

    header: CatalogHeader
    hosts: tuple[HostProfile, ...]
    sources: tuple[str, ...] = field(default=(), compare=False)

    @property
    def ids(self) -> tuple[str, ...]:
        """Host ids in catalog order."""
        return tuple(host.id for host in self.hosts)

    def get(self, name: str) -> HostProfile:
        """The host whose id or alias is `name` (case, spaces and underscores ignored); CatalogError if none or many."""
        found = hosts_with_alias(self, name)
        if len(found) == 1:
            return found[0]
        if found:
            ids = ", ".join(host.id for host in found)
            raise CatalogError(f"host name {show_value(name)} is ambiguous: it names {ids}", value=name)
        names = [*self.ids, *(alias for host in self.hosts for alias in host.aliases)]
        import difflib  # only for the error message

        close = difflib.get_close_matches(_normalize_name(name), names, n=3)
        hint = f"did you mean {', '.join(close)}?" if close else f"known hosts: {', '.join(self.ids)}"
        raise CatalogError(f"unknown host {show_value(name)}; {hint}", value=name)

    def to_dict(self) -> WireObject:
        """The JSON form of the catalog, which `validate_catalog` reads back to an equal catalog."""
        return {"catalog": self.header.to_dict(), "hosts": [host.to_dict() for host in self.hosts]}


def hosts_with_alias(catalog: Catalog, name: str) -> tuple[HostProfile, ...]:
    """The hosts whose id or one of whose aliases is `name` (`Claude Desktop` finds `claude-desktop`)."""
    key = _normalize_name(name)
    by_id = [host for host in catalog.hosts if host.id == key]
    return tuple(by_id) if by_id else tuple(host for host in catalog.hosts if key in host.aliases)


def _unknown_path(path: str, *, levels_only: bool = False) -> NoReturn:
    known = [key for key, spec in FACT_FIELDS.items() if not levels_only or spec.kind == "level"]
    import difflib  # only for the error message

    close = difflib.get_close_matches(path, known, n=3)
    what = "support-level fact" if levels_only else "fact"
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    fail(f"{show_value(path)} is not a {what} of the catalog{hint}", path)


def _normalize_name(name: object) -> str:
    if not isinstance(name, str):
        fail(f"a host name must be a string, not {type(name).__name__}", name)
    return re.sub(r"[\s_]+", "-", name.strip().lower())


__all__ = [
    "Catalog",
    "CatalogHeader",
    "Fact",
    "FactValue",
    "FactVariant",
    "HostProfile",
    "QuirkRef",
    "condition_dict",
    "context_dict",
    "hosts_with_alias",
]
