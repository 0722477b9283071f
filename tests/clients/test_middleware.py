"""`ClientCompatMiddleware` through real in-memory client/server pairs of the official `mcp` SDK, both eras."""

import copy
import gc
import json
import os
from collections.abc import Mapping
from typing import Any, cast

import anyio
import mcp_types as types
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp.client import Client
from mcp.server import MCPServer, Server, ServerRequestContext
from mcp.server.context import HandlerResult
from mcp.server.session import ServerSession

from hostcompat.clients.detect import CLIENT_INFO_META_KEY
from hostcompat.clients.middleware import (
    ENVIRONMENT_VARIABLE,
    ClientCompatMiddleware,
    ClientSessions,
    enabled,
    install,
)
from hostcompat.clients.rules import load_bundled_rules
from hostcompat.errors import InvalidInput
from tests.clients._wire import call, priorities, raw

ERAS = ["legacy", "auto"]  # "auto" negotiates the 2026-07-28 era (no handshake, client info in every _meta)
LONG_NAME = (  # longer than Claude Code's 105-character budget and Codex's 46
    "fetch_the_quarterly_financial_report_for_every_region_at_once_with_each_product_line_and_sales_channel_split"
)
CODEX = types.Implementation(name="codex-mcp-client", version="0.148.0")
CLAUDE_CODE = types.Implementation(name="claude-code", version="2.1.220")
UNKNOWN = types.Implementation(name="some-new-client", version="9.9.9")


def annotated_text(text: str, priority: float) -> types.TextContent:
    return types.TextContent(type="text", text=text, annotations=types.Annotations(priority=priority))


# One set of result objects shared by every session: a leak would show up in them or in another session.
TOOLS = types.ListToolsResult(
    tools=[
        types.Tool(name=LONG_NAME, input_schema={"type": "object"}),
        types.Tool(name="files.read", input_schema={"type": "object", "properties": {"path": {}}}),
    ]
)
RESOURCES = types.ListResourcesResult(
    resources=[types.Resource(name="report", uri="file:///report", annotations=types.Annotations(priority=0.7))]
)
TEMPLATES = types.ListResourceTemplatesResult(
    resource_templates=[
        types.ResourceTemplate(
            name="region", uri_template="file:///{region}", annotations=types.Annotations(priority=0.2)
        )
    ]
)
PROMPT = types.GetPromptResult(messages=[types.PromptMessage(role="user", content=annotated_text("summarise", 0.5))])
SHARED = (TOOLS, RESOURCES, TEMPLATES, PROMPT)


async def list_tools(ctx: ServerRequestContext, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return TOOLS


async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
    return types.CallToolResult(content=[annotated_text(f"called {params.name}", 0.5)])


async def list_resources(
    ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
) -> types.ListResourcesResult:
    return RESOURCES


async def list_templates(
    ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
) -> types.ListResourceTemplatesResult:
    return TEMPLATES


async def read_resource(ctx: ServerRequestContext, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    return types.ReadResourceResult(contents=[types.TextResourceContents(uri=params.uri, text="q3")])


async def get_prompt(ctx: ServerRequestContext, params: types.GetPromptRequestParams) -> types.GetPromptResult:
    return PROMPT


def build_server(*, compat: bool = True) -> Server[Any]:
    server: Server[Any] = Server(
        "shared",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_get_prompt=get_prompt,
    )
    if compat:
        install(server, environ={})
    return server


def snapshot() -> list[dict[str, Any]]:
    return [copy.deepcopy(result.model_dump(by_alias=True, mode="json")) for result in SHARED]


PROMPT_REQUEST = types.GetPromptRequest(params=types.GetPromptRequestParams(name="summary"))
EVERY_REQUEST: list[types.Request[Any, Any]] = [
    types.ListToolsRequest(),
    call(LONG_NAME),
    types.ListResourcesRequest(),
    types.ListResourceTemplatesRequest(),
    types.ReadResourceRequest(params=types.ReadResourceRequestParams(uri="file:///report")),
    PROMPT_REQUEST,
]


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_codex_sees_integer_priorities_and_claude_code_the_exact_floats(era: str) -> None:
    server = build_server()
    seen: dict[str, list[Any]] = {}
    for info in (CODEX, CLAUDE_CODE):
        async with Client(server, client_info=info, mode=era) as client:
            seen[info.name] = [
                *priorities(await raw(client, call("anything"))),
                *priorities(await raw(client, types.ListResourcesRequest())),
                *priorities(await raw(client, types.ListResourceTemplatesRequest())),
                *priorities(await raw(client, PROMPT_REQUEST)),
            ]
    assert seen["codex-mcp-client"] == [1, 1, 0, 1]
    assert all(type(priority) is int for priority in seen["codex-mcp-client"])
    assert seen["claude-code"] == [0.5, 0.7, 0.2, 0.5]
    assert all(type(priority) is float for priority in seen["claude-code"])


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_two_clients_at_once_interleaved_see_only_their_own_rewrites(era: str) -> None:
    server = build_server()
    before = snapshot()
    seen: dict[str, list[tuple[list[str], list[Any], list[Any]]]] = {"codex": [], "claude": []}
    async with (
        Client(server, client_info=CODEX, mode=era) as codex,
        Client(server, client_info=CLAUDE_CODE, mode=era) as claude,
    ):

        async def hammer(label: str, client: Client) -> None:
            for _ in range(8):
                listing = await raw(client, types.ListToolsRequest())
                names = [tool["name"] for tool in listing["tools"]]
                called = await raw(client, call(names[1]))
                resources = await raw(client, types.ListResourcesRequest())
                seen[label].append((names, priorities(called), priorities(resources)))
                await anyio.lowlevel.checkpoint()

        async with anyio.create_task_group() as group:
            group.start_soon(hammer, "codex", codex)
            group.start_soon(hammer, "claude", claude)
    codex_names = seen["codex"][0][0]
    claude_names = seen["claude"][0][0]
    assert seen["codex"] == [(codex_names, [1], [1])] * 8
    assert seen["claude"] == [(claude_names, [0.5], [0.7])] * 8
    assert (len(codex_names[0]), len(claude_names[0])) == (46, 105)  # each client got its own name budget
    assert snapshot() == before


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize(("info", "budget"), [(CODEX, 46), (CLAUDE_CODE, 105)])
async def test_a_renamed_long_tool_is_reached_by_its_new_name(
    era: str, info: types.Implementation, budget: int
) -> None:
    async with Client(build_server(), client_info=info, mode=era) as client:
        listed = [tool.name for tool in (await client.list_tools()).tools]
        exposed = listed[0]
        assert exposed != LONG_NAME and len(exposed) <= budget
        assert listed[1] == "files_read"
        long_result = await client.call_tool(exposed, {})
        dotted_result = await client.call_tool("files_read", {})
    assert cast(types.TextContent, long_result.content[0]).text == f"called {LONG_NAME}"
    assert cast(types.TextContent, dotted_result.content[0]).text == "called files.read"


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_client_no_rule_names_gets_byte_identical_results(era: str) -> None:
    plain, compat = build_server(compat=False), build_server()
    for info in (UNKNOWN, None):  # None: the SDK's default clientInfo ("mcp")
        async with (
            Client(plain, client_info=info, mode=era) as reference,
            Client(compat, client_info=info, mode=era) as subject,
        ):
            for request in EVERY_REQUEST:
                expected = json.dumps(await raw(reference, request))
                assert json.dumps(await raw(subject, request)) == expected, request.method


@pytest.mark.anyio
async def test_each_handshake_connection_keeps_its_own_session_until_it_ends() -> None:
    server = build_server()
    middleware = next(entry for entry in server.middleware if isinstance(entry, ClientCompatMiddleware))
    async with (
        Client(server, client_info=CODEX, mode="legacy") as first,
        Client(server, client_info=CODEX, mode="legacy") as second,
    ):
        await first.list_tools()
        await second.list_tools()
        assert len(middleware.sessions) == 2
    gc.collect()
    assert len(middleware.sessions) == 0


@pytest.mark.anyio
async def test_a_bridged_client_name_still_gets_its_rules() -> None:
    bridged = types.Implementation(name="codex-mcp-client (via mcp-remote 0.1.29)", version="0.148.0")
    async with Client(build_server(), client_info=bridged, mode="legacy") as client:
        assert priorities(await raw(client, call("x"))) == [1]


@pytest.mark.parametrize(("value", "expected"), [(None, True), ("", True), ("on", True), ("0", True), ("OFF", True)])
def test_any_value_but_off_enables_the_middleware(value: str | None, expected: bool) -> None:
    environ = {} if value is None else {ENVIRONMENT_VARIABLE: value}
    assert enabled(environ) is expected


def test_off_disables_the_middleware() -> None:
    assert enabled({ENVIRONMENT_VARIABLE: "off"}) is False


@pytest.mark.anyio
async def test_install_does_nothing_when_switched_off() -> None:
    server = build_server(compat=False)
    chain = list(server.middleware)
    assert install(server, environ={ENVIRONMENT_VARIABLE: "off"}) is None
    assert server.middleware == chain
    async with Client(server, client_info=CODEX, mode="legacy") as client:
        assert priorities(await raw(client, call("x"))) == [0.5]


def test_the_default_environment_is_read_when_called_not_when_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "off")
    assert enabled() is False
    server = build_server(compat=False)
    assert install(server) is None
    monkeypatch.setattr(os, "environ", {})  # a replaced mapping counts, not the one there was at import
    assert enabled() is True
    assert install(server) is not None


def test_installing_twice_keeps_one_middleware() -> None:
    server = build_server(compat=False)
    first = install(server, environ={ENVIRONMENT_VARIABLE: ""})
    assert first is not None
    assert install(server, environ={}) is first
    assert sum(isinstance(entry, ClientCompatMiddleware) for entry in server.middleware) == 1


@pytest.mark.anyio
async def test_install_works_on_an_mcp_server_too() -> None:
    app = MCPServer("high-level")

    @app.tool(name=LONG_NAME)
    def report() -> types.CallToolResult:
        return types.CallToolResult(content=[annotated_text("report", 0.5)])

    assert install(app, environ={}) is not None
    async with Client(app, client_info=CODEX, mode="legacy") as client:
        exposed = (await client.list_tools()).tools[0].name
        assert exposed != LONG_NAME
        assert priorities(await raw(client, call(exposed))) == [1]


def test_install_rejects_something_that_is_not_a_server() -> None:
    with pytest.raises(InvalidInput) as caught:
        install(cast(Server[Any], object()), environ={})
    assert caught.value.value is not None


def test_rules_and_sessions_together_are_rejected() -> None:
    with pytest.raises(InvalidInput):
        ClientCompatMiddleware(load_bundled_rules(), sessions=ClientSessions(()))


# --- the middleware called directly, with a call_next that returns one shared wire dict ---

SHARED_WIRE = {
    "content": [{"type": "text", "text": "x", "annotations": {"priority": 0.5}}],
    "_meta": {"x.vendor/keep": True},
}


class FakeSession:
    """Stands in for the SDK's per-request session: only `client_params` is read."""

    def __init__(self, client_params: types.InitializeRequestParams | None) -> None:
        self.client_params = client_params


def handshake(name: str) -> types.InitializeRequestParams:
    return types.InitializeRequestParams(
        protocol_version="2025-11-25",
        capabilities=types.ClientCapabilities(),
        client_info=types.Implementation(name=name, version="1.0"),
    )


def context(
    method: str, params: Mapping[str, Any] | None, session: FakeSession, *, version: str = "2025-11-25"
) -> ServerRequestContext:
    return ServerRequestContext(
        session=cast(ServerSession, session),
        lifespan_context={},
        protocol_version=version,
        method=method,
        params=params,
        request_id=1,
    )


async def returns_shared(ctx: ServerRequestContext[Any, Any]) -> HandlerResult:
    return SHARED_WIRE


@pytest.mark.anyio
async def test_the_server_dict_itself_goes_to_an_unknown_client_and_is_never_mutated() -> None:
    middleware = ClientCompatMiddleware()
    before = copy.deepcopy(SHARED_WIRE)
    unknown = await middleware(context("tools/call", {"name": "x"}, FakeSession(handshake("other"))), returns_shared)
    codex = await middleware(
        context("tools/call", {"name": "x"}, FakeSession(handshake("codex-mcp-client"))), returns_shared
    )
    assert unknown is SHARED_WIRE
    assert isinstance(codex, dict) and priorities(codex) == [1]
    assert codex["_meta"] == {"x.vendor/keep": True}
    assert before == SHARED_WIRE


@pytest.mark.anyio
async def test_a_modern_request_is_identified_by_its_meta() -> None:
    middleware = ClientCompatMiddleware()
    meta = {CLIENT_INFO_META_KEY: {"name": "codex-mcp-client", "version": "0.148.0"}}
    ctx = context("tools/call", {"name": "x", "_meta": meta}, FakeSession(None), version="2026-07-28")
    result = await middleware(ctx, returns_shared)
    assert isinstance(result, dict) and priorities(result) == [1]


@pytest.mark.anyio
async def test_unusable_client_info_is_served_unchanged() -> None:
    middleware = ClientCompatMiddleware()
    meta = {CLIENT_INFO_META_KEY: {"name": 42}}
    ctx = context("tools/call", {"name": "x", "_meta": meta}, FakeSession(None), version="2026-07-28")
    assert await middleware(ctx, returns_shared) is SHARED_WIRE


@pytest.mark.anyio
async def test_methods_it_does_not_rewrite_pass_straight_through() -> None:
    middleware = ClientCompatMiddleware()
    ctx = context("completion/complete", {}, FakeSession(handshake("codex-mcp-client")))
    assert await middleware(ctx, returns_shared) is SHARED_WIRE
    assert len(middleware.sessions) == 0


def test_stateless_clients_are_forgotten_least_recently_used_first() -> None:
    sessions = ClientSessions(load_bundled_rules(), max_stateless_clients=2)
    for name in ("codex-mcp-client", "claude-code", "cursor-vscode"):
        meta = {CLIENT_INFO_META_KEY: {"name": name, "version": "1"}}
        assert sessions.session_for(protocol_version="2026-07-28", request_meta=meta, client_params=None) is not None
    assert len(sessions) == 2


@pytest.mark.parametrize("bound", [0, -1, True, 1.5])
def test_a_bad_stateless_bound_is_rejected(bound: Any) -> None:
    with pytest.raises(InvalidInput):
        ClientSessions((), max_stateless_clients=bound)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(
    meta=st.dictionaries(st.sampled_from([CLIENT_INFO_META_KEY, "other"]), JSON, max_size=2),
    version=st.sampled_from(["2025-11-25", "2026-07-28"]),
)
def test_any_request_meta_gives_a_session_or_none_and_is_not_mutated(meta: dict[str, Any], version: str) -> None:
    sessions = ClientSessions(load_bundled_rules())
    before = copy.deepcopy(meta)
    found = sessions.session_for(protocol_version=version, request_meta=meta, client_params=None)
    assert found is None or found.profile.identity is not None
    assert meta == before
