"""Server values too long to carry through a check: cut them, and say so in a finding on that tool or resource.

A tool name, title, widget URI or MIME type of thousands of characters is legal JSON. Left whole it would flow into
the evidence of every finding and every host's report (and past the finding model's own bounds); cut at
`MAX_VALUE_CHARS` the check goes on, and CHECK-LONG-001 / CHECK-LONG-002 name what was cut and how long it was.
The cut is deterministic, so a widget URI cut in a tool's `_meta` still finds the same cut URI among the reads.
Pure: the inputs are never changed; an item with a long value is replaced by a shallow copy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeGuard

from hostcompat._dataclass import dataclass
from hostcompat.apps.constants import META_UI_KEY, RESOURCE_URI_META_KEY
from hostcompat.apps.openai.mapping import OPENAI_OUTPUT_TEMPLATE
from hostcompat.engine.findings.model import Evidence, Finding, cut_snippet
from hostcompat.engine.findings.rules import finding_for
from hostcompat.wire_json import WireJSON, WireValue

MAX_VALUE_CHARS: Final = 1024
"""The longest name, title, URI or MIME type carried into a check (hosts cap tool names near 64)."""

_CUT_MARK: Final = "…"
_TOOL_KEYS: Final = ("name", "title")
_RESOURCE_KEYS: Final = ("uri", "name", "title", "mimeType")
_CONTENT_KEYS: Final = ("uri", "mimeType")
_META_KEYS: Final = (RESOURCE_URI_META_KEY, OPENAI_OUTPUT_TEMPLATE)
_MAX_REPORTED: Final = 1000
"""At most this many tools or resources get a finding of their own; the rest are counted in the last one."""


def cut_value(value: str, limit: int = MAX_VALUE_CHARS) -> str:
    """`value`, or its first `limit - 1` characters and an ellipsis when it is longer than `limit`."""
    return value if len(value) <= limit else value[: limit - 1] + _CUT_MARK


def _long(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and len(value) > MAX_VALUE_CHARS


@dataclass(frozen=True)
class CutValues:
    """Tool and resource listings with every long value cut, and one finding per tool or resource that had one."""

    tools: tuple[WireValue, ...]
    resources: tuple[WireValue, ...]
    findings: tuple[Finding, ...]


def cut_long_values(tools: Sequence[WireValue], resources: Sequence[WireValue]) -> CutValues:
    """Cut long names, titles, widget URIs and MIME types in tools/list and resources/list items.

    Tool keys: `name`, `title`, `annotations.title`, `_meta.ui.resourceUri`, `_meta["ui/resourceUri"]` and
    `_meta["openai/outputTemplate"]`. Resource keys: `uri`, `name`, `title`, `mimeType`. Anything that is not an
    object is passed through (the shape rules report it). Never raises for any JSON input.
    """
    findings: list[Finding] = []
    cut_tools = tuple(_cut_tool(item, index, findings) for index, item in enumerate(tools))
    tool_findings = len(findings)
    cut_resources = tuple(_cut_resource(item, index, findings) for index, item in enumerate(resources))
    return CutValues(
        cut_tools, cut_resources, tuple(_bounded(findings[:tool_findings]) + _bounded(findings[tool_findings:]))
    )


def cut_content_item(item: WireJSON) -> WireJSON:
    """A `resources/read` content item with a long `uri` or `mimeType` cut (its `text` or `blob` is kept whole)."""
    if not any(_long(item.get(key)) for key in _CONTENT_KEYS):
        return item
    copied = dict(item)
    for key in _CONTENT_KEYS:
        value = copied.get(key)
        if _long(value):
            copied[key] = cut_value(value)
    return copied


def _cut_tool(tool: object, index: int, findings: list[Finding]) -> object:
    if not isinstance(tool, Mapping):
        return tool
    cuts: list[tuple[str, int]] = []
    copied = _cut_keys(tool, _TOOL_KEYS, "", cuts)
    annotations = tool.get("annotations")
    if isinstance(annotations, Mapping) and _long(annotations.get("title")):
        copied = copied if copied is not tool else dict(tool)
        copied["annotations"] = _cut_keys(annotations, ("title",), "annotations.", cuts)
    meta = tool.get("_meta")
    if isinstance(meta, Mapping):
        cut_meta = _cut_keys(meta, _META_KEYS, "_meta.", cuts)
        ui = meta.get(META_UI_KEY)
        if isinstance(ui, Mapping) and _long(ui.get("resourceUri")):
            cut_meta = cut_meta if cut_meta is not meta else dict(meta)
            cut_meta[META_UI_KEY] = _cut_keys(ui, ("resourceUri",), f"_meta.{META_UI_KEY}.", cuts)
        if cut_meta is not meta:
            copied = copied if copied is not tool else dict(tool)
            copied["_meta"] = cut_meta
    if not cuts:
        return tool
    name = copied.get("name")
    named = isinstance(name, str) and bool(name)
    label = cut_snippet(repr(name)) if named else f"tools[{index}]"
    findings.append(
        finding_for(
            "CHECK-LONG-001",
            detail=f"Tool {label}: {_describe(cuts)}; cut to {MAX_VALUE_CHARS} characters for this check.",
            remediation="Keep tool names short (hosts cap them near 64 characters; the MCP specification advises "
            "at most 128) and titles and URIs to a readable length.",
            tools=(name,) if named else (),
            evidence=tuple(Evidence(f"tools[{index}]", detail=f"{path}: {length} characters") for path, length in cuts),
        )
    )
    return copied


def _cut_resource(resource: object, index: int, findings: list[Finding]) -> object:
    if not isinstance(resource, Mapping):
        return resource
    cuts: list[tuple[str, int]] = []
    copied = _cut_keys(resource, _RESOURCE_KEYS, "", cuts)
    if not cuts:
        return resource
    uri = copied.get("uri")
    findings.append(
        finding_for(
            "CHECK-LONG-002",
            detail=f"resources[{index}]: {_describe(cuts)}; cut to {MAX_VALUE_CHARS} characters for this check.",
            remediation="Keep resource URIs, names and MIME types to a readable length.",
            resources=(uri,) if isinstance(uri, str) else (),
            evidence=tuple(
                Evidence(f"resources[{index}]", detail=f"{path}: {length} characters") for path, length in cuts
            ),
        )
    )
    return copied


def _cut_keys(holder: WireJSON, keys: tuple[str, ...], prefix: str, cuts: list[tuple[str, int]]) -> Any:
    """`holder`, or a shallow copy with its long values under `keys` cut; each cut is added to `cuts`."""
    copied: Any = holder
    for key in keys:
        value = holder.get(key)
        if _long(value):
            copied = copied if copied is not holder else dict(holder)
            copied[key] = cut_value(value)
            cuts.append((prefix + key, len(value)))
    return copied


def _describe(cuts: list[tuple[str, int]]) -> str:
    return ", ".join(f"{path} is {length:,} characters" for path, length in cuts)


def _bounded(findings: list[Finding]) -> list[Finding]:
    """At most `_MAX_REPORTED` findings of one rule, and one more that counts the rest."""
    if len(findings) <= _MAX_REPORTED:
        return findings
    more = len(findings) - _MAX_REPORTED
    last = findings[-1]
    what = "tools" if last.rule_id == "CHECK-LONG-001" else "resources"
    note = finding_for(last.rule_id, detail=f"{more:,} more {what} had values this long.", remediation=last.remediation)
    return [*findings[:_MAX_REPORTED], note]


__all__ = ["MAX_VALUE_CHARS", "CutValues", "cut_content_item", "cut_long_values", "cut_value"]
