"""The MCP Apps host-bug rewrites beyond their one bundled case each: where they must leave the input alone."""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types
import pytest
from mcp.client import Client
from mcp.server import MCPServer

from hostcompat.apps.constants import EXTENSION_ID, RESOURCE_MIME_TYPE
from hostcompat.clients.detect import CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, parse_client_spec
from hostcompat.clients.middleware import install
from hostcompat.clients.proxy.tracker import SessionTracker
from hostcompat.clients.rewrite import EMPTY_SESSION, SessionState, plan_rewrites, rewrite_request, rewrite_result
from hostcompat.clients.rewrites.apps import declare_ui_capability, fill_ui_uri_keys, mirror_structured_content
from hostcompat.clients.rules import find_rule, load_bundled_rules
from tests.clients._wire import call, raw

BUNDLED = load_bundled_rules()
TEMPLATE = "ui://widget/jira-widget.html"


def _listing(meta: dict[str, Any]) -> dict[str, Any]:
    return {"tools": [{"name": "getJiraIssue", "inputSchema": {"type": "object"}, "_meta": meta}]}


def _vscode_listing(server: dict[str, Any] | None) -> Any:
    profile = plan_rewrites(parse_client_spec("Visual Studio Code@1.116.0"), BUNDLED)
    listing = _listing({"openai/outputTemplate": TEMPLATE})
    return listing, rewrite_result("tools/list", listing, profile, SessionState(server_capabilities=server)).result


def test_vscode_keeps_the_template_when_the_server_capabilities_are_unknown() -> None:
    listing, result = _vscode_listing(None)
    assert result is listing


def test_vscode_keeps_the_template_of_a_server_that_serves_resources() -> None:
    listing, result = _vscode_listing({"resources": {}, "tools": {}})
    assert result is listing


def test_vscode_loses_the_template_only_and_keeps_the_mcp_apps_keys() -> None:
    profile = plan_rewrites(parse_client_spec("Visual-Studio-Code@1.120.0"), BUNDLED)
    listing = _listing({"ui": {"resourceUri": TEMPLATE}, "openai/outputTemplate": TEMPLATE, "x.vendor/keep": 1})
    result = rewrite_result("tools/list", listing, profile, SessionState(server_capabilities={"tools": {}})).result
    assert result["tools"][0]["_meta"] == {"ui": {"resourceUri": TEMPLATE}, "x.vendor/keep": 1}
    assert listing["tools"][0]["_meta"]["openai/outputTemplate"] == TEMPLATE


def _modern_params(capabilities: dict[str, Any] | None) -> dict[str, Any]:
    meta: dict[str, Any] = {CLIENT_INFO_META_KEY: {"name": "claude-ai", "version": "0.1.0"}}
    if capabilities is not None:
        meta[CLIENT_CAPABILITIES_META_KEY] = capabilities
    return {"_meta": meta}


def test_claude_ai_declares_the_ui_extension_in_a_2026_request_envelope() -> None:
    profile = plan_rewrites(
        parse_client_spec("claude-ai@0.1.0"), [find_rule(BUNDLED, "claude-ai.declare-ui-capability")]
    )
    params = _modern_params({"roots": {}})
    rewritten = rewrite_request("tools/list", params, profile)
    declared = rewritten.params["_meta"][CLIENT_CAPABILITIES_META_KEY]
    assert declared == {"roots": {}, "extensions": {EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}}}
    assert params["_meta"][CLIENT_CAPABILITIES_META_KEY] == {"roots": {}}
    assert rewritten.applied == ("claude-ai.declare-ui-capability",)


def test_a_request_without_client_capabilities_in_its_envelope_is_left_alone() -> None:
    params = _modern_params(None)
    assert declare_ui_capability("tools/list", params, {}) is params


def test_an_initialize_without_capabilities_gets_the_extension_and_one_that_declares_it_stays() -> None:
    bare = {"protocolVersion": "2025-11-25", "clientInfo": {"name": "claude-ai", "version": "0.1.0"}}
    assert declare_ui_capability("initialize", bare, {})["capabilities"] == {
        "extensions": {EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}}
    }
    desktop = {**bare, "capabilities": {"extensions": {EXTENSION_ID: {"mimeTypes": ["text/html;profile=mcp-app"]}}}}
    assert declare_ui_capability("initialize", desktop, {}) is desktop


def test_claude_code_is_never_given_the_ui_extension() -> None:
    """The Code-tab engine does not render apps (claude-ai-mcp #830): declaring it for that client would be a lie."""
    profile = plan_rewrites(parse_client_spec("claude-code@2.1.226"), BUNDLED)
    params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "claude-code"}}
    assert rewrite_request("initialize", params, profile).params is params


def test_the_mirror_leaves_a_result_that_already_holds_its_json_or_is_too_large() -> None:
    structured = {"rows": [{"id": 1}]}
    mirrored = {
        "content": [{"type": "text", "text": json.dumps(structured, indent=2)}],
        "structuredContent": structured,
    }
    assert mirror_structured_content("tools/call", mirrored, {"max_chars": 1000}) is mirrored
    large = {"content": [], "structuredContent": {"blob": "x" * 200}}
    assert mirror_structured_content("tools/call", large, {"max_chars": 100}) is large
    plain = {"content": [{"type": "text", "text": "hi"}]}
    assert mirror_structured_content("tools/call", plain, {"max_chars": 100}) is plain


def test_the_mirror_does_not_fire_without_structured_content_for_claude_desktop() -> None:
    profile = plan_rewrites(parse_client_spec("claude-ai@0.1.0"), BUNDLED)
    result = {"content": [{"type": "text", "text": "done"}], "structuredContent": None}
    assert rewrite_result("tools/call", result, profile).result is result


def test_uri_keys_fill_from_any_one_key_and_leave_disagreeing_keys_alone() -> None:
    flat_only = _listing({"ui/resourceUri": TEMPLATE})
    filled = fill_ui_uri_keys("tools/list", flat_only, {"write": ("nested", "openai")})
    assert filled["tools"][0]["_meta"] == {
        "ui/resourceUri": TEMPLATE,
        "ui": {"resourceUri": TEMPLATE},
        "openai/outputTemplate": TEMPLATE,
    }
    disagree = _listing({"ui": {"resourceUri": TEMPLATE}, "openai/outputTemplate": "ui://widget/other.html"})
    assert fill_ui_uri_keys("tools/list", disagree, {"write": ("flat",)}) is disagree
    odd_ui = _listing({"ui": "not an object", "ui/resourceUri": TEMPLATE})
    assert fill_ui_uri_keys("tools/list", odd_ui, {"write": ("nested",)}) is odd_ui


def _initialize(tracker: SessionTracker, client: dict[str, Any], server_capabilities: dict[str, Any]) -> None:
    params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client}
    tracker.client_request(0, "initialize", params)
    tracker.server_result(0, {"protocolVersion": "2025-11-25", "capabilities": server_capabilities})


def test_the_proxy_learns_the_server_capabilities_from_initialize_and_drops_the_template_for_vscode() -> None:
    tracker = SessionTracker(BUNDLED)
    _initialize(tracker, {"name": "Visual Studio Code", "version": "1.110.1"}, {"tools": {}})
    tracker.client_request(1, "tools/list", {})
    answer = tracker.server_result(1, _listing({"openai/outputTemplate": TEMPLATE}))
    assert answer is not None and answer.result["tools"][0]["_meta"] == {}
    assert answer.applied == ("vscode.drop-unserved-output-template",)


def test_the_proxy_declares_the_ui_extension_upstream_for_claude_ai_only() -> None:
    tracker = SessionTracker(BUNDLED)
    params = {"protocolVersion": "2025-11-25", "capabilities": {"roots": {}}, "clientInfo": {"name": "claude-ai"}}
    forwarded = tracker.client_request(0, "initialize", params)
    assert forwarded["capabilities"]["extensions"] == {EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}}
    other = SessionTracker(BUNDLED)
    codex = {**params, "clientInfo": {"name": "codex-mcp-client", "version": "0.150.0"}}
    assert other.client_request(0, "initialize", codex) is codex


def test_an_answer_is_rewritten_for_the_client_that_asked_even_when_another_asked_since() -> None:
    """2026-07-28 requests each name their client: an answer in flight keeps the rules of its own request."""
    tracker = SessionTracker(BUNDLED)
    result = {"content": [{"type": "text", "text": "x", "annotations": {"priority": 0.5}}]}

    def meta(name: str) -> dict[str, Any]:
        return {"_meta": {CLIENT_INFO_META_KEY: {"name": name, "version": "1.0.0"}}, "name": "t"}

    tracker.client_request(1, "tools/call", meta("codex-mcp-client"))
    tracker.client_request(2, "tools/call", meta("claude-code"))
    codex = tracker.server_result(1, result)
    claude = tracker.server_result(2, result)
    assert codex is not None and codex.result["content"][0]["annotations"]["priority"] == 1
    assert claude is not None and claude.result is result
    assert EMPTY_SESSION.server_capabilities is None


async def _called_as(name: str) -> dict[str, Any]:
    """A tools/call result on a real in-memory SDK pair with the middleware, for the client `name`."""

    def chart() -> types.CallToolResult:
        return types.CallToolResult(
            content=[types.TextContent(type="text", text="Chart ready")], structured_content={"points": [1, 2]}
        )

    server = MCPServer("charts")
    server.add_tool(chart, name="chart")
    install(server, environ={})
    async with Client(server, client_info=types.Implementation(name=name, version="0.1.0"), mode="legacy") as client:
        return await raw(client, call("chart"))


@pytest.mark.anyio
async def test_the_middleware_mirrors_structured_content_for_claude_desktop_only() -> None:
    desktop = await _called_as("claude-ai")
    assert json.loads(desktop["content"][0]["text"]) == {"points": [1, 2]}
    assert desktop["content"][1] == {"type": "text", "text": "Chart ready"}
    other = await _called_as("claude-code")
    assert other["content"] == [{"type": "text", "text": "Chart ready"}]
