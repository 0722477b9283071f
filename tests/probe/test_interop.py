"""Probe the MCP project's real example servers (npm) over stdio, streamable HTTP and legacy SSE (listings and
widgets here, without tool calls; `test_calls_interop.py` calls their tools).

Needs node and `interop/node_modules`. Without them the tests skip, except under `CI=true`, where they fail.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from hostcompat.apps.constants import RESOURCE_MIME_TYPE
from hostcompat.probe import HttpTarget, Snapshot, SseTarget, StdioTarget, capture, capture_many
from hostcompat.probe.calls import NO_CALLS
from tests.probe._support import REPO, TIGHT, free_port, running

pytestmark = [pytest.mark.interop, pytest.mark.anyio, pytest.mark.xdist_group("timing")]
"""`timing`: time-bounded reads of spawned servers, run one after another in one worker (scripts/check)."""

INTEROP = REPO / "interop"
PACKAGES = INTEROP / "node_modules" / "@modelcontextprotocol"


@dataclass(frozen=True)
class Example:
    """One npm example server and facts read from it (they hold for the pinned version)."""

    package: str
    version: str
    server_name: str
    tools: tuple[str, ...]
    widgets: dict[str, str] = field(default_factory=dict)
    """Tool name to the `ui://` resource it names; each widget is the package's `dist/mcp-app.html`."""
    stdio_args: tuple[str, ...] = ("--stdio",)
    http_args: tuple[str, ...] = ()
    prompts: tuple[str, ...] = ()

    @property
    def entry(self) -> Path:
        return PACKAGES / self.package / "dist" / "index.js"


EXAMPLES = (
    Example(
        "server-basic-react",
        "2.0.3",
        "Basic MCP App Server (React)",
        ("get-time",),
        {"get-time": "ui://get-time/mcp-app.html"},
    ),
    Example(
        "server-map",
        "2.0.3",
        "CesiumJS Map Server",
        ("show-map", "geocode"),
        {"show-map": "ui://cesium-map/mcp-app.html"},
    ),
    Example(
        "server-budget-allocator",
        "2.0.3",
        "Budget Allocator Server",
        ("get-budget-data",),
        {"get-budget-data": "ui://budget-allocator/mcp-app.html"},
    ),
    Example(
        "server-everything",
        "2026.8.31",
        "mcp-servers/everything",
        ("echo", "get-sum", "get-tiny-image", "get-structured-content"),
        stdio_args=("stdio",),
        http_args=("streamableHttp",),
        prompts=("simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"),
    ),
)
IDS = [example.package for example in EXAMPLES]


def require(example: Example) -> None:
    """Skip (or fail under CI) when node or the package is missing; fail when the pinned version moved."""
    missing = []
    if shutil.which("node") is None:
        missing.append("node is not on PATH")
    if not example.entry.is_file():
        missing.append(f"{example.entry} is missing (run npm ci in {INTEROP})")
    if missing:
        message = "interop: " + "; ".join(missing)
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    installed = json.loads((PACKAGES / example.package / "package.json").read_text("utf-8"))["version"]
    moved = f"{example.package} is {installed}; these facts were read from {example.version}"
    assert installed == example.version, moved


def stdio(example: Example) -> StdioTarget:
    return StdioTarget("node", [str(example.entry), *example.stdio_args], cwd=str(INTEROP))


def check(snapshot: Snapshot, example: Example) -> None:
    assert snapshot.events == (), [event.to_dict() for event in snapshot.events]
    assert snapshot.server_info is not None and snapshot.server_info["name"] == example.server_name
    names = [tool["name"] for tool in snapshot.tools]
    assert set(example.tools) <= set(names)
    assert [prompt["name"] for prompt in snapshot.prompts] == list(example.prompts)
    assert not any(snapshot.is_unknown(dimension) for dimension in ("tools", "resources", "prompts", "uiResources"))
    tools = {tool["name"]: tool for tool in snapshot.tools}
    for tool_name, uri in example.widgets.items():
        assert tools[tool_name]["_meta"]["ui"]["resourceUri"] == uri
        listing = snapshot.resource_listing(uri)
        assert listing is not None and listing["mimeType"] == RESOURCE_MIME_TYPE
        shipped = (PACKAGES / example.package / "dist" / "mcp-app.html").read_bytes()
        widget = snapshot.ui_resources[uri]
        (item,) = widget.contents
        assert item["mimeType"] == RESOURCE_MIME_TYPE
        html = item["text"].encode("utf-8")
        assert widget.bytes == len(shipped) and not widget.truncated
        assert hashlib.sha256(html).hexdigest() == hashlib.sha256(shipped).hexdigest()
    assert set(snapshot.ui_resources) == set(example.widgets.values())


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
async def test_each_example_over_stdio(example: Example) -> None:
    require(example)
    snapshot = await capture(stdio(example), limits=TIGHT, calls=NO_CALLS)
    check(snapshot, example)
    assert snapshot.process is not None and snapshot.process["ended"] in ("stdin-closed", "sigterm")


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
async def test_each_example_over_streamable_http(example: Example) -> None:
    require(example)
    port = free_port()
    with running(["node", str(example.entry), *example.http_args], port, env={"PORT": str(port)}, cwd=INTEROP):
        snapshot = await capture(HttpTarget(f"http://127.0.0.1:{port}/mcp"), limits=TIGHT, calls=NO_CALLS)
    check(snapshot, example)


async def test_the_everything_server_over_legacy_sse() -> None:
    example = EXAMPLES[-1]
    require(example)
    port = free_port()
    with running(["node", str(example.entry), "sse"], port, env={"PORT": str(port)}, cwd=INTEROP):
        snapshot = await capture(SseTarget(f"http://127.0.0.1:{port}/sse"), limits=TIGHT, calls=NO_CALLS)
    check(snapshot, example)


async def test_all_examples_at_once_match_their_one_by_one_captures() -> None:
    for example in EXAMPLES:
        require(example)
    snapshots = await capture_many([stdio(example) for example in EXAMPLES], limits=TIGHT, calls=NO_CALLS)
    for snapshot, example in zip(snapshots, EXAMPLES, strict=True):
        check(snapshot, example)
