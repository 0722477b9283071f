"""`capture` against official SDK servers in memory (the `TransportTarget` seam): pages, eras, advertising, raw data."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.shared.memory import create_client_server_memory_streams

from hostcompat.apps.constants import EXTENSION_ID, RESOURCE_MIME_TYPE
from hostcompat.errors import InvalidInput
from hostcompat.probe import Limits, TransportTarget, capture, capture_many
from hostcompat.probe.target import StdioTarget

pytestmark = pytest.mark.anyio

WIDGET = "ui://demo/widget.html"
SPARE = "ui://demo/spare.html"
HTML = "<!doctype html><title>demo</title><p>caf\u00e9 \u2603</p>"
PAGES = (("a", "b"), ("c",), ("d", "e"))
FAST = Limits(connect_timeout=5.0, step_timeout=5.0, total_timeout=20.0, shutdown_grace=0.5)


def in_memory(server: Server[Any]) -> TransportTarget:
    @asynccontextmanager
    async def open_pair() -> AsyncIterator[Any]:
        streams = create_client_server_memory_streams()
        async with streams as (client_streams, server_streams), anyio.create_task_group() as group:
            options = server.create_initialization_options()
            group.start_soon(server.run, server_streams[0], server_streams[1], options)
            try:
                yield client_streams
            finally:
                group.cancel_scope.cancel()

    return TransportTarget(open_pair, label=server.name)


def extensions_of(ctx: ServerRequestContext[Any]) -> dict[str, Any]:
    caps = ctx.session.client_capabilities
    return dict(caps.extensions or {}) if caps is not None else {}


def demo_server() -> Server[Any]:
    """Three pages of tools; `a` names the widget only for clients that advertise MCP Apps."""

    async def list_tools(ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None) -> Any:
        page = int(params.cursor) if params is not None and params.cursor else 0
        ui = EXTENSION_ID in extensions_of(ctx)
        tools = []
        for name in PAGES[page]:
            meta = {"ui": {"resourceUri": WIDGET}, "x.vendor/keep": [1, 2]} if name == "a" and ui else None
            info = ctx.session.client_params.client_info.name if ctx.session.client_params else "?"
            description = f"seen by {info} with {sorted(extensions_of(ctx))}"
            tools.append(types.Tool(name=name, description=description, input_schema={"type": "object"}, _meta=meta))
        cursor = str(page + 1) if page + 1 < len(PAGES) else None
        return types.ListToolsResult(tools=tools, next_cursor=cursor)

    async def list_resources(ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None) -> Any:
        border = {"ui": {"prefersBorder": True}}
        listed = [
            types.Resource(uri=WIDGET, name="widget", mime_type=RESOURCE_MIME_TYPE, _meta=border),
            types.Resource(uri=SPARE, name="spare", mime_type=RESOURCE_MIME_TYPE),
            types.Resource(uri="file:///not/a/widget.txt", name="notes"),
        ]
        return types.ListResourcesResult(resources=listed)

    async def read_resource(ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams) -> Any:
        item = types.TextResourceContents(
            uri=params.uri, mime_type=RESOURCE_MIME_TYPE, text=HTML, _meta={"ui": {"csp": {"connectDomains": []}}}
        )
        return types.ReadResourceResult(contents=[item])

    return Server(
        "demo",
        version="1.2.3",
        instructions="Read the board.",
        on_list_tools=list_tools,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )


@pytest.mark.parametrize(("era", "expected"), [("legacy", "handshake"), ("auto", "modern"), ("modern", "modern")])
async def test_every_page_is_captured_in_order_in_both_eras(era: Any, expected: str) -> None:
    snapshot = await capture(in_memory(demo_server()), limits=FAST, era=era)
    assert [tool["name"] for tool in snapshot.tools] == [name for page in PAGES for name in page]
    assert snapshot.coverage["tools"] == "complete" and not snapshot.is_unknown("tools")
    assert snapshot.connection is not None and snapshot.connection["era"] == expected
    method = "initialize" if expected == "handshake" else "server/discover"
    assert snapshot.connection["method"] == method
    assert snapshot.server_info is not None and snapshot.server_info["name"] == "demo"
    assert snapshot.instructions == "Read the board."
    assert "tools" in snapshot.capabilities
    assert snapshot.coverage["prompts"] == "not-declared"
    assert snapshot.coverage["resourceTemplates"] == "not-declared"  # declared with resources, but not served
    (missing,) = snapshot.events
    assert (missing.code, missing.severity) == ("PROBE-METHOD-NOT-FOUND", "info")
    assert missing.step == "resources/templates/list"


async def test_ui_resources_named_by_a_tool_or_listed_are_read_whole_with_both_metas() -> None:
    snapshot = await capture(in_memory(demo_server()), limits=FAST)
    assert list(snapshot.ui_resources) == [WIDGET, SPARE]
    widget = snapshot.ui_resources[WIDGET]
    assert widget.referenced_by == ("tool:a", "resources/list")
    (item,) = widget.contents
    assert item["text"] == HTML and item["mimeType"] == RESOURCE_MIME_TYPE
    assert widget.bytes == len(HTML.encode()) and not widget.truncated
    assert item["_meta"]["ui"] == {"csp": {"connectDomains": []}}
    listing = snapshot.resource_listing(WIDGET)
    assert listing is not None and listing["_meta"]["ui"] == {"prefersBorder": True}
    assert snapshot.ui_resources[SPARE].referenced_by == ("resources/list",)
    assert snapshot.coverage["uiResources"] == "complete"


async def test_unknown_meta_keys_survive_as_sent() -> None:
    snapshot = await capture(in_memory(demo_server()), limits=FAST)
    assert snapshot.tools[0]["_meta"]["x.vendor/keep"] == [1, 2]


@pytest.mark.parametrize("era", ["legacy", "auto"])
async def test_advertising_nothing_shows_what_a_host_without_mcp_apps_gets(era: Any) -> None:
    with_ui = await capture(in_memory(demo_server()), limits=FAST, era=era)
    without = await capture(in_memory(demo_server()), limits=FAST, era=era, advertise=None)
    assert "_meta" in with_ui.tools[0] and "_meta" not in without.tools[0]
    assert without.client["extensions"] == {}
    assert with_ui.client["extensions"] == {EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}}
    assert list(without.ui_resources) == [WIDGET, SPARE]  # still listed as resources


async def test_a_hosts_own_extensions_and_client_info_reach_the_server() -> None:
    host: dict[str, dict[str, Any]] = {
        "io.example/widgets": {"version": 2},
        EXTENSION_ID: {"mimeTypes": ["text/html+skybridge"]},
    }
    snapshot = await capture(
        in_memory(demo_server()), limits=FAST, advertise=host, client_info={"name": "claude-ai", "version": "1.0"}
    )
    assert snapshot.tools[0]["description"] == f"seen by claude-ai with {sorted(host)}"
    assert snapshot.client == {
        "clientInfo": {"name": "claude-ai", "version": "1.0"},
        "extensions": host,
        "era": "auto",
    }


async def test_capture_many_returns_snapshots_in_target_order() -> None:
    servers = [demo_server() for _ in range(5)]
    snapshots = await capture_many([in_memory(server) for server in servers], limits=FAST, concurrency=2)
    assert [snapshot.target["kind"] for snapshot in snapshots] == ["transport"] * 5
    assert all(len(snapshot.tools) == 5 for snapshot in snapshots)


@pytest.mark.parametrize(
    "options",
    [
        {"era": "2024"},
        {"advertise": 42},
        {"advertise": {"not an id": {}}},
        {"advertise": {EXTENSION_ID: "settings must be an object"}},
        {"client_info": {"name": "no version"}},
        {"limits": {"step_timeout": 1}},
    ],
)
async def test_bad_arguments_raise_invalid_input_before_anything_starts(options: dict[str, Any]) -> None:
    started: list[bool] = []

    @asynccontextmanager
    async def never() -> AsyncIterator[Any]:
        started.append(True)
        yield None

    with pytest.raises(InvalidInput):
        await capture(TransportTarget(never), **options)
    assert started == []


async def test_a_target_of_the_wrong_type_is_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        await capture("python server.py")  # type: ignore[arg-type]  # the point of the test
    with pytest.raises(InvalidInput):
        await capture_many([StdioTarget("x")], concurrency=0)


async def test_a_flood_of_findings_keeps_the_first_few_and_counts_the_rest() -> None:
    async def list_tools(ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None) -> Any:
        bad = [
            types.Tool(name=f"t{index}", input_schema={"type": "object"}, _meta={"ui": "not an object"})
            for index in range(120)
        ]
        return types.ListToolsResult(tools=bad)

    snapshot = await capture(in_memory(Server("flood", on_list_tools=list_tools)), limits=FAST)
    assert len(snapshot.tools) == 120
    assert len(snapshot.events_with("PROBE-INVALID-UI-META")) == 50
    (note,) = snapshot.events_with("PROBE-EVENTS-TRUNCATED")
    assert note.detail["counts"] == {"PROBE-INVALID-UI-META": 120}
    assert snapshot.events[-1] == note
