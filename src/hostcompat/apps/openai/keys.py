"""The OpenAI Apps SDK `openai/*` `_meta` keys and their checked readers.

Shared by `openai` (the mapping to and from `_meta.ui`, the public face) and `openai_reports` (conflicts and
untranslated keys), so neither imports the other. A wrong-typed key is an `InvalidOpenAIMeta` carrying the value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from hostcompat.errors import InvalidOpenAIMeta
from hostcompat.wire_json import WireJSON

OPENAI_OUTPUT_TEMPLATE: Final = "openai/outputTemplate"
"""Tool: the widget template's resource URI (`_meta.ui.resourceUri`)."""
OPENAI_WIDGET_ACCESSIBLE: Final = "openai/widgetAccessible"
"""Tool: the widget may call this tool (`"app"` in `_meta.ui.visibility`); OpenAI's default is false."""
OPENAI_VISIBILITY: Final = "openai/visibility"
"""Tool: `"public"` (the default) or `"private"` (`"model"` in `_meta.ui.visibility` or not)."""
OPENAI_INVOKING: Final = "openai/toolInvocation/invoking"
"""Tool: status text while the tool runs; MCP Apps has no equivalent."""
OPENAI_INVOKED: Final = "openai/toolInvocation/invoked"
"""Tool: status text once the tool is done; MCP Apps has no equivalent."""
OPENAI_FILE_PARAMS: Final = "openai/fileParams"
"""Tool: input fields that carry files; MCP Apps has no equivalent."""
OPENAI_WIDGET_CSP: Final = "openai/widgetCSP"
"""Resource: `{connect_domains, resource_domains, frame_domains?, redirect_domains?}` (`_meta.ui.csp`)."""
OPENAI_WIDGET_DOMAIN: Final = "openai/widgetDomain"
"""Resource: the widget's dedicated origin (`_meta.ui.domain`)."""
OPENAI_WIDGET_PREFERS_BORDER: Final = "openai/widgetPrefersBorder"
"""Resource: draw a border (`_meta.ui.prefersBorder`)."""
OPENAI_WIDGET_DESCRIPTION: Final = "openai/widgetDescription"
"""Resource: a description for the model; MCP Apps has none (a view uses `ui/update-model-context`)."""

CSP_LISTS: Final = (
    ("connect_domains", "connectDomains"),
    ("resource_domains", "resourceDomains"),
    ("frame_domains", "frameDomains"),
)
"""The `openai/widgetCSP` domain lists that `_meta.ui.csp` also has: (OpenAI name, MCP Apps wire name)."""
REDIRECT: Final = "redirect_domains"
"""The `openai/widgetCSP` entry that maps to `_meta.ui.linkTrustedDomains`."""
TOOL_KEYS: Final = (OPENAI_OUTPUT_TEMPLATE, OPENAI_WIDGET_ACCESSIBLE, OPENAI_VISIBILITY)
"""The tool keys with an MCP Apps counterpart."""
RESOURCE_KEYS: Final = (OPENAI_WIDGET_CSP, OPENAI_WIDGET_DOMAIN, OPENAI_WIDGET_PREFERS_BORDER)
"""The resource keys with an MCP Apps counterpart."""
_MAX_DOMAINS = 1024


def expect_meta(meta: object) -> WireJSON | None:
    """`meta` when it is a `_meta` object (or None); refuses anything else and a whole tool or resource."""
    if meta is None:
        return None
    if not isinstance(meta, Mapping):
        raise InvalidOpenAIMeta("_meta must be an object", value=meta)
    if "_meta" in meta:
        raise InvalidOpenAIMeta("pass the `_meta` object, not the tool or resource holding it", value=meta)
    return meta


def read_text(meta: WireJSON | None, key: str) -> str | None:
    """The string under `key`, or None when absent or null."""
    value = None if meta is None else meta.get(key)
    if value is not None and not isinstance(value, str):
        raise InvalidOpenAIMeta(f"_meta[{key!r}] must be a string", value=value)
    return value


def read_flag(meta: WireJSON | None, key: str) -> bool | None:
    """The boolean under `key`, or None when absent or null."""
    value = None if meta is None else meta.get(key)
    if value is not None and not isinstance(value, bool):
        raise InvalidOpenAIMeta(f"_meta[{key!r}] must be a boolean", value=value)
    return value


def read_visibility(meta: WireJSON | None) -> str | None:
    """`openai/visibility` (`"public"` or `"private"`), or None when absent or null."""
    value = read_text(meta, OPENAI_VISIBILITY)
    if value is not None and value not in ("public", "private"):
        raise InvalidOpenAIMeta(f"_meta[{OPENAI_VISIBILITY!r}] must be 'public' or 'private'", value=value)
    return value


def read_domains(value: object, where: str) -> tuple[str, ...]:
    """`value` as a tuple of strings, refusing a non-list, a non-string or more than 1024 entries."""
    if not isinstance(value, list | tuple) or len(value) > _MAX_DOMAINS:
        raise InvalidOpenAIMeta(f"{where} must be a list of at most {_MAX_DOMAINS} strings", value=value)
    for item in value:
        if not isinstance(item, str):
            raise InvalidOpenAIMeta(f"{where} must hold only strings", value=item)
    return tuple(value)


def read_widget_csp(meta: WireJSON | None) -> dict[str, tuple[str, ...]] | None:
    """The known `openai/widgetCSP` lists that are present, checked; None when the key is absent."""
    raw = None if meta is None else meta.get(OPENAI_WIDGET_CSP)
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise InvalidOpenAIMeta(f"_meta[{OPENAI_WIDGET_CSP!r}] must be an object", value=raw)
    names = [name for name, _ in CSP_LISTS] + [REDIRECT]
    where = f"_meta[{OPENAI_WIDGET_CSP!r}]"
    return {name: read_domains(raw[name], f"{where}.{name}") for name in names if raw.get(name) is not None}


def check_openai_keys(meta: WireJSON) -> None:
    """Type-check every mapped `openai/*` key present (the `ui://` rule applies only when converting)."""
    read_text(meta, OPENAI_OUTPUT_TEMPLATE)
    read_flag(meta, OPENAI_WIDGET_ACCESSIBLE)
    read_visibility(meta)
    read_widget_csp(meta)
    read_text(meta, OPENAI_WIDGET_DOMAIN)
    read_flag(meta, OPENAI_WIDGET_PREFERS_BORDER)


__all__ = [
    "CSP_LISTS",
    "OPENAI_FILE_PARAMS",
    "OPENAI_INVOKED",
    "OPENAI_INVOKING",
    "OPENAI_OUTPUT_TEMPLATE",
    "OPENAI_VISIBILITY",
    "OPENAI_WIDGET_ACCESSIBLE",
    "OPENAI_WIDGET_CSP",
    "OPENAI_WIDGET_DESCRIPTION",
    "OPENAI_WIDGET_DOMAIN",
    "OPENAI_WIDGET_PREFERS_BORDER",
    "REDIRECT",
    "RESOURCE_KEYS",
    "TOOL_KEYS",
    "check_openai_keys",
    "expect_meta",
    "read_domains",
    "read_flag",
    "read_text",
    "read_visibility",
    "read_widget_csp",
]
