"""`install_fastmcp` through real in-memory FastMCP 4 client/server pairs, both eras, local tools and a proxy."""

import copy
import json
from typing import Any, cast

import anyio
import mcp_types as types
import pytest
from fastmcp import Client, FastMCP
from fastmcp.server import create_proxy

from hostcompat.clients.fastmcp import fastmcp_sdk_server, install_fastmcp
from hostcompat.clients.middleware import ENVIRONMENT_VARIABLE, ClientCompatMiddleware
from hostcompat.errors import InvalidInput
from tests.clients._wire import call, priorities, raw

ERAS = ["legacy", "auto"]  # "auto" negotiates the 2026-07-28 era
LONG_NAME = (  # longer than Claude Code's 105-character budget and Codex's 46
    "fetch_the_quarterly_financial_report_for_every_region_at_once_with_each_product_line_and_sales_channel_split"
)
CODEX = types.Implementation(name="codex-mcp-client", version="0.148.0")
CLAUDE_CODE = types.Implementation(name="claude-code", version="2.1.220")
UNKNOWN = types.Implementation(name="some-new-client", version="9.9.9")
RESOURCE_URI = "file:///report"


def build_server(*, compat: bool = True) -> FastMCP[Any]:
    server: FastMCP[Any] = FastMCP("shared")

    @server.tool(name=LONG_NAME)
    def report(region: str) -> str:
        return f"report for {region}"

    @server.tool(name="files.read")
    def read_file() -> list[types.ContentBlock]:
        return [types.TextContent(type="text", text="contents", annotations=types.Annotations(priority=0.5))]

    @server.resource(RESOURCE_URI, name="report", annotations=types.Annotations(priority=0.7))
    def report_resource() -> str:
        return "q3"

    if compat:
        install_fastmcp(server, environ={})
    return server


async def registered(server: FastMCP[Any]) -> list[dict[str, Any]]:
    """The server's own components, as plain data (to prove no session changed them)."""
    tools = [copy.deepcopy(tool.model_dump(exclude={"fn"})) for tool in await server.list_tools(run_middleware=False)]
    resources = [copy.deepcopy(r.model_dump(exclude={"fn"})) for r in await server.list_resources(run_middleware=False)]
    return [*tools, *resources]


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_codex_sees_integer_priorities_and_claude_code_the_exact_floats(era: str) -> None:
    server = build_server()
    seen: dict[str, list[Any]] = {}
    for info in (CODEX, CLAUDE_CODE):
        async with Client(server, client_info=info, mode=era) as client:
            names = [tool.name for tool in await client.list_tools()]
            seen[info.name] = [
                *priorities(await raw(client, call(names[1]))),
                *priorities(await raw(client, types.ListResourcesRequest())),
            ]
    assert seen["codex-mcp-client"] == [1, 1]
    assert all(type(priority) is int for priority in seen["codex-mcp-client"])
    assert seen["claude-code"] == [0.5, 0.7]


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_two_clients_at_once_interleaved_see_only_their_own_rewrites(era: str) -> None:
    server = build_server()
    before = await registered(server)
    seen: dict[str, list[tuple[list[str], list[Any]]]] = {"codex": [], "claude": []}
    async with (
        Client(server, client_info=CODEX, mode=era) as codex,
        Client(server, client_info=CLAUDE_CODE, mode=era) as claude,
    ):

        async def hammer(label: str, client: Client[Any]) -> None:
            for _ in range(6):
                names = [tool["name"] for tool in (await raw(client, types.ListToolsRequest()))["tools"]]
                called = await raw(client, call(names[1]))
                seen[label].append((names, priorities(called)))
                await anyio.lowlevel.checkpoint()

        async with anyio.create_task_group() as group:
            group.start_soon(hammer, "codex", codex)
            group.start_soon(hammer, "claude", claude)
    codex_names, claude_names = seen["codex"][0][0], seen["claude"][0][0]
    assert seen["codex"] == [(codex_names, [1])] * 6
    assert seen["claude"] == [(claude_names, [0.5])] * 6
    assert (len(codex_names[0]), len(claude_names[0])) == (46, 105)
    assert await registered(server) == before


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_renamed_long_tool_is_reached_by_its_new_name(era: str) -> None:
    async with Client(build_server(), client_info=CODEX, mode=era) as client:
        listed = await client.list_tools()
        exposed = listed[0].name
        assert exposed != LONG_NAME and len(exposed) <= 46
        assert listed[0].title == LONG_NAME.replace("_", " ").title()  # not re-derived
        result = await client.call_tool(exposed, {"region": "emea"})
    assert cast(types.TextContent, result.content[0]).text == "report for emea"


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_client_no_rule_names_gets_byte_identical_results(era: str) -> None:
    requests: list[Any] = [
        types.ListToolsRequest(),
        call(LONG_NAME, {"region": "emea"}),
        call("files.read"),
        types.ListResourcesRequest(),
        types.ReadResourceRequest(params=types.ReadResourceRequestParams(uri=RESOURCE_URI)),
    ]
    async with (
        Client(build_server(compat=False), client_info=UNKNOWN, mode=era) as reference,
        Client(build_server(), client_info=UNKNOWN, mode=era) as subject,
    ):
        for request in requests:
            expected = json.dumps(await raw(reference, request))
            assert json.dumps(await raw(subject, request)) == expected, request.method


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_fastmcp_proxy_rewrites_the_proxied_results_per_client(era: str) -> None:
    proxy = create_proxy(build_server(compat=False), name="front")
    install_fastmcp(proxy, environ={})
    seen: dict[str, tuple[list[str], list[Any], str]] = {}
    for info in (CODEX, UNKNOWN):
        async with Client(proxy, client_info=info, mode=era) as client:
            names = [tool.name for tool in await client.list_tools()]
            called = await raw(client, call(names[1]))
            report = await client.call_tool(names[0], {"region": "apac"})
            seen[info.name] = (names, priorities(called), cast(types.TextContent, report.content[0]).text)
    assert seen["codex-mcp-client"][1:] == ([1], "report for apac")
    assert seen["codex-mcp-client"][0][0] != LONG_NAME
    assert seen["some-new-client"] == ([LONG_NAME, "files.read"], [0.5], "report for apac")


def test_install_fastmcp_reads_the_environment_when_called(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "off")
    server = build_server(compat=False)
    assert install_fastmcp(server) is None
    monkeypatch.delenv(ENVIRONMENT_VARIABLE)
    assert install_fastmcp(server) is not None


@pytest.mark.anyio
async def test_install_fastmcp_does_nothing_when_switched_off() -> None:
    server = build_server(compat=False)
    chain = list(fastmcp_sdk_server(server).middleware)
    assert install_fastmcp(server, environ={ENVIRONMENT_VARIABLE: "off"}) is None
    assert fastmcp_sdk_server(server).middleware == chain
    async with Client(server, client_info=CODEX, mode="legacy") as client:
        assert priorities(await raw(client, call("files.read"))) == [0.5]


def test_install_fastmcp_puts_one_middleware_under_fastmcp() -> None:
    server = build_server(compat=False)
    first = install_fastmcp(server, environ={})
    assert isinstance(first, ClientCompatMiddleware)
    assert install_fastmcp(server, environ={}) is first
    assert fastmcp_sdk_server(server).middleware.count(first) == 1


def test_install_fastmcp_rejects_a_server_that_is_not_fastmcp() -> None:
    with pytest.raises(InvalidInput) as caught:
        install_fastmcp(cast(FastMCP[Any], object()), environ={})
    assert "install()" in caught.value.message
