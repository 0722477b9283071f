"""`hostcompat probe-host` over stdio with the official SDK's client: the server records the client's initialize
(clientInfo, capabilities, extensions, protocol version), writes what a view reports as a catalog override naming
that client, the OS and the registration path, and a model's confirmation decides the ui/message fact."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client, advertise
from mcp.client.stdio import StdioServerParameters
from mcp_types import Implementation

from hostcompat.apps.constants import EXTENSION_ID, RESOURCE_MIME_TYPE
from hostcompat.engine.catalog.host_context import HostContext, in_context
from hostcompat.engine.catalog.load import load_catalog

pytestmark = pytest.mark.timeout(120)
UI = advertise(EXTENSION_ID, {"mimeTypes": [RESOURCE_MIME_TYPE]})
REPORT: dict[str, Any] = {
    "variant": "declared",
    "ui": {"protocolVersion": "2026-01-26", "hostInfo": {"name": "VS Code", "version": "1.120.0"}},
    "requests": {
        "ui/message": {"outcome": "result", "result": {}},
        "ui/update-model-context": {"outcome": "error", "code": -32601, "message": "Method not found"},
        "tools/call:app": {"outcome": "result", "result": {"structuredContent": {"token": "echo-1"}}},
    },
    "tokens": {"ui/message": "msg-42", "echo": "echo-1"},
    "delivery": {"toolInput": True, "toolResult": True, "structuredContent": True, "meta": True},
    "navigator": {"platform": "Win32", "userAgent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Code/1.120.0"},
}


def _server(out: Path) -> StdioServerParameters:
    args = ["-m", "hostcompat", "probe-host", "-o", str(out), "--registration", "config-file"]
    return StdioServerParameters(command=sys.executable, args=args, env=dict(os.environ))


@pytest.mark.anyio
async def test_the_server_records_the_clients_initialize_and_writes_what_the_view_saw(tmp_path: Path) -> None:
    out = tmp_path / "probe.json"
    info = Implementation(name="Visual Studio Code", version="1.120.0")
    async with Client(_server(out), extensions=[UI], mode="legacy", client_info=info) as client:
        shown = await client.call_tool("probe_host", {})
        seen = (shown.structured_content or {})["initialize"]
        assert seen["clientInfo"] == {"name": "Visual Studio Code", "version": "1.120.0"}
        assert seen["protocolVersion"] == client.protocol_version
        assert f"extensions/{EXTENSION_ID}" in seen["capabilities"]
        first = json.loads(out.read_text(encoding="utf-8"))  # before any report: the client, the transport
        assert "No widget report yet" in first["catalog"]["description"]
        assert "ui.formats.mcp-apps" not in json.dumps(first["hosts"])
        written = await client.call_tool("probe_report", {"report": REPORT})
        assert not written.is_error, written
        document = json.loads(out.read_text(encoding="utf-8"))
        description = document["catalog"]["description"]
        assert "clientInfo Visual Studio Code 1.120.0" in description and "UI extension declared" in description
        assert f"capabilities extensions/{EXTENSION_ID}" in description
        assert "ui/message: accepted, but the model never confirmed" in description
        confirmed = await client.call_tool("probe_confirm", {"token": "msg-42"})
        assert "wrote" in str(confirmed.content[0].text if confirmed.content else "")  # type: ignore[union-attr]
    document = json.loads(out.read_text(encoding="utf-8"))
    (host,) = document["hosts"]
    assert host["id"] == "vscode"  # found by its clientInfo name in the catalog
    facts = {variant["path"]: variant for variant in host["variants"]}
    message = facts["ui.mcpApps.features.message"]
    assert (message["value"], message["os"], message["registration"]) == ("supported", ["windows"], ["config-file"])
    assert "Visual Studio Code 1.120.0" in message["source"] and message["provenance"] == "probe"
    assert facts["ui.mcpApps.features.updateModelContext"]["value"] == "unsupported"
    vscode = in_context(
        load_catalog(overrides=[out]).get("vscode"), HostContext(os="windows", registration="config-file")
    )
    assert vscode.facts["server.transports.stdio"].provenance == "probe"


@pytest.mark.anyio
async def test_an_oversized_or_malformed_report_is_refused_or_read_as_nothing(tmp_path: Path) -> None:
    out = tmp_path / "probe.json"
    async with Client(_server(out), mode="legacy") as client:
        big = await client.call_tool("probe_report", {"report": {"variant": "declared", "pad": "x" * 70_000}})
        assert big.is_error and not out.exists()
        hostile = {"variant": ["plain"], "requests": {"ui/message": "yes"}, "ui": {"hostInfo": {"name": "\x1b[31mX"}}}
        answer = await client.call_tool("probe_report", {"report": hostile})
        assert not answer.is_error
    document = json.loads(out.read_text(encoding="utf-8"))
    assert "\x1b" not in json.dumps(document)
    load_catalog(overrides=[out])  # still a valid override
