"""The OpenAI Apps SDK mapping: `openai/*` keys to and from `_meta.ui`, and what does not translate."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.apps.openai.keys import OPENAI_FILE_PARAMS as OPENAI_FILE_PARAMS
    from hostcompat.apps.openai.keys import OPENAI_INVOKED as OPENAI_INVOKED
    from hostcompat.apps.openai.keys import OPENAI_INVOKING as OPENAI_INVOKING
    from hostcompat.apps.openai.keys import OPENAI_OUTPUT_TEMPLATE as OPENAI_OUTPUT_TEMPLATE
    from hostcompat.apps.openai.keys import OPENAI_VISIBILITY as OPENAI_VISIBILITY
    from hostcompat.apps.openai.keys import OPENAI_WIDGET_ACCESSIBLE as OPENAI_WIDGET_ACCESSIBLE
    from hostcompat.apps.openai.keys import OPENAI_WIDGET_CSP as OPENAI_WIDGET_CSP
    from hostcompat.apps.openai.keys import OPENAI_WIDGET_DESCRIPTION as OPENAI_WIDGET_DESCRIPTION
    from hostcompat.apps.openai.keys import OPENAI_WIDGET_DOMAIN as OPENAI_WIDGET_DOMAIN
    from hostcompat.apps.openai.keys import OPENAI_WIDGET_PREFERS_BORDER as OPENAI_WIDGET_PREFERS_BORDER
    from hostcompat.apps.openai.mapping import dual_tool_meta as dual_tool_meta
    from hostcompat.apps.openai.mapping import mime_type_for_mcp as mime_type_for_mcp
    from hostcompat.apps.openai.mapping import mime_type_for_openai as mime_type_for_openai
    from hostcompat.apps.openai.mapping import resource_openai_from_ui as resource_openai_from_ui
    from hostcompat.apps.openai.mapping import resource_ui_from_openai as resource_ui_from_openai
    from hostcompat.apps.openai.mapping import tool_openai_from_ui as tool_openai_from_ui
    from hostcompat.apps.openai.mapping import tool_ui_from_openai as tool_ui_from_openai
    from hostcompat.apps.openai.mapping import with_openai_resource_meta as with_openai_resource_meta
    from hostcompat.apps.openai.mapping import with_openai_tool_meta as with_openai_tool_meta
    from hostcompat.apps.openai.reports import OpenAIConflict as OpenAIConflict
    from hostcompat.apps.openai.reports import Untranslated as Untranslated
    from hostcompat.apps.openai.reports import openai_conflicts as openai_conflicts
    from hostcompat.apps.openai.reports import untranslated_openai_keys as untranslated_openai_keys
    from hostcompat.apps.openai.reports import untranslated_ui_keys as untranslated_ui_keys

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.apps.openai.keys": [
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
        ],
        "hostcompat.apps.openai.mapping": [
            "dual_tool_meta",
            "mime_type_for_mcp",
            "mime_type_for_openai",
            "resource_openai_from_ui",
            "resource_ui_from_openai",
            "tool_openai_from_ui",
            "tool_ui_from_openai",
            "with_openai_resource_meta",
            "with_openai_tool_meta",
        ],
        "hostcompat.apps.openai.reports": [
            "OpenAIConflict",
            "Untranslated",
            "openai_conflicts",
            "untranslated_openai_keys",
            "untranslated_ui_keys",
        ],
    },
)

__all__ = [
    "dual_tool_meta",
    "mime_type_for_mcp",
    "mime_type_for_openai",
    "openai_conflicts",
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
    "OpenAIConflict",
    "resource_openai_from_ui",
    "resource_ui_from_openai",
    "tool_openai_from_ui",
    "tool_ui_from_openai",
    "Untranslated",
    "untranslated_openai_keys",
    "untranslated_ui_keys",
    "with_openai_resource_meta",
    "with_openai_tool_meta",
]
