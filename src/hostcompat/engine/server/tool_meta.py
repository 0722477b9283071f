"""Read a tool list and classify each tool's `_meta`: which widget bridge it declares, its URI and visibility.

MCPJam's `detectHostCompatBridgeFromMeta` and app-only rules, made total: a malformed `_meta` is a finding on
that tool, never an exception, so one bad tool cannot abort the evaluation of the others.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.apps.constants import META_UI_KEY, RESOURCE_URI_META_KEY, UI_URI_PREFIX
from hostcompat.apps.meta.access import ToolUI
from hostcompat.apps.openai.mapping import OPENAI_OUTPUT_TEMPLATE
from hostcompat.engine.findings.model import Evidence, Finding, cut_snippet
from hostcompat.engine.findings.rules import finding_for
from hostcompat.errors import HostCompatError, InvalidInput
from hostcompat.wire_json import WireJSON, WireObject, WireValue

MAX_TOOLS: Final = 10_000
"""The most tools read from one list; later ones are left out (`ToolList.over_limit`)."""

MAX_VISIBILITY_ITEMS: Final = 1024
"""The longest `_meta.ui.visibility` list read."""

_META_EVIDENCE: Final = "tool:_meta"
_VISIBILITY_PATH: Final = f"_meta.{META_UI_KEY}.visibility"
_NESTED_URI_PATH: Final = f"_meta.{META_UI_KEY}.resourceUri"
_FLAT_URI_PATH: Final = f"_meta[{RESOURCE_URI_META_KEY!r}]"
_CHECKED_ELSEWHERE: Final = frozenset({"resourceUri", "visibility"})
_SHORT_REPR: Final = reprlib.Repr()
_SHORT_REPR.maxstring = 120
_SHORT_REPR.maxother = 120
_SHORT_REPR.maxlevel = 4


class Bridge(str, Enum):
    """Which widget bridge a tool declares (MCPJam's `HostCompatBridge`); a tool without one is no widget."""

    MCP_APPS = "mcp-apps"
    OPENAI_SDK = "openai-sdk"
    DUAL = "openai-sdk-and-mcp-apps"


@dataclass(frozen=True)
class ToolInspection:
    """What one tool's `_meta` declares, as host-compat derivation reads it.

    `resource_uri` is the MCP Apps `ui://` URI when it counts, `openai_template` the non-empty
    `openai/outputTemplate`; `visibility` is None when omitted (or malformed: see `findings`), `()` when empty.
    `findings` lists the malformed parts, each on this tool.
    """

    name: str
    bridge: Bridge | None = None
    resource_uri: str | None = None
    openai_template: str | None = None
    visibility: tuple[str, ...] | None = None
    app_only: bool = False
    findings: tuple[Finding, ...] = ()

    @property
    def widget_uri(self) -> str | None:
        """The resource a host renders for this tool: the MCP Apps URI, else the OpenAI template (as MCPJam does)."""
        return self.resource_uri if self.resource_uri is not None else self.openai_template

    def to_dict(self) -> WireObject:
        """The JSON form (camelCase keys; `visibility` null when omitted)."""
        return {
            "name": self.name,
            "bridge": None if self.bridge is None else self.bridge.value,
            "resourceUri": self.resource_uri,
            "openaiTemplate": self.openai_template,
            "visibility": None if self.visibility is None else list(self.visibility),
            "appOnly": self.app_only,
        }


@dataclass(frozen=True)
class ToolList:
    """The usable entries of a tool list: (name, `_meta`) pairs, the findings on unusable entries, and limits.

    The `_meta` values are the caller's objects (toolsMetadata's entry when it has the name), never copied and
    never changed.
    """

    entries: tuple[tuple[str, WireValue], ...] = ()
    findings: tuple[Finding, ...] = ()
    loaded: bool = False
    over_limit: bool = False


def read_tool_list(tools: Sequence[WireValue] | None, tools_metadata: WireJSON | None = None) -> ToolList:
    """The (name, metadata) pairs of a tool list, skipping unusable entries with a finding each.

    An entry that is not an object with a non-empty string `name` gets TOOL-SHAPE-001; a repeated name gets
    TOOL-SHAPE-002 (the first one is kept). Only the first `MAX_TOOLS` entries are read.

    Raises:
        InvalidInput: `tools` is not a list (or tuple), or `tools_metadata` is not an object.
    """
    if tools_metadata is not None and not isinstance(tools_metadata, Mapping):
        raise InvalidInput(
            f"tools_metadata must be an object of tool name → _meta, got {type(tools_metadata).__name__}",
            value=tools_metadata,
        )
    if tools is None:
        return ToolList()
    if not isinstance(tools, (list, tuple)):
        hint = " (pass the result's 'tools' list, not the whole result)" if isinstance(tools, Mapping) else ""
        raise InvalidInput(f"tools must be a list of tool objects, got {type(tools).__name__}{hint}", value=tools)
    entries: list[tuple[str, Any]] = []
    seen: set[str] = set()
    findings: list[Finding] = []
    shown = {"TOOL-SHAPE-001": 0, "TOOL-SHAPE-002": 0}  # the entries given a finding, then those past them
    more = dict(shown)
    for index, tool in enumerate(tools[:MAX_TOOLS]):
        name = tool.get("name") if isinstance(tool, Mapping) else None
        if not isinstance(name, str) or not name or name in seen:
            repeated = isinstance(name, str) and bool(name)
            rule = "TOOL-SHAPE-002" if repeated else "TOOL-SHAPE-001"
            if shown[rule] < MAX_SHAPE_FINDINGS:
                shown[rule] += 1
                findings.append(_duplicate(index, str(name)) if repeated else _unusable_entry(index, tool))
            else:
                more[rule] += 1
            continue
        seen.add(name)
        meta = tools_metadata[name] if tools_metadata is not None and name in tools_metadata else tool.get("_meta")
        entries.append((name, meta))
    findings += [_more_entries(rule, count) for rule, count in more.items() if count]
    return ToolList(tuple(entries), tuple(findings), loaded=True, over_limit=len(tools) > MAX_TOOLS)


MAX_SHAPE_FINDINGS: Final = 20
"""The most unusable or repeated tool entries given a finding each (a finding is copied to every host's report)."""


def _more_entries(rule_id: str, count: int) -> Finding:
    what = "repeat a name kept earlier" if rule_id == "TOOL-SHAPE-002" else "are unusable (no non-empty string name)"
    return finding_for(
        rule_id,
        detail=f"{count} more tool entries {what}, past the {MAX_SHAPE_FINDINGS} shown; they were skipped too.",
        remediation="Give every tool in tools/list an object with a unique, non-empty string 'name'.",
        evidence=(Evidence("tools", detail=f"{count} more entries"),),
    )


def inspect_tool_meta(name: str, meta: object) -> ToolInspection:
    """Classify one tool's `_meta` the way MCPJam (and ext-apps hosts) read it, recording what is malformed.

    MCP Apps side: `_meta.ui.resourceUri`, or, only when that key is absent, the flat `ui/resourceUri`; it counts
    when it is a string starting with `ui://`, and any other present value (null included) is META-URI-001 and
    does not count. OpenAI side: a non-empty string `openai/outputTemplate` counts (no scheme check); any other
    non-null value is META-OPENAI-001. App-only: a widget tool whose visibility is exactly `["app"]`.
    A non-object `_meta` or `_meta.ui`, or a `_meta.ui` field of the wrong type, is META-SHAPE-001; a
    visibility that is not a list of strings is META-VIS-001. Never raises for any JSON `meta`.
    """
    if meta is None:
        return ToolInspection(name)
    if not isinstance(meta, Mapping):
        shape = _meta_finding(name, "META-SHAPE-001", "_meta", meta, f"the tool's _meta is a {_kind(meta)}")
        return ToolInspection(name, findings=(shape,))
    findings: list[Finding] = []
    raw_ui = meta.get(META_UI_KEY)
    ui = raw_ui if isinstance(raw_ui, Mapping) else None
    if raw_ui is not None and ui is None:
        detail = f"_meta.ui is a {_kind(raw_ui)}, not an object"
        findings.append(_meta_finding(name, "META-SHAPE-001", "_meta.ui", raw_ui, detail))
    if ui is not None:
        findings.extend(_other_field_findings(name, ui))
    resource_uri = _mcp_apps_uri(name, meta, ui, findings)
    template = _openai_template(name, meta, findings)
    visibility = _visibility(name, ui, findings)
    bridge = _bridge(resource_uri is not None, template is not None)
    app_only = bridge is not None and visibility == ("app",)
    return ToolInspection(name, bridge, resource_uri, template, visibility, app_only, tuple(findings))


def _bridge(mcp_apps: bool, openai: bool) -> Bridge | None:
    if mcp_apps and openai:
        return Bridge.DUAL
    if mcp_apps:
        return Bridge.MCP_APPS
    return Bridge.OPENAI_SDK if openai else None


def _mcp_apps_uri(name: str, meta: WireJSON, ui: WireJSON | None, out: list[Finding]) -> str | None:
    if ui is not None and "resourceUri" in ui:
        value, path = ui["resourceUri"], _NESTED_URI_PATH
    elif RESOURCE_URI_META_KEY in meta:
        value, path = meta[RESOURCE_URI_META_KEY], _FLAT_URI_PATH
    else:
        return None
    if isinstance(value, str) and value.startswith(UI_URI_PREFIX):
        return value
    detail = (
        f"{path} is {preview_value(value)}, not a string starting with {UI_URI_PREFIX!r}; the tool is not an MCP App"
    )
    out.append(_meta_finding(name, "META-URI-001", path, value, detail))
    return None


def _openai_template(name: str, meta: WireJSON, out: list[Finding]) -> str | None:
    value = meta.get(OPENAI_OUTPUT_TEMPLATE)
    if isinstance(value, str) and value:
        return value
    if value is not None:
        path = f"_meta[{OPENAI_OUTPUT_TEMPLATE!r}]"
        detail = f"{path} is {preview_value(value)}, not a non-empty string; no OpenAI host renders a widget for it"
        out.append(_meta_finding(name, "META-OPENAI-001", path, value, detail))
    return None


def _visibility(name: str, ui: WireJSON | None, out: list[Finding]) -> tuple[str, ...] | None:
    value = None if ui is None else ui.get("visibility")
    if value is None:
        return None
    if (
        isinstance(value, (list, tuple))
        and len(value) <= MAX_VISIBILITY_ITEMS
        and all(isinstance(item, str) for item in value)
    ):
        return tuple(value)
    detail = f"{_VISIBILITY_PATH} is {preview_value(value)}, not a list of 'model'/'app' strings; read as omitted"
    out.append(_meta_finding(name, "META-VIS-001", _VISIBILITY_PATH, value, detail))
    return None


def _other_field_findings(name: str, ui: WireJSON) -> list[Finding]:
    """META-SHAPE-001 for the `_meta.ui` fields that derivation does not read itself (types, keys, nesting)."""
    rest = {key: value for key, value in ui.items() if key not in _CHECKED_ELSEWHERE}
    try:
        ToolUI.from_wire(rest)
    except HostCompatError as error:
        return [_meta_finding(name, "META-SHAPE-001", "_meta.ui", error.value, error.message)]
    return []


def _meta_finding(name: str, rule_id: str, path: str, value: object, detail: str) -> Finding:
    return finding_for(
        rule_id,
        detail=f"Tool {preview_value(name)}: {detail}.",
        remediation=_REMEDIATION[rule_id],
        tools=(name,),
        evidence=(Evidence(_META_EVIDENCE, detail=path, snippet=preview_value(value)),),
    )


def _unusable_entry(index: int, tool: object) -> Finding:
    what = f"a {_kind(tool)}" if not isinstance(tool, Mapping) else "an object without a non-empty string 'name'"
    return finding_for(
        "TOOL-SHAPE-001",
        detail=f"tools[{index}] is {what}; it was skipped.",
        remediation="Give every tool in tools/list an object with a unique, non-empty string 'name'.",
        evidence=(Evidence(f"tools[{index}]", snippet=preview_value(tool)),),
    )


def _duplicate(index: int, name: str) -> Finding:
    return finding_for(
        "TOOL-SHAPE-002",
        detail=f"tools[{index}] repeats the name {preview_value(name)}; only the first tool of that name was kept.",
        remediation="Give every tool a unique name.",
        tools=(name,),
        evidence=(Evidence(f"tools[{index}]", detail="name", snippet=name),),
    )


def _kind(value: object) -> str:
    return {list: "list", tuple: "list", str: "string", bool: "boolean", int: "number", float: "number"}.get(
        type(value), type(value).__name__
    )


def preview_value(value: object) -> str:
    """A short, bounded-cost repr of `value` for a finding's detail or evidence (never raises)."""
    try:
        text = _SHORT_REPR.repr(value)
    except (RecursionError, ValueError):  # a hostile __repr__ or nesting; the type name still says enough
        text = f"<{type(value).__name__}>"
    return cut_snippet(text)


_REMEDIATION: Final = {
    "META-SHAPE-001": "Make _meta an object and _meta.ui an object of the documented fields and types "
    "(resourceUri: string, visibility: string list).",
    "META-URI-001": "Set _meta.ui.resourceUri to the ui:// URI of the tool's UI resource, or remove it.",
    "META-OPENAI-001": "Set openai/outputTemplate to the widget's resource URI (a ui:// string), or remove it.",
    "META-VIS-001": 'Make _meta.ui.visibility a list such as ["model", "app"], or leave it out for the default.',
}

__all__ = [
    "MAX_TOOLS",
    "MAX_VISIBILITY_ITEMS",
    "Bridge",
    "ToolInspection",
    "ToolList",
    "inspect_tool_meta",
    "preview_value",
    "read_tool_list",
]
