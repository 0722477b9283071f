"""Shared examples and hypothesis strategies for the UI capability tests: capabilities dicts and SDK-like models."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from hostcompat.apps.constants import EXTENSION_ID, OPENAI_WIDGET_MIME_TYPE, RESOURCE_MIME_TYPE

VENDOR = "vendor.other/feature"


def ui_caps(payload: Any, slot: str = "extensions") -> dict[str, Any]:
    return {slot: {EXTENSION_ID: payload}}


class LegacyClientCapabilities(BaseModel):
    """Mimics `mcp` 1.x `ClientCapabilities`: no `extensions` field, extra keys allowed and kept."""

    model_config = ConfigDict(extra="allow")
    experimental: dict[str, dict[str, Any]] | None = None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=16,
)
mime_strings = st.sampled_from(
    [
        RESOURCE_MIME_TYPE,
        "text/html",
        "TEXT/HTML;PROFILE=MCP-APP",
        "text/html; profile=mcp-app",
        OPENAI_WIDGET_MIME_TYPE,
    ]
) | st.text(max_size=30)
payloads = (
    st.fixed_dictionaries(
        {}, optional={"mimeTypes": st.lists(mime_strings, max_size=4) | json_values, "protocolVersion": json_values}
    )
    | json_values
)
slot_maps = st.dictionaries(
    st.sampled_from([EXTENSION_ID, "io.modelcontextprotocol/apps", VENDOR]), payloads, max_size=3
)
caps_values = (
    st.fixed_dictionaries({}, optional={"extensions": slot_maps | json_values, "experimental": slot_maps | json_values})
    | json_values
)
