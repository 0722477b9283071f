"""The one validator of host catalog documents, and merging user files of overrides into a catalog.

Every rule of the catalog format is checked here, with errors naming the file, the host and the field: the shape
the generated `hosts.schema.json` also states (both come from the vocabulary of `hostcompat.engine.catalog.schema`),
and what a schema cannot say (dates on the calendar, unique host and quirk ids, aliases that are no other host's
id). The bundled catalog and user files alike go through it. Every offline check loads the bundled catalog, so the
common case, a well-formed fact, takes a short path; anything unusual takes the long one, which names the problem.
"""

from __future__ import annotations

import functools
import json
import types
from typing import Any, NoReturn

from hostcompat.engine.catalog.fields import (
    optional_text,
    reject_unknown_keys,
    require_choice,
    require_date,
    require_object,
    require_text,
)
from hostcompat.engine.catalog.model import (
    Catalog,
    CatalogHeader,
    Fact,
    FactVariant,
    HostProfile,
    QuirkRef,
    hosts_with_alias,
)
from hostcompat.engine.catalog.schema import (
    ALIAS,
    FACT_FIELDS,
    FACT_KEYS,
    FACT_TREE,
    GATE,
    HEADER_KEYS,
    HOST_ID,
    HOST_KEYS,
    HOST_VERSION,
    KINDS,
    MAX_ALIASES,
    MAX_CATALOG_BYTES,
    MAX_HOSTS,
    MAX_LIST_ITEMS,
    MAX_LONG_TEXT,
    MAX_QUIRKS,
    MAX_SOURCE,
    MAX_TEXT,
    OPERATING_SYSTEMS,
    PROVENANCES,
    QUIRK_ID,
    QUIRK_KEYS,
    REGISTRATIONS,
    RULE_ID,
    SCHEMA_VERSION,
    TRIGGERS,
    VARIANT_KEYS,
    ValueSpec,
    check_value,
    date_problem,
    fail,
    show_value,
    type_name,
)
from hostcompat.errors import CatalogError, InvalidCatalogValue
from hostcompat.wire_json import WireJSON, WireObject, WireValue

_FACT_KEYS = frozenset(FACT_KEYS)
_CONDITION_OR_CONTEXT = frozenset(("trigger", "infoOnly", "since", "fixedIn", "os", "registration", "gate"))


def parse_catalog_text(text: str, *, source_name: str) -> WireValue:
    """Parse catalog JSON text; CatalogError naming the file and line when it is not JSON, has NaN or duplicate keys."""
    if len(text) > MAX_CATALOG_BYTES:
        raise CatalogError(f"{source_name}: longer than {MAX_CATALOG_BYTES} characters", value=len(text))
    try:
        return json.loads(text, object_pairs_hook=_object_without_duplicates, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise CatalogError(
            f"{source_name}: not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", value=text[:200]
        ) from None
    except CatalogError as exc:
        raise CatalogError(f"{source_name}: not usable JSON: {exc.message}", value=exc.value) from None
    except (ValueError, RecursionError) as exc:
        raise CatalogError(f"{source_name}: not usable JSON: {exc}", value=text[:200]) from None


def validate_catalog(data: object, *, source_name: str) -> Catalog:
    """Check a parsed catalog document (`{"catalog": {...}, "hosts": [...]}`) and build the `Catalog`."""
    top = _document(data, source_name)
    header = _header(top.get("catalog"), source_name)
    raw_hosts = _host_list(top.get("hosts"), source_name)
    hosts = tuple(_host(raw, source_name, index) for index, raw in enumerate(raw_hosts))
    _check_names(hosts, source_name)
    return Catalog(header=header, hosts=hosts, sources=(source_name,))


def apply_overrides(catalog: Catalog, data: object, *, source_name: str) -> Catalog:
    """A new catalog with a user document applied: known ids merge field by field, new ids are added whole.

    A user fact replaces the bundled one entirely (value, provenance, source and date together); aliases are
    added to the host's; quirks replace those with the same id and the rest are appended. A user `catalog` header
    is checked (its schema version must match) but the result keeps the base header. `catalog` is not changed.
    """
    top = _document(data, source_name)
    if "catalog" in top:
        _header(top["catalog"], source_name)
    by_id = {host.id: host for host in catalog.hosts}
    replaced: dict[str, HostProfile] = {}
    added: list[HostProfile] = []
    for index, raw in enumerate(_host_list(top.get("hosts"), source_name)):
        host_id = _host_id(raw, source_name, index)
        if host_id in replaced or any(host.id == host_id for host in added):
            fail(f"{source_name}: duplicate host id {host_id!r}", host_id)
        if host_id in by_id:
            _check_lists_before_merging(raw, f"{source_name}: host {host_id!r}")
            from hostcompat.engine.catalog.merge import merge_host  # only user files of overrides need it

            merged = merge_host(by_id[host_id].to_dict(), raw)
            replaced[host_id] = _host(merged, source_name, index)
            continue
        aliased = hosts_with_alias(catalog, host_id)
        if aliased:
            fail(f"{source_name}: {host_id!r} is an alias of {aliased[0].id!r}; override that host by its id", host_id)
        added.append(_host(raw, source_name, index))
    hosts = tuple(replaced.get(host.id, host) for host in catalog.hosts) + tuple(added)
    if len(hosts) > MAX_HOSTS:
        fail(f"{source_name}: more than {MAX_HOSTS} hosts in all", len(hosts))
    _check_names(hosts, source_name)
    return Catalog(header=catalog.header, hosts=hosts, sources=(*catalog.sources, source_name))


# ---- checks ---------------------------------------------------------------------------------------------------


def _document(data: object, source_name: str) -> WireJSON:
    top = require_object(data, f"{source_name}: the document")
    reject_unknown_keys(top, ("$schema", "catalog", "hosts"), f"{source_name}: the document")
    if "$schema" in top and not isinstance(top["$schema"], str):
        fail(f"{source_name}: $schema must be a string, not {type_name(top['$schema'])}", top["$schema"])
    return top


def _header(raw: object, source_name: str) -> CatalogHeader:
    where = f"{source_name}: catalog"
    header = require_object(raw, where)
    reject_unknown_keys(header, HEADER_KEYS, where)
    version = header.get("schemaVersion")
    if isinstance(version, bool) or not isinstance(version, int):
        fail(f"{where}: schemaVersion must be an integer, not {type_name(version)}", version)
    if version != SCHEMA_VERSION:
        fail(
            f"{where}: schemaVersion {show_value(version)} is not supported (this hostcompat reads {SCHEMA_VERSION})",
            version,
        )
    date = require_date(header, "date", where, full=True)
    return CatalogHeader(schema_version=version, date=date, description=optional_text(header, "description", where))


def _host_list(raw: object, source_name: str) -> list[Any]:
    if not isinstance(raw, list):
        fail(f"{source_name}: 'hosts' must be a list, not {type_name(raw)}", raw)
    if len(raw) > MAX_HOSTS:
        fail(f"{source_name}: more than {MAX_HOSTS} hosts", len(raw))
    return raw


def _host_id(raw: object, source_name: str, index: int) -> str:
    host_id = require_object(raw, f"{source_name}: hosts[{index}]").get("id")
    if not isinstance(host_id, str) or not HOST_ID.match(host_id):
        fail(
            f"{source_name}: hosts[{index}]: id {show_value(host_id)} must be lowercase letters, digits and '-'",
            host_id,
        )
    return host_id


def _host(raw: object, source_name: str, index: int) -> HostProfile:
    host_id = _host_id(raw, source_name, index)
    host = require_object(raw, source_name)
    where = f"{source_name}: host {host_id!r}"
    reject_unknown_keys(host, HOST_KEYS, where)
    facts: dict[str, Fact] = {}
    for group in FACT_TREE:
        if group in host:
            _collect_facts(host[group], FACT_TREE[group], group, where, facts)
    return HostProfile(
        id=host_id,
        display_name=require_text(host, "displayName", where, limit=MAX_TEXT),
        kind=require_choice(host, "kind", KINDS, where),
        aliases=_aliases(host.get("aliases", []), where),
        description=optional_text(host, "description", where),
        facts=types.MappingProxyType(facts),
        quirks=_quirks(host.get("quirks", []), where),
        variants=_variants(host.get("variants", []), where),
    )


def _collect_facts(raw: object, node: object, path: str, where: str, out: dict[str, Fact]) -> None:
    if isinstance(node, ValueSpec):
        out[path] = _fact(raw, node, f"{where}: {path}")
        return
    assert isinstance(node, dict)
    group = require_object(raw, f"{where}: {path}")
    if not node.keys() >= group.keys():
        reject_unknown_keys(group, node, f"{where}: {path}")
    for key, value in group.items():
        child = node[key]
        if isinstance(child, ValueSpec):
            out[f"{path}.{key}"] = _fact(value, child, f"{where}: {path}.{key}")
        else:
            _collect_facts(value, child, f"{path}.{key}", where, out)


def _variants(raw: object, where: str) -> tuple[FactVariant, ...]:
    if not isinstance(raw, list) or len(raw) > MAX_QUIRKS:
        fail(f"{where}: variants must be a list of at most {MAX_QUIRKS} facts", raw)
    variants: list[FactVariant] = []
    for index, item in enumerate(raw):
        at = f"{where}: variants[{index}]"
        entry = require_object(item, at)
        reject_unknown_keys(entry, VARIANT_KEYS, at)
        path = entry.get("path")
        if not isinstance(path, str) or path not in FACT_FIELDS:
            import difflib  # only for the error message

            close = difflib.get_close_matches(str(path), FACT_FIELDS, n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            fail(f"{at}: path {show_value(path)} is not a fact of the catalog{hint}", path)
        fact = _fact({key: value for key, value in entry.items() if key != "path"}, FACT_FIELDS[path], f"{at} ({path})")
        if not (fact.os or fact.registration or fact.gate):
            fail(f"{at}: a variant must name the host context it holds in (os, registration or gate)", dict(entry))
        variants.append(FactVariant(path, fact))
    return tuple(variants)


def _fact(raw: object, spec: ValueSpec, where: str) -> Fact:
    """The fact `raw` of kind `spec`, on the short path when it is a usual one; errors name `where`."""
    fast = _usual_fact(raw, spec)
    if fast is not None:
        return fast
    fact = require_object(raw, where)
    reject_unknown_keys(fact, FACT_KEYS, where)
    if "value" not in fact:
        fail(f"{where}: missing 'value'", dict(fact))
    try:
        check_value(spec, fact["value"])
    except InvalidCatalogValue as exc:
        fail(f"{where}: value {exc.message}", fact["value"])
    value = fact["value"]
    return Fact(
        value=tuple(value) if isinstance(value, list) else value,
        provenance=require_choice(fact, "provenance", PROVENANCES, where),
        source=require_text(fact, "source", where, limit=MAX_SOURCE),
        date=require_date(fact, "date", where),
        note=require_text(fact, "note", where) if spec.note_required else optional_text(fact, "note", where),
        **_conditions(fact, where),
        **_context(fact, where),
    )


def _usual_fact(raw: object, spec: ValueSpec) -> Fact | None:
    """The fact `raw` checked in full on a short path when it names no condition or context (most facts do not);
    None for anything else or anything wrong, which `_fact` then checks key by key to name the problem.
    """
    if type(raw) is not dict or not _FACT_KEYS.issuperset(raw) or not _CONDITION_OR_CONTEXT.isdisjoint(raw):
        return None
    value, provenance, source, date = raw.get("value"), raw.get("provenance"), raw.get("source"), raw.get("date")
    note = raw.get("note")
    if provenance not in PROVENANCES or type(source) is not str or type(date) is not str:
        return None
    if spec.kind == "level":
        if value not in spec.choices:
            return None
    elif value is None or not _valid_value(spec, value):
        return None
    if not _short_text(source, MAX_SOURCE) or not _known_date(date):
        return None
    if "note" in raw and (type(note) is not str or not _short_text(note, MAX_LONG_TEXT)):
        return None
    if spec.note_required and note is None:
        return None
    return Fact(
        value=tuple(value) if type(value) is list else value,
        provenance=provenance,
        source=source,
        date=date,
        note=note,
        **_COMMON_PATH,
    )


@functools.lru_cache(maxsize=1024)
def _known_date(value: str) -> bool:
    """Whether `value` is a date (`date_problem`); a catalog repeats a few dates thousands of times."""
    return date_problem(value) is None


def _valid_value(spec: ValueSpec, value: object) -> bool:
    try:
        check_value(spec, value)
    except InvalidCatalogValue:
        return False
    return True


def _short_text(value: str, limit: int) -> bool:
    return len(value) <= limit and not value.isspace() and value != ""


def _conditions(raw: WireJSON, where: str) -> WireObject:
    """The `trigger`, `infoOnly`, `since` and `fixedIn` of a fact or quirk, checked, as keyword arguments."""
    trigger = raw.get("trigger")
    if trigger is not None and trigger not in TRIGGERS:
        import difflib  # only for the error message

        close = ", ".join(difflib.get_close_matches(str(trigger), TRIGGERS, n=3))
        hint = f"; did you mean {close}?" if close else f"; known triggers: {', '.join(TRIGGERS)}"
        fail(f"{where}: trigger {show_value(trigger)} is not a trigger the engine evaluates{hint}", trigger)
    info_only = raw.get("infoOnly", False)
    if not isinstance(info_only, bool):
        fail(f"{where}: infoOnly must be true or false", info_only)
    if info_only and trigger is not None:
        fail(f"{where}: a fact with a trigger is evaluated; it cannot also be infoOnly", trigger)
    versions = {}
    for key in ("since", "fixedIn"):
        value = raw.get(key)
        if value is not None and (not isinstance(value, str) or not HOST_VERSION.match(value)):
            fail(f"{where}: {key} {show_value(value)} must be a host version such as 2.0.21", value)
        versions[key] = value
    return {"trigger": trigger, "info_only": info_only, "since": versions["since"], "fixed_in": versions["fixedIn"]}


def _context(raw: WireJSON, where: str) -> WireObject:
    """The `os`, `registration` and `gate` lists of a fact or quirk, checked, as keyword arguments."""
    out: dict[str, tuple[str, ...]] = {}
    for key, choices in (("os", OPERATING_SYSTEMS), ("registration", REGISTRATIONS), ("gate", None)):
        value = raw.get(key, [])
        if not isinstance(value, list) or (key in raw and not value) or len(value) > MAX_LIST_ITEMS:
            fail(f"{where}: {key} must be a non-empty list of at most {MAX_LIST_ITEMS} names", value)
        for item in value:
            if choices is not None and item not in choices:
                fail(f"{where}: {key} {show_value(item)} is not one of {', '.join(choices)}", item)
            if choices is None and (not isinstance(item, str) or not GATE.match(item)):
                fail(f"{where}: gate {show_value(item)} must be lowercase letters, digits, '.' and '-'", item)
        if len(set(value)) != len(value):
            fail(f"{where}: {key} has duplicates", value)
        out[key] = tuple(value)
    return out  # keyword arguments of Fact and QuirkRef


_COMMON_PATH: WireJSON = {**_conditions({}, ""), **_context({}, "")}
"""The conditions and context of a fact or quirk that names none (keyword arguments of `Fact` and `QuirkRef`)."""


def _aliases(raw: object, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or len(raw) > MAX_ALIASES:
        fail(f"{where}: aliases must be a list of at most {MAX_ALIASES} names", raw)
    for alias in raw:
        if not isinstance(alias, str) or not ALIAS.match(alias):
            fail(f"{where}: alias {show_value(alias)} must be lowercase letters, digits, '.' and '-'", alias)
    if len(set(raw)) != len(raw):
        fail(f"{where}: aliases has duplicates", raw)
    return tuple(raw)


def _quirks(raw: object, where: str) -> tuple[QuirkRef, ...]:
    if not isinstance(raw, list) or len(raw) > MAX_QUIRKS:
        fail(f"{where}: quirks must be a list of at most {MAX_QUIRKS} entries", raw)
    quirks: list[QuirkRef] = []
    for index, item in enumerate(raw):
        at = f"{where}: quirks[{index}]"
        quirk = require_object(item, at)
        reject_unknown_keys(quirk, QUIRK_KEYS, at)
        quirk_id = quirk.get("id")
        if not isinstance(quirk_id, str) or not QUIRK_ID.match(quirk_id):
            fail(f"{at}: id {show_value(quirk_id)} must be lowercase letters, digits and '-'", quirk_id)
        if any(seen.id == quirk_id for seen in quirks):
            fail(f"{at}: duplicate quirk id {quirk_id!r}", quirk_id)
        quirks.append(
            QuirkRef(
                id=quirk_id,
                text=require_text(quirk, "text", at, limit=MAX_SOURCE),
                provenance=require_choice(quirk, "provenance", PROVENANCES, at),
                source=require_text(quirk, "source", at, limit=MAX_SOURCE),
                date=require_date(quirk, "date", at),
                note=optional_text(quirk, "note", at),
                rule=_rule_id(quirk["rule"], at) if "rule" in quirk else None,
                covers=_covered_path(quirk.get("covers"), at),
                **_conditions(quirk, at),
                **_context(quirk, at),
            )
        )
    return tuple(quirks)


def _covered_path(raw: object, where: str) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or raw not in FACT_FIELDS:
        fail(f"{where}: covers {show_value(raw)} must be the path of a host fact", raw)
    return raw


def _rule_id(raw: object, where: str) -> str:
    if not isinstance(raw, str) or not RULE_ID.match(raw):
        fail(f"{where}: rule {show_value(raw)} must be a client rule id (lowercase letters, digits, '.' and '-')", raw)
    return raw


def _check_names(hosts: tuple[HostProfile, ...], source_name: str) -> None:
    ids: set[str] = set()
    for host in hosts:
        if host.id in ids:
            fail(f"{source_name}: duplicate host id {host.id!r}", host.id)
        ids.add(host.id)
    for host in hosts:
        for alias in host.aliases:
            if alias in ids:
                fail(f"{source_name}: host {host.id!r}: alias {alias!r} is another host's id", alias)


# ---- merging ----------------------------------------------------------------------------------------------------


def _check_lists_before_merging(user: WireJSON, where: str) -> None:
    """Check the user's own aliases and quirks first, so errors point at positions in the user's file."""
    if "aliases" in user:
        _aliases(user["aliases"], where)
    if "quirks" in user:
        _quirks(user["quirks"], where)
    if "variants" in user:
        _variants(user["variants"], where)


# ---- JSON parsing hooks -----------------------------------------------------------------------------------------


def _object_without_duplicates(pairs: list[tuple[str, Any]]) -> WireObject:
    out: WireObject = {}
    for key, value in pairs:
        if key in out:
            fail(f"duplicate key {key!r}", key)
        out[key] = value
    return out


def _reject_constant(name: str) -> NoReturn:
    fail(f"{name} is not allowed", name)


__all__ = ["apply_overrides", "parse_catalog_text", "validate_catalog"]
