"""Check one server from a test: a command line, a URL, a snapshot file, or a server object in this process.

`check_server` (sync) and `acheck_server` (async) run the same pipeline as `hostcompat check` (probe, snapshot,
widget scans, verdicts for every catalog host, hygiene) and return a `CompatReport`. In-process servers (the
official SDK's `MCPServer` or low-level `Server`, a FastMCP server) are spoken to over the SDK's in-memory
transport, the same wire a real client uses, so no process is started.
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from hostcompat.errors import InvalidInput
from hostcompat.testing.compat_report import CompatReport

if TYPE_CHECKING:
    from hostcompat.probe.target import Target

ServerUnderTest: TypeAlias = "str | os.PathLike[str] | Sequence[str] | Target | object"
"""What `check_server` takes: a URL, a snapshot file (`.json`), a command line (a string split like a POSIX shell,
or an argv list), a probe `Target`, or an in-process server object."""


def check_server(
    server: ServerUnderTest,
    *,
    hosts: Iterable[str] | None = None,
    timeout: float = 60.0,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    name: str | None = None,
    catalog: Sequence[str | os.PathLike[str]] = (),
) -> CompatReport:
    """Check `server` on every catalog host (or `hosts`, by id or alias) and return its report.

    `timeout` bounds the probe and the widget analysis (seconds); `env` and `cwd` apply to a command; `name` is what
    the report calls the server (the command line, URL, file or server name by default); `catalog` adds host
    override files (`--catalog`). A server that cannot be checked gives a report whose `error` says why.

    Raises:
        InvalidInput: `server` is none of the accepted kinds, or a snapshot file cannot be read.
        CatalogError: a host id names no catalog host.
    """
    import anyio

    async def run() -> CompatReport:
        return await acheck_server(server, hosts=hosts, timeout=timeout, env=env, cwd=cwd, name=name, catalog=catalog)

    return anyio.run(run)


async def acheck_server(
    server: ServerUnderTest,
    *,
    hosts: Iterable[str] | None = None,
    timeout: float = 60.0,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    name: str | None = None,
    catalog: Sequence[str | os.PathLike[str]] = (),
) -> CompatReport:
    """`check_server` for async tests (an event loop already running)."""
    from hostcompat.engine.catalog.load import load_catalog
    from hostcompat.pipeline import WidgetBudget
    from hostcompat.pipeline import check_snapshot as check
    from hostcompat.report.document import report_document

    if not isinstance(timeout, int | float) or timeout <= 0:
        raise InvalidInput("timeout must be a positive number of seconds", value=timeout)
    host_catalog = load_catalog(overrides=[str(path) for path in catalog])
    host_ids = [host_catalog.get(host).id for host in hosts or ()]  # an unknown host fails before the probe
    snapshot_file = _snapshot_path(server)
    if snapshot_file is not None:
        from hostcompat.probe.snapshot import read_snapshot

        snapshot, label = read_snapshot(snapshot_file), str(snapshot_file)
    else:
        from hostcompat.probe import capture
        from hostcompat.probe.limits import DEFAULT_LIMITS, Limits

        target, label = _target(server, env, cwd)
        limits = Limits(
            total_timeout=timeout,
            connect_timeout=min(DEFAULT_LIMITS.connect_timeout, timeout),
            step_timeout=min(DEFAULT_LIMITS.step_timeout, timeout),
        )
        snapshot = await capture(target, limits=limits)
    entry = check(
        snapshot,
        host_catalog,
        host_ids=host_ids or None,
        target={"display": name or label},
        as_of=time.strftime("%Y-%m-%d"),
        widget_budget=WidgetBudget(seconds=timeout),
    )
    return CompatReport(report_document([entry]))


def _snapshot_path(server: object) -> Path | None:
    if isinstance(server, os.PathLike) or (isinstance(server, str) and server.endswith(".json") and " " not in server):
        path = Path(server)
        if path.suffix != ".json":
            raise InvalidInput(f"{path} is not a snapshot file (.json): give a command line as a string or list")
        return path
    return None


def _target(server: object, env: Mapping[str, str] | None, cwd: str | os.PathLike[str] | None) -> tuple[Target, str]:
    """The probe target for `server`, and what the report calls it."""
    from hostcompat.probe.target import HttpTarget, SseTarget, StdioTarget, TransportTarget, parse_target

    if isinstance(server, StdioTarget | HttpTarget | SseTarget | TransportTarget):
        return server, _label(server)
    if isinstance(server, str) or (isinstance(server, Sequence) and all(isinstance(part, str) for part in server)):
        target = parse_target(server, env=dict(env or {}), cwd=None if cwd is None else str(cwd))
        return target, _label(target)
    lowlevel = _lowlevel_server(server)
    if lowlevel is None:
        raise InvalidInput(
            "check_server takes a command line, a URL, a snapshot file, a probe Target, or an MCP server object "
            f"(the official SDK's MCPServer or Server, or FastMCP), not {type(server).__name__}",
            value=server,
        )
    name = str(getattr(lowlevel, "name", None) or type(server).__name__)

    @asynccontextmanager
    async def open_in_memory() -> AsyncIterator[Any]:
        from mcp.client._memory import InMemoryTransport

        lifespan = getattr(server, "_lifespan_manager", None)  # FastMCP enters its lifespan around the session
        async with _maybe(lifespan), InMemoryTransport(lowlevel) as streams:
            yield streams

    return TransportTarget(open_in_memory, label=f"in-process: {name}"), f"in-process: {name}"


def _lowlevel_server(server: object) -> Any:
    """The SDK's low-level `Server` behind an in-process server object, or None when it is not one."""
    from mcp.server import Server
    from mcp.server.mcpserver import MCPServer

    if isinstance(server, Server):
        return server
    if isinstance(server, MCPServer):
        return server._lowlevel_server
    inner = getattr(server, "_mcp_server", None)  # FastMCP keeps the SDK's low-level server here
    return inner if isinstance(inner, Server) else None


@asynccontextmanager
async def _maybe(factory: Any) -> AsyncIterator[None]:
    if factory is None:
        yield
        return
    async with factory():
        yield


def _label(target: Target) -> str:
    from hostcompat.probe.target import describe_target

    described = describe_target(target)  # secrets redacted: it goes into the report
    if described.get("kind") == "stdio":
        return " ".join([str(described.get("command", "")), *map(str, described.get("args", []))])
    return str(described.get("url") or described.get("label") or described.get("kind"))


__all__ = ["ServerUnderTest", "acheck_server", "check_server"]
