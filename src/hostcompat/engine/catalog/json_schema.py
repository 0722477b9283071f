"""The JSON Schema of the host catalog (`data/hosts.schema.json`), generated from the catalog's vocabulary.

`scripts/gen_schemas.py` writes it (and checks the committed file against it), so the schema an editor reads and the
checks of `hostcompat.engine.catalog.validate` come from the same names, choices, patterns and limits of
`hostcompat.engine.catalog.schema`. What a schema cannot say is left to the validator alone: dates on the calendar,
a charset that compiles, unique host and quirk ids, aliases that are no other host's id.
"""

from __future__ import annotations

from collections.abc import Mapping

from hostcompat.engine.catalog.schema import (
    ALIAS,
    CHARSET,
    CONDITION_KEYS,
    CONTEXT_KEYS,
    FACT_FIELDS,
    FACT_TREE,
    GATE,
    HOST_ID,
    HOST_VERSION,
    KINDS,
    LEVELS,
    MAX_ALIASES,
    MAX_HOSTS,
    MAX_INTEGER,
    MAX_LIST_ITEMS,
    MAX_LONG_TEXT,
    MAX_NAME_FORMAT,
    MAX_QUIRKS,
    MAX_SOURCE,
    MAX_TEXT,
    OPERATING_SYSTEMS,
    PROVENANCES,
    QUIRK_ID,
    REGISTRATIONS,
    RULE_ID,
    SCHEMA_VERSION,
    TRIGGERS,
    ValueSpec,
)
from hostcompat.json_schema_parts import json_pattern, text_schema
from hostcompat.wire_json import WireObject

DATE_PATTERN = "^[0-9]{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12][0-9]|3[01]))?)?$"
"""A date at the precision the source gives (the validator also checks it on the calendar)."""
FULL_DATE_PATTERN = "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"
NAME_FORMAT_PATTERN = "^(?:[^{}]|\\{server\\})*\\{tool\\}(?:[^{}]|\\{server\\})*$"
"""A tool-name template: `{tool}` once, `{server}` any number of times, no other braces."""

_KIND_DESCRIPTIONS: Mapping[str, str] = {
    "versions": "MCP protocol versions (YYYY-MM-DD).",
    "charset": "A regex character class of the characters allowed in a tool name.",
    "name-format": "How the host qualifies a tool name, with {server} and {tool}.",
}
_FIELD_DESCRIPTIONS: Mapping[str, str] = {
    "server.limits.schemaFeaturesRejectedConditionally": "Constructs the host rejects only in some setups (a "
    "configuration, a model, some versions); the note says which.",
}
_INFO_ONLY = "Nothing the engine can read from a server decides whether this bites: reported, never a verdict."


def _ref(name: str) -> WireObject:
    return {"$ref": f"#/$defs/{name}"}


def _unique_list(items: WireObject, *, min_items: int = 0) -> WireObject:
    out: WireObject = {"type": "array"}
    if min_items:
        out["minItems"] = min_items
    out.update({"maxItems": MAX_LIST_ITEMS, "uniqueItems": True, "items": items})
    return out


def value_schema(spec: ValueSpec) -> WireObject:
    """The schema of a fact value of kind `spec` (what `schema.check_value` accepts, but for the calendar and
    a charset that compiles).
    """
    kind = spec.kind
    if kind == "level":
        return _ref("level")
    if kind == "text":
        return text_schema(MAX_TEXT)
    if kind == "integer":
        return {
            "type": "integer",
            "minimum": 0,
            "maximum": MAX_INTEGER,
            "description": "A limit; 0 says the host sets none (its source says so).",
        }
    if kind == "boolean":
        return {"type": "boolean"}
    if kind == "choices":
        return _unique_list({"enum": list(spec.choices)})
    if kind == "text-list":
        return _unique_list(text_schema(MAX_TEXT))
    if kind == "versions":
        return _unique_list(_ref("fullDate"))
    if kind == "charset":
        return {"type": "string", "pattern": json_pattern(CHARSET.pattern)}
    return {"type": "string", "maxLength": MAX_NAME_FORMAT, "pattern": NAME_FORMAT_PATTERN}


def _stamp_properties() -> WireObject:
    """The properties every fact and quirk shares after its own: provenance, source, date, note, conditions, context."""
    return {
        "provenance": _ref("provenance"),
        "source": _ref("source"),
        "date": _ref("date"),
        "note": _ref("note"),
    }


def _condition_properties() -> WireObject:
    assert CONDITION_KEYS == ("trigger", "infoOnly", "since", "fixedIn")
    return {
        "trigger": _ref("trigger"),
        "infoOnly": {"type": "boolean", "description": _INFO_ONLY},
        "since": _ref("hostVersion"),
        "fixedIn": _ref("hostVersion"),
    }


def _context_properties() -> WireObject:
    return {key: _ref(f"{key}List") for key in CONTEXT_KEYS}


_TRIGGER_EXCLUDES_INFO_ONLY: WireObject = {"trigger": {"properties": {"infoOnly": {"const": False}}}}
"""A fact or quirk with a trigger is evaluated, so it cannot also be infoOnly."""


def _fact_def(spec: ValueSpec, description: str | None) -> WireObject:
    required = ["value", "provenance", "source", "date", *(["note"] if spec.note_required else [])]
    out: WireObject = {
        "type": "object",
        "required": required,
        "additionalProperties": False,
        "properties": {
            "value": value_schema(spec),
            **_stamp_properties(),
            **_condition_properties(),
            **_context_properties(),
        },
        "dependentSchemas": _TRIGGER_EXCLUDES_INFO_ONLY,
    }
    if description is not None:
        out["description"] = description
    return out


def fact_def_name(path: str, spec: ValueSpec) -> str:
    """The `$defs` name of the fact schema at `path`: by kind, or by field for a list of choices."""
    if spec.kind == "choices":
        return f"{path.rsplit('.', 1)[-1]}Fact"
    head, *rest = spec.kind.split("-")
    return head + "".join(part.title() for part in rest) + "Fact"


def _fact_defs() -> WireObject:
    defs: WireObject = {}
    for path, spec in FACT_FIELDS.items():
        name = fact_def_name(path, spec)
        if name not in defs:
            description = _FIELD_DESCRIPTIONS.get(path, _KIND_DESCRIPTIONS.get(spec.kind))
            defs[name] = _fact_def(spec, description)
    return defs


def _group_schema(node: Mapping[str, object], prefix: str) -> WireObject:
    properties: WireObject = {}
    for key, child in node.items():
        path = f"{prefix}{key}"
        if isinstance(child, ValueSpec):
            properties[key] = _ref(fact_def_name(path, child))
        else:
            assert isinstance(child, dict)
            properties[key] = _group_schema(child, f"{path}.")
    return {"type": "object", "additionalProperties": False, "properties": properties}


def _host_def() -> WireObject:
    return {
        "type": "object",
        "required": ["id", "displayName", "kind"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "pattern": json_pattern(HOST_ID.pattern)},
            "displayName": text_schema(MAX_TEXT),
            "kind": {"enum": list(KINDS), "description": "The catalog's own classification (not a sourced fact)."},
            "aliases": {
                "type": "array",
                "maxItems": MAX_ALIASES,
                "uniqueItems": True,
                "items": {"type": "string", "pattern": json_pattern(ALIAS.pattern)},
            },
            "description": text_schema(MAX_LONG_TEXT),
            **_group_schema(FACT_TREE, "")["properties"],
            "variants": {"type": "array", "maxItems": MAX_QUIRKS, "items": _ref("variant")},
            "quirks": {"type": "array", "maxItems": MAX_QUIRKS, "items": _ref("quirk")},
        },
    }


def _quirk_def() -> WireObject:
    return {
        "type": "object",
        "required": ["id", "text", "provenance", "source", "date"],
        "additionalProperties": False,
        "description": "A known client quirk (id shared with the client rules) with a short text and its source.",
        "properties": {
            "id": {"type": "string", "pattern": json_pattern(QUIRK_ID.pattern)},
            "text": text_schema(MAX_SOURCE),
            **_stamp_properties(),
            "rule": {
                "type": "string",
                "pattern": json_pattern(RULE_ID.pattern),
                "description": "The id of the client rule (client-rules.json) that works around it.",
            },
            **_condition_properties(),
            "covers": {
                "enum": list(FACT_FIELDS),
                "description": "The path of the host fact the engine evaluates this quirk through, e.g. "
                "server.features.resourceLink.",
            },
            **_context_properties(),
        },
        "dependentSchemas": _TRIGGER_EXCLUDES_INFO_ONLY,
    }


def _variant_def() -> WireObject:
    """A variant: a fact with its `path`, whose value must fit the fact at that path."""
    by_def: dict[str, list[str]] = {}
    for path, spec in FACT_FIELDS.items():
        by_def.setdefault(fact_def_name(path, spec), []).append(path)
    value_rules = []
    for paths in by_def.values():
        spec = FACT_FIELDS[paths[0]]
        then: WireObject = {"properties": {"value": value_schema(spec)}}
        if spec.note_required:
            then["required"] = ["note"]
        value_rules.append({"if": {"properties": {"path": {"enum": paths}}}, "then": then})
    return {
        "type": "object",
        "required": ["path", "value", "provenance", "source", "date"],
        "additionalProperties": False,
        "description": "A fact at `path` that holds only in the host context its os, registration or gate names, "
        "replacing the common-path fact there.",
        "anyOf": [{"required": [key]} for key in CONTEXT_KEYS],
        "allOf": value_rules,
        "properties": {
            "path": {"enum": list(FACT_FIELDS)},
            "value": {"type": ["string", "integer", "boolean", "array"]},
            **_stamp_properties(),
            **_condition_properties(),
            **_context_properties(),
        },
        "dependentSchemas": _TRIGGER_EXCLUDES_INFO_ONLY,
    }


def _context_defs() -> WireObject:
    descriptions = {
        "os": "The operating systems the fact or quirk holds on (absent: any, the common path).",
        "registration": "The registration paths of a server the fact or quirk holds for (absent: any, the common "
        "path).",
        "gate": "The server-side feature gates the fact or quirk holds behind (absent: none needed).",
    }
    items: Mapping[str, WireObject] = {
        "os": {"enum": list(OPERATING_SYSTEMS)},
        "registration": {"enum": list(REGISTRATIONS)},
        "gate": {"type": "string", "pattern": json_pattern(GATE.pattern)},
    }
    return {
        f"{key}List": {**_unique_list(items[key], min_items=1), "description": descriptions[key]}
        for key in CONTEXT_KEYS
    }


def catalog_schema() -> WireObject:
    """The JSON Schema of a host catalog document (the bundled `hosts.json`, or a user file of overrides)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "hostcompat host catalog",
        "description": "What each MCP host supports. Every fact carries value, provenance, source and date; an "
        "absent fact means the sources do not say. User files that override hosts use the same shape, except that "
        "a host with a known id may give only the fields it changes.",
        "type": "object",
        "required": ["catalog", "hosts"],
        "additionalProperties": False,
        "properties": {
            "$schema": {"type": "string"},
            "catalog": _ref("header"),
            "hosts": {"type": "array", "maxItems": MAX_HOSTS, "items": _ref("host")},
        },
        "$defs": {
            "date": {
                "description": "ISO 8601 date at the precision the source gives: YYYY-MM-DD, YYYY-MM or YYYY.",
                "type": "string",
                "pattern": DATE_PATTERN,
            },
            "fullDate": {"type": "string", "pattern": FULL_DATE_PATTERN},
            "provenance": {
                "description": "probe: captured from the live host; vendor-doc: the vendor's documentation; "
                "observed: an issue report or code read; assumed: inferred, not verified.",
                "enum": list(PROVENANCES),
            },
            "level": {"enum": list(LEVELS)},
            "source": text_schema(MAX_SOURCE, "A URL or document name, as the reference digests give it."),
            "note": text_schema(MAX_LONG_TEXT, "Context, or a disagreement between sources (naming the other value)."),
            **_fact_defs(),
            "quirk": _quirk_def(),
            "host": _host_def(),
            "header": {
                "type": "object",
                "required": ["schemaVersion", "date"],
                "additionalProperties": False,
                "properties": {
                    "schemaVersion": {"const": SCHEMA_VERSION},
                    "date": _ref("fullDate"),
                    "description": text_schema(MAX_LONG_TEXT),
                },
            },
            "trigger": {
                "description": "The server data that makes a fact or quirk bite; the engine evaluates it on the "
                "server's own schemas, captured results and widget calls.",
                "enum": list(TRIGGERS),
            },
            "hostVersion": {
                "description": "A host version as its vendor writes it.",
                "type": "string",
                "pattern": json_pattern(HOST_VERSION.pattern),
            },
            **_context_defs(),
            "variant": _variant_def(),
        },
    }


__all__ = [
    "DATE_PATTERN",
    "FULL_DATE_PATTERN",
    "NAME_FORMAT_PATTERN",
    "catalog_schema",
    "fact_def_name",
    "value_schema",
]
