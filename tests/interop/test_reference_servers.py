"""The MCP project's own reference servers (npm and PyPI, pinned) get no verdict their own data does not support.

Evidence before verdict: a host may be `degraded` or `blocked` only through a finding that cites this server's own
data (its tool list, resources, widgets or captured results), never through a host fact alone. Needs node and
`interop/node_modules`, and `interop/pyservers` (both installed by `.ci/run`); without them the tests skip,
except under `CI=true`, where they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.pipeline import check_snapshot
from hostcompat.probe import Snapshot, StdioTarget, capture
from tests.probe._support import REPO

pytestmark = pytest.mark.interop

NPM = REPO / "interop" / "node_modules" / "@modelcontextprotocol"
PYSERVERS = REPO / "interop" / "pyservers" / "bin"
CATALOG = load_catalog()
_SERVER_DATA = ("tools/list:", "call:", "tool:", "resource", "widget", "scan:", "initialize")


@dataclass(frozen=True)
class Reference:
    name: str
    command: str
    args: tuple[str, ...]
    needs: str  # "node" or "python"


def _references(workdir: Path) -> list[Reference]:
    node = [
        Reference("server-memory", "node", (str(NPM / "server-memory" / "dist" / "index.js"),), "node"),
        Reference(
            "server-filesystem", "node", (str(NPM / "server-filesystem" / "dist" / "index.js"), str(workdir)), "node"
        ),
        Reference(
            "server-sequential-thinking",
            "node",
            (str(NPM / "server-sequential-thinking" / "dist" / "index.js"),),
            "node",
        ),
        Reference("server-everything", "node", (str(NPM / "server-everything" / "dist" / "index.js"),), "node"),
    ]
    python = [
        Reference("mcp-server-time", str(PYSERVERS / "mcp-server-time"), ("--local-timezone", "UTC"), "python"),
        Reference("mcp-server-fetch", str(PYSERVERS / "mcp-server-fetch"), (), "python"),
        Reference("mcp-server-git", str(PYSERVERS / "mcp-server-git"), ("--repository", str(workdir)), "python"),
    ]
    return [*node, *python]


NAMES = [
    "server-memory",
    "server-filesystem",
    "server-sequential-thinking",
    "server-everything",
    "mcp-server-time",
    "mcp-server-fetch",
    "mcp-server-git",
]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("reference")
    (path / "notes.txt").write_text("hello\n")
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q", str(path)], check=True)
    yield path


def _available(reference: Reference) -> None:
    if reference.needs == "node":
        problem = None if shutil.which("node") and NPM.is_dir() else "node or interop/node_modules is missing"
    else:
        problem = None if Path(reference.command).exists() else "interop/pyservers is missing (run .ci/run)"
    if problem is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reference.name}: {problem}")
        pytest.skip(f"{reference.name}: {problem}")


@pytest.fixture(scope="module")
def checked(workdir: Path) -> dict[str, tuple[Snapshot, Mapping[str, Any]]]:
    out: dict[str, tuple[Snapshot, Mapping[str, Any]]] = {}
    for reference in _references(workdir):
        if reference.needs == "node" and not (shutil.which("node") and NPM.is_dir()):
            continue
        if reference.needs == "python" and not Path(reference.command).exists():
            continue
        target = StdioTarget(reference.command, reference.args, cwd=str(workdir), env={"HOME": str(workdir)})
        snapshot = anyio.run(_capture, target)
        out[reference.name] = (snapshot, check_snapshot(snapshot, CATALOG, as_of="2026-12-03"))
    return out


async def _capture(target: StdioTarget) -> Snapshot:
    return await capture(target)


def _degrading(host: dict[str, Any]) -> list[dict[str, Any]]:
    return [finding for finding in host["findings"] if finding["severity"] in ("degraded", "blocker")]


@pytest.mark.parametrize("name", NAMES)
def test_no_host_is_degraded_or_blocked_without_a_finding_that_cites_this_servers_data(
    name: str, workdir: Path, checked: dict[str, tuple[Snapshot, Mapping[str, Any]]]
) -> None:
    (reference,) = [ref for ref in _references(workdir) if ref.name == name]
    _available(reference)
    snapshot, entry = checked[name]
    assert snapshot.initialize is not None, [event.message for event in snapshot.events]
    assert snapshot.tools, "the server listed no tools"
    for host in entry["hosts"]:
        if host["verdict"] not in ("degraded", "blocked"):
            continue
        cited = [
            finding
            for finding in _degrading(host)
            if any(item["source"].startswith(_SERVER_DATA) for item in finding["evidence"])
        ]
        assert cited, f"{name} is {host['verdict']} on {host['hostId']} with no finding citing its own data"


@pytest.mark.parametrize(
    "name", ["server-memory", "server-filesystem", "server-sequential-thinking", "mcp-server-time"]
)
def test_typed_results_are_no_false_alarm_on_the_hosts_that_mishandle_some_structured_content(
    name: str, workdir: Path, checked: dict[str, tuple[Snapshot, Mapping[str, Any]]]
) -> None:
    (reference,) = [ref for ref in _references(workdir) if ref.name == name]
    _available(reference)
    _, entry = checked[name]
    output_rules = {"SERVER-OUTPUT-001", "SERVER-OUTPUT-002"}
    for host in entry["hosts"]:
        for finding in _degrading(host):
            if finding["ruleId"] in output_rules:
                # only a captured result that fires the fact's trigger may degrade
                assert any(item["source"].startswith("call:") for item in finding["evidence"]), (host, finding)
    some_tool_declares_output = any(isinstance(tool.get("outputSchema"), dict) for tool in checked[name][0].tools)
    assert some_tool_declares_output  # the condition that used to give six false "degraded" verdicts
