"""The bundled host catalog, built fast: a structural check of the shipped `hosts.json`, then the model.

Every `hostcompat check` loads the bundled catalog, and its full validation (`catalog_validate`: dates checked on
the calendar, texts measured, ids matched against their patterns, duplicate JSON keys refused, each error naming its
field) was milliseconds of every start-up, spent on a file that ships with the package and that the test suite holds
to every one of those rules. Here the shape is checked instead: each object and its keys, each type the model and
the evaluator rely on, every support level and choice against its vocabulary, unique host and quirk ids. Anything
unexpected hands the text to the full validation, so a damaged file still fails with the precise error.
"""

from __future__ import annotations

import json
import types
from typing import Any, Final

from hostcompat.engine.catalog.model import Catalog, CatalogHeader, Fact, FactVariant, HostProfile, QuirkRef
from hostcompat.engine.catalog.schema import (
    FACT_FIELDS,
    FACT_KEYS,
    FACT_TREE,
    HEADER_KEYS,
    HOST_KEYS,
    KINDS,
    MAX_CATALOG_BYTES,
    MAX_HOSTS,
    OPERATING_SYSTEMS,
    PROVENANCES,
    QUIRK_KEYS,
    REGISTRATIONS,
    SCHEMA_VERSION,
    TRIGGERS,
    VARIANT_KEYS,
    ValueSpec,
)
from hostcompat.wire_json import WireJSON, WireObject

_TOP: Final = frozenset(("$schema", "catalog", "hosts"))
_HEADER: Final = frozenset(HEADER_KEYS)
_HOST: Final = frozenset(HOST_KEYS)
_FACT: Final = frozenset(FACT_KEYS)
_QUIRK: Final = frozenset(QUIRK_KEYS)
_VARIANT: Final = frozenset(VARIANT_KEYS)
_LIST_KINDS: Final = frozenset(("choices", "text-list", "versions"))
_TEXT_KINDS: Final = frozenset(("text", "charset", "name-format"))


class _Unexpected(Exception):
    """The document is not shaped as the bundled catalog should be; the full validation says how."""


def bundled_catalog(text: str, *, source_name: str) -> Catalog:
    """The catalog in `text`, the bundled catalog file: built after a structural check, or fully validated.

    Raises:
        CatalogError: the text is not a valid catalog (from the full validation, which then runs).
    """
    try:
        if len(text) > MAX_CATALOG_BYTES:
            raise _Unexpected
        return _catalog(json.loads(text), source_name)
    except (_Unexpected, ValueError, RecursionError):  # a JSONDecodeError is a ValueError
        from hostcompat.engine.catalog import validate as catalog_validate

        data = catalog_validate.parse_catalog_text(text, source_name=source_name)
        return catalog_validate.validate_catalog(data, source_name=source_name)


def _catalog(data: object, source_name: str) -> Catalog:
    top = _object(data, _TOP)
    if not isinstance(top.get("$schema", ""), str):
        raise _Unexpected
    header = _object(top.get("catalog"), _HEADER)
    version = header.get("schemaVersion")
    if type(version) is not int or version != SCHEMA_VERSION:
        raise _Unexpected
    raw_hosts = top.get("hosts")
    if not isinstance(raw_hosts, list) or len(raw_hosts) > MAX_HOSTS:
        raise _Unexpected
    hosts = tuple(_host(raw) for raw in raw_hosts)
    _check_names(hosts)
    return Catalog(
        header=CatalogHeader(
            schema_version=version, date=_text(header, "date"), description=_optional(header, "description")
        ),
        hosts=hosts,
        sources=(source_name,),
    )


def _host(raw: object) -> HostProfile:
    host = _object(raw, _HOST)
    facts: dict[str, Fact] = {}
    for group, node in FACT_TREE.items():
        if group in host:
            _collect(host[group], node, group, facts)
    aliases = host.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(alias, str) for alias in aliases):
        raise _Unexpected
    return HostProfile(
        id=_text(host, "id"),
        display_name=_text(host, "displayName"),
        kind=_choice(host, "kind", KINDS),
        aliases=tuple(aliases),
        description=_optional(host, "description"),
        facts=types.MappingProxyType(facts),
        quirks=_quirks(host.get("quirks", [])),
        variants=_variants(host.get("variants", [])),
    )


def _variants(raw: object) -> tuple[FactVariant, ...]:
    if not isinstance(raw, list):
        raise _Unexpected
    out: list[FactVariant] = []
    for item in raw:
        entry = _object(item, _VARIANT)
        spec = FACT_FIELDS.get(_text(entry, "path"))
        if spec is None:
            raise _Unexpected
        fact = _fact({key: value for key, value in entry.items() if key != "path"}, spec)
        if not (fact.os or fact.registration or fact.gate):
            raise _Unexpected
        out.append(FactVariant(entry["path"], fact))
    return tuple(out)


def _collect(raw: object, node: object, path: str, out: dict[str, Fact]) -> None:
    """Every fact under `raw`, the JSON group at `path` whose vocabulary is `node`, into `out` in file order."""
    if isinstance(node, ValueSpec):
        out[path] = _fact(raw, node)
        return
    if not isinstance(raw, dict) or not isinstance(node, dict):
        raise _Unexpected
    for key, value in raw.items():
        child = node.get(key)
        if child is None:
            raise _Unexpected
        _collect(value, child, f"{path}.{key}", out)


def _fact(raw: object, spec: ValueSpec) -> Fact:
    fact = _object(raw, _FACT)
    value: Any = fact.get("value")
    if not _fits(spec, value):
        raise _Unexpected
    return Fact(
        value=tuple(value) if isinstance(value, list) else value,
        provenance=_choice(fact, "provenance", PROVENANCES),
        source=_text(fact, "source"),
        date=_text(fact, "date"),
        note=_optional(fact, "note"),
        **_conditions(fact),
    )


def _conditions(raw: WireJSON) -> WireObject:
    trigger, info_only = raw.get("trigger"), raw.get("infoOnly", False)
    if (trigger is not None and trigger not in TRIGGERS) or not isinstance(info_only, bool):
        raise _Unexpected
    return {
        "trigger": trigger,
        "info_only": info_only,
        "since": _optional(raw, "since"),
        "fixed_in": _optional(raw, "fixedIn"),
        "os": _names(raw, "os", OPERATING_SYSTEMS),
        "registration": _names(raw, "registration", REGISTRATIONS),
        "gate": _names(raw, "gate", None),
    }


def _names(raw: WireJSON, key: str, choices: tuple[str, ...] | None) -> tuple[str, ...]:
    """A host-context list (`os`, `registration`, `gate`): strings, from `choices` when given."""
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _Unexpected
    if (key in raw and not value) or (choices is not None and not all(item in choices for item in value)):
        raise _Unexpected
    return tuple(value)


def _fits(spec: ValueSpec, value: object) -> bool:
    """Whether `value` has the JSON type of its kind, and a level or choice from its vocabulary."""
    kind = spec.kind
    if kind == "level":
        return isinstance(value, str) and value in spec.choices
    if kind in _LIST_KINDS:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            return False
        return kind != "choices" or all(item in spec.choices for item in value)
    if kind == "integer":
        return type(value) is int
    if kind == "boolean":
        return isinstance(value, bool)
    return kind in _TEXT_KINDS and isinstance(value, str)


def _quirks(raw: object) -> tuple[QuirkRef, ...]:
    if not isinstance(raw, list):
        raise _Unexpected
    quirks: list[QuirkRef] = []
    ids: set[str] = set()
    for item in raw:
        quirk = _object(item, _QUIRK)
        quirk_id = _text(quirk, "id")
        if quirk_id in ids:
            raise _Unexpected
        ids.add(quirk_id)
        quirks.append(
            QuirkRef(
                id=quirk_id,
                text=_text(quirk, "text"),
                provenance=_choice(quirk, "provenance", PROVENANCES),
                source=_text(quirk, "source"),
                date=_text(quirk, "date"),
                note=_optional(quirk, "note"),
                rule=_optional(quirk, "rule"),
                covers=_optional(quirk, "covers"),
                **_conditions(quirk),
            )
        )
    return tuple(quirks)


def _check_names(hosts: tuple[HostProfile, ...]) -> None:
    """Host ids are unique and no alias is another host's id (name lookup relies on both)."""
    ids = {host.id for host in hosts}
    if len(ids) != len(hosts) or any(alias in ids for host in hosts for alias in host.aliases):
        raise _Unexpected


def _object(value: object, keys: frozenset[str]) -> WireJSON:
    if not isinstance(value, dict) or not keys.issuperset(value):
        raise _Unexpected
    return value


def _text(raw: WireJSON, key: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str):
        raise _Unexpected
    return value


def _optional(raw: WireJSON, key: str) -> str | None:
    return _text(raw, key) if key in raw else None


def _choice(raw: WireJSON, key: str, choices: tuple[str, ...]) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or value not in choices:
        raise _Unexpected
    return value


__all__ = ["bundled_catalog"]
