"""Pinned identifiers of MCP Apps (SEP-1865) and the OpenAI Apps SDK."""

from __future__ import annotations

from typing import Final

EXTENSION_ID: Final = "io.modelcontextprotocol/ui"
"""The extension key under `capabilities.extensions`."""

RESOURCE_MIME_TYPE: Final = "text/html;profile=mcp-app"
"""The MIME type of a `ui://` HTML resource (byte-exact, no space)."""

LEGACY_RESOURCE_MIME_TYPE: Final = "text/html+mcp"
"""The early-draft MIME type, renamed before the stable text; never valid today."""

OPENAI_WIDGET_MIME_TYPE: Final = "text/html+skybridge"
"""The MIME type of an OpenAI Apps SDK widget template."""

UI_URI_SCHEME: Final = "ui"
UI_URI_PREFIX: Final = "ui://"

META_UI_KEY: Final = "ui"
"""The `_meta` namespace holding the nested `_meta.ui` object."""

RESOURCE_URI_META_KEY: Final = "ui/resourceUri"
"""The deprecated flat tool key `_meta["ui/resourceUri"]`; read as a fallback, written beside the nested key."""

LATEST_PROTOCOL_VERSION: Final = "2026-01-26"
"""The newest host<->view protocol version."""

SUPPORTED_PROTOCOL_VERSIONS: Final = ("2026-01-26",)
"""View protocol versions a host built on this package accepts, newest first."""

LEGACY_ENVELOPE_VERSION: Final = "1.0.0"
"""The version of viant's legacy `mcpui:*` browser envelopes."""

MAX_HTML_BYTES: Final = 1_048_576
"""The HTML budget of a UI resource: 1 MiB, counted in UTF-8 bytes."""

MAX_HTML_BLOB_CHARS: Final = 1_398_104
"""The longest base64 text that can decode to at most `MAX_HTML_BYTES` bytes (checked before decoding)."""

MAX_UI_URI_BYTES: Final = 4096
"""The longest `ui://` URI accepted, in UTF-8 bytes."""

FALLBACK_EMBEDDED: Final = "embedded"
"""The only `_meta.ui.fallback` value that opts in to the embedded-resource fallback."""

DEFAULT_VISIBILITY: Final = ("model", "app")
"""The tool visibility that an omitted `_meta.ui.visibility` means."""
