"""The JSON Schema of `data/finding-rules.json`, generated from the vocabulary of its validator.

`scripts/gen_schemas.py` writes it to `data/finding-rules.schema.json` (and checks the committed file against it),
so the schema editors read and the checks `hostcompat.engine.findings.rule_data` makes come from the same names
and limits. What a schema cannot say (unique ids) only the validator checks.
"""

from __future__ import annotations

from hostcompat.engine.findings.model import RULE_ID_PATTERN
from hostcompat.engine.findings.rule_data import FORMAT, LANES, MAX_RULES, RULE_KEYS, SEVERITIES, TEXT_LIMITS
from hostcompat.json_schema_parts import json_pattern, text_schema
from hostcompat.wire_json import WireObject


def finding_rules_schema() -> WireObject:
    """The JSON Schema of a finding-rules document."""
    rule: WireObject = {
        "type": "object",
        "required": list(RULE_KEYS),
        "additionalProperties": False,
        "properties": {
            "id": {
                "type": "string",
                "pattern": json_pattern(RULE_ID_PATTERN.pattern),
                "description": "Stable: never reused with another meaning (retire an id instead); unique in the file.",
            },
            "title": text_schema(TEXT_LIMITS["title"]),
            "severity": {"enum": list(SEVERITIES), "description": "The default severity of the rule's findings."},
            "lane": {"enum": list(LANES)},
            "description": text_schema(TEXT_LIMITS["description"], "What the rule checks."),
            "source": text_schema(TEXT_LIMITS["source"], "Where the check comes from."),
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "hostcompat finding rules",
        "description": "Every finding rule the engine reports: a stable id, its title, default severity and lane, "
        "what it checks and its source.",
        "type": "object",
        "required": ["format", "rules"],
        "additionalProperties": False,
        "properties": {
            "$schema": {"type": "string"},
            "format": {"const": FORMAT},
            "description": text_schema(2000),
            "rules": {"type": "array", "maxItems": MAX_RULES, "items": {"$ref": "#/$defs/rule"}},
        },
        "$defs": {"rule": rule},
    }


__all__ = ["finding_rules_schema"]
