"""The typed `_meta.ui` of tools, resources and embedded resources: models, strict codec, copy-on-write access."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.apps.meta.access import clear_embedded_resource_ui as clear_embedded_resource_ui
    from hostcompat.apps.meta.access import clear_resource_ui as clear_resource_ui
    from hostcompat.apps.meta.access import clear_tool_ui as clear_tool_ui
    from hostcompat.apps.meta.access import get_embedded_resource_ui as get_embedded_resource_ui
    from hostcompat.apps.meta.access import get_resource_ui as get_resource_ui
    from hostcompat.apps.meta.access import get_tool_ui as get_tool_ui
    from hostcompat.apps.meta.access import is_app_only as is_app_only
    from hostcompat.apps.meta.access import is_model_only as is_model_only
    from hostcompat.apps.meta.access import resolve_resource_ui as resolve_resource_ui
    from hostcompat.apps.meta.access import set_embedded_resource_ui as set_embedded_resource_ui
    from hostcompat.apps.meta.access import set_resource_ui as set_resource_ui
    from hostcompat.apps.meta.access import set_tool_ui as set_tool_ui
    from hostcompat.apps.meta.access import tool_ui_resource_uri as tool_ui_resource_uri
    from hostcompat.apps.meta.holder import MetaHolder as MetaHolder
    from hostcompat.apps.meta.model import RESOURCE_UI_FIELDS as RESOURCE_UI_FIELDS
    from hostcompat.apps.meta.model import TOOL_UI_FIELDS as TOOL_UI_FIELDS
    from hostcompat.apps.meta.model import ResourceUI as ResourceUI
    from hostcompat.apps.meta.model import ToolUI as ToolUI
    from hostcompat.apps.meta.sandbox import CSPPolicy as CSPPolicy
    from hostcompat.apps.meta.sandbox import ResourceCSP as ResourceCSP
    from hostcompat.apps.meta.sandbox import ResourcePermissions as ResourcePermissions

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.apps.meta.access": [
            "clear_embedded_resource_ui",
            "clear_resource_ui",
            "clear_tool_ui",
            "get_embedded_resource_ui",
            "get_resource_ui",
            "get_tool_ui",
            "is_app_only",
            "is_model_only",
            "resolve_resource_ui",
            "set_embedded_resource_ui",
            "set_resource_ui",
            "set_tool_ui",
            "tool_ui_resource_uri",
        ],
        "hostcompat.apps.meta.holder": ["MetaHolder"],
        "hostcompat.apps.meta.model": ["RESOURCE_UI_FIELDS", "TOOL_UI_FIELDS", "ResourceUI", "ToolUI"],
        "hostcompat.apps.meta.sandbox": ["CSPPolicy", "ResourceCSP", "ResourcePermissions"],
    },
)

__all__ = [
    "clear_embedded_resource_ui",
    "clear_resource_ui",
    "clear_tool_ui",
    "CSPPolicy",
    "get_embedded_resource_ui",
    "get_resource_ui",
    "get_tool_ui",
    "is_app_only",
    "is_model_only",
    "MetaHolder",
    "resolve_resource_ui",
    "RESOURCE_UI_FIELDS",
    "ResourceCSP",
    "ResourcePermissions",
    "ResourceUI",
    "set_embedded_resource_ui",
    "set_resource_ui",
    "set_tool_ui",
    "TOOL_UI_FIELDS",
    "tool_ui_resource_uri",
    "ToolUI",
]
