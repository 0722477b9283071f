"""Which `ui://` resources a probe reads: every distinct URI a tool names or the resource listing offers.

A tool names its widget in `_meta.ui.resourceUri`, the deprecated flat `_meta["ui/resourceUri"]`, or OpenAI's
`_meta["openai/outputTemplate"]`; a `ui://` entry of `resources/list` is read too. Pure: raw listing items in,
URIs (first-seen order, with who named them) and findings out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from hostcompat.apps.constants import MAX_UI_URI_BYTES, UI_URI_PREFIX
from hostcompat.apps.meta.access import tool_ui_resource_uri
from hostcompat.apps.openai.mapping import OPENAI_OUTPUT_TEMPLATE
from hostcompat.errors import HostCompatError
from hostcompat.probe.events import INVALID_UI_META, ProbeEvent
from hostcompat.probe.snapshot import LISTING_REFERENCE
from hostcompat.wire_json import WireJSON

_META: Final = "_meta"


def _tool_label(tool: WireJSON, index: int) -> str:
    name = tool.get("name")
    return f"tool:{name}" if isinstance(name, str) else f"tool:#{index}"


def _finding(label: str, problem: str, value: object) -> ProbeEvent:
    return ProbeEvent(
        INVALID_UI_META,
        "warning",
        "tools/list",
        f"{label}: {problem}; its widget was not read",
        {"reference": label, "problem": problem, "value": value if isinstance(value, str) else repr(value)[:200]},
    )


def _usable(uri: str) -> bool:
    return len(uri.encode("utf-8", "surrogatepass")) <= MAX_UI_URI_BYTES


def _tool_uris(tool: WireJSON, label: str) -> tuple[list[str], list[ProbeEvent]]:
    uris: list[str] = []
    findings: list[ProbeEvent] = []
    try:
        nested = tool_ui_resource_uri(tool)
    except HostCompatError as error:
        findings.append(_finding(label, error.message, error.value))
        nested = None
    if nested is not None:
        uris.append(nested)
    meta = tool.get(_META)
    template = meta.get(OPENAI_OUTPUT_TEMPLATE) if isinstance(meta, Mapping) else None
    if template is not None:
        if isinstance(template, str) and template.startswith(UI_URI_PREFIX):
            uris.append(template)
        else:
            findings.append(_finding(label, f"{OPENAI_OUTPUT_TEMPLATE} is not a {UI_URI_PREFIX} string", template))
    usable = []
    for uri in uris:
        if _usable(uri):
            usable.append(uri)
        else:
            findings.append(_finding(label, f"the URI is longer than {MAX_UI_URI_BYTES} bytes", uri[:200]))
    return usable, findings


def ui_references(
    tools: Iterable[WireJSON], resources: Iterable[WireJSON]
) -> tuple[dict[str, tuple[str, ...]], tuple[ProbeEvent, ...]]:
    """The `ui://` URIs to read, each with who named it (`tool:<name>`, `resources/list`), and the findings.

    URIs come in first-seen order: tools first, then the resource listing. A malformed `_meta.ui`, flat key or
    `openai/outputTemplate` is a finding (`PROBE-INVALID-UI-META`), never an error.
    """
    refs: dict[str, list[str]] = {}
    findings: list[ProbeEvent] = []
    for index, tool in enumerate(tools):
        label = _tool_label(tool, index)
        uris, problems = _tool_uris(tool, label)
        findings.extend(problems)
        for uri in uris:
            names = refs.setdefault(uri, [])
            if label not in names:
                names.append(label)
    for resource in resources:
        listed = resource.get("uri")
        if isinstance(listed, str) and listed.startswith(UI_URI_PREFIX) and _usable(listed):
            names = refs.setdefault(listed, [])
            if LISTING_REFERENCE not in names:
                names.append(LISTING_REFERENCE)
    return {uri: tuple(names) for uri, names in refs.items()}, tuple(findings)


__all__ = ["LISTING_REFERENCE", "ui_references"]
