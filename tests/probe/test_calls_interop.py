"""Tool calls against the MCP project's real `server-everything` (npm), over stdio and streamable HTTP.

The pinned version's annotations: echo, get-annotated-message, get-structured-content and get-sum are read-only but
need arguments; get-env, get-resource-links, get-resource-reference, get-tiny-image and
trigger-long-running-operation are read-only and need none; gzip-file-as-resource, toggle-simulated-logging,
toggle-subscriber-updates and simulate-research-query are annotated `readOnlyHint: false`.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.pipeline import check_snapshot
from hostcompat.probe import CallPlan, ExplicitCall, HttpTarget, Snapshot, capture
from hostcompat.probe.target import REDACTED
from tests.probe._support import TIGHT, free_port, running
from tests.probe.test_interop import EXAMPLES, INTEROP, require, stdio

pytestmark = [pytest.mark.interop, pytest.mark.anyio]

EVERYTHING = next(example for example in EXAMPLES if example.package == "server-everything")
LIMITS = replace(TIGHT, total_timeout=30.0, call_timeout=2.0)
SAFE = ("get-env", "get-resource-links", "get-resource-reference", "get-tiny-image", "trigger-long-running-operation")
NOT_READ_ONLY = ("gzip-file-as-resource", "toggle-simulated-logging", "toggle-subscriber-updates")
NEED_ARGUMENTS = ("echo", "get-annotated-message", "get-structured-content", "get-sum")
SECRET = "everything-secret-4711"


def hints_of(snapshot: Snapshot) -> dict[str, dict[str, object]]:
    return {tool["name"]: tool.get("annotations") or {} for tool in snapshot.tools}


def check_safe_calls(snapshot: Snapshot) -> None:
    hints = hints_of(snapshot)
    assert all(hints[name]["readOnlyHint"] is True for name in SAFE + NEED_ARGUMENTS)
    assert all(hints[name]["readOnlyHint"] is False for name in NOT_READ_ONLY)
    assert [record.tool for record in snapshot.calls] == list(SAFE)
    assert not set(NOT_READ_ONLY + NEED_ARGUMENTS) & set(snapshot.call_outcomes)
    outcomes = dict(snapshot.call_outcomes)
    assert outcomes.pop("trigger-long-running-operation") == "timeout"  # 10 s by default: cut at the 2 s limit
    assert set(outcomes.values()) == {"ok"}
    image = snapshot.call_results["get-tiny-image"]["content"][1]
    assert image["type"] == "image" and image["mimeType"] == "image/png" and len(image["data"]) > 1000
    links = [block for block in snapshot.call_results["get-resource-links"]["content"] if block["type"] != "text"]
    assert links and {block["type"] for block in links} == {"resource_link"}


async def test_the_read_only_tools_without_arguments_are_called_over_stdio_and_secrets_stay_out() -> None:
    require(EVERYTHING)
    target = replace(stdio(EVERYTHING), env={"EVERYTHING_API_TOKEN": SECRET})
    snapshot = await capture(target, limits=LIMITS)
    check_safe_calls(snapshot)
    env_text = snapshot.call_results["get-env"]["content"][0]["text"]
    assert SECRET not in env_text and f'"EVERYTHING_API_TOKEN": "{REDACTED}"' in env_text
    assert {event.code for event in snapshot.events} <= {"PROBE-TIMEOUT-TOOLS-CALL", "PROBE-SHUTDOWN-TERMINATED"}


async def test_tools_that_are_not_read_only_are_called_only_when_named() -> None:
    require(EVERYTHING)
    plan = CallPlan(
        auto=False,
        explicit=(ExplicitCall("toggle-simulated-logging"), ExplicitCall("echo", {"message": "hello"})),
    )
    snapshot = await capture(stdio(EVERYTHING), limits=LIMITS, calls=plan)
    assert [(record.tool, record.reason, record.outcome) for record in snapshot.calls] == [
        ("toggle-simulated-logging", "explicit", "ok"),
        ("echo", "explicit", "ok"),
    ]
    assert snapshot.call_results["echo"] == {"content": [{"type": "text", "text": "Echo: hello"}]}
    assert snapshot.calls[1].arguments == {"message": "hello"}


async def test_calls_over_streamable_http_reach_the_engine_as_evidence() -> None:
    require(EVERYTHING)
    port = free_port()
    argv = ["node", str(EVERYTHING.entry), *EVERYTHING.http_args]
    with running(argv, port, env={"PORT": str(port)}, cwd=INTEROP):
        snapshot = await capture(HttpTarget(f"http://127.0.0.1:{port}/mcp"), limits=LIMITS)
    check_safe_calls(snapshot)
    entry = check_snapshot(snapshot, load_catalog())
    sources = {evidence["source"] for host in entry["hosts"] for f in host["findings"] for evidence in f["evidence"]}
    assert {"call:get-tiny-image", "call:get-resource-links"} <= sources  # the result checks read the captures
