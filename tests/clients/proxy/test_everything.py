"""server-everything (the MCP reference server), run directly and through the proxy over stdio: same JSON."""

import base64
import binascii
import json
import os
import re
import sys
from typing import Any

import anyio
import pytest
from mcp.client.stdio import StdioServerParameters, stdio_client

from hostcompat.clients.proxy.tracker import SessionTracker
from tests.clients.proxy._interop import everything_server
from tests.clients.proxy._support import BUNDLED, CODEX, ELICITED, NOBODY, SAMPLED, RawPeer

pytestmark = [pytest.mark.anyio, pytest.mark.interop, pytest.mark.xdist_group("timing")]
"""`timing`: time-bounded reads of spawned servers, run one after another in one worker (scripts/check)."""

CONDITIONAL_TOOL = "trigger-sampling-request"
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("echo", {"message": "hello through the proxy"}),
    ("get-sum", {"a": 1.5, "b": 2}),
    ("get-annotated-message", {"messageType": "success", "includeImage": True}),
    ("get-annotated-message", {"messageType": "debug"}),
    ("get-resource-links", {"count": 3}),
    ("get-resource-reference", {"resourceType": "Blob", "resourceId": 2}),
    ("get-structured-content", {"location": "Chicago"}),
    ("get-tiny-image", {}),
    ("trigger-sampling-request", {"prompt": "Say hi", "maxTokens": 5}),
    ("trigger-elicitation-request", {}),
    ("get-roots-list", {}),
    ("no-such-tool", {}),
]


def direct() -> StdioServerParameters:
    command = everything_server()
    return StdioServerParameters(command=command[0], args=command[1:])


def through_proxy(*options: str) -> StdioServerParameters:
    command = everything_server()
    return StdioServerParameters(command=sys.executable, args=["-m", "hostcompat.cli.proxy", *options, "--", *command])


CLOCK = re.compile(r"\b\d{1,2}:\d{2}:\d{2}( [AP]M)?")


def steady(value: Any, key: str = "") -> Any:
    """`value` with clock times (the server stamps its dynamic resources) blanked, base64 blobs included."""
    if isinstance(value, dict):
        return {k: steady(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [steady(item) for item in value]
    if isinstance(value, str) and key == "blob":
        try:
            text = base64.b64decode(value, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return value
        return base64.b64encode(CLOCK.sub("<time>", text).encode()).decode()
    if isinstance(value, str):
        return CLOCK.sub("<time>", value)
    return value


async def run_script(server: StdioServerParameters, client: dict[str, Any]) -> dict[str, Any]:
    """The requests of a full session, and what came back for each (results, server requests, progress)."""
    out: dict[str, Any] = {"requests": [], "responses": []}

    async def ask(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        response = await peer.call(method, params)
        out["requests"].append((method, params))
        out["responses"].append(response)
        return response

    with open(os.devnull, "w") as quiet:
        async with stdio_client(server, errlog=quiet) as (read, write):
            peer = RawPeer(read, write)
            await ask("initialize", {**_init(client)})
            await peer.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            for _ in range(200):  # the server adds its capability-dependent tools just after initialization
                listing = await peer.call("tools/list")
                if CONDITIONAL_TOOL in {tool["name"] for tool in listing["result"]["tools"]}:
                    break
            out["requests"].append(("tools/list", None))
            out["responses"].append(listing)
            await ask("prompts/list")
            resources = await ask("resources/list")
            await ask("resources/templates/list")
            await ask("resources/read", {"uri": resources["result"]["resources"][0]["uri"]})
            await ask("resources/read", {"uri": "demo://resource/dynamic/blob/3"})
            await ask("prompts/get", {"name": "simple-prompt"})
            await ask("prompts/get", {"name": "args-prompt", "arguments": {"city": "Oslo"}})
            await ask(
                "prompts/get", {"name": "resource-prompt", "arguments": {"resourceType": "Text", "resourceId": "2"}}
            )
            await ask(
                "completion/complete",
                {
                    "ref": {"type": "ref/prompt", "name": "completable-prompt"},
                    "argument": {"name": "department", "value": "E"},
                },
            )
            for name, arguments in CALLS:
                await ask("tools/call", {"name": name, "arguments": arguments})
            long_call = {"name": "trigger-long-running-operation", "arguments": {"duration": 0.3, "steps": 3}}
            await ask("tools/call", {**long_call, "_meta": {"progressToken": "long-1"}})
            out["cancelled"] = await cancel_a_call(peer)
            out["server_requests"] = [
                (m["method"], m.get("params")) for m in peer.received if "method" in m and "id" in m
            ]
            out["progress"] = [
                m["params"]
                for m in peer.notifications("notifications/progress")
                if m["params"]["progressToken"] == "long-1"
            ]
    return out


def _init(client: dict[str, Any]) -> dict[str, Any]:
    return {
        "protocolVersion": "2025-11-25",
        "capabilities": {"sampling": {}, "elicitation": {"form": {}}, "roots": {"listChanged": True}},
        "clientInfo": client,
    }


async def cancel_a_call(peer: RawPeer) -> list[dict[str, Any]]:
    """Cancel a long call after its first progress; the messages with its id that came back anyway."""
    slow = {"name": "trigger-long-running-operation", "arguments": {"duration": 1.2, "steps": 4}}
    await peer.request("tools/call", {**slow, "_meta": {"progressToken": "cancel-me"}}, request_id="cancel-me")
    while not [m for m in peer.notifications("notifications/progress") if m["params"]["progressToken"] == "cancel-me"]:
        message = await peer.next()
        if "method" in message and "id" in message:
            await peer.answer(message)
    cancel = {"requestId": "cancel-me", "reason": "test cancels"}
    await peer.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})
    # a call started after it and just as long ends after the cancelled one would have
    await peer.call("tools/call", {**slow, "arguments": {"duration": 1.2, "steps": 1}})
    return [m for m in peer.received if m.get("id") == "cancel-me"]


async def both(client: dict[str, Any], *options: str) -> tuple[dict[str, Any], dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}

    async def one(label: str, server: StdioServerParameters) -> None:
        results[label] = await run_script(server, client)

    async with anyio.create_task_group() as group:
        group.start_soon(one, "direct", direct())
        group.start_soon(one, "proxied", through_proxy(*options))
    return results["direct"], results["proxied"]


@pytest.mark.timeout(180)
async def test_a_client_no_rule_names_gets_exactly_what_the_server_sends() -> None:
    plain, proxied = await both(NOBODY)
    assert steady(proxied["responses"]) == steady(plain["responses"])
    assert _in_any_order(proxied["server_requests"]) == _in_any_order(plain["server_requests"])
    assert (
        proxied["progress"]
        == plain["progress"]
        == [{"progress": step, "total": 3, "progressToken": "long-1"} for step in (1, 2, 3)]
    )
    assert proxied["cancelled"] == plain["cancelled"] == []
    methods = [method for method, _ in proxied["server_requests"]]
    assert {"roots/list", "sampling/createMessage", "elicitation/create"} <= set(methods)
    texts = " ".join(
        block.get("text", "") for r in proxied["responses"] for block in r.get("result", {}).get("content", [])
    )
    assert SAMPLED["content"]["text"] in texts
    assert ELICITED["content"]["name"] in texts


def _in_any_order(requests: list[Any]) -> list[str]:
    """Server-to-client requests as a multiset: server-everything sends roots/list, sampling and elicitation
    concurrently, so their order differs from run to run, with or without the proxy."""
    return sorted(json.dumps(request, sort_keys=True) for request in requests)


@pytest.mark.timeout(180)
async def test_codex_gets_the_direct_json_with_only_its_rules_patches() -> None:
    plain, proxied = await both(CODEX)
    expected = SessionTracker(BUNDLED)
    for index, ((method, params), response) in enumerate(zip(plain["requests"], plain["responses"], strict=True)):
        expected.client_request(index, method, params)
        if "result" in response:
            answer = expected.server_result(index, response["result"])
            assert answer is not None
            response = {**response, "result": answer.result}
        assert steady(proxied["responses"][index]) == steady(response), (method, params)
    assert _in_any_order(proxied["server_requests"]) == _in_any_order(plain["server_requests"])
    assert expected.applied.get("codex.round-annotation-priority")
    assert expected.applied.get("codex.resource-link-to-text")
    annotated = [
        r
        for (m, p), r in zip(proxied["requests"], proxied["responses"], strict=True)
        if p and p.get("name") == "get-annotated-message"
    ]
    priorities = [
        block["annotations"]["priority"]
        for r in annotated
        for block in r["result"]["content"]
        if "annotations" in block and "priority" in block["annotations"]
    ]
    assert priorities and all(isinstance(value, int) for value in priorities)


@pytest.mark.timeout(180)
async def test_a_disabled_rule_leaves_codex_results_as_the_server_sent_them() -> None:
    _, proxied = await both(CODEX, "--disable", "codex.round-annotation-priority")
    annotated = [
        r
        for (m, p), r in zip(proxied["requests"], proxied["responses"], strict=True)
        if p and p.get("name") == "get-annotated-message"
    ]
    priorities = [
        block["annotations"]["priority"]
        for r in annotated
        for block in r["result"]["content"]
        if "annotations" in block and "priority" in block["annotations"]
    ]
    assert any(isinstance(value, float) for value in priorities)
