"""Client quirk rules as data: the model, the validator, and the loader of the bundled and user rule files.

Each rule names the clients and versions it is for, the methods and trigger, one operation from a
closed set, and the public source and date of the quirk. Users add rules, replace a bundled rule by
reusing its id, or switch rules off by id in their own file. Errors name the file, rule id and field.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NoReturn

from hostcompat._regex import regex
from hostcompat.clients.rewrites.operations import (
    OPERATIONS,
    TRIGGERS,
    RenameOperation,
    RequestOperation,
    normalize_params,
)
from hostcompat.clients.rule_model import (
    SOURCE_KINDS,
    ClientMatch,
    RewriteSpec,
    Rule,
    RuleFile,
    Source,
    SourceKind,
    Trigger,
)
from hostcompat.clients.versions import parse_version_range
from hostcompat.errors import CatalogError, InvalidInput

RULES_FORMAT = 1
"""The rule-file format this loader reads (the document's `format` field)."""

BUNDLED_RULES_FILE = "client-rules.json"
"""The rule file shipped in the package's `data/` directory."""

MAX_RULE_FILE_BYTES = 1_048_576
MAX_RULES = 1000
MAX_TEXT = 1000
"""The longest `symptom` or `notes`."""
MAX_TITLE = 200
MAX_CLIENTS = 64
MAX_CLIENT_NAME = 256
MAX_METHODS = 16
MAX_REFERENCES = 32

RULE_ID = regex(r"[a-z0-9][a-z0-9._-]{0,79}")
"""A rule id (matched whole)."""
DATE = regex(r"(\d{4})(?:-(0[1-9]|1[0-2])(?:-(0[1-9]|[12]\d|3[01]))?)?")
"""A rule's date: YYYY, YYYY-MM or YYYY-MM-DD (matched whole)."""
URL = regex(r"https://[^\s]{1,500}")
"""A source or reference URL (matched whole)."""
REQUIRED_RULE_KEYS = ("id", "title", "clients", "methods", "trigger", "rewrite", "source", "date")
RULE_KEYS = (*REQUIRED_RULE_KEYS, "symptom", "references", "enabled", "notes")
CLIENT_KEYS = ("name", "versions")
SOURCE_KEYS = ("url", "kind")
DOCUMENT_KEYS = ("$schema", "format", "description", "rules", "disabled")
_RULE_KEYS = frozenset(RULE_KEYS)
_DOCUMENT_KEYS = frozenset(DOCUMENT_KEYS)


class _Context:
    """Where in which file we are, so every error names the file, the rule id and the field."""

    def __init__(self, origin: str, rule_id: str | None = None) -> None:
        self.origin = origin
        self.rule_id = rule_id

    def fail(self, field: str, problem: str, value: Any) -> NoReturn:
        where = f"rule {self.rule_id!r}, " if self.rule_id else ""
        raise CatalogError(f"{self.origin}: {where}field {field!r}: {problem}", value=value, rule_id=self.rule_id)


def _text(ctx: _Context, rule: Mapping[str, Any], key: str, *, required: bool, limit: int = MAX_TEXT) -> str:
    value = rule.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        ctx.fail(key, f"must be a non-empty string of at most {limit} characters", value)
    return value


def _object(ctx: _Context, value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        ctx.fail(field, "must be an object", value)
    return value


def _list(ctx: _Context, value: Any, field: str, *, limit: int) -> Sequence[Any]:
    if not isinstance(value, list) or not 1 <= len(value) <= limit:
        ctx.fail(field, f"must be a list of 1 to {limit} entries", value)
    return value


def _clients(ctx: _Context, value: Any) -> tuple[ClientMatch, ...]:
    matches = []
    for index, entry in enumerate(_list(ctx, value, "clients", limit=MAX_CLIENTS)):
        field = f"clients[{index}]"
        entry = _object(ctx, entry, field)
        unknown = set(entry) - set(CLIENT_KEYS)
        if unknown:
            ctx.fail(f"{field}.{sorted(unknown)[0]}", "unknown field (known: name, versions)", entry)
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_CLIENT_NAME:
            ctx.fail(f"{field}.name", "must be a non-empty clientInfo name or glob", name)
        try:
            versions = parse_version_range(entry.get("versions", "*"))
        except InvalidInput as error:
            ctx.fail(f"{field}.versions", error.message, entry.get("versions"))
        matches.append(ClientMatch(name=name, versions=versions))
    return tuple(matches)


def _source(ctx: _Context, value: Any) -> Source:
    source = _object(ctx, value, "source")
    url, kind = source.get("url"), source.get("kind")
    if set(source) - set(SOURCE_KEYS):
        ctx.fail("source", "may hold only url and kind", source)
    if not isinstance(url, str) or not URL.fullmatch(url):
        ctx.fail("source.url", "must be an https:// URL", url)
    if kind not in SOURCE_KINDS:
        ctx.fail("source.kind", f"must be one of {list(SOURCE_KINDS)}", kind)
    return Source(url=url, kind=kind)


def _trigger(ctx: _Context, value: Any) -> Trigger:
    trigger = _object(ctx, value, "trigger")
    kind = trigger.get("kind")
    if not isinstance(kind, str) or kind not in TRIGGERS:
        ctx.fail("trigger.kind", f"must be one of {sorted(TRIGGERS)}", kind)
    raw = {key: item for key, item in trigger.items() if key != "kind"}
    params = normalize_params(TRIGGERS[kind].params, raw, lambda f, p, v: ctx.fail(f"trigger.{f}", p, v))
    return Trigger(kind=kind, params=params)


def _rewrite(ctx: _Context, value: Any, methods: frozenset[str], trigger: Trigger) -> RewriteSpec:
    rewrite = _object(ctx, value, "rewrite")
    op_name = rewrite.get("op")
    if not isinstance(op_name, str) or op_name not in OPERATIONS:
        ctx.fail("rewrite.op", f"must be one of {sorted(OPERATIONS)}", op_name)
    operation = OPERATIONS[op_name]
    raw = {key: item for key, item in rewrite.items() if key != "op"}
    params = normalize_params(operation.params, raw, lambda f, p, v: ctx.fail(f"rewrite.{f}", p, v))
    unsupported = sorted(methods - operation.methods)
    if unsupported:
        ctx.fail("methods", f"{op_name!r} acts only on {sorted(operation.methods)}, not {unsupported}", sorted(methods))
    if isinstance(operation, (RenameOperation, RequestOperation)) and trigger.kind != "always":
        ctx.fail("trigger.kind", f"{op_name!r} needs the 'always' trigger", trigger.kind)
    return RewriteSpec(op=op_name, params=params)


def _methods(ctx: _Context, value: Any) -> frozenset[str]:
    methods = _list(ctx, value, "methods", limit=MAX_METHODS)
    for index, method in enumerate(methods):
        if not isinstance(method, str):
            ctx.fail(f"methods[{index}]", "must be a method name", method)
    return frozenset(methods)


def _date(ctx: _Context, value: Any) -> str:
    if not isinstance(value, str) or not DATE.fullmatch(value):
        ctx.fail("date", "must be YYYY, YYYY-MM or YYYY-MM-DD", value)
    return value


def _references(ctx: _Context, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_REFERENCES:
        ctx.fail("references", f"must be a list of at most {MAX_REFERENCES} https:// URLs", value)
    for index, url in enumerate(value):
        if not isinstance(url, str) or not URL.fullmatch(url):
            ctx.fail(f"references[{index}]", "must be an https:// URL", url)
    return tuple(value)


def parse_rule(raw: Any, *, origin: str, index: int = 0) -> Rule:
    """Validate one rule object.

    Raises:
        CatalogError: naming `origin`, the rule id (or index) and the offending field.
    """
    ctx = _Context(origin, None)
    if not isinstance(raw, Mapping):
        ctx.fail(f"rules[{index}]", "must be an object", raw)
    rule_id = raw.get("id")
    if not isinstance(rule_id, str) or not RULE_ID.fullmatch(rule_id):
        ctx.fail(f"rules[{index}].id", "must match [a-z0-9][a-z0-9._-]{0,79}", rule_id)
    ctx.rule_id = rule_id
    unknown = sorted(set(raw) - _RULE_KEYS)
    if unknown:
        ctx.fail(unknown[0], f"unknown field (known: {sorted(_RULE_KEYS)})", raw[unknown[0]])
    for key in REQUIRED_RULE_KEYS:
        if key not in raw:
            ctx.fail(key, "is required", None)
    enabled = raw.get("enabled", True)
    if not isinstance(enabled, bool):
        ctx.fail("enabled", "must be true or false", enabled)
    methods = _methods(ctx, raw["methods"])
    trigger = _trigger(ctx, raw["trigger"])
    return Rule(
        id=rule_id,
        title=_text(ctx, raw, "title", required=True, limit=MAX_TITLE),
        clients=_clients(ctx, raw["clients"]),
        methods=methods,
        trigger=trigger,
        rewrite=_rewrite(ctx, raw["rewrite"], methods, trigger),
        source=_source(ctx, raw["source"]),
        date=_date(ctx, raw["date"]),
        enabled=enabled,
        symptom=_text(ctx, raw, "symptom", required=False),
        notes=_text(ctx, raw, "notes", required=False),
        references=_references(ctx, raw.get("references")),
        origin=origin,
    )


def parse_rule_document(document: Any, *, origin: str) -> RuleFile:
    """Validate a whole rule document (`{"format": 1, "rules": [...], "disabled": [...]}`).

    Raises:
        CatalogError: naming `origin`, and the rule id and field where there is one.
    """
    ctx = _Context(origin)
    if not isinstance(document, Mapping):
        ctx.fail("(document)", "must be a JSON object", document)
    unknown = sorted(set(document) - _DOCUMENT_KEYS)
    if unknown:
        ctx.fail(unknown[0], f"unknown field (known: {sorted(_DOCUMENT_KEYS)})", document[unknown[0]])
    if "description" in document and not isinstance(document["description"], str):
        ctx.fail("description", "must be a string", document["description"])
    if document.get("format") != RULES_FORMAT:
        ctx.fail("format", f"must be {RULES_FORMAT}", document.get("format"))
    raw_rules = document.get("rules", [])
    if not isinstance(raw_rules, list) or len(raw_rules) > MAX_RULES:
        ctx.fail("rules", f"must be a list of at most {MAX_RULES} rules", raw_rules)
    rules = tuple(parse_rule(raw, origin=origin, index=index) for index, raw in enumerate(raw_rules))
    seen: set[str] = set()
    for rule in rules:
        if rule.id in seen:
            _Context(origin, rule.id).fail("id", "appears twice in this file", rule.id)
        seen.add(rule.id)
    disabled = document.get("disabled", [])
    if not isinstance(disabled, list) or len(disabled) > MAX_RULES:
        ctx.fail("disabled", "must be a list of rule ids", disabled)
    for index, rule_id in enumerate(disabled):
        if not isinstance(rule_id, str) or not RULE_ID.fullmatch(rule_id):
            ctx.fail(f"disabled[{index}]", "must be a rule id", rule_id)
    return RuleFile(origin=origin, rules=rules, disabled=tuple(disabled))


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def parse_rule_text(text: str, *, origin: str) -> RuleFile:
    """Parse and validate the JSON text of a rule file (duplicate keys and NaN are rejected).

    Raises:
        CatalogError: too large, not JSON, nested too deeply, or not a valid rule document.
    """
    if len(text) > MAX_RULE_FILE_BYTES:
        raise CatalogError(f"{origin}: over {MAX_RULE_FILE_BYTES} characters", value=origin)
    try:
        document = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_reject_constant)
    except ValueError as error:
        raise CatalogError(f"{origin}: not valid JSON: {error}", value=origin) from error
    except RecursionError as error:
        raise CatalogError(f"{origin}: nested too deeply to be a rule file", value=origin) from error
    return parse_rule_document(document, origin=origin)


def load_rule_file(path: str | os.PathLike[str]) -> RuleFile:
    """Read and validate a user rule file.

    Raises:
        CatalogError: the file cannot be read, is too large, or is not a valid rule document.
    """
    origin = os.fspath(path)
    try:
        with open(origin, "rb") as handle:  # at most one byte past the limit, whatever the file claims to be
            data = handle.read(MAX_RULE_FILE_BYTES + 1)
    except OSError as error:
        raise CatalogError(f"{origin}: cannot read rule file: {error}", value=origin) from error
    if len(data) > MAX_RULE_FILE_BYTES:
        raise CatalogError(f"{origin}: over {MAX_RULE_FILE_BYTES} bytes", value=origin)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CatalogError(f"{origin}: cannot read rule file: {error}", value=origin) from error
    return parse_rule_text(text, origin=origin)


@lru_cache(maxsize=1)
def load_bundled_rules() -> tuple[Rule, ...]:
    """The rules shipped with hostcompat (`data/client-rules.json`), validated.

    Raises:
        CatalogError: the bundled file is missing or invalid (a packaging bug).
    """
    shipped = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", BUNDLED_RULES_FILE)
    try:  # the usual install; importlib.resources costs milliseconds of start-up to import
        with open(shipped, "rb") as handle:
            text = handle.read().decode("utf-8")
    except FileNotFoundError:  # pragma: no cover - a zipped install
        from importlib import resources

        resource = resources.files("hostcompat").joinpath("data").joinpath(BUNDLED_RULES_FILE)
        try:
            text = resource.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CatalogError(
                f"{BUNDLED_RULES_FILE}: cannot read the bundled rules: {error}", value=str(resource)
            ) from error
    except (OSError, UnicodeDecodeError) as error:
        raise CatalogError(f"{BUNDLED_RULES_FILE}: cannot read the bundled rules: {error}", value=shipped) from error
    bundled = parse_rule_text(text, origin=BUNDLED_RULES_FILE)
    if bundled.disabled:
        raise CatalogError(f"{BUNDLED_RULES_FILE}: field 'disabled' belongs in user files", value=bundled.disabled)
    return bundled.rules


def merge_rules(base: Iterable[Rule], *overlays: RuleFile) -> tuple[Rule, ...]:
    """`base` with each overlay applied in turn: same-id rules replace, new ids append, `disabled` switches off.

    Raises:
        CatalogError: an overlay disables an id that no rule has (naming the file and the entry).
    """
    merged: dict[str, Rule] = {rule.id: rule for rule in base}
    for overlay in overlays:
        for rule in overlay.rules:
            merged[rule.id] = rule
        for index, rule_id in enumerate(overlay.disabled):
            if rule_id not in merged:
                _Context(overlay.origin, rule_id).fail(f"disabled[{index}]", "no rule has this id", rule_id)
            merged[rule_id] = dataclasses.replace(merged[rule_id], enabled=False)
    return tuple(merged.values())


def load_rules(*user_files: str | os.PathLike[str]) -> tuple[Rule, ...]:
    """The bundled rules merged with each user rule file, in order.

    Raises:
        CatalogError: a file cannot be read or is invalid.
    """
    return merge_rules(load_bundled_rules(), *(load_rule_file(path) for path in user_files))


def find_rule(rules: Iterable[Rule], rule_id: str) -> Rule:
    """The rule with `rule_id`.

    Raises:
        CatalogError: no rule has that id.
    """
    for rule in rules:
        if rule.id == rule_id:
            return rule
    raise CatalogError(f"no client rule has the id {rule_id!r}", value=rule_id, rule_id=rule_id)


__all__ = [
    "BUNDLED_RULES_FILE",
    "CLIENT_KEYS",
    "ClientMatch",
    "DATE",
    "DOCUMENT_KEYS",
    "MAX_CLIENTS",
    "MAX_CLIENT_NAME",
    "MAX_METHODS",
    "MAX_REFERENCES",
    "MAX_RULES",
    "MAX_RULE_FILE_BYTES",
    "MAX_TEXT",
    "MAX_TITLE",
    "REQUIRED_RULE_KEYS",
    "RULE_ID",
    "RULE_KEYS",
    "SOURCE_KEYS",
    "URL",
    "RULES_FORMAT",
    "RewriteSpec",
    "Rule",
    "RuleFile",
    "SOURCE_KINDS",
    "Source",
    "SourceKind",
    "Trigger",
    "find_rule",
    "load_bundled_rules",
    "load_rule_file",
    "load_rules",
    "merge_rules",
    "parse_rule",
    "parse_rule_document",
    "parse_rule_text",
]
