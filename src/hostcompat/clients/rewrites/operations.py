"""The closed set of rewrite operations and trigger kinds a rule may name, with their parameters.

Rules are data; what they may ask for is code. Each operation declares the methods it acts on and
the parameters it takes, so the rule loader rejects a rule that could never work.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any, NoReturn

from hostcompat._dataclass import dataclass
from hostcompat.clients.rewrites import apps as _apps
from hostcompat.clients.rewrites import content as _content
from hostcompat.clients.rewrites import schema_types as _schema_types
from hostcompat.clients.rewrites import schemas as _schemas
from hostcompat.clients.rewrites import tool_catalog as _catalog
from hostcompat.clients.rewrites.copy_on_write import JSONObject
from hostcompat.wire_json import WireJSON

RESULT_METHODS = frozenset(
    {
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "prompts/list",
        "prompts/get",
    }
)
"""Methods whose results a rule may rewrite."""

MODERN_REQUEST_METHODS = frozenset({"server/discover", *RESULT_METHODS})
"""Requests that carry the client's capabilities in `_meta` in the 2026-07-28 era (besides the others' results)."""

REQUEST_METHODS = frozenset({"tools/call", "initialize", *MODERN_REQUEST_METHODS})
"""Methods whose incoming params a rule may rewrite (the middleware acts on tools/call only: the SDK reads the
client's `initialize` and envelope before any middleware runs)."""

MIN_NAME_BUDGET = 16
"""The smallest tool-name length budget accepted (room for a head and the 9-character digest suffix)."""

Patch = Callable[[str, JSONObject, Mapping[str, Any]], JSONObject]
ParamCheck = Callable[[Any], str | None]
Fail = Callable[[str, str, Any], NoReturn]


def _no_check(value: Any) -> str | None:
    return None


@dataclass(frozen=True)
class Param:
    """One operation parameter: a check returning a problem (or None), and a default (none = required).

    `schema` is the JSON Schema of the values `check` accepts, built from the same limits (the generated
    `client-rules.schema.json` holds it).
    """

    check: ParamCheck = _no_check
    default: Any = None
    required: bool = False
    schema: WireJSON = field(default_factory=dict)


@dataclass(frozen=True)
class ResultOperation:
    """An operation that rewrites a result going to the client.

    `needles`, when given, are words (ASCII letters, digits, `_`) one of which a result must hold, as a key or
    inside a string, for the patch to change anything: a relay holding a result's JSON text may skip the rewrite
    when none occurs in it (`hostcompat.clients.rewrite.may_rewrite_result`). None: it may change any result.
    """

    name: str
    summary: str
    methods: frozenset[str]
    patch: Patch
    params: Mapping[str, Param] = field(default_factory=dict)
    needles: frozenset[str] | None = None


@dataclass(frozen=True)
class RenameOperation:
    """An operation that renames tools in tools/list (the session keeps the reverse map)."""

    name: str
    summary: str
    transform: Callable[[str, WireJSON], str]
    params: Mapping[str, Param] = field(default_factory=dict)
    budget_param: str | None = None
    methods: frozenset[str] = frozenset({"tools/list"})


@dataclass(frozen=True)
class RequestOperation:
    """An operation that rewrites a request's params coming from the client."""

    name: str
    summary: str
    methods: frozenset[str]
    patch: Patch
    params: Mapping[str, Param] = field(default_factory=dict)


Operation = ResultOperation | RenameOperation | RequestOperation


@dataclass(frozen=True)
class TriggerKind:
    """A condition on the result that gates a rule's rewrite."""

    name: str
    summary: str
    fires: Callable[[str, JSONObject, WireJSON, WireJSON | None], bool]
    """`fires(method, payload, params, server_capabilities)`; the capabilities are None when the session does not
    know them."""
    params: Mapping[str, Param] = field(default_factory=dict)


def _int_between(low: int, high: int) -> ParamCheck:
    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return f"must be an integer from {low} to {high}"
        return None

    return check


def _integer(low: int, high: int, *, required: bool = False) -> Param:
    """An integer parameter from `low` to `high`."""
    schema = {"type": "integer", "minimum": low, "maximum": high}
    return Param(_int_between(low, high), required=required, schema=schema)


def _string_list(
    allowed: frozenset[str] | None = None,
    *,
    max_items: int = 64,
    max_length: int = 128,
    refused: frozenset[str] = frozenset(),
    default: Any = None,
    required: bool = False,
    description: str | None = None,
) -> Param:
    """A list of distinct strings (from `allowed` when given, none of `refused`)."""
    item: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": max_length}
    if allowed is not None:
        item = {"enum": sorted(allowed)}
    if refused:
        item["not"] = {"enum": sorted(refused)}
    schema: dict[str, Any] = {"type": "array", "items": item, "minItems": 1, "maxItems": max_items, "uniqueItems": True}
    if description is not None:
        schema["description"] = description
    check = _droppable_keywords if refused else _strings(allowed, max_items=max_items, max_length=max_length)
    return Param(check, default=default, required=required, schema=schema)


def _strings(allowed: frozenset[str] | None = None, *, max_items: int = 64, max_length: int = 128) -> ParamCheck:
    def check(value: Any) -> str | None:
        if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= max_items:
            return f"must be a list of 1 to {max_items} strings"
        for item in value:
            if not isinstance(item, str) or not 1 <= len(item) <= max_length:
                return f"must hold non-empty strings of at most {max_length} characters"
            if allowed is not None and item not in allowed:
                return f"{item!r} is not one of {sorted(allowed)}"
        if len(set(value)) != len(value):
            return "must not repeat an entry"
        return None

    return check


def _droppable_keywords(value: Any) -> str | None:
    problem = _strings()(value)
    if problem is None:
        refused = sorted(_schemas.NARROWING_DROPS.intersection(value))
        if refused:
            return (
                f"may not name {', '.join(refused)}: without them additionalProperties or items cover more, or "
                "$refs dangle, so values the schema accepted would be refused"
            )
    return problem


_PUNCTUATION_CLASS = "[!-/:-@\\[-`{-~]"
"""ASCII punctuation (`string.punctuation`) as a regex class, for the parameter's JSON Schema."""


def _punctuation(value: Any) -> str | None:
    if not isinstance(value, str) or not 1 <= len(value) <= 32:
        return "must be a string of 1 to 32 punctuation characters"
    if any(char not in string.punctuation for char in value):
        return "may hold ASCII punctuation only (letters and digits are always allowed)"
    if "_" not in value:
        return "must include '_' (the replacement character)"
    return None


def _always(method: str, payload: JSONObject, params: Mapping[str, Any], server: WireJSON | None) -> bool:
    return True


def _has_content_types(method: str, payload: JSONObject, params: Mapping[str, Any], server: WireJSON | None) -> bool:
    wanted = frozenset(params.get("types", ()))
    return bool(wanted & _content.content_types(method, payload))


def _has_keys(method: str, payload: JSONObject, params: Mapping[str, Any], server: WireJSON | None) -> bool:
    return any(payload.get(key) is not None for key in params.get("keys", ()))


def _server_lacks(method: str, payload: JSONObject, params: Mapping[str, Any], server: WireJSON | None) -> bool:
    return _apps.server_lacks(server, params["capability"])


_SERVER_CAPABILITIES = frozenset({"tools", "resources", "prompts", "logging", "completions", "tasks", "extensions"})


_FIELDS = frozenset(_schemas.INPUT_AND_OUTPUT)
_FIELDS_TEXT = "Which tool schemas to rewrite."
_TOOLS_LIST = frozenset({"tools/list"})

TRIGGERS: Mapping[str, TriggerKind] = MappingProxyType(
    {
        "always": TriggerKind("always", "whenever the rewrite finds something to change", _always),
        "content-types": TriggerKind(
            "content-types",
            "the result's content holds a block of one of `types`",
            _has_content_types,
            {"types": _string_list(max_items=16, max_length=64, required=True)},
        ),
        "result-has": TriggerKind(
            "result-has",
            "the result holds one of the top-level `keys` (not null)",
            _has_keys,
            {"keys": _string_list(max_items=16, max_length=64, required=True)},
        ),
        "server-lacks-capability": TriggerKind(
            "server-lacks-capability",
            "the session knows the server's capabilities and they do not name `capability` (never fires when the "
            "capabilities are unknown)",
            _server_lacks,
            {
                "capability": Param(
                    lambda value: (
                        None if value in _SERVER_CAPABILITIES else f"must be one of {sorted(_SERVER_CAPABILITIES)}"
                    ),
                    required=True,
                    schema={"enum": sorted(_SERVER_CAPABILITIES)},
                )
            },
        ),
    }
)
"""Trigger kinds by name."""

OPERATIONS: Mapping[str, Operation] = MappingProxyType(
    {
        "round-annotation-priority": ResultOperation(
            "round-annotation-priority",
            "round annotations.priority to 0 or 1 (ties up) in content, embedded resources, resources, templates",
            frozenset({"tools/call", "prompts/get", "resources/list", "resources/templates/list"}),
            _content.round_annotation_priority,
            needles=frozenset({"priority"}),  # it changes the values of priority keys only
        ),
        "resource-link-to-text": ResultOperation(
            "resource-link-to-text",
            "replace resource_link content blocks with a text block naming title, uri and MIME type",
            frozenset({"tools/call", "prompts/get"}),
            _content.resource_link_to_text,
            needles=frozenset({"resource_link"}),  # blocks of that type only
        ),
        "drop-structured-content": ResultOperation(
            "drop-structured-content",
            "remove structuredContent from a tools/call result",
            frozenset({"tools/call"}),
            _content.drop_structured_content,
            needles=frozenset({"structuredContent"}),
        ),
        "inline-schema-refs": ResultOperation(
            "inline-schema-refs",
            "inline local $ref and drop $defs/definitions in tool schemas (unchanged if not safely possible)",
            _TOOLS_LIST,
            _schemas.inline_schema_refs,
            {"fields": _string_list(_FIELDS, description=_FIELDS_TEXT, default=_schemas.INPUT_AND_OUTPUT)},
        ),
        "drop-schema-keywords": ResultOperation(
            "drop-schema-keywords",
            "remove the given keywords from every node of tool schemas (a root $schema only if it names 2020-12)",
            _TOOLS_LIST,
            _schemas.drop_schema_keywords,
            {
                "keywords": _string_list(refused=_schemas.NARROWING_DROPS, required=True),
                "fields": _string_list(_FIELDS, description=_FIELDS_TEXT, default=_schemas.INPUT_AND_OUTPUT),
            },
        ),
        "add-missing-schema-types": ResultOperation(
            "add-missing-schema-types",
            "give schema nodes without a type the one their enum, const or branches imply; a value node with no "
            "type evidence at all gets the one its keywords suggest, else string (this narrows it)",
            _TOOLS_LIST,
            _schema_types.add_missing_schema_types,
            {"fields": _string_list(_FIELDS, description=_FIELDS_TEXT, default=_schemas.INPUT_ONLY)},
        ),
        "move-type-into-anyof": ResultOperation(
            "move-type-into-anyof",
            "never keep type beside anyOf: move a string type into untyped branches",
            _TOOLS_LIST,
            _schema_types.move_schema_type_into_any_of,
            {"fields": _string_list(_FIELDS, description=_FIELDS_TEXT, default=_schemas.INPUT_ONLY)},
        ),
        "drop-output-schema": ResultOperation(
            "drop-output-schema",
            "remove outputSchema from every tool",
            _TOOLS_LIST,
            _schemas.drop_output_schema,
        ),
        "cap-tool-count": ResultOperation(
            "cap-tool-count",
            "keep the first max_tools tools of a tools/list page (and drop nextCursor when cut)",
            _TOOLS_LIST,
            _catalog.cap_tool_count,
            {"max_tools": _integer(1, 100_000, required=True)},
        ),
        "sanitize-tool-names": RenameOperation(
            "sanitize-tool-names",
            "replace tool-name characters outside ASCII letters, digits and allowed_punctuation with _",
            lambda name, params: _catalog.sanitize_name(name, params["allowed_punctuation"]),
            {
                "allowed_punctuation": Param(
                    _punctuation,
                    default="_-",
                    schema={
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 32,
                        "pattern": f"^{_PUNCTUATION_CLASS}*_{_PUNCTUATION_CLASS}*$",
                    },
                )
            },
        ),
        "truncate-tool-names": RenameOperation(
            "truncate-tool-names",
            "shorten tool names over max_length to a head plus _ and a digest",
            lambda name, params: _catalog.truncate_name(name, params["max_length"]),
            {"max_length": _integer(MIN_NAME_BUDGET, 1024, required=True)},
            budget_param="max_length",
        ),
        "mirror-structured-content": ResultOperation(
            "mirror-structured-content",
            "put structuredContent, as JSON, in a text block at the head of content (unless a text block holds it "
            "or it is longer than max_chars)",
            frozenset({"tools/call"}),
            _apps.mirror_structured_content,
            {
                "max_chars": Param(
                    _int_between(1, 10_000_000),
                    default=_apps.DEFAULT_MAX_MIRROR_CHARS,
                    schema={"type": "integer", "minimum": 1, "maximum": 10_000_000},
                )
            },
            needles=frozenset({"structuredContent"}),
        ),
        "fill-ui-uri-keys": ResultOperation(
            "fill-ui-uri-keys",
            "write a tool's one view URI under each key of write it lacks: nested _meta.ui.resourceUri, flat "
            "_meta['ui/resourceUri'], openai/outputTemplate",
            _TOOLS_LIST,
            _apps.fill_ui_uri_keys,
            {"write": _string_list(frozenset(_apps.URI_KEYS), required=True)},
        ),
        "drop-output-template": ResultOperation(
            "drop-output-template",
            "remove openai/outputTemplate from every tool's _meta (the MCP Apps keys stay)",
            _TOOLS_LIST,
            _apps.drop_output_template,
        ),
        "declare-ui-capability": RequestOperation(
            "declare-ui-capability",
            "declare the MCP Apps UI extension in the client's initialize capabilities, or in a 2026-07-28 "
            "request's _meta client capabilities, when the client does not",
            frozenset({"initialize", *MODERN_REQUEST_METHODS}),
            _apps.declare_ui_capability,
        ),
        "strip-call-arguments": RequestOperation(
            "strip-call-arguments",
            "remove the named keys from an incoming tools/call's arguments",
            frozenset({"tools/call"}),
            _content.strip_call_arguments,
            {"names": _string_list(required=True)},
        ),
    }
)
"""Operations by name: the closed set a rule's `rewrite.op` may name."""


def normalize_params(specs: Mapping[str, Param], raw: WireJSON, fail: Fail) -> WireJSON:
    """`raw` checked against `specs`, defaults filled in, lists frozen to tuples.

    `fail(field, problem, value)` is called (and must raise) on an unknown, missing or bad parameter.
    """
    for name in raw:
        if name not in specs:
            fail(name, f"unknown parameter (known: {sorted(specs) or 'none'})", raw[name])
    out: dict[str, Any] = {}
    for name, spec in specs.items():
        if name not in raw:
            if spec.required:
                fail(name, "is required", None)
            out[name] = spec.default
            continue
        value = raw[name]
        problem = spec.check(value)
        if problem is not None:
            fail(name, problem, value)
        out[name] = tuple(value) if isinstance(value, list) else value
    return MappingProxyType(out)


__all__ = [
    "MIN_NAME_BUDGET",
    "MODERN_REQUEST_METHODS",
    "OPERATIONS",
    "Operation",
    "Param",
    "ParamCheck",
    "Patch",
    "REQUEST_METHODS",
    "RESULT_METHODS",
    "RenameOperation",
    "RequestOperation",
    "ResultOperation",
    "TRIGGERS",
    "TriggerKind",
    "normalize_params",
]
