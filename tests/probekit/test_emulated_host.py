"""The probe kit end to end under an emulated host: its widgets run in headless Chromium on the observed-evidence test
host page, speaking a catalog host's bridge, and call the real probe server (an official-SDK client in memory,
introducing itself as that host); the file the server writes loads as a catalog override, and `check` then uses it.

The host emulated is Goose as the catalog describes it, but with `serverTools` supported (a Goose that has since
gained it): the probe must find that out, and the board example's verdict on Goose must then change with the file.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client, advertise
from mcp_types import Implementation

from hostcompat.apps.constants import EXTENSION_ID, RESOURCE_MIME_TYPE
from hostcompat.cli.command_line import main
from hostcompat.engine.catalog.host_context import HostContext, in_context
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.catalog.model import Fact, HostProfile, QuirkRef
from hostcompat.observe.host_profile import emulate_host
from hostcompat.observe.record import RunRecord
from hostcompat.observe.runner import Observer, RunLimits
from hostcompat.observe.widget import widget_jobs
from hostcompat.probekit.server import ProbeState, build_probe_server, probe_options
from hostcompat.probekit.widget import SHOW_PLAIN_TOOL, SHOW_TOOL, WIDGET_URIS
from testkit.snapshots import make_snapshot
from tests.observe.support import require_browser

pytestmark = pytest.mark.timeout(300)
UI = advertise(EXTENSION_ID, {"mimeTypes": [RESOURCE_MIME_TYPE]})
LIMITS = RunLimits(settle=8.0, run=40.0, hard=70.0)
SERVER_TOOLS = "ui.mcpApps.features.serverTools"


def _wire(model: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = model.model_dump(by_alias=True, exclude_none=True, mode="json")
    return dumped


def _pinned(level: str) -> Fact:
    return Fact(level, "assumed", "the host this test emulates", "2026-12-04")


PINNED = {
    SERVER_TOOLS: "supported",  # a Goose that has gained server tools since the catalog's sources
    "ui.mcpApps.features.message": "unsupported",
    "ui.mcpApps.features.serverResources": "unsupported",
    "ui.mcpApps.features.openLinks": "supported",
}
"""What the emulated host does for the features the test asserts, whatever the bundled catalog says today."""


def goose_with_server_tools() -> HostProfile:
    goose = load_catalog().get("goose")
    facts = {**goose.facts, **{path: _pinned(level) for path, level in PINNED.items()}}
    return dataclasses.replace(goose, facts=types.MappingProxyType(facts), quirks=())


async def _probe(
    out: Path, profile: HostProfile, client_name: str = "goose-desktop"
) -> tuple[ProbeState, list[RunRecord]]:
    server, state = build_probe_server(probe_options(out), load_catalog())
    info = Implementation(name=client_name, version="1.30.0")
    async with Client(server, extensions=[UI], mode="legacy", client_info=info) as client:

        async def forward(method: str, params: Any) -> Mapping[str, Any]:
            args = params if isinstance(params, Mapping) else {}
            if method == "tools/call":
                return {"result": _wire(await client.call_tool(str(args.get("name")), args.get("arguments") or {}))}
            if method == "resources/read":
                return {"result": _wire(await client.read_resource(str(args.get("uri"))))}
            return {"error": {"code": -32601, "message": "Method not found"}}

        tools = [_wire(tool) for tool in (await client.list_tools()).tools]
        pages = {uri: _wire(await client.read_resource(uri))["contents"][0] for uri in WIDGET_URIS.values()}
        listing = [_wire(item) for item in (await client.list_resources()).resources]
        results = {name: _wire(await client.call_tool(name, {})) for name in (SHOW_TOOL, SHOW_PLAIN_TOOL)}
        jobs, skipped = widget_jobs(make_snapshot(tools, pages, listing), call_results=results)
        assert not skipped and {job.uri for job in jobs} == set(WIDGET_URIS.values())
        host = emulate_host(profile)
        async with Observer() as observer:
            records = [await observer.observe(job, host, forward, limits=LIMITS, explore=False) for job in jobs]
    return state, records


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ProbeState, list[RunRecord]]:
    require_browser()
    out = tmp_path_factory.mktemp("probe") / "goose-probe.json"
    state, records = asyncio.run(_probe(out, goose_with_server_tools()))
    return out, state, records


def test_both_widgets_report_and_the_file_loads_as_a_catalog_override(probed: Any) -> None:
    out, state, records = probed
    assert set(state.views) == {"declared", "plain"}, [record.to_dict() for record in records]
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document == state.written
    catalog = load_catalog(overrides=[out])
    goose = catalog.get("goose")
    linux = in_context(goose, HostContext(os="linux"))
    tools = linux.facts[SERVER_TOOLS]
    assert (tools.value, tools.provenance) == ("supported", "probe")
    assert "goose-desktop 1.30.0" in tools.source and "linux" in tools.source
    assert goose.facts[SERVER_TOOLS] == load_catalog().get("goose").facts[SERVER_TOOLS]  # the common path: as before
    assert linux.facts["ui.mcpApps.features.message"].value == "unsupported"  # refused by the emulated Goose
    assert linux.facts["ui.mcpApps.features.serverResources"].value == "unsupported"
    assert linux.facts["ui.mcpApps.features.openLinks"].value == "supported"
    assert linux.facts["ui.mcpApps.features.toolResult"].value == "supported"  # no stripping quirk replayed
    # the test host builds the CSP from the declared origins: declared ones pass, undeclared ones are refused
    assert linux.facts["ui.mcpApps.features.cspConnectDomains"].value == "supported"
    assert linux.facts["ui.mcpApps.features.cspFrameDomains"].value == "supported"
    assert "does not enforce" not in document["catalog"]["description"]
    assert "registration not named" in document["catalog"]["description"]


def test_check_uses_the_probe_file(probed: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, _, _ = probed
    snapshot = tmp_path / "board.json"
    assert main(["snapshot", "-o", str(snapshot), "--", "python", "-m", "hostcompat.examples.board"]) == 0
    # the user's catalog says Goose offers no server tools (as the bundled one does at the time of writing)
    before = tmp_path / "mine.json"
    unsupported = {"value": "unsupported", "provenance": "observed", "source": "test", "date": "2026-12-01"}
    tools = {"ui": {"mcpApps": {"features": {"serverTools": unsupported}}}}
    before.write_text(
        json.dumps({"catalog": {"schemaVersion": 1, "date": "2026-12-01"}, "hosts": [{"id": "goose", **tools}]})
    )
    capsys.readouterr()

    def goose_report(*extra: str) -> dict[str, Any]:
        main(["check", str(snapshot), "--host", "goose", "--format", "json", "--catalog", str(before), *extra])
        report = json.loads(capsys.readouterr().out)
        host: dict[str, Any] = report["servers"][0]["hosts"][0]
        return host

    def rules(host: dict[str, Any]) -> set[str]:
        return {finding["ruleId"] for finding in host["findings"]}

    without = goose_report("--host-context", "goose:os=linux")
    assert without["verdict"] == "degraded" and "APPS-CAP-001" in rules(without)
    with_probe = goose_report("--catalog", str(out), "--host-context", "goose:os=linux")
    assert "APPS-CAP-001" not in rules(with_probe)
    assert with_probe["verdict"] == "works", with_probe
    elsewhere = goose_report("--catalog", str(out), "--host-context", "goose:os=windows")
    assert "APPS-CAP-001" in rules(elsewhere)  # the probe says nothing about Windows


STRIPS = "claude-desktop-tool-result-strips-structured"


def claude_stripping_results() -> HostProfile:
    """Claude with the quirk replayed whatever versions the catalog gives it, and the features the test asserts."""
    claude = load_catalog().get("claude")
    features = ("serverTools", "serverResources", "updateModelContext")
    facts = {**claude.facts, **{f"ui.mcpApps.features.{name}": _pinned("supported") for name in features}}
    strips = QuirkRef(STRIPS, "structuredContent stripped from the tool result to the view", "observed", "test", "2026")
    quirks = (*(quirk for quirk in claude.quirks if quirk.id != STRIPS), strips)
    return dataclasses.replace(claude, facts=types.MappingProxyType(facts), quirks=quirks)


def test_under_claude_the_probe_sees_the_tool_result_stripped_and_names_the_trigger(tmp_path: Path) -> None:
    # The emulated Claude replays its catalog quirk (structuredContent and _meta stripped from the tool result sent
    # to the view, ext-apps #696): the probe must see it, and say which server data makes it bite.
    require_browser()
    out = tmp_path / "claude-probe.json"
    state, _ = asyncio.run(_probe(out, claude_stripping_results(), client_name="claude-ai"))
    claude = in_context(load_catalog(overrides=[out]).get("claude"), HostContext(os="linux"))
    result = claude.facts["ui.mcpApps.features.toolResult"]
    assert (result.value, result.trigger) == ("partial", "widget-result-structured-not-in-text")
    assert claude.facts["ui.mcpApps.features.serverResources"].value == "supported"
    assert not claude.facts["ui.mcpApps.features.updateModelContext"].source.startswith("hostcompat probe-host")
    description = state.written["catalog"]["description"] if state.written else ""
    assert "ui/update-model-context: accepted, but the model never confirmed" in description
