"""The finding rules as data: the vocabulary and the one validator of `data/finding-rules.json`, and its reader.

The file lists every rule the engine can report (stable id, title, default severity, lane, what it checks, its
source). Every check of the format lives here: the shape of the document and of each rule (which the generated
`finding-rules.schema.json` also states, from the same names and limits), and what a schema cannot say (unique
ids). `hostcompat.engine.findings.rules` builds its registry from the rows read here, once.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable, Mapping
from typing import Any, Final, NoReturn

from hostcompat.engine.findings.model import RULE_ID_PATTERN, Lane, Severity
from hostcompat.errors import InvalidInput

FORMAT: Final = 1
"""The `format` of the finding-rules document this module reads."""

FILE_NAME: Final = "finding-rules.json"
"""The bundled file, in the package's `data/` folder."""

SOURCE_NAME: Final = f"hostcompat/data/{FILE_NAME}"
"""How errors name the bundled file."""

DOCUMENT_KEYS: Final = ("$schema", "format", "description", "rules")
"""The keys of the document; `format` and `rules` are required."""

RULE_KEYS: Final = ("id", "title", "severity", "lane", "description", "source")
"""The keys of one rule, all required, in the order of a row."""

SEVERITIES: Final = tuple(member.value for member in Severity)
LANES: Final = tuple(member.value for member in Lane)

TEXT_LIMITS: Final[Mapping[str, int]] = {"title": 200, "description": 2000, "source": 500}
"""The longest text of each text field (each must also hold a non-space character)."""

MAX_RULES: Final = 1000
MAX_FILE_CHARS: Final = 1_048_576

RuleRow = tuple[str, str, str, str, str, str]
"""(rule id, title, default severity, lane, description, source): one checked rule."""


def check_rows(rows: Iterable[RuleRow], *, where: str) -> tuple[RuleRow, ...]:
    """`rows` checked: each id well formed and unique, severity and lane from their vocabularies, texts set.

    Raises:
        InvalidInput: naming `where`, the rule's position and id, and the field.
    """
    checked: list[RuleRow] = []
    seen: set[str] = set()
    for index, given in enumerate(rows):
        at = f"{where}: rules[{index}]"
        raw: object = given
        if not isinstance(raw, (tuple, list)) or len(raw) != len(RULE_KEYS):
            _fail(f"{at}: a rule is ({', '.join(RULE_KEYS)})", raw)
        rule_id, title, severity, lane, description, source = raw
        row: RuleRow = (rule_id, title, severity, lane, description, source)
        if not isinstance(rule_id, str) or not RULE_ID_PATTERN.match(rule_id):
            _fail(f"{at}: id {rule_id!r} is not a rule id like 'APPS-RENDER-001'", rule_id)
        if rule_id in seen:
            _fail(f"{at}: id {rule_id!r} is registered twice", rule_id)
        seen.add(rule_id)
        at = f"{at} ({rule_id})"
        for key, value in zip(RULE_KEYS[1:], row[1:], strict=True):
            _check_field(key, value, at)
        checked.append(row)
    return tuple(checked)


def validate_rule_document(data: object, *, source_name: str) -> tuple[RuleRow, ...]:
    """The rows of a parsed finding-rules document (`{"format": 1, "rules": [...]}`), checked.

    Raises:
        InvalidInput: naming `source_name`, the rule and the field.
    """
    if not isinstance(data, dict):
        _fail(f"{source_name}: the document must be an object", data)
    _reject_unknown_keys(data, DOCUMENT_KEYS, f"{source_name}: the document")
    if "$schema" in data and not isinstance(data["$schema"], str):
        _fail(f"{source_name}: $schema must be a string", data["$schema"])
    if "description" in data:
        _text(data["description"], "description", 2000, source_name)
    version = data.get("format")
    if type(version) is not int or version != FORMAT:
        _fail(f"{source_name}: format {version!r} is not supported (this hostcompat reads {FORMAT})", version)
    raw_rules = data.get("rules")
    if not isinstance(raw_rules, list) or len(raw_rules) > MAX_RULES:
        _fail(f"{source_name}: rules must be a list of at most {MAX_RULES} rules", raw_rules)
    rows = [_row(raw, f"{source_name}: rules[{index}]") for index, raw in enumerate(raw_rules)]
    return check_rows(rows, where=source_name)


def parse_rule_text(text: str, *, source_name: str) -> tuple[RuleRow, ...]:
    """The rows of finding-rules JSON `text` (duplicate keys and NaN refused), checked.

    Raises:
        InvalidInput: too long, not JSON, or not a valid finding-rules document.
    """
    if len(text) > MAX_FILE_CHARS:
        _fail(f"{source_name}: longer than {MAX_FILE_CHARS} characters", len(text))
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:  # a JSONDecodeError is a ValueError
        raise InvalidInput(f"{source_name}: not usable JSON: {exc}", value=text[:200]) from None
    return validate_rule_document(data, source_name=source_name)


@functools.lru_cache(maxsize=1)
def bundled_rows() -> tuple[RuleRow, ...]:
    """The rows of the bundled `data/finding-rules.json`, read and checked once.

    Raises:
        InvalidInput: the bundled file is invalid (a packaging bug).
    """
    shipped = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "data", FILE_NAME)
    try:  # the usual install; importlib.resources costs milliseconds of start-up to import
        with open(shipped, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:  # pragma: no cover - a zipped install
        from importlib import resources

        raw = resources.files("hostcompat").joinpath("data").joinpath(FILE_NAME).read_bytes()
    return parse_rule_text(raw.decode("utf-8"), source_name=SOURCE_NAME)


def _row(raw: object, at: str) -> RuleRow:
    if not isinstance(raw, dict):
        _fail(f"{at} must be an object", raw)
    _reject_unknown_keys(raw, RULE_KEYS, at)
    for key in RULE_KEYS:
        if key not in raw:
            _fail(f"{at}: missing {key!r}", dict(raw))
        if not isinstance(raw[key], str):
            _fail(f"{at}: {key} must be a string, not {type(raw[key]).__name__}", raw[key])
    rule_id, title, severity, lane, description, source = (raw[key] for key in RULE_KEYS)
    return rule_id, title, severity, lane, description, source


def _check_field(key: str, value: object, at: str) -> None:
    if key == "severity" and value not in SEVERITIES:
        _fail(f"{at}: severity {value!r} is not one of {', '.join(SEVERITIES)}", value)
    if key == "lane" and value not in LANES:
        _fail(f"{at}: lane {value!r} is not one of {', '.join(LANES)}", value)
    if key in TEXT_LIMITS:
        _text(value, key, TEXT_LIMITS[key], at)


def _text(value: object, key: str, limit: int, at: str) -> None:
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        _fail(f"{at}: {key} must be non-empty text of at most {limit} characters", value)


def _reject_unknown_keys(raw: Mapping[str, Any], allowed: tuple[str, ...], at: str) -> None:
    for key in raw:
        if key not in allowed:
            _fail(f"{at}: unknown key {key!r} (known: {', '.join(allowed)})", key)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def _fail(message: str, value: object) -> NoReturn:
    raise InvalidInput(message, value=value)


__all__ = [
    "DOCUMENT_KEYS",
    "FILE_NAME",
    "FORMAT",
    "LANES",
    "MAX_RULES",
    "RULE_KEYS",
    "RuleRow",
    "SEVERITIES",
    "SOURCE_NAME",
    "TEXT_LIMITS",
    "bundled_rows",
    "check_rows",
    "parse_rule_text",
    "validate_rule_document",
]
