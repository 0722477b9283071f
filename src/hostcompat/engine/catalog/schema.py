"""The vocabulary of the host catalog: every fact a host profile may carry, and what its value may be.

Kept apart from the loader so the evaluator, the JSON Schema and the tests share one list of names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final, Literal, NoReturn

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.errors import CatalogError, InvalidCatalogValue

SCHEMA_VERSION: Final = 1
"""The `catalog.schemaVersion` this module reads and writes."""

LEVELS: Final = ("supported", "partial", "unsupported", "unknown")
"""How far a host supports something; `unknown` only where a source says so (an absent fact is unknown too)."""

PROVENANCES: Final = ("probe", "vendor-doc", "observed", "assumed")
"""Where a fact comes from (MCPJam's labels): a capture from the live host, the vendor's documentation,
an issue report or code read, or an inference nobody verified."""

KINDS: Final = ("chat", "ide", "cli", "agent", "devtool", "automation", "framework", "platform", "other")
"""The catalog's own classification of a host (not a sourced fact)."""

PLATFORMS: Final = ("web", "desktop", "mobile", "terminal", "cloud")
OPERATING_SYSTEMS: Final = ("windows", "macos", "linux", "ios", "android")
"""The operating systems a fact or quirk may be limited to (`os`): where the host's app runs."""
REGISTRATIONS: Final = ("config-file", "connector", "plugin", "project-config", "extension")
"""How a server reaches the host, for facts limited to some paths (`registration`): the host's own config file, a
remote connector added in its UI, a plugin or bundle, a per-project file (`.mcp.json`), another extension's API."""
UI_FORMATS: Final = ("mcp-apps", "openai-apps-sdk", "mcp-ui-legacy")
"""The UI formats a host may render: MCP Apps (`_meta.ui`), OpenAI Apps SDK widgets, legacy mcp-ui resources."""

MCP_APPS_FEATURES: Final = (
    "serverTools",
    "serverResources",
    "message",
    "updateModelContext",
    "openLinks",
    "downloadFile",
    "logging",
    "sandboxPermissions",
    "cspFrameDomains",
    "cspBaseUriDomains",
    "cspConnectDomains",
    "cspResourceDomains",
    "requestDisplayMode",
    "sizeChanged",
    "appTools",
    "sampling",
    "toolInput",
    "toolInputPartial",
    "toolResult",
    "toolCancelled",
    "hostContextChanged",
    "toolInfo",
    "resourceTeardown",
    "requestTeardown",
    "prefersBorder",
)
"""Host->view features of MCP Apps; the first nine are the ones MCPJam's verdicts use."""

DISPLAY_MODES: Final = ("inline", "fullscreen", "pip")
SANDBOX_PERMISSIONS: Final = ("camera", "microphone", "geolocation", "clipboardWrite")
OPENAI_API_MEMBERS: Final = (
    "callTool",
    "sendFollowUpMessage",
    "openExternal",
    "requestDisplayMode",
    "notifyIntrinsicHeight",
    "widgetState",
    "setWidgetState",
    "uploadFile",
    "getFileDownloadUrl",
    "requestModal",
    "requestClose",
    "setOpenInAppUrl",
    "toolInput",
    "toolOutput",
    "toolResponseMetadata",
)
"""Members of the OpenAI Apps SDK's `window.openai` that a host may provide."""

TRANSPORTS: Final = ("stdio", "streamable-http", "sse")
SERVER_FEATURES: Final = (
    "tools",
    "resources",
    "resourceTemplates",
    "prompts",
    "sampling",
    "elicitation",
    "roots",
    "logging",
    "completions",
    "tasks",
    "instructions",
    "discovery",
    "resourceLink",
    "embeddedResources",
    "structuredContent",
    "outputSchema",
    "images",
    "audio",
    "appOnlyToolsHidden",
    "authDcr",
    "authCimd",
    "authClientCredentials",
    "authEnterpriseManaged",
)
"""Core MCP features as the host (the client) handles them; `images` means image content reaches the model."""

SCHEMA_FEATURES: Final = (
    "$ref",
    "$defs",
    "definitions",
    "$schema",
    "$schema-2020-12",
    "type-with-anyOf",
    "type-array",
    "anyOf-in-items",
    "ref-with-siblings",
    "bare-title",
    "oneOf",
    "object-without-properties",
    "missing-type",
    "additionalProperties-not-false",
    "combinator-at-root",
    "type-array-argument",
)
"""JSON Schema constructs in a tool's `inputSchema` that some hosts reject."""

ValueKind = Literal["level", "text", "integer", "boolean", "choices", "text-list", "versions", "charset", "name-format"]


@dataclass(frozen=True)
class ValueSpec:
    """What the `value` of one kind of fact may be (`choices` for `level`-like and `choices` lists)."""

    kind: ValueKind
    choices: tuple[str, ...] = ()
    note_required: bool = False
    """The fact only holds under a condition, which its `note` must state."""


LEVEL: Final = ValueSpec("level", LEVELS)
_INTEGER: Final = ValueSpec("integer")
"""A limit (`server.limits.*` counts and lengths); `0` says the host has none (`NO_LIMIT`)."""
NO_LIMIT: Final = 0
"""The value of a `server.limits.*` integer fact whose source says the host sets no such limit."""


def _group(prefix: str, names: tuple[str, ...], spec: ValueSpec) -> dict[str, ValueSpec]:
    return {f"{prefix}.{name}": spec for name in names}


FACT_FIELDS: Final[Mapping[str, ValueSpec]] = {
    "vendor": ValueSpec("text"),
    "platforms": ValueSpec("choices", PLATFORMS),
    "clientInfoNames": ValueSpec("text-list"),
    **_group("ui.formats", UI_FORMATS, LEVEL),
    **_group("ui.mcpApps.features", MCP_APPS_FEATURES, LEVEL),
    "ui.mcpApps.displayModes": ValueSpec("choices", DISPLAY_MODES),
    "ui.mcpApps.sandboxPermissionAllow": ValueSpec("choices", SANDBOX_PERMISSIONS),
    **_group("ui.openaiApi", OPENAI_API_MEMBERS, LEVEL),
    "server.protocolVersions": ValueSpec("versions"),
    **_group("server.transports", TRANSPORTS, LEVEL),
    **_group("server.features", SERVER_FEATURES, LEVEL),
    "server.limits.maxTools": _INTEGER,
    "server.limits.maxToolListTokens": _INTEGER,
    "server.limits.maxResultTokens": _INTEGER,
    "server.limits.toolNameMaxLength": _INTEGER,
    "server.limits.toolNameCharset": ValueSpec("charset"),
    "server.limits.toolNamePrefixCounts": ValueSpec("boolean"),
    "server.limits.toolNameFormat": ValueSpec("name-format"),
    "server.limits.schemaFeaturesRejected": ValueSpec("choices", SCHEMA_FEATURES),
    "server.limits.schemaFeaturesRejectedConditionally": ValueSpec("choices", SCHEMA_FEATURES, note_required=True),
}
"""Every fact a host may carry, by dotted path (`ui.mcpApps.features.downloadFile`), in file order."""


def _build_tree(fields: Mapping[str, ValueSpec]) -> dict[str, object]:
    tree: dict[str, object] = {}
    for path, spec in fields.items():
        *groups, leaf = path.split(".")
        node = tree
        for group in groups:
            child = node.setdefault(group, {})
            assert isinstance(child, dict)
            node = child
        node[leaf] = spec
    return tree


FACT_TREE: Final[Mapping[str, object]] = _build_tree(FACT_FIELDS)
"""`FACT_FIELDS` as nested groups, the shape of the JSON file (leaves are `ValueSpec`s)."""

HEADER_KEYS: Final = ("schemaVersion", "date", "description")
"""The keys of the `catalog` header object."""
HOST_KEYS: Final = ("id", "displayName", "kind", "aliases", "description", *FACT_TREE, "variants", "quirks")
"""The keys of a host object: its identity, the fact groups of `FACT_TREE`, facts for other host contexts
(`variants`), and its quirks."""
CONDITION_KEYS: Final = ("trigger", "infoOnly", "since", "fixedIn")
"""The optional keys that say when a fact or quirk bites: the server data that fires it (`trigger`, an id of
`TRIGGERS`), or that nothing the engine can read decides it (`infoOnly`), and the host versions it holds for."""
CONTEXT_KEYS: Final = ("os", "registration", "gate")
"""The optional keys that limit a fact or quirk to a host context: the operating systems (`OPERATING_SYSTEMS`),
the registration paths (`REGISTRATIONS`), or the server-side feature gates (`gate`: names the vendor switches on
per account) it holds for. A fact or quirk without them holds on the common path."""
FACT_KEYS: Final = ("value", "provenance", "source", "date", "note", *CONDITION_KEYS, *CONTEXT_KEYS)
"""The keys of a fact object."""
VARIANT_KEYS: Final = ("path", *FACT_KEYS)
"""The keys of an entry of a host's `variants`: a fact at `path` that holds only in the host context it names."""
QUIRK_KEYS: Final = (
    "id",
    "text",
    "provenance",
    "source",
    "date",
    "note",
    "rule",
    *CONDITION_KEYS,
    *CONTEXT_KEYS,
    "covers",
)
"""The keys of a quirk object (`covers`: the path of the host fact through which the engine evaluates it)."""

TRIGGERS: Final[Mapping[str, str]] = {
    "result-structured-replaces-content": "a captured result has structuredContent and content that carries "
    "something structuredContent does not (a non-text block, or text that is not in structuredContent)",
    "result-missing-structured": "a captured non-error result of a tool with an outputSchema has no "
    "structuredContent, or one that does not match the outputSchema's type and required properties",
    "result-structured-on-error": "a captured isError result carries structuredContent",
    "result-image-with-structured": "a captured result has an image block and structuredContent",
    "result-structured-replaces-text": "a captured result has structuredContent and a text block whose text is not "
    "in structuredContent (non-text blocks are kept)",
    "result-annotation-priority-non-integer": "a content block of a captured result has annotations.priority "
    "that is not an integer",
    "result-nonspec-content-type": "a content block of a captured result has a type the MCP spec does not define",
    "result-content-image": "a captured result has an image block",
    "result-content-audio": "a captured result has an audio block",
    "result-content-resource": "a captured result has an embedded resource block",
    "result-content-resource-link": "a captured result has a resource_link block",
    "tool-output-schema": "a tool declares an outputSchema",
    "input-schema-closed": "a tool's inputSchema sets additionalProperties false at its top level, so an argument "
    "the host adds is refused",
    "widget-mcp-ui-actions": "a widget posts legacy mcp-ui actions ({type, payload}) no adapter in the page translates",
    "result-structured-without-text": "a captured non-error result has structuredContent and no non-empty text "
    "block in its content, so a reader of content alone gets nothing",
    "widget-result-structured-not-in-text": "a captured non-error result of a widget tool has structuredContent that "
    "no text block of its content carries, so a widget shown only content renders without its data",
    "widget-update-model-context": "a widget sends ui/update-model-context",
    "widget-message": "a widget sends ui/message",
}
"""Every trigger a catalog fact or quirk may name: the server data that makes it bite, in words."""

MAX_CATALOG_BYTES: Final = 4 * 1024 * 1024
"""The largest catalog file (in bytes) or text (in characters) that is read."""
MAX_HOSTS: Final = 500
"""The most hosts a catalog may hold, bundled and user hosts together."""
MAX_QUIRKS: Final = 200
"""The most quirks one host may list."""
MAX_TEXT: Final = 200
"""The longest short text: a display name, a text fact's value, an item of a text list."""
MAX_LIST_ITEMS: Final = 100
MAX_INTEGER: Final = 1_000_000_000
MAX_LONG_TEXT: Final = 2000
"""The longest long text: a description, a note."""
MAX_SOURCE: Final = 500
"""The longest `source` of a fact or quirk, and the longest quirk `text`."""
MAX_ALIASES: Final = 50
MAX_NAME_FORMAT: Final = 64
"""The longest `server.limits.toolNameFormat` template."""
HOST_ID: Final = regex(r"\A[a-z0-9][a-z0-9-]{0,63}\Z")
ALIAS: Final = regex(r"\A[a-z0-9][a-z0-9.-]{0,63}\Z")
QUIRK_ID: Final = regex(r"\A[a-z0-9][a-z0-9-]{0,99}\Z")
RULE_ID: Final = regex(r"\A[a-z0-9][a-z0-9.-]{0,99}\Z")
"""The id of the client rule a quirk links to (`rule`)."""
_DATE = regex(r"\A(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?\Z")
_VERSION = regex(r"\A\d{4}-\d{2}-\d{2}\Z")
CHARSET: Final = regex(r"\A\[[^\[\]]{1,64}\]\Z")
"""A `server.limits.toolNameCharset` value (which must also compile as a regular expression)."""
GATE: Final = regex(r"\A[a-z0-9][a-z0-9.-]{0,63}\Z")
"""The name of a server-side feature gate (`gate`), as the catalog spells it."""
HOST_VERSION: Final = regex(r"\A[0-9A-Za-z][0-9A-Za-z.+_-]{0,39}\Z")
"""A host version as its vendor writes it (`2.0.21`, `0.150.0-alpha.8`, `26.803.61601`)."""


def check_date(value: object, *, full: bool = False) -> None:
    """Raise `InvalidCatalogValue` (saying why) unless `value` is an ISO date (`YYYY-MM-DD`, or `YYYY-MM` / `YYYY`
    unless `full`).
    """
    if not isinstance(value, str):
        _bad(f"must be a date string, not {type(value).__name__}", value)
    match = _DATE.match(value)
    if match is None or (full and match.group(3) is None):
        _bad(
            "must be a date as YYYY-MM-DD" + ("" if full else " (or YYYY-MM, YYYY when the source gives no day)"), value
        )
    year, month, day = (int(part) if part else 1 for part in match.groups())
    problem = _calendar_problem(year, month, day)
    if problem is not None:
        _bad(f"is not a calendar date ({problem})", value)


def _calendar_problem(year: int, month: int, day: int) -> str | None:
    """What `datetime.date(year, month, day)` would refuse, in its words (without importing datetime)."""
    if year < 1:
        return f"year {year} is out of range"
    if not 1 <= month <= 12:
        return "month must be in 1..12"
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]
    return None if 1 <= day <= days else "day is out of range for month"


def date_problem(value: object, *, full: bool = False) -> str | None:
    """Why `value` is not an ISO date (see `check_date`), or None if it is one: a test for callers that only ask."""
    try:
        check_date(value, full=full)
    except InvalidCatalogValue as exc:
        return exc.message
    return None


def check_text(value: object, *, limit: int = MAX_TEXT) -> None:
    """Raise `InvalidCatalogValue` unless `value` is a non-empty string of at most `limit` characters."""
    if not isinstance(value, str):
        _bad(f"must be a string, not {type(value).__name__}", value)
    if not value.strip():
        _bad("must not be empty", value)
    if len(value) > limit:
        _bad(f"is longer than {limit} characters", value)


def _check_item(spec: ValueSpec, item: object) -> None:
    if not isinstance(item, str):
        _bad(f"items must be strings, not {type(item).__name__}", item)
    if spec.kind == "choices" and item not in spec.choices:
        _bad(f"item {show_value(item)} is not one of {', '.join(spec.choices)}", item)
    if spec.kind == "text-list":
        try:
            check_text(item)
        except InvalidCatalogValue as exc:
            _bad(f"item {show_value(item)} {exc.message}", item)
    if spec.kind == "versions" and (not _VERSION.match(item) or date_problem(item, full=True) is not None):
        _bad(f"item {show_value(item)} is not a protocol version (YYYY-MM-DD)", item)


def _check_list(spec: ValueSpec, value: object) -> None:
    if not isinstance(value, list):
        _bad(f"must be a list, not {type(value).__name__}", value)
    if len(value) > MAX_LIST_ITEMS:
        _bad(f"has more than {MAX_LIST_ITEMS} items", value)
    for item in value:
        _check_item(spec, item)
    if len(set(value)) != len(value):
        _bad("has duplicate items", value)


def check_value(spec: ValueSpec, value: object) -> None:
    """Raise `InvalidCatalogValue` (saying why) unless `value` is a valid fact value of kind `spec`."""
    kind = spec.kind
    if kind in ("choices", "text-list", "versions"):
        _check_list(spec, value)
        return
    if kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            _bad(f"must be an integer, not {type(value).__name__}", value)
        if not 0 <= value <= MAX_INTEGER:
            _bad(f"must be between 0 (no limit) and {MAX_INTEGER}", value)
        return
    if kind == "boolean":
        if not isinstance(value, bool):
            _bad(f"must be true or false, not {type(value).__name__}", value)
        return
    if not isinstance(value, str):
        _bad(f"must be a string, not {type(value).__name__}", value)
    if kind == "level":
        if value not in spec.choices:
            _bad(f"{show_value(value)} is not one of {', '.join(spec.choices)}", value)
    elif kind == "charset":
        if not (CHARSET.match(value) and _compiles(value)):
            _bad("must be a regex class like [A-Za-z0-9_-]", value)
    elif kind == "name-format":
        _check_name_format(value)
    else:
        check_text(value)


def _bad(reason: str, value: object) -> NoReturn:
    raise InvalidCatalogValue(reason, value=value)


def show_value(value: object) -> str:
    """A short, safe rendering of an untrusted value for an error message (scalars quoted, others by type)."""
    if value is None or isinstance(value, (str, int, float)):
        text = repr(value)
        return text if len(text) <= 60 else text[:59] + "…"
    return type_name(value)


def type_name(value: object) -> str:
    """The JSON name of a value's type, with its article ("an object", "a list", "null")."""
    names = {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        type(None): "null",
    }
    return names.get(type(value), f"a {type(value).__name__}")


def _compiles(pattern: str) -> bool:
    try:
        return bool(re.compile(pattern))
    except re.error:
        return False


def _check_name_format(value: str) -> None:
    if len(value) > MAX_NAME_FORMAT or value.count("{tool}") != 1:
        _bad(
            f"must be a template of at most {MAX_NAME_FORMAT} characters"
            + " with {tool} once (and optionally {server})",
            value,
        )
    rest = value.replace("{tool}", "").replace("{server}", "")
    if "{" in rest or "}" in rest:
        _bad("may only use the placeholders {server} and {tool}", value)


# ---- errors -----------------------------------------------------------------------------------------------------


def fail(message: str, value: object) -> NoReturn:
    """Raise a `CatalogError` with `message`, carrying the offending `value`."""
    raise CatalogError(message, value=value)


__all__ = [
    "ALIAS",
    "CHARSET",
    "DISPLAY_MODES",
    "HOST_ID",
    "MAX_ALIASES",
    "MAX_NAME_FORMAT",
    "MAX_SOURCE",
    "QUIRK_ID",
    "RULE_ID",
    "FACT_FIELDS",
    "HOST_VERSION",
    "CONDITION_KEYS",
    "CONTEXT_KEYS",
    "GATE",
    "FACT_KEYS",
    "FACT_TREE",
    "HEADER_KEYS",
    "HOST_KEYS",
    "KINDS",
    "LEVELS",
    "MAX_CATALOG_BYTES",
    "MAX_HOSTS",
    "MAX_INTEGER",
    "MAX_LIST_ITEMS",
    "MAX_LONG_TEXT",
    "MAX_QUIRKS",
    "MAX_TEXT",
    "MCP_APPS_FEATURES",
    "NO_LIMIT",
    "OPERATING_SYSTEMS",
    "OPENAI_API_MEMBERS",
    "PLATFORMS",
    "PROVENANCES",
    "QUIRK_KEYS",
    "REGISTRATIONS",
    "TRIGGERS",
    "SANDBOX_PERMISSIONS",
    "SCHEMA_FEATURES",
    "SCHEMA_VERSION",
    "SERVER_FEATURES",
    "TRANSPORTS",
    "UI_FORMATS",
    "VARIANT_KEYS",
    "ValueKind",
    "ValueSpec",
    "check_date",
    "check_text",
    "check_value",
    "date_problem",
    "fail",
    "show_value",
    "type_name",
]
