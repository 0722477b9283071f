"""The JSON Schema of client rule files (`data/client-rules.schema.json`), generated from the rule vocabulary.

`scripts/gen_schemas.py` writes it (and checks the committed file against it) from the names and limits the one
validator, `hostcompat.clients.rules`, checks with: the rule keys and patterns there, and the closed sets of trigger
kinds and rewrite operations (with each parameter's schema) of `hostcompat.clients.rewrites.operations`. What a
schema cannot say is left to the validator: a version range that parses, ids unique in a file, `disabled` ids that
name a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hostcompat.clients.rewrites.operations import (
    OPERATIONS,
    REQUEST_METHODS,
    RESULT_METHODS,
    TRIGGERS,
    Param,
    RenameOperation,
    RequestOperation,
)
from hostcompat.clients.rule_model import SOURCE_KINDS
from hostcompat.clients.rules import (
    CLIENT_KEYS,
    DATE,
    DOCUMENT_KEYS,
    MAX_CLIENT_NAME,
    MAX_CLIENTS,
    MAX_METHODS,
    MAX_REFERENCES,
    MAX_RULES,
    MAX_TEXT,
    MAX_TITLE,
    REQUIRED_RULE_KEYS,
    RULE_ID,
    RULE_KEYS,
    RULES_FORMAT,
    SOURCE_KEYS,
    URL,
)
from hostcompat.clients.versions import MAX_RANGE_LENGTH
from hostcompat.json_schema_parts import text_schema
from hostcompat.wire_json import WireObject


def _ref(name: str) -> WireObject:
    return {"$ref": f"#/$defs/{name}"}


def _whole(pattern: str) -> str:
    """A pattern the validator matches whole (`fullmatch`) as an anchored JSON Schema pattern."""
    return f"^{pattern}$"


def _sentence(summary: str) -> str:
    return summary[:1].upper() + summary[1:] + ("" if summary.endswith(".") else ".")


def _json_default(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _params_schema(
    tag: str, name: str, params: Mapping[str, Param], summary: str, extra: WireObject | None = None
) -> WireObject:
    properties: WireObject = {tag: {"const": name}}
    for key, param in params.items():
        schema = dict(param.schema)
        if not param.required and param.default is not None:
            schema["default"] = _json_default(param.default)
        properties[key] = schema
    return {
        "type": "object",
        "description": _sentence(summary),
        "properties": properties,
        "required": [tag, *(key for key, param in params.items() if param.required)],
        "additionalProperties": False,
        **(extra or {}),
    }


def _operation_rules() -> list[WireObject]:
    """Per operation: the methods it acts on, and the `always` trigger a rename or request operation needs."""
    out: list[WireObject] = []
    for name, operation in OPERATIONS.items():
        then: WireObject = {"properties": {"methods": {"items": {"enum": sorted(operation.methods)}}}}
        if isinstance(operation, (RenameOperation, RequestOperation)):
            then["properties"]["trigger"] = {"properties": {"kind": {"const": "always"}}}
        out.append({"if": {"properties": {"rewrite": {"properties": {"op": {"const": name}}}}}, "then": then})
    return out


def _rule_def() -> WireObject:
    assert set(RULE_KEYS) == {*REQUIRED_RULE_KEYS, "symptom", "notes", "references", "enabled"}
    return {
        "type": "object",
        "properties": {
            "id": _ref("ruleId"),
            "title": text_schema(MAX_TITLE),
            "symptom": _ref("text"),
            "notes": _ref("text"),
            "clients": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_CLIENTS,
                "items": {
                    "type": "object",
                    "properties": {
                        "name": text_schema(
                            MAX_CLIENT_NAME, "clientInfo.name, exact or a glob (*, ?, [...]); case-sensitive."
                        ),
                        "versions": {
                            "type": "string",
                            "maxLength": MAX_RANGE_LENGTH,
                            "default": "*",
                            "description": "'*' or comma-separated clauses that must all hold, e.g. '>=0.1,<0.150'; "
                            "compared as versions.",
                        },
                    },
                    "required": [CLIENT_KEYS[0]],
                    "additionalProperties": False,
                },
            },
            "methods": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_METHODS,
                "items": {"enum": sorted(RESULT_METHODS | REQUEST_METHODS)},
            },
            "trigger": {
                "oneOf": [_params_schema("kind", name, kind.params, kind.summary) for name, kind in TRIGGERS.items()]
            },
            "rewrite": {"oneOf": [_ref(f"op-{name}") for name in OPERATIONS]},
            "source": {
                "type": "object",
                "properties": {"url": _ref("url"), "kind": {"enum": list(SOURCE_KINDS)}},
                "required": list(SOURCE_KEYS),
                "additionalProperties": False,
            },
            "references": {"type": "array", "maxItems": MAX_REFERENCES, "items": _ref("url")},
            "date": {"type": "string", "pattern": _whole(DATE.pattern)},
            "enabled": {"type": "boolean", "default": True},
        },
        "required": list(REQUIRED_RULE_KEYS),
        "additionalProperties": False,
        "allOf": _operation_rules(),
    }


def client_rules_schema() -> WireObject:
    """The JSON Schema of a client rule file (the bundled `client-rules.json`, or a user file)."""
    assert DOCUMENT_KEYS == ("$schema", "format", "description", "rules", "disabled")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "hostcompat client rules",
        "description": "A file of client quirk rules: the bundled data/client-rules.json, or a user file that adds "
        "rules, replaces a bundled rule (same id) or switches rules off (disabled).",
        "type": "object",
        "properties": {
            "$schema": {"type": "string"},
            "format": {"const": RULES_FORMAT},
            "description": {"type": "string"},
            "rules": {"type": "array", "maxItems": MAX_RULES, "items": _ref("rule")},
            "disabled": {
                "type": "array",
                "maxItems": MAX_RULES,
                "items": _ref("ruleId"),
                "description": "Ids of rules to switch off (user files only).",
            },
        },
        "required": ["format"],
        "additionalProperties": False,
        "$defs": {
            "ruleId": {"type": "string", "pattern": _whole(RULE_ID.pattern)},
            "text": text_schema(MAX_TEXT),
            "url": {"type": "string", "pattern": _whole(URL.pattern)},
            "rule": _rule_def(),
            **{
                f"op-{name}": _params_schema("op", name, operation.params, operation.summary)
                for name, operation in OPERATIONS.items()
            },
        },
    }


__all__ = ["client_rules_schema"]
