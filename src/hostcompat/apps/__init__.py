"""The MCP Apps model (SEP-1865), typed and exact.

- `constants`: pinned identifiers; `capabilities`: the UI extension capability, read, written and diagnosed;
- `meta`: typed `_meta.ui` (`ToolUI`, `ResourceUI`, ...) for tools, resources, contents and embedded resources;
- `uri` / `resource` / `csp`: `ui://` URIs, HTML resource builders with content hashes, the iframe CSP;
- `bridge`: the host<->view messages (and viant's legacy `mcpui:*` envelopes);
- `openai`: the OpenAI Apps SDK mapping; `modes`: the exact rule for negotiated UI or the embedded fallback;
- `server`: `CompatApps` on the official SDK's `Apps` extension (imports the `mcp` SDK, so it loads lazily).

Everything here but `CompatApps`/`HandshakeExtensions` is pure and never imports the `mcp` SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.apps.capabilities.access import CapabilitySource as CapabilitySource
    from hostcompat.apps.capabilities.access import client_ui_capable as client_ui_capable
    from hostcompat.apps.capabilities.access import server_ui_capable as server_ui_capable
    from hostcompat.apps.capabilities.access import set_client_capability as set_client_capability
    from hostcompat.apps.capabilities.access import set_server_capability as set_server_capability
    from hostcompat.apps.capabilities.diagnosis import CapabilityDiagnosis as CapabilityDiagnosis
    from hostcompat.apps.capabilities.diagnosis import DiagnosisCode as DiagnosisCode
    from hostcompat.apps.capabilities.diagnosis import diagnose_ui_capability as diagnose_ui_capability
    from hostcompat.apps.capabilities.model import UICapability as UICapability
    from hostcompat.apps.capabilities.model import get_ui_capability as get_ui_capability
    from hostcompat.apps.constants import DEFAULT_VISIBILITY as DEFAULT_VISIBILITY
    from hostcompat.apps.constants import EXTENSION_ID as EXTENSION_ID
    from hostcompat.apps.constants import FALLBACK_EMBEDDED as FALLBACK_EMBEDDED
    from hostcompat.apps.constants import LATEST_PROTOCOL_VERSION as LATEST_PROTOCOL_VERSION
    from hostcompat.apps.constants import LEGACY_ENVELOPE_VERSION as LEGACY_ENVELOPE_VERSION
    from hostcompat.apps.constants import LEGACY_RESOURCE_MIME_TYPE as LEGACY_RESOURCE_MIME_TYPE
    from hostcompat.apps.constants import MAX_HTML_BLOB_CHARS as MAX_HTML_BLOB_CHARS
    from hostcompat.apps.constants import MAX_HTML_BYTES as MAX_HTML_BYTES
    from hostcompat.apps.constants import MAX_UI_URI_BYTES as MAX_UI_URI_BYTES
    from hostcompat.apps.constants import META_UI_KEY as META_UI_KEY
    from hostcompat.apps.constants import OPENAI_WIDGET_MIME_TYPE as OPENAI_WIDGET_MIME_TYPE
    from hostcompat.apps.constants import RESOURCE_MIME_TYPE as RESOURCE_MIME_TYPE
    from hostcompat.apps.constants import RESOURCE_URI_META_KEY as RESOURCE_URI_META_KEY
    from hostcompat.apps.constants import SUPPORTED_PROTOCOL_VERSIONS as SUPPORTED_PROTOCOL_VERSIONS
    from hostcompat.apps.constants import UI_URI_PREFIX as UI_URI_PREFIX
    from hostcompat.apps.constants import UI_URI_SCHEME as UI_URI_SCHEME
    from hostcompat.apps.csp import DEFAULT_CSP as DEFAULT_CSP
    from hostcompat.apps.csp import MAX_CSP_SOURCE_CHARS as MAX_CSP_SOURCE_CHARS
    from hostcompat.apps.csp import build_allow_attribute as build_allow_attribute
    from hostcompat.apps.csp import build_csp as build_csp
    from hostcompat.apps.csp import csp_source_is_valid as csp_source_is_valid
    from hostcompat.apps.meta.access import RESOURCE_UI_FIELDS as RESOURCE_UI_FIELDS
    from hostcompat.apps.meta.access import TOOL_UI_FIELDS as TOOL_UI_FIELDS
    from hostcompat.apps.meta.access import MetaHolder as MetaHolder
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
    from hostcompat.apps.meta.model import ResourceUI as ResourceUI
    from hostcompat.apps.meta.model import ToolUI as ToolUI
    from hostcompat.apps.meta.sandbox import CSPPolicy as CSPPolicy
    from hostcompat.apps.meta.sandbox import ResourceCSP as ResourceCSP
    from hostcompat.apps.meta.sandbox import ResourcePermissions as ResourcePermissions
    from hostcompat.apps.modes import Mode as Mode
    from hostcompat.apps.modes import ResourceReader as ResourceReader
    from hostcompat.apps.modes import build_embedded_fallback as build_embedded_fallback
    from hostcompat.apps.modes import select_resource_mode as select_resource_mode
    from hostcompat.apps.modes import select_tool_mode as select_tool_mode
    from hostcompat.apps.openai.mapping import OPENAI_FILE_PARAMS as OPENAI_FILE_PARAMS
    from hostcompat.apps.openai.mapping import OPENAI_INVOKED as OPENAI_INVOKED
    from hostcompat.apps.openai.mapping import OPENAI_INVOKING as OPENAI_INVOKING
    from hostcompat.apps.openai.mapping import OPENAI_OUTPUT_TEMPLATE as OPENAI_OUTPUT_TEMPLATE
    from hostcompat.apps.openai.mapping import OPENAI_VISIBILITY as OPENAI_VISIBILITY
    from hostcompat.apps.openai.mapping import OPENAI_WIDGET_ACCESSIBLE as OPENAI_WIDGET_ACCESSIBLE
    from hostcompat.apps.openai.mapping import OPENAI_WIDGET_CSP as OPENAI_WIDGET_CSP
    from hostcompat.apps.openai.mapping import OPENAI_WIDGET_DESCRIPTION as OPENAI_WIDGET_DESCRIPTION
    from hostcompat.apps.openai.mapping import OPENAI_WIDGET_DOMAIN as OPENAI_WIDGET_DOMAIN
    from hostcompat.apps.openai.mapping import OPENAI_WIDGET_PREFERS_BORDER as OPENAI_WIDGET_PREFERS_BORDER
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
    from hostcompat.apps.resource import CONTENT_HASH_PREFIX as CONTENT_HASH_PREFIX
    from hostcompat.apps.resource import check_html_budget as check_html_budget
    from hostcompat.apps.resource import content_hash as content_hash
    from hostcompat.apps.resource import decode_html_blob as decode_html_blob
    from hostcompat.apps.resource import embedded_html_resource as embedded_html_resource
    from hostcompat.apps.resource import encode_html_blob as encode_html_blob
    from hostcompat.apps.resource import html_byte_size as html_byte_size
    from hostcompat.apps.resource import html_contents as html_contents
    from hostcompat.apps.resource import html_resource as html_resource
    from hostcompat.apps.resource import read_result as read_result
    from hostcompat.apps.server import CompatApps as CompatApps
    from hostcompat.apps.server import HandshakeExtensions as HandshakeExtensions
    from hostcompat.apps.uri import SCOPED_KINDS as SCOPED_KINDS
    from hostcompat.apps.uri import UIURI as UIURI
    from hostcompat.apps.uri import is_valid_ui_uri as is_valid_ui_uri
    from hostcompat.apps.uri import validate_scoped_ui_uri as validate_scoped_ui_uri
    from hostcompat.apps.uri import validate_ui_uri as validate_ui_uri

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.apps.capabilities.access": [
            "CapabilitySource",
            "client_ui_capable",
            "server_ui_capable",
            "set_client_capability",
            "set_server_capability",
        ],
        "hostcompat.apps.capabilities.diagnosis": ["CapabilityDiagnosis", "DiagnosisCode", "diagnose_ui_capability"],
        "hostcompat.apps.capabilities.model": ["UICapability", "get_ui_capability"],
        "hostcompat.apps.constants": [
            "DEFAULT_VISIBILITY",
            "EXTENSION_ID",
            "FALLBACK_EMBEDDED",
            "LATEST_PROTOCOL_VERSION",
            "LEGACY_ENVELOPE_VERSION",
            "LEGACY_RESOURCE_MIME_TYPE",
            "MAX_HTML_BLOB_CHARS",
            "MAX_HTML_BYTES",
            "MAX_UI_URI_BYTES",
            "META_UI_KEY",
            "OPENAI_WIDGET_MIME_TYPE",
            "RESOURCE_MIME_TYPE",
            "RESOURCE_URI_META_KEY",
            "SUPPORTED_PROTOCOL_VERSIONS",
            "UI_URI_PREFIX",
            "UI_URI_SCHEME",
        ],
        "hostcompat.apps.csp": [
            "DEFAULT_CSP",
            "MAX_CSP_SOURCE_CHARS",
            "build_allow_attribute",
            "build_csp",
            "csp_source_is_valid",
        ],
        "hostcompat.apps.meta.access": [
            "MetaHolder",
            "RESOURCE_UI_FIELDS",
            "TOOL_UI_FIELDS",
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
        "hostcompat.apps.meta.model": ["ResourceUI", "ToolUI"],
        "hostcompat.apps.meta.sandbox": ["CSPPolicy", "ResourceCSP", "ResourcePermissions"],
        "hostcompat.apps.modes": [
            "Mode",
            "ResourceReader",
            "build_embedded_fallback",
            "select_resource_mode",
            "select_tool_mode",
        ],
        "hostcompat.apps.openai.mapping": [
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
        "hostcompat.apps.resource": [
            "CONTENT_HASH_PREFIX",
            "check_html_budget",
            "content_hash",
            "decode_html_blob",
            "embedded_html_resource",
            "encode_html_blob",
            "html_byte_size",
            "html_contents",
            "html_resource",
            "read_result",
        ],
        "hostcompat.apps.server": ["CompatApps", "HandshakeExtensions"],
        "hostcompat.apps.uri": [
            "SCOPED_KINDS",
            "UIURI",
            "is_valid_ui_uri",
            "validate_scoped_ui_uri",
            "validate_ui_uri",
        ],
    },
)

__all__ = [
    "CONTENT_HASH_PREFIX",
    "CSPPolicy",
    "CapabilityDiagnosis",
    "CapabilitySource",
    "CompatApps",
    "DEFAULT_CSP",
    "DEFAULT_VISIBILITY",
    "DiagnosisCode",
    "EXTENSION_ID",
    "FALLBACK_EMBEDDED",
    "HandshakeExtensions",
    "LATEST_PROTOCOL_VERSION",
    "LEGACY_ENVELOPE_VERSION",
    "LEGACY_RESOURCE_MIME_TYPE",
    "MAX_CSP_SOURCE_CHARS",
    "MAX_HTML_BLOB_CHARS",
    "MAX_HTML_BYTES",
    "MAX_UI_URI_BYTES",
    "META_UI_KEY",
    "MetaHolder",
    "Mode",
    "OPENAI_FILE_PARAMS",
    "OPENAI_INVOKED",
    "OPENAI_INVOKING",
    "OPENAI_OUTPUT_TEMPLATE",
    "OPENAI_VISIBILITY",
    "OPENAI_WIDGET_ACCESSIBLE",
    "OPENAI_WIDGET_CSP",
    "OPENAI_WIDGET_DESCRIPTION",
    "OPENAI_WIDGET_DOMAIN",
    "OPENAI_WIDGET_MIME_TYPE",
    "OPENAI_WIDGET_PREFERS_BORDER",
    "OpenAIConflict",
    "RESOURCE_MIME_TYPE",
    "RESOURCE_UI_FIELDS",
    "RESOURCE_URI_META_KEY",
    "ResourceCSP",
    "ResourcePermissions",
    "ResourceReader",
    "ResourceUI",
    "SCOPED_KINDS",
    "SUPPORTED_PROTOCOL_VERSIONS",
    "TOOL_UI_FIELDS",
    "ToolUI",
    "UICapability",
    "UIURI",
    "UI_URI_PREFIX",
    "UI_URI_SCHEME",
    "Untranslated",
    "build_allow_attribute",
    "build_csp",
    "build_embedded_fallback",
    "check_html_budget",
    "clear_embedded_resource_ui",
    "clear_resource_ui",
    "clear_tool_ui",
    "client_ui_capable",
    "content_hash",
    "csp_source_is_valid",
    "decode_html_blob",
    "diagnose_ui_capability",
    "dual_tool_meta",
    "embedded_html_resource",
    "encode_html_blob",
    "get_embedded_resource_ui",
    "get_resource_ui",
    "get_tool_ui",
    "get_ui_capability",
    "html_byte_size",
    "html_contents",
    "html_resource",
    "is_app_only",
    "is_model_only",
    "is_valid_ui_uri",
    "mime_type_for_mcp",
    "mime_type_for_openai",
    "openai_conflicts",
    "read_result",
    "resolve_resource_ui",
    "resource_openai_from_ui",
    "resource_ui_from_openai",
    "select_resource_mode",
    "select_tool_mode",
    "server_ui_capable",
    "set_client_capability",
    "set_embedded_resource_ui",
    "set_resource_ui",
    "set_server_capability",
    "set_tool_ui",
    "tool_openai_from_ui",
    "tool_ui_from_openai",
    "tool_ui_resource_uri",
    "untranslated_openai_keys",
    "untranslated_ui_keys",
    "validate_scoped_ui_uri",
    "validate_ui_uri",
    "with_openai_resource_meta",
    "with_openai_tool_meta",
]
