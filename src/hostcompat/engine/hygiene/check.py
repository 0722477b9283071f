"""A server's own MCP Apps hygiene, beside the per-host verdicts: what is wrong whatever the host.

The ext-apps validator's static server rules are the floor (ui:// scheme, exact MIME, text-or-blob, HTML document,
referenced resource exists, deprecated flat key, `_meta.ui` shape, CSP origins, text fallback, visibility); on top
come content hashes, the 1 MiB budget, OpenAI/MCP Apps disagreements and obsolete MIME types. Pure: it reads what a
probe captured and returns findings with rule ids, evidence and a remediation each.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from hostcompat.apps.constants import META_UI_KEY, RESOURCE_URI_META_KEY
from hostcompat.apps.openai.mapping import (
    OPENAI_OUTPUT_TEMPLATE,
    OPENAI_VISIBILITY,
    OPENAI_WIDGET_ACCESSIBLE,
    openai_conflicts,
)
from hostcompat.engine.findings.model import Evidence, Finding, cut_snippet
from hostcompat.engine.findings.rules import finding_for
from hostcompat.engine.hygiene.resources import ResourceUse, check_resource_list, check_ui_resource, read_item
from hostcompat.engine.server.digest import ServerDigest
from hostcompat.engine.server.tool_meta import ToolInspection, inspect_tool_meta, preview_value, read_tool_list
from hostcompat.errors import HostCompatError, InvalidInput, InvalidOpenAIMeta
from hostcompat.wire_json import WireJSON, WireValue

AUDIENCES: Final = ("model", "app")
"""The only values `_meta.ui.visibility` may hold."""

_MEANINGFUL_BLOCKS: Final = frozenset({"image", "audio", "resource", "resource_link"})
_META: Final = "tool:_meta"


def check_server_hygiene(
    tools: Sequence[WireValue] | None,
    resources: Sequence[WireValue] | None,
    ui_resources: WireJSON | None,
    *,
    call_results: WireJSON | None = None,
    tools_metadata: WireJSON | None = None,
    digest: ServerDigest | None = None,
) -> list[Finding]:
    """Every hygiene finding on a server's tools, UI resources and captured UI tool results, in a stable order.

    `tools` and `resources` are the lists of tools/list and resources/list (None = not captured);
    `ui_resources` maps a URI to what resources/read gave for it: a read result `{contents: [...]}`, an error
    `{error: ...}` or a captured exception. `call_results` maps a UI tool's name to a captured tools/call result
    (without it the text-fallback rule reports that it did not run). `tools_metadata` overrides a tool's `_meta`
    by name, as in `derive_server_requirements`. `digest` (from `digest_server`, as given to `evaluate_all_hosts`)
    supplies the tool list already read, and `tools` and `tools_metadata` are then not read (a digest made from
    requirements alone carries no tool list: `tools` is read then). Findings come tool by tool, then resource by
    resource (the tools' references first, then listed, then read URIs), then the tool results.

    Raises:
        InvalidInput: a container of the wrong type (`tools` or `resources` not a list, `ui_resources`,
            `call_results` or `tools_metadata` not an object, a non-string URI key, a `digest` that is not a
            `ServerDigest`).
    """
    if digest is not None and not isinstance(digest, ServerDigest):
        raise InvalidInput(f"digest must be a ServerDigest, got {type(digest).__name__}", value=digest)
    if digest is not None and digest.tool_list is not None:
        tool_list, inspections = digest.tool_list, digest.inspections
    else:
        tool_list = read_tool_list(tools, tools_metadata)
        inspections = tuple(inspect_tool_meta(name, meta) for name, meta in tool_list.entries)
    listed = check_resource_list(resources)
    reads = _reads(ui_resources)
    _check_object(call_results, "call_results")
    findings = list(tool_list.findings)
    for (_, meta), inspection in zip(tool_list.entries, inspections, strict=True):
        findings += inspection.findings
        if isinstance(meta, Mapping):
            findings += _tool_rules(inspection, meta)
    uses = _resource_uses(inspections)
    for uri in dict.fromkeys([*uses, *listed, *reads]):
        use = uses.get(uri, ResourceUse())
        findings += check_ui_resource(uri, listed.get(uri), reads.get(uri), was_read=uri in reads, use=use)
    findings += _reference_rules(uses, listed, reads, listing_captured=resources is not None)
    findings += _content_rules([tool for tool in inspections if tool.bridge is not None], call_results)
    return findings


def _tool_rules(tool: ToolInspection, meta: WireJSON) -> list[Finding]:
    """The tool `_meta` rules beyond those derivation reports: flat key, visibility values, misplaced keys, OpenAI."""
    found: list[Finding] = []
    raw_ui = meta.get(META_UI_KEY)
    ui = raw_ui if isinstance(raw_ui, Mapping) else {}
    flat, nested = meta.get(RESOURCE_URI_META_KEY), ui.get("resourceUri")
    if flat is not None and nested is None:
        detail = f"only the deprecated flat {RESOURCE_URI_META_KEY!r} key names the UI resource."
        found.append(_on_tool(tool, "META-FLAT-001", detail, _FIX_FLAT, _flat_path(), flat))
    elif flat is not None and flat != nested:
        detail = f"the flat key says {preview_value(flat)} but _meta.ui.resourceUri says {preview_value(nested)}."
        found.append(_on_tool(tool, "META-FLAT-002", detail, _FIX_FLAT, _flat_path(), flat))
    if tool.visibility is not None:
        unknown = [value for value in tool.visibility if value not in AUDIENCES]
        if unknown:
            detail = f"visibility holds {preview_value(unknown)}; only 'model' and 'app' are defined."
            found.append(_on_tool(tool, "META-VIS-002", detail, _FIX_VISIBILITY, "_meta.ui.visibility", unknown))
        if not tool.visibility:
            detail = "visibility is [], so neither the model nor any app may call the tool."
            found.append(_on_tool(tool, "META-VIS-003", detail, _FIX_VISIBILITY, "_meta.ui.visibility", []))
    misplaced = [key for key in ("csp", "permissions") if key in ui]
    if misplaced:
        detail = f"_meta.ui declares {', '.join(misplaced)}, which hosts read only on the UI resource."
        found.append(_on_tool(tool, "META-SHAPE-002", detail, _FIX_MISPLACED, "_meta.ui", misplaced))
    return found + _openai_rules(tool, meta)


def _openai_rules(tool: ToolInspection, meta: WireJSON) -> list[Finding]:
    already = any(finding.rule_id == "META-OPENAI-001" for finding in tool.findings)
    if already or "_meta" in meta:
        return []
    try:
        conflicts = openai_conflicts(meta)
    except InvalidOpenAIMeta as error:
        return [_on_tool(tool, "META-OPENAI-001", f"{error.message}.", _FIX_OPENAI_KEY, "_meta", error.value)]
    except HostCompatError:  # a malformed _meta.ui: META-SHAPE-001 already reports it
        return []
    found: list[Finding] = []
    for conflict in conflicts:
        if conflict.openai_key == OPENAI_OUTPUT_TEMPLATE:
            rule_id, fix = "META-OPENAI-002", _FIX_TEMPLATE
        elif conflict.openai_key in (OPENAI_WIDGET_ACCESSIBLE, OPENAI_VISIBILITY):
            rule_id, fix = "META-OPENAI-003", _FIX_OPENAI_VISIBILITY
        else:
            continue
        detail = f"{cut_snippet(conflict.message)}."
        found.append(_on_tool(tool, rule_id, detail, fix, conflict.openai_key, conflict.openai_value))
    return found


def _resource_uses(tools: Iterable[ToolInspection]) -> dict[str, ResourceUse]:
    """URI → the tools naming it (as MCP Apps URI or OpenAI template), and whether only OpenAI templates do."""
    names: dict[str, list[str]] = {}
    by_mcp_apps: set[str] = set()
    for tool in tools:
        for uri in dict.fromkeys(uri for uri in (tool.resource_uri, tool.openai_template) if uri is not None):
            names.setdefault(uri, []).append(tool.name)
        if tool.resource_uri is not None:
            by_mcp_apps.add(tool.resource_uri)
    return {uri: ResourceUse(tuple(tools), openai_only=uri not in by_mcp_apps) for uri, tools in names.items()}


def _reference_rules(
    uses: Mapping[str, ResourceUse], listed: WireJSON, reads: WireJSON, *, listing_captured: bool
) -> list[Finding]:
    """RES-REF-001 when a referenced resource is neither listed nor readable; RES-REF-002 when that is unknown."""
    found: list[Finding] = []
    for uri, use in uses.items():
        if uri in listed:
            continue
        if uri in reads:
            item, problem = read_item(uri, reads[uri])
            if item is not None:
                continue
            detail = f"the resource {preview_value(uri)} is not listed and not readable: {problem}."
            rule_id, fix = "RES-REF-001", _FIX_REFERENCE
        else:
            listing = "is not listed" if listing_captured else "was not listed (resources/list not captured)"
            detail = f"the resource {preview_value(uri)} {listing} and no read of it was captured."
            rule_id, fix = "RES-REF-002", _FIX_UNCHECKED_REFERENCE
        evidence = Evidence(_META, detail="referenced UI resource", snippet=uri)
        found.append(
            finding_for(
                rule_id, detail=detail, remediation=fix, tools=use.tools, resources=(uri,), evidence=(evidence,)
            )
        )
    return found


def _content_rules(ui_tools: Sequence[ToolInspection], call_results: WireJSON | None) -> list[Finding]:
    """TOOL-CONTENT-001 per UI tool whose captured result has no meaningful content; TOOL-CONTENT-002 for the rest."""
    found: list[Finding] = []
    unchecked: list[str] = []
    for tool in ui_tools:
        record = None if call_results is None else call_results.get(tool.name)
        if not isinstance(record, Mapping) or ("error" in record and "content" not in record):
            unchecked.append(tool.name)
            continue
        content = record.get("content")
        if not is_meaningful_content(content):
            detail = f"Tool {preview_value(tool.name)}: its result's content is {preview_value(content)}."
            evidence = Evidence(f"call:{tool.name}", detail="content", snippet=preview_value(content))
            found.append(
                finding_for(
                    "TOOL-CONTENT-001",
                    detail=detail,
                    remediation=_FIX_CONTENT,
                    tools=(tool.name,),
                    evidence=(evidence,),
                )
            )
    if unchecked:
        reason = "no tool results were captured" if call_results is None else "no usable result was captured for them"
        detail = f"{len(unchecked)} UI tool(s) not checked for a text fallback: {reason}."
        missing = tuple(Evidence(f"call:{name}", detail="not captured") for name in unchecked[:20])
        found.append(
            finding_for(
                "TOOL-CONTENT-002", detail=detail, remediation=_FIX_UNCHECKED, tools=unchecked, evidence=missing
            )
        )
    return found


def is_meaningful_content(content: object) -> bool:
    """True when a tool result's `content` has a non-blank text block or a non-text block (image, resource, …)."""
    if not isinstance(content, list):
        return False
    for block in content:
        if not isinstance(block, Mapping):
            continue
        kind, text = block.get("type"), block.get("text")
        if not isinstance(kind, str):  # a server's own value: an object or a list is no block type (nor hashable)
            continue
        if kind in _MEANINGFUL_BLOCKS or (kind == "text" and isinstance(text, str) and text.strip()):
            return True
    return False


def _on_tool(tool: ToolInspection, rule_id: str, detail: str, fix: str, path: str, value: object) -> Finding:
    evidence = Evidence(_META, detail=path, snippet=preview_value(value))
    return finding_for(
        rule_id,
        detail=f"Tool {preview_value(tool.name)}: {detail}",
        remediation=fix,
        tools=(tool.name,),
        evidence=(evidence,),
    )


def _flat_path() -> str:
    return f"_meta[{RESOURCE_URI_META_KEY!r}]"


def _reads(ui_resources: WireJSON | None) -> WireJSON:
    _check_object(ui_resources, "ui_resources")
    if ui_resources is None:
        return {}
    for uri in ui_resources:
        if not isinstance(uri, str):
            raise InvalidInput(f"ui_resources keys must be URI strings, got {type(uri).__name__}", value=uri)
    return ui_resources


def _check_object(value: object, name: str) -> None:
    if value is not None and not isinstance(value, Mapping):
        raise InvalidInput(f"{name} must be an object keyed by name or URI, got {type(value).__name__}", value=value)


_FIX_FLAT: Final = "Declare _meta.ui.resourceUri; keep the flat key only as an identical copy for older hosts."
_FIX_VISIBILITY: Final = 'Use ["model"], ["app"] or ["model", "app"], or leave visibility out for the default.'
_FIX_MISPLACED: Final = "Move csp and permissions to the UI resource's _meta.ui (listing or content item)."
_FIX_OPENAI_KEY: Final = "Give each openai/* tool key its documented type (template string, booleans, public/private)."
_FIX_TEMPLATE: Final = "Point openai/outputTemplate and _meta.ui.resourceUri at the same ui:// resource."
_FIX_OPENAI_VISIBILITY: Final = "Derive openai/widgetAccessible and openai/visibility from _meta.ui.visibility."
_FIX_REFERENCE: Final = "Serve the referenced ui:// resource (list it, and make resources/read return it)."
_FIX_UNCHECKED_REFERENCE: Final = (
    "List UI resources in resources/list, or capture a read of them, so they can be checked."
)
_FIX_CONTENT: Final = "Return a text summary in content beside structuredContent, for the model and text-only hosts."
_FIX_UNCHECKED: Final = (
    "Check again with --call TOOL=JSON for each of these tools, its arguments as a JSON object (e.g. "
    '--call get_weather=\'{"city": "Paris"}\'; repeatable, or --calls FILE): on its own, hostcompat calls only '
    "tools annotated readOnlyHint that need no arguments."
)

__all__ = ["AUDIENCES", "check_server_hygiene", "is_meaningful_content"]
