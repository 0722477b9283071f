"""What a server needs from a host: its widget tools by bridge, app-only widgets, and what is still unknown.

MCPJam's `deriveServerRequirements` semantics over plain JSON tool lists, except that a malformed `_meta` on one
tool is a finding on that tool (`tool_findings`) instead of an exception that aborts the whole evaluation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field, replace
from types import MappingProxyType
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.engine.findings.model import Finding
from hostcompat.engine.server.facts import ConnectionFacts, WidgetUsage, as_connection_facts, as_widget_usage
from hostcompat.engine.server.tool_meta import (
    MAX_TOOLS,
    Bridge,
    ToolInspection,
    ToolList,
    inspect_tool_meta,
    read_tool_list,
)
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireJSON, WireObject, WireValue

UNKNOWN_TOOLS_NOT_LOADED: Final = "widget usage (tools metadata not loaded)"
UNKNOWN_WIDGETS_NOT_ANALYZED: Final = "widget capabilities (widget HTML not analyzed)"
UNKNOWN_TOOLS_TRUNCATED: Final = "tool list incomplete — pagination truncated, later tools/widgets not evaluated"
UNKNOWN_TOOLS_OVER_LIMIT: Final = f"tool list over {MAX_TOOLS} tools — later tools/widgets not evaluated"


@dataclass(frozen=True)
class ServerRequirements:
    """What a server's tools need from a host (MCPJam's `ServerRequirements`, plus per-tool detail and findings)."""

    mcp_apps_only: tuple[str, ...] = ()
    openai_apps_only: tuple[str, ...] = ()
    dual: tuple[str, ...] = ()
    app_only_widgets: tuple[str, ...] = ()
    widget_tools: tuple[ToolInspection, ...] = ()
    """Every widget tool, in tool-list order."""
    widget_usage: WidgetUsage | None = None
    connection_facts: ConnectionFacts | None = None
    unknown_dimensions: tuple[str, ...] = ()
    tool_findings: tuple[Finding, ...] = ()
    tool_names: tuple[str, ...] = ()
    """Every tool evaluated, in tool-list order."""
    tools_loaded: bool = False

    @property
    def has_widgets(self) -> bool:
        """True when any tool declares a widget bridge."""
        return bool(self.widget_tools)

    @property
    def widget_resource_uris(self) -> Mapping[str, str]:
        """Widget tool name → the resource a host renders for it (join widget scans on this)."""
        return MappingProxyType({tool.name: uri for tool in self.widget_tools if (uri := tool.widget_uri) is not None})

    @property
    def widget_tools_by_uri(self) -> Mapping[str, tuple[str, ...]]:
        """Widget resource URI → the tools that render it, in tool-list order."""
        grouped: dict[str, tuple[str, ...]] = {}
        for name, uri in self.widget_resource_uris.items():
            grouped[uri] = (*grouped.get(uri, ()), name)
        return MappingProxyType(grouped)

    @property
    def widget_visibility(self) -> Mapping[str, tuple[str, ...] | None]:
        """Widget tool name → its declared visibility (None when omitted or malformed)."""
        return MappingProxyType({tool.name: tool.visibility for tool in self.widget_tools})

    def with_facts(
        self, widget_usage: WidgetUsage | None, connection_facts: ConnectionFacts | None
    ) -> ServerRequirements:
        """These requirements (derived from the tools alone) with what the widgets were found to need and the facts
        of the connection: equal to deriving them again with both, without reading the tools again.

        `widget_usage` None means the widget HTML was not analysed: unknown when some tool has a widget.
        """
        unknown = [dimension for dimension in self.unknown_dimensions if dimension != UNKNOWN_WIDGETS_NOT_ANALYZED]
        if self.widget_tools and widget_usage is None:
            unknown.insert(int(UNKNOWN_TOOLS_NOT_LOADED in unknown), UNKNOWN_WIDGETS_NOT_ANALYZED)
        return replace(
            self, widget_usage=widget_usage, connection_facts=connection_facts, unknown_dimensions=tuple(unknown)
        )

    def to_dict(self) -> WireObject:
        """MCPJam's JSON shape (`widgets`, `appOnlyWidgets`, `hasWidgets`, …) plus `widgetTools`, `toolFindings`."""
        out: WireObject = {
            "widgets": {
                "mcpAppsOnly": list(self.mcp_apps_only),
                "openaiAppsOnly": list(self.openai_apps_only),
                "dual": list(self.dual),
            },
            "appOnlyWidgets": list(self.app_only_widgets),
            "hasWidgets": self.has_widgets,
            "unknownDimensions": list(self.unknown_dimensions),
        }
        if self.widget_usage is not None:
            out["widgetUsage"] = self.widget_usage.to_dict()
        if self.connection_facts is not None:
            out["connectionFacts"] = self.connection_facts.to_dict()
        out["widgetTools"] = [tool.to_dict() for tool in self.widget_tools]
        out["toolFindings"] = [finding.to_dict() for finding in self.tool_findings]
        return out


@dataclass
class _Buckets:
    mcp_apps_only: list[str] = field(default_factory=list)
    openai_apps_only: list[str] = field(default_factory=list)
    dual: list[str] = field(default_factory=list)
    app_only: list[str] = field(default_factory=list)

    def add(self, tool: ToolInspection) -> None:
        bucket = {Bridge.MCP_APPS: self.mcp_apps_only, Bridge.OPENAI_SDK: self.openai_apps_only, Bridge.DUAL: self.dual}
        if tool.bridge is not None:
            bucket[tool.bridge].append(tool.name)
        if tool.app_only:
            self.app_only.append(tool.name)


def derive_server_requirements(
    tools: Sequence[WireValue] | None,
    widget_usage: WidgetUsage | WireJSON | None = None,
    connection_facts: ConnectionFacts | WireJSON | None = None,
    *,
    tools_metadata: WireJSON | None = None,
    tools_truncated: bool = False,
) -> ServerRequirements:
    """Bucket a server's widget tools by bridge and record what stays unknown (MCPJam's semantics).

    `tools` is the `tools` list of tools/list (None = not loaded); a tool's metadata is `tools_metadata[name]`
    when that map has the name, else its `_meta`. `widget_usage` (None = widget HTML not analysed) and
    `connection_facts` may be the typed values or MCPJam's JSON shapes; both are passed through.
    A malformed tool or `_meta` becomes a finding in `tool_findings` and the other tools are still bucketed.

    Raises:
        InvalidInput: `tools` is not a list, `tools_metadata` not an object, `tools_truncated` not a bool, or
            `widget_usage` / `connection_facts` malformed.
    """
    return read_server_tools(
        tools, widget_usage, connection_facts, tools_metadata=tools_metadata, tools_truncated=tools_truncated
    ).requirements


@dataclass(frozen=True, kw_only=True)
class ServerTools:
    """The requirements with what they were read from: the usable tool list and each entry's `_meta` inspection
    (`inspections[i]` is `tool_list.entries[i]`'s), for checks that need every tool and not only widget tools.
    """

    requirements: ServerRequirements
    tool_list: ToolList
    inspections: tuple[ToolInspection, ...]


def read_server_tools(
    tools: Sequence[WireValue] | None,
    widget_usage: WidgetUsage | WireJSON | None = None,
    connection_facts: ConnectionFacts | WireJSON | None = None,
    *,
    tools_metadata: WireJSON | None = None,
    tools_truncated: bool = False,
) -> ServerTools:
    """`derive_server_requirements`, keeping the tool list and the inspections it read (same arguments, same
    errors).
    """
    if not isinstance(tools_truncated, bool):
        raise InvalidInput("tools_truncated must be a bool", value=tools_truncated)
    usage = as_widget_usage(widget_usage)
    facts = as_connection_facts(connection_facts)
    tool_list = read_tool_list(tools, tools_metadata)
    buckets = _Buckets()
    widgets: list[ToolInspection] = []
    inspections: list[ToolInspection] = []
    findings = list(tool_list.findings)
    for name, meta in tool_list.entries:
        inspection = inspect_tool_meta(name, meta)
        inspections.append(inspection)
        findings.extend(inspection.findings)
        if inspection.bridge is not None:
            widgets.append(inspection)
            buckets.add(inspection)
    unknown: list[str] = []
    if not tool_list.loaded:
        unknown.append(UNKNOWN_TOOLS_NOT_LOADED)
    if widgets and usage is None:
        unknown.append(UNKNOWN_WIDGETS_NOT_ANALYZED)
    if tools_truncated:
        unknown.append(UNKNOWN_TOOLS_TRUNCATED)
    if tool_list.over_limit:
        unknown.append(UNKNOWN_TOOLS_OVER_LIMIT)
    requirements = ServerRequirements(
        mcp_apps_only=tuple(buckets.mcp_apps_only),
        openai_apps_only=tuple(buckets.openai_apps_only),
        dual=tuple(buckets.dual),
        app_only_widgets=tuple(buckets.app_only),
        widget_tools=tuple(widgets),
        widget_usage=usage,
        connection_facts=facts,
        unknown_dimensions=tuple(unknown),
        tool_findings=tuple(findings),
        tool_names=tuple(name for name, _ in tool_list.entries),
        tools_loaded=tool_list.loaded,
    )
    return ServerTools(requirements=requirements, tool_list=tool_list, inspections=tuple(inspections))


__all__ = [
    "UNKNOWN_TOOLS_NOT_LOADED",
    "UNKNOWN_TOOLS_OVER_LIMIT",
    "UNKNOWN_TOOLS_TRUNCATED",
    "UNKNOWN_WIDGETS_NOT_ANALYZED",
    "Bridge",
    "ConnectionFacts",
    "ServerRequirements",
    "ServerTools",
    "ToolInspection",
    "WidgetUsage",
    "derive_server_requirements",
    "read_server_tools",
]
