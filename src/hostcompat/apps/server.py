"""Server helpers on the official SDK's MCP Apps extension (`mcp.server.apps.Apps`, SEP-2133).

`CompatApps` is `Apps` plus what it lacks: the server capability payload (`mimeTypes`), the legacy flat
`ui/resourceUri` key beside the nested one, `contentHash` on every HTML resource, the 1 MiB budget, the
explicit embedded fallback (`fallback="embedded"`), and the mode decided per session from the client's
capabilities. It imports the `mcp` SDK, so `hostcompat.apps` loads it lazily.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypeVar

from mcp.server.apps import Apps
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.extension import ToolBinding
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.resources import TextResource
from mcp_types import CallToolRequestParams, CallToolResult, EmbeddedResource

from hostcompat.apps.constants import FALLBACK_EMBEDDED, RESOURCE_MIME_TYPE
from hostcompat.apps.meta.access import ResourceUI, ToolUI, set_tool_ui
from hostcompat.apps.modes import Mode, build_embedded_fallback, select_tool_mode
from hostcompat.apps.resource import check_html_budget, content_hash
from hostcompat.apps.uri import validate_ui_uri
from hostcompat.wire_json import WireJSON, WireObject

_CallableT = TypeVar("_CallableT", bound=Callable[..., Any])
Visibility = Literal["model", "app"]


class CompatApps(Apps):
    """The MCP Apps extension with per-session modes and the explicit embedded fallback.

    ::

        apps = CompatApps()

        @apps.tool(resource_uri="ui://board/app.html", fallback="embedded")
        def show_board() -> str:
            return "3 open tasks"

        apps.add_html_resource("ui://board/app.html", BOARD_HTML)
        server = MCPServer("board", extensions=[apps])

    A client that negotiated `io.modelcontextprotocol/ui` reads the resource itself (`Mode.CAPABILITY`). A client
    without it gets the tool's text, plus the HTML as an embedded resource when the tool opted in
    (`Mode.EMBEDDED_FALLBACK`), and the text alone otherwise (`Mode.NONE`).
    """

    def __init__(self, *, write_flat_key: bool = True) -> None:
        super().__init__()
        self._write_flat_key = write_flat_key
        self._tool_uis: dict[str, ToolUI] = {}
        self._by_fn: dict[int, ToolUI] = {}
        self._html: dict[str, tuple[str, dict[str, Any] | None]] = {}

    def settings(self) -> WireObject:
        """The server capability payload advertised under `capabilities.extensions["io.modelcontextprotocol/ui"]`."""
        return {"mimeTypes": [RESOURCE_MIME_TYPE]}

    def tool(
        self,
        *,
        resource_uri: str,
        visibility: Sequence[Visibility] | None = None,
        fallback: Literal["embedded"] | None = None,
        meta: WireObject | None = None,
        **tool_kwargs: Any,
    ) -> Callable[[_CallableT], _CallableT]:
        """Register a tool bound to a `ui://` resource; `fallback="embedded"` opts in to the embedded fallback."""
        validate_ui_uri(resource_uri)
        ui = ToolUI(
            resource_uri=resource_uri,
            visibility=None if visibility is None else tuple(visibility),
            fallback=fallback,
        )
        register = super().tool(resource_uri=resource_uri, visibility=visibility, meta=meta, **tool_kwargs)

        def decorator(fn: _CallableT) -> _CallableT:
            name = tool_kwargs.get("name") or fn.__name__
            if name in self._tool_uis:
                raise ValueError(f"CompatApps already has a tool named {name!r}")
            self._tool_uis[name] = ui
            self._by_fn[id(fn)] = ui
            return register(fn)

        return decorator

    def add_html_resource(  # type: ignore[override]  # takes a typed ResourceUI instead of loose keywords
        self,
        uri: str,
        html: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        ui: ResourceUI | None = None,
        with_content_hash: bool = True,
    ) -> None:
        """Register a `ui://` HTML resource (1 MiB budget) whose `_meta.ui` carries `contentHash` by default."""
        validate_ui_uri(uri)
        check_html_budget(html)
        resource_ui = ui or ResourceUI()
        if with_content_hash:
            resource_ui = dataclasses.replace(resource_ui, content_hash=content_hash(html))
        wire_ui = resource_ui.to_wire()
        meta = {"ui": wire_ui} if wire_ui else None
        self._html[uri] = (html, meta)
        self.add_resource(
            TextResource(
                uri=uri,
                name=name or uri,
                title=title,
                description=description,
                mime_type=RESOURCE_MIME_TYPE,
                meta=meta,
                text=html,
            )
        )

    def tools(self) -> Sequence[ToolBinding]:
        """The bound tools, each with its full `_meta.ui` (fallback included) and the flat legacy key."""
        stamped: list[ToolBinding] = []
        for binding in super().tools():
            ui = self._by_fn.get(id(binding.fn))
            if ui is None:  # pragma: no cover - every binding comes from `tool()`
                stamped.append(binding)
                continue
            holder = set_tool_ui({"_meta": binding.meta or {}}, ui, write_flat_key=self._write_flat_key)
            stamped.append(dataclasses.replace(binding, meta=holder["_meta"]))
        return stamped

    def handshake_middleware(self) -> HandshakeExtensions:
        """A server middleware that also advertises this extension in the handshake-era `initialize` result.

        The SDK advertises extensions only in the 2026-07-28 `server/discover` result: its sieve for protocol
        versions up to 2025-11-25 drops `capabilities.extensions`, which is where today's hosts look. Pass this to
        `MCPServer(middleware=[...])` to advertise it in both eras.
        """
        return HandshakeExtensions({self.identifier: self.settings()})

    def tool_ui(self, name: str) -> ToolUI | None:
        """The `_meta.ui` of the tool registered under `name`, if any."""
        return self._tool_uis.get(name)

    def mode_for(self, ctx: Context[Any] | ServerRequestContext[Any, Any], tool_name: str) -> Mode:
        """The mode the current session's client gets for `tool_name`."""
        return select_tool_mode(_client_capabilities(ctx), self._tool_uis.get(tool_name))

    async def read_resource(self, uri: str, /) -> WireObject:
        """Read one of this extension's HTML resources as a `resources/read` result (a `ResourceReader`)."""
        html, meta = self._html.get(uri, (None, None))
        if html is None:
            return {"contents": []}
        item: dict[str, Any] = {"uri": uri, "mimeType": RESOURCE_MIME_TYPE, "text": html}
        if meta is not None:
            item["_meta"] = meta
        return {"contents": [item]}

    async def intercept_tool_call(
        self,
        params: CallToolRequestParams,
        ctx: ServerRequestContext[Any, Any],
        call_next: CallNext,
    ) -> HandlerResult:
        """Append the embedded fallback to a successful result when this session's mode asks for it."""
        result = await call_next(ctx)
        ui = self._tool_uis.get(params.name)
        if ui is None or ui.fallback != FALLBACK_EMBEDDED or not isinstance(result, CallToolResult):
            return result
        if result.is_error or self.mode_for(ctx, params.name) is not Mode.EMBEDDED_FALLBACK:
            return result
        assert ui.resource_uri is not None  # a tool() registration always sets it
        block = EmbeddedResource.model_validate(await build_embedded_fallback(self, ui.resource_uri))
        return result.model_copy(update={"content": [*result.content, block]})


class HandshakeExtensions:
    """Server middleware: add `capabilities.extensions` entries to the `initialize` result (handshake era).

    Entries the result already has are left as they are; the result dict is copied, never changed in place.
    """

    def __init__(self, extensions: Mapping[str, WireJSON]) -> None:
        self._extensions = {key: copy.deepcopy(dict(value)) for key, value in extensions.items()}

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Pass every message through; on `initialize`, add the missing extension entries."""
        result = await call_next(ctx)
        if ctx.method != "initialize" or not isinstance(result, dict):
            return result
        capabilities = result.get("capabilities")
        if not isinstance(capabilities, dict):
            return result
        present = capabilities.get("extensions")
        merged = dict(present) if isinstance(present, dict) else {}
        for key, value in self._extensions.items():
            merged.setdefault(key, copy.deepcopy(value))
        return {**result, "capabilities": {**capabilities, "extensions": merged}}


def _client_capabilities(ctx: Context[Any] | ServerRequestContext[Any, Any]) -> Any:
    if isinstance(ctx, Context):
        return ctx.client_capabilities
    return ctx.session.client_capabilities


__all__ = ["CompatApps", "HandshakeExtensions"]
