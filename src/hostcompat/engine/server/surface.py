"""What a server exposes that hosts' limits apply to: tool names, input-schema constructs, output schemas, results.

Read once per evaluation from the raw tool list (and any captured tools/call results), so checking each host
is a lookup and not a new walk over every schema.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.engine.server.schema_constructs import schema_constructs
from hostcompat.engine.server.tool_meta import MAX_TOOLS
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireJSON, WireObject, WireValue

RESULT_CONTENT_TYPES: Final = ("resource_link", "resource", "image", "audio")
"""The content block types of a tool result that some hosts mishandle."""

MAX_RESULT_BLOCKS: Final = 1_000
"""The most content blocks read from one captured result."""

_NO_USES: Final[Mapping[str, tuple[tuple[str, str], ...]]] = MappingProxyType({})
_NO_TOOLS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({})
_NO_RESULTS: Final[Mapping[str, WireJSON]] = MappingProxyType({})


@dataclass(frozen=True)
class ServerSurface:
    """The parts of a server's tools and results that per-host limits are checked against.

    `schema_uses` maps a construct of `SCHEMA_FEATURES` to the (tool, JSON path) of each tool whose
    `inputSchema` uses it, in tool-list order; `output_schema_tools` are the tools declaring an `outputSchema`;
    `structured_result_tools` the tools whose captured result carries `structuredContent`; `result_content`
    maps a content type of `RESULT_CONTENT_TYPES` to the tools whose captured result has such a block.
    `results_captured` is False when no tool results were given. `results` holds the captured tools/call
    results themselves (raw wire JSON, by tool), `output_schemas` each declared `outputSchema` (raw wire JSON), and
    `closed_input_tools` the tools whose `inputSchema` sets `additionalProperties: false` at its top level.
    """

    tool_names: tuple[str, ...] = ()
    schema_uses: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=lambda: _NO_USES, hash=False)
    output_schema_tools: tuple[str, ...] = ()
    structured_result_tools: tuple[str, ...] = ()
    result_content: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: _NO_TOOLS, hash=False)
    results_captured: bool = False
    results: Mapping[str, WireJSON] = field(default_factory=lambda: _NO_RESULTS, hash=False)
    output_schemas: Mapping[str, WireJSON] = field(default_factory=lambda: _NO_RESULTS, hash=False)
    closed_input_tools: tuple[str, ...] = ()

    @classmethod
    def from_names(cls, tool_names: Sequence[str]) -> ServerSurface:
        """A surface that knows only the tool names (no schemas, no results)."""
        return cls(tool_names=tuple(tool_names))

    def to_dict(self) -> WireObject:
        """The JSON form (camelCase keys)."""
        return {
            "toolNames": list(self.tool_names),
            "schemaUses": {
                feature: [{"tool": tool, "path": path} for tool, path in uses]
                for feature, uses in self.schema_uses.items()
            },
            "outputSchemaTools": list(self.output_schema_tools),
            "structuredResultTools": list(self.structured_result_tools),
            "resultContent": {kind: list(tools) for kind, tools in self.result_content.items()},
            "resultsCaptured": self.results_captured,
            "capturedTools": list(self.results),
            "closedInputTools": list(self.closed_input_tools),
        }


def describe_server_surface(
    tools: Sequence[WireValue] | None, *, call_results: WireJSON | None = None
) -> ServerSurface:
    """Read the tool list (and captured results) once for the server-lane checks.

    Entries are read as `derive_server_requirements` reads them: the first `MAX_TOOLS`, objects with a non-empty
    string `name`, the first tool of a name only. `call_results` maps a tool name to its captured tools/call result
    (`{content: [...], structuredContent?: ...}`); entries of any other shape are skipped. Never raises for JSON
    entries; the inputs are not changed.

    Raises:
        InvalidInput: `tools` is not a list (or None), or `call_results` is not an object.
    """
    if tools is not None and not isinstance(tools, (list, tuple)):
        raise InvalidInput(f"tools must be a list of tool objects, got {type(tools).__name__}", value=tools)
    if call_results is not None and not isinstance(call_results, Mapping):
        raise InvalidInput(
            f"call_results must map tool names to tools/call results, got {type(call_results).__name__}",
            value=call_results,
        )
    names: list[str] = []
    seen: set[str] = set()
    uses: dict[str, list[tuple[str, str]]] = {}
    output_schemas: dict[str, WireJSON] = {}
    closed: list[str] = []
    for tool in (tools or ())[:MAX_TOOLS]:
        name = tool.get("name") if isinstance(tool, Mapping) else None
        if not isinstance(name, str) or not name or name in seen:
            continue
        seen.add(name)
        names.append(name)
        assert isinstance(tool, Mapping)
        for feature, path in schema_constructs(tool.get("inputSchema")).items():
            uses.setdefault(feature, []).append((name, path))
        output_schema = tool.get("outputSchema")
        if isinstance(output_schema, Mapping):
            output_schemas[name] = output_schema
        input_schema = tool.get("inputSchema")
        if isinstance(input_schema, Mapping) and input_schema.get("additionalProperties") is False:
            closed.append(name)
    structured, content = _result_facts(names, call_results)
    results = {name: result for name in names if isinstance(result := (call_results or {}).get(name), Mapping)}
    return ServerSurface(
        tool_names=tuple(names),
        schema_uses=MappingProxyType({feature: tuple(found) for feature, found in uses.items()}),
        output_schema_tools=tuple(output_schemas),
        structured_result_tools=structured,
        result_content=content,
        results_captured=call_results is not None,
        results=MappingProxyType(results),
        output_schemas=MappingProxyType(output_schemas),
        closed_input_tools=tuple(closed),
    )


def _result_facts(
    names: Sequence[str], call_results: WireJSON | None
) -> tuple[tuple[str, ...], Mapping[str, tuple[str, ...]]]:
    if not call_results:
        return (), _NO_TOOLS
    structured: list[str] = []
    content: dict[str, list[str]] = {}
    for name in names:
        result = call_results.get(name)
        if not isinstance(result, Mapping):
            continue
        if result.get("structuredContent") is not None:
            structured.append(name)
        blocks = result.get("content")
        if not isinstance(blocks, list):
            continue
        kinds = {
            kind
            for block in blocks[:MAX_RESULT_BLOCKS]
            if isinstance(block, Mapping) and isinstance(kind := block.get("type"), str)
        }
        for kind in RESULT_CONTENT_TYPES:
            if kind in kinds:
                content.setdefault(kind, []).append(name)
    ordered: dict[str, tuple[str, ...]] = {
        kind: tuple(content[kind]) for kind in RESULT_CONTENT_TYPES if kind in content
    }
    return tuple(structured), MappingProxyType(ordered)


__all__ = ["MAX_RESULT_BLOCKS", "RESULT_CONTENT_TYPES", "ServerSurface", "describe_server_surface"]
