"""The example server and `CompatApps` through real in-memory client/server pairs of the official SDK."""

from typing import Any

import anyio
import pytest
from mcp.client import Client, advertise

from hostcompat.apps.constants import EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY
from hostcompat.apps.meta.access import get_embedded_resource_ui, get_tool_ui
from hostcompat.apps.resource import content_hash
from hostcompat.apps.server import CompatApps
from hostcompat.examples.board import BOARD_URI, board_html, build_server

UI = advertise(EXTENSION_ID, {"mimeTypes": [RESOURCE_MIME_TYPE]})
ERAS = ["legacy", "auto"]  # "auto" discovers the 2026-07-28 era


def wire(model: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = model.model_dump(by_alias=True, exclude_none=True, mode="json")
    return dumped


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_ui_client_sees_the_resource_uri_and_reads_the_widget(era: str) -> None:
    async with Client(build_server(), extensions=[UI], mode=era) as client:
        assert client.server_capabilities.extensions == {EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}}
        tools = {tool.name: wire(tool) for tool in (await client.list_tools()).tools}
        show = get_tool_ui(tools["show_board"])
        assert show is not None and show.resource_uri == BOARD_URI and show.fallback == "embedded"
        assert tools["show_board"]["_meta"][RESOURCE_URI_META_KEY] == BOARD_URI
        assert get_tool_ui(tools["count_tasks"]) is None
        read = wire(await client.read_resource(BOARD_URI))
        (item,) = read["contents"]
        assert item["mimeType"] == RESOURCE_MIME_TYPE
        assert item["text"] == board_html()
        assert item["_meta"]["ui"]["contentHash"] == content_hash(board_html())
        result = await client.call_tool("show_board", {})
        assert [block.type for block in result.content] == ["text", "text"]  # the summary, the board as JSON


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_client_without_the_capability_gets_the_fallback_for_the_opted_in_tool_only(era: str) -> None:
    async with Client(build_server(), mode=era) as client:
        shown = await client.call_tool("show_board", {})
        assert [block.type for block in shown.content] == ["text", "text", "resource"]
        block = wire(shown.content[2])
        assert block["resource"]["text"].encode() == board_html().encode()
        assert block["resource"]["mimeType"] == RESOURCE_MIME_TYPE
        ui = get_embedded_resource_ui(block)
        assert ui is not None and ui.content_hash == content_hash(board_html())
        assert block["_meta"]["ui"] == block["resource"]["_meta"]["ui"]
        for name in ("board_summary", "count_tasks", "refresh_board"):
            result = await client.call_tool(name, {})
            assert "resource" not in [b.type for b in result.content], name  # no embedded widget


@pytest.mark.anyio
async def test_one_server_serves_both_kinds_of_client_at_once() -> None:
    server = build_server()
    seen: dict[str, list[list[str]]] = {"ui": [], "plain": []}
    async with Client(server, extensions=[UI]) as ui_client, Client(server) as plain_client:

        async def hammer(label: str, client: Client) -> None:
            for _ in range(10):
                result = await client.call_tool("show_board", {})
                seen[label].append([block.type for block in result.content])

        async with anyio.create_task_group() as group:
            group.start_soon(hammer, "ui", ui_client)
            group.start_soon(hammer, "plain", plain_client)
    assert seen["ui"] == [["text", "text"]] * 10
    assert seen["plain"] == [["text", "text", "resource"]] * 10


@pytest.mark.anyio
async def test_an_error_result_gets_no_embedded_widget() -> None:
    from mcp.server.mcpserver import MCPServer

    apps = CompatApps()

    @apps.tool(resource_uri="ui://t/app.html", fallback="embedded")
    def broken() -> str:
        raise ValueError("no data")

    apps.add_html_resource("ui://t/app.html", "<!DOCTYPE html><html></html>")
    async with Client(MCPServer("t", extensions=[apps])) as client:
        result = await client.call_tool("broken", {})
    assert result.is_error
    assert [block.type for block in result.content] == ["text"]


def test_compat_apps_rejects_bad_uris_and_oversized_html() -> None:
    from hostcompat.errors import InvalidUIURI, ResourceTooLarge

    apps = CompatApps()
    with pytest.raises(InvalidUIURI):
        apps.tool(resource_uri="ui://has space/x")
    with pytest.raises(ResourceTooLarge):
        apps.add_html_resource("ui://t/big.html", "a" * 1_048_577)


def test_a_tool_without_its_resource_is_caught_when_the_server_is_built() -> None:
    from mcp.server.mcpserver import MCPServer

    apps = CompatApps()

    @apps.tool(resource_uri="ui://t/missing.html")
    def lonely() -> str:
        return "x"

    with pytest.raises(ValueError, match="no such resource"):
        MCPServer("t", extensions=[apps])


def test_flat_key_can_be_switched_off() -> None:
    apps = CompatApps(write_flat_key=False)

    @apps.tool(resource_uri="ui://t/app.html")
    def shown() -> str:
        return "x"

    apps.add_html_resource("ui://t/app.html", "<!DOCTYPE html><html></html>")
    (binding,) = apps.tools()
    assert binding.meta == {"ui": {"resourceUri": "ui://t/app.html"}}


@pytest.mark.anyio
async def test_the_handshake_middleware_is_what_advertises_the_extension_before_2026() -> None:
    from mcp.server.mcpserver import MCPServer

    def server(with_middleware: bool) -> MCPServer:
        apps = CompatApps()
        apps.add_html_resource("ui://t/app.html", "<!DOCTYPE html><html></html>")
        middleware = [apps.handshake_middleware()] if with_middleware else []
        return MCPServer("t", extensions=[apps], middleware=middleware)

    async with Client(server(False), mode="legacy") as bare, Client(server(True), mode="legacy") as fixed:
        assert bare.session.protocol_version == fixed.session.protocol_version == "2025-11-25"
        assert not bare.server_capabilities.extensions
        assert fixed.server_capabilities.extensions == {EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}}
