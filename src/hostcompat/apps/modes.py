"""The exact rule that picks negotiated UI, the embedded fallback or nothing, and builds that fallback.

No heuristics (seed: viant's `compat` package): a tool gets an embedded UI resource in its result only
when it names a `ui://` resource, explicitly opts in with `_meta.ui.fallback = "embedded"`, and the
client did *not* negotiate the UI extension. A client that negotiated it reads the resource itself.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Mapping, Sequence
from enum import Enum
from typing import Any, Protocol

from hostcompat.apps.capabilities.access import client_ui_capable
from hostcompat.apps.constants import FALLBACK_EMBEDDED, MAX_HTML_BYTES, META_UI_KEY, RESOURCE_MIME_TYPE
from hostcompat.apps.meta.access import ResourceUI, ToolUI
from hostcompat.apps.resource import decode_html_blob
from hostcompat.apps.uri import validate_ui_uri
from hostcompat.errors import (
    AmbiguousResource,
    EmptyResource,
    InvalidUIMeta,
    MissingReader,
    NoContents,
    ResourceNotFound,
    ResourceReadFailed,
    ResourceTooLarge,
    WrongMimeType,
)
from hostcompat.wire_json import WireObject


class Mode(str, Enum):
    """How a server answers one tool call for one client."""

    NONE = "none"
    """No UI: the tool names no resource, or the client lacks the capability and the tool did not opt in."""
    CAPABILITY = "capability"
    """The client negotiated MCP Apps: it reads `_meta.ui.resourceUri` itself; embed nothing."""
    EMBEDDED_FALLBACK = "embedded-fallback"
    """The client lacks the capability and the tool opted in: append the UI as an embedded resource."""

    def __str__(self) -> str:
        return self.value


class ResourceReader(Protocol):
    """Anything that reads a resource by exact URI: an `mcp` `ClientSession` or `Client`, or a server-side adapter.

    The result is a `ReadResourceResult` model or its wire mapping (`{"contents": [...]}`).
    """

    def read_resource(self, uri: str, /) -> Awaitable[Any]:
        """Read the resource named exactly `uri`."""
        ...


def select_tool_mode(client_capabilities: object, tool_ui: ToolUI | None) -> Mode:
    """The mode for a tool result, decided exactly.

    1. the tool names no `resourceUri` → `NONE`;
    2. the client negotiated the UI extension (exact MIME) → `CAPABILITY` (an opt-in is then ignored);
    3. the tool opts in with `fallback == "embedded"` (exact, case-sensitive) → `EMBEDDED_FALLBACK`;
    4. otherwise → `NONE`.
    """
    if tool_ui is None or not tool_ui.resource_uri:
        return Mode.NONE
    if client_ui_capable(client_capabilities):
        return Mode.CAPABILITY
    if tool_ui.fallback == FALLBACK_EMBEDDED:
        return Mode.EMBEDDED_FALLBACK
    return Mode.NONE


def select_resource_mode(client_capabilities: object, resource_ui: ResourceUI | None) -> Mode:
    """The resource-side analogue: the opt-in is declared on the resource itself (no `resourceUri` test)."""
    if client_ui_capable(client_capabilities):
        return Mode.CAPABILITY
    if resource_ui is not None and resource_ui.fallback == FALLBACK_EMBEDDED:
        return Mode.EMBEDDED_FALLBACK
    return Mode.NONE


async def build_embedded_fallback(reader: ResourceReader | None, uri: str) -> WireObject:
    """Read `uri` through `reader` and wrap its HTML as an embedded resource block for `CallToolResult.content`.

    The block is `{"type": "resource", "resource": {"uri", "mimeType", "text"}}`; it always carries text (a blob
    is decoded). The source item's `_meta.ui` is copied verbatim, unknown keys included (viant drops them), to both
    the block's `_meta` and `resource._meta`, so `contentHash` and `protocolVersion` survive. Each failure has its
    own error: `MissingReader`, `InvalidUIURI` (checked before reading), `ResourceReadFailed` (the reader's error is
    the `__cause__`), `NoContents`, `ResourceNotFound`, `AmbiguousResource`, `WrongMimeType`, `ResourceTooLarge`,
    `InvalidBlob`, `NotUTF8`, `EmptyResource`. An absent MIME type defaults to the MCP App MIME type.
    """
    if reader is None:
        raise MissingReader("build_embedded_fallback needs a resource reader, got None")
    validate_ui_uri(uri)
    try:
        result = await reader.read_resource(uri)
    except Exception as exc:
        raise ResourceReadFailed(f"reading {uri!r} failed: {exc}", value=uri) from exc
    item = _the_item(_contents_of(result, uri), uri)
    mime = item.get("mimeType")
    if mime is not None and mime != "" and mime != RESOURCE_MIME_TYPE:
        raise WrongMimeType(
            f"resource {uri!r} has MIME type {mime!r}; an embedded UI must be {RESOURCE_MIME_TYPE!r}", value=mime
        )
    html = _html_of(item, uri)
    resource: dict[str, Any] = {"uri": uri, "mimeType": RESOURCE_MIME_TYPE, "text": html}
    block: dict[str, Any] = {"type": "resource", "resource": resource}
    ui = _ui_meta_of(item, uri)
    if ui is not None:
        resource["_meta"] = {META_UI_KEY: ui}
        block["_meta"] = {META_UI_KEY: copy.deepcopy(ui)}
    return block


def _as_wire(value: object) -> object:
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(by_alias=True, exclude_none=True, mode="json")
    return value


def _contents_of(result: object, uri: str) -> Sequence[Mapping[str, Any]]:
    wire = _as_wire(result)
    contents = wire.get("contents") if isinstance(wire, Mapping) else None
    if not isinstance(contents, Sequence) or isinstance(contents, str | bytes) or not contents:
        raise NoContents(f"reading {uri!r} returned no contents", value=result)
    items = [_as_wire(item) for item in contents]
    return [item for item in items if isinstance(item, Mapping)]


def _the_item(items: Sequence[Mapping[str, Any]], uri: str) -> Mapping[str, Any]:
    matches = [item for item in items if item.get("uri") == uri]
    if not matches:
        found = [item.get("uri") for item in items]
        raise ResourceNotFound(f"no content item has the exact URI {uri!r} (found {found!r})", value=uri)
    if len(matches) > 1:
        raise AmbiguousResource(f"{len(matches)} content items have the URI {uri!r}; expected exactly one", value=uri)
    return matches[0]


def _html_of(item: Mapping[str, Any], uri: str) -> str:
    text = item.get("text")
    if isinstance(text, str) and text:
        size = len(text.encode("utf-8"))
        if size > MAX_HTML_BYTES:
            raise ResourceTooLarge(f"resource {uri!r} is {size} bytes; the budget is {MAX_HTML_BYTES}", value=size)
        return text
    blob = item.get("blob")
    if isinstance(blob, str) and blob:
        return decode_html_blob(blob)
    raise EmptyResource(f"resource {uri!r} has no text and no blob", value=uri)


def _ui_meta_of(item: Mapping[str, Any], uri: str) -> dict[str, Any] | None:
    meta = item.get("_meta")
    if meta is None:
        return None
    if not isinstance(meta, Mapping):
        raise InvalidUIMeta(f"resource {uri!r} has a _meta that is not an object", value=meta)
    ui = meta.get(META_UI_KEY)
    if ui is None:
        return None
    ResourceUI.from_wire(ui, f"resources/read {uri!r} _meta.ui")
    return dict(copy.deepcopy(ui))


__all__ = [
    "Mode",
    "ResourceReader",
    "build_embedded_fallback",
    "select_resource_mode",
    "select_tool_mode",
]
