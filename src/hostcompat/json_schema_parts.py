"""Small builders shared by the generators of the data files' JSON Schemas (`scripts/gen_schemas.py`).

Each data format has one vocabulary and one validator in Python; its JSON Schema is generated from that vocabulary
with these pieces, so a pattern or a text limit is written once.
"""

from __future__ import annotations

from hostcompat.wire_json import WireObject


def json_pattern(pattern: str) -> str:
    r"""A Python full-match pattern (`\A…\Z`) as a JSON Schema (ECMA-262) pattern (`^…$`)."""
    if pattern.startswith("\\A"):
        pattern = "^" + pattern[2:]
    if pattern.endswith("\\Z"):
        pattern = pattern[:-2] + "$"
    return pattern


def text_schema(limit: int, description: str | None = None) -> WireObject:
    """A non-empty text of at most `limit` characters holding a non-space character."""
    out: WireObject = {"type": "string", "minLength": 1, "maxLength": limit, "pattern": "\\S"}
    if description is not None:
        out["description"] = description
    return out


__all__ = ["json_pattern", "text_schema"]
