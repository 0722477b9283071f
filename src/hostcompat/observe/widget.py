"""A widget to run, from a snapshot: its HTML with the CSP built from `_meta.ui.csp` in front, the `allow` list
from its permissions, the tools that show it, and the tool input and result a host would deliver. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import field
from html import escape
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.apps.csp import build_allow_attribute, build_csp
from hostcompat.apps.meta.access import is_model_only, resolve_resource_ui, tool_ui_resource_uri
from hostcompat.errors import HostCompatError
from hostcompat.probe.snapshot import Snapshot
from hostcompat.wire_json import WireJSON, WireObject

SANDBOX: Final = "allow-scripts allow-forms"
"""The widget frame's sandbox: scripts and forms, never allow-same-origin, popups, modals or top navigation."""

_DOCTYPE: Final = regex(r"\A\ufeff?\s*<!doctype[^>]*>", re.IGNORECASE)
_MAX_SAMPLE_DEPTH: Final = 6


@dataclass(frozen=True)
class WidgetJob:
    """One widget to observe: where it comes from, the page the frame gets, and what the host hands it."""

    uri: str
    tools: tuple[str, ...]
    srcdoc: str
    csp: str
    allow: str
    declared_origins: tuple[str, ...] = ()
    tool: WireJSON | None = field(default=None, hash=False)
    tool_input: WireJSON = field(default_factory=dict, hash=False)
    tool_result: WireJSON | None = field(default=None, hash=False)
    model_only_tools: tuple[str, ...] = ()


@dataclass(frozen=True)
class SkippedWidget:
    """A widget that cannot be observed, and why."""

    uri: str
    tools: tuple[str, ...]
    reason: str


def with_csp(html: str, csp: str) -> str:
    """`html` with a CSP `<meta>` in front of everything the widget wrote but its doctype (kept first, so the page
    is not put in quirks mode): the parser places it in the head, before any of the widget's own elements. Looking
    for the widget's `<head>` instead would find one inside a comment or a script and put the policy there.
    """
    meta = f'<meta http-equiv="Content-Security-Policy" content="{escape(csp, quote=True)}">'
    doctype = _DOCTYPE.match(html)
    at = 0 if doctype is None else doctype.end()
    return html[:at] + meta + html[at:]


def widget_jobs(
    snapshot: Snapshot,
    *,
    call_results: Mapping[str, WireJSON] | None = None,
    call_arguments: Mapping[str, WireJSON] | None = None,
) -> tuple[list[WidgetJob], list[SkippedWidget]]:
    """Every MCP Apps widget the snapshot's tools name, ready to run (and those that cannot be, with why).

    The tool result delivered is the captured result of the first tool showing the widget (`call_results`), else
    one built from its `outputSchema` (a text block and a sample `structuredContent`); the tool input is the
    arguments of that captured call (`call_arguments`), else a sample its `inputSchema` accepts.
    """
    by_uri: dict[str, list[Mapping[str, Any]]] = {}
    for tool in snapshot.tools:
        uri = tool_ui_resource_uri(tool) if isinstance(tool.get("name"), str) else None
        if uri is not None:
            by_uri.setdefault(uri, []).append(tool)
    model_only = tuple(str(tool["name"]) for tool in snapshot.tools if _model_only(tool))
    jobs: list[WidgetJob] = []
    skipped: list[SkippedWidget] = []
    for uri, tools in by_uri.items():
        names = tuple(str(tool["name"]) for tool in tools)
        made = _job(snapshot, uri, tools, names, model_only, call_results or {}, call_arguments or {})
        (skipped if isinstance(made, SkippedWidget) else jobs).append(made)  # type: ignore[arg-type]
    return jobs, skipped


def _model_only(tool: Mapping[str, Any]) -> bool:
    try:
        return is_model_only(tool)
    except HostCompatError:
        return False


def _job(
    snapshot: Snapshot,
    uri: str,
    tools: Sequence[Mapping[str, Any]],
    names: tuple[str, ...],
    model_only: tuple[str, ...],
    call_results: Mapping[str, Mapping[str, Any]],
    call_arguments: Mapping[str, Mapping[str, Any]],
) -> WidgetJob | SkippedWidget:
    capture = snapshot.ui_resources.get(uri)
    if capture is None or capture.error is not None or capture.truncated:
        return SkippedWidget(uri, names, "the probe did not read it whole")
    items = [item for item in capture.contents if item.get("uri") == uri] or list(capture.contents[:1])
    html = items[0].get("text") if items else None
    if not isinstance(html, str) or not html.strip():
        return SkippedWidget(uri, names, "it has no HTML text")
    try:
        ui = resolve_resource_ui(items[0], snapshot.resource_listing(uri))
        csp = build_csp(ui.csp if ui is not None else None)
        allow = build_allow_attribute(ui.permissions if ui is not None else None)
    except HostCompatError as error:
        return SkippedWidget(uri, names, f"its _meta.ui cannot be applied ({error})")
    declared: list[str] = []
    if ui is not None and ui.csp is not None:
        for group in (ui.csp.connect_domains, ui.csp.resource_domains, ui.csp.frame_domains):
            declared.extend(group or ())
    tool = tools[0]
    name = names[0]
    result = call_results.get(name)
    return WidgetJob(
        uri=uri,
        tools=names,
        srcdoc=with_csp(html, csp),
        csp=csp,
        allow=allow,
        declared_origins=tuple(declared),
        tool=tool,
        tool_input=_input(tool, call_arguments.get(name)),
        tool_result=dict(result) if result is not None else sample_result(tool),
        model_only_tools=model_only,
    )


def _input(tool: Mapping[str, Any], captured: Mapping[str, Any] | None) -> WireObject:
    """The arguments of the captured call, else a sample the tool's inputSchema accepts."""
    if captured is not None:
        return dict(captured)
    sample = sample_value(tool.get("inputSchema"))
    return sample if isinstance(sample, dict) else {}


def sample_result(tool: WireJSON) -> WireObject:
    """A result a host could deliver for `tool`: a text block, and a sample `structuredContent` when it has an
    `outputSchema` (its SDK would put the same data in the text).
    """
    schema = tool.get("outputSchema")
    if not isinstance(schema, Mapping):
        return {"content": [{"type": "text", "text": "ok"}]}
    structured = sample_value(schema)
    import json

    return {"content": [{"type": "text", "text": json.dumps(structured)}], "structuredContent": structured}


def sample_value(schema: object, depth: int = 0) -> Any:
    """A small value a JSON Schema accepts in the common cases: defaults, examples, enums, const, typed fields."""
    if not isinstance(schema, Mapping) or depth > _MAX_SAMPLE_DEPTH:
        return None
    for key in ("const", "default"):
        if key in schema:
            return schema[key]
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return examples[0]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return enum[0]
    for key in ("anyOf", "oneOf", "allOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            return sample_value(options[0], depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind == "object" or (kind is None and isinstance(schema.get("properties"), Mapping)):
        properties = schema.get("properties")
        out: dict[str, Any] = {}
        if isinstance(properties, Mapping):
            for key, sub in list(properties.items())[:50]:
                out[str(key)] = sample_value(sub, depth + 1)
        return out
    if kind == "array":
        item = sample_value(schema.get("items"), depth + 1)
        return [] if item is None else [item]
    return {"string": "sample", "integer": 1, "number": 1, "boolean": True}.get(str(kind))


__all__ = ["SANDBOX", "SkippedWidget", "WidgetJob", "sample_result", "sample_value", "widget_jobs", "with_csp"]
