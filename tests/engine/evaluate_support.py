"""Synthetic hosts and tools the evaluation tests build on."""

from typing import Any

from hostcompat.engine.catalog.load import validate_catalog
from hostcompat.engine.catalog.model import HostProfile
from hostcompat.engine.catalog.schema import SCHEMA_VERSION
from hostcompat.engine.findings.model import Verdict
from hostcompat.engine.server.facts import WIDGET_NEEDS

OPENAI = "openai/outputTemplate"
NEW = "2025-11-25"
OLD = "2025-06-18"


def fact(value: Any, provenance: str = "observed", note: str | None = None) -> dict[str, Any]:
    out = {"value": value, "provenance": provenance, "source": f"test source for {value!r}", "date": "2026-01-02"}
    if note is not None:
        out["note"] = note
    return out


def host(
    host_id: str = "host",
    facts: dict[str, Any] | None = None,
    *,
    quirk_rules: tuple[str, ...] = (),
    provenance: str = "observed",
) -> HostProfile:
    """A host from dotted fact paths; a value that is a dict with "value" is taken as the whole fact."""
    raw: dict[str, Any] = {"id": host_id, "displayName": host_id.title(), "kind": "chat"}
    for path, value in (facts or {}).items():
        *groups, leaf = path.split(".")
        node = raw
        for group in groups:
            node = node.setdefault(group, {})
        node[leaf] = value if isinstance(value, dict) and "value" in value else fact(value, provenance)
    raw["quirks"] = [
        {"id": f"quirk-{index}", "text": "t", "provenance": "observed", "source": "s", "date": "2026", "rule": rule}
        for index, rule in enumerate(quirk_rules)
    ]
    document = {"catalog": {"schemaVersion": SCHEMA_VERSION, "date": "2026-12-02"}, "hosts": [raw]}
    return validate_catalog(document, source_name="test").hosts[0]


def features(level: str = "supported", **overrides: str) -> dict[str, str]:
    """MCPJam's nine features at `level`, some overridden."""
    return {f"ui.mcpApps.features.{need}": overrides.get(need, level) for need in WIDGET_NEEDS}


def widget_host(host_id: str = "apps", *, openai: str = "unsupported", **overrides: str) -> HostProfile:
    """A host rendering MCP Apps with all nine features supported unless overridden."""
    return host(
        host_id,
        {"ui.formats.mcp-apps": "supported", "ui.formats.openai-apps-sdk": openai, **features(**overrides)},
    )


def text_host(host_id: str = "text") -> HostProfile:
    """A host that renders no widgets (and has no capability matrix)."""
    return host(host_id, {"ui.formats.mcp-apps": "unsupported", "ui.formats.openai-apps-sdk": "unsupported"})


def mcp_tool(name: str = "w", uri: str = "ui://s/w.html", **ui: Any) -> dict[str, Any]:
    return {"name": name, "_meta": {"ui": {"resourceUri": uri, **ui}}}


def openai_tool(name: str = "o", template: str = "ui://s/o.html") -> dict[str, Any]:
    return {"name": name, "_meta": {OPENAI: template}}


def dual_tool(name: str = "d") -> dict[str, Any]:
    return {"name": name, "_meta": {"ui": {"resourceUri": "ui://s/d.html"}, OPENAI: "ui://s/d.html"}}


def plain_tool(name: str = "p", **extra: Any) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object", "properties": {}}, **extra}


VERDICTS = {verdict.value: verdict for verdict in Verdict}
