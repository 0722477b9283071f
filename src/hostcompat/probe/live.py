"""Probe a live MCP server as the official client meets it and capture what it says into a `Snapshot`.

`capture` connects (stdio, streamable HTTP or legacy SSE), negotiates either protocol era, advertises the MCP Apps
capability (or none, or a given host's), pages through every listing, reads every `ui://` resource named, and calls
the tools that are safe to call (read-only, no arguments) and those it is told to (see `CallPlan`). It
never raises for anything the server does: timeouts, crashes, garbage and limits become events, the stdio child is
always stopped, and whatever was captured is returned, without the target's secrets (`target_redactor`).
`capture_many` probes several servers concurrently, each isolated from the others.

A stdio server is met by the probe's own JSON-RPC session, which does on the wire what the official client does and
judges results with the official client's own validators, without importing the SDK; HTTP and SSE servers, the
transport seam, and stdio when the stored validators are not the installed SDK's, by the official client itself
(`_clients.open_session` chooses).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import field
from datetime import datetime, timezone
from typing import Any, Final

import anyio
from pydantic_core import ValidationError

from hostcompat._dataclass import dataclass

if sys.version_info < (3, 11):  # pragma: no cover - the builtin arrived in 3.11
    from exceptiongroup import BaseExceptionGroup

from hostcompat.apps.constants import EXTENSION_ID, RESOURCE_MIME_TYPE
from hostcompat.errors import InvalidInput
from hostcompat.probe._call import make_calls
from hostcompat.probe._clients import open_session
from hostcompat.probe._collect import LISTINGS, Gathered, gather, read_ui_resources
from hostcompat.probe._json import copy_object, expect_choice, expect_object, expect_str
from hostcompat.probe._rpc import ProbeSession, RpcError
from hostcompat.probe._silent import silent_stdio_detail
from hostcompat.probe._wire import Wire
from hostcompat.probe.call_secrets import argument_secrets
from hostcompat.probe.calls import DEFAULT_CALLS, CallPlan, CallRecord, plan_calls
from hostcompat.probe.events import (
    CONNECT_FAILED,
    CONNECTION_CLOSED,
    HANDSHAKE_FAILED,
    INTERNAL_ERROR,
    SERVER_EXITED,
    TIMEOUT_TOTAL,
    Coverage,
    Dimension,
    timeout_code,
)
from hostcompat.probe.limits import DEFAULT_LIMITS, Limits
from hostcompat.probe.options import DEFAULT_CLIENT_INFO, ERAS, MCP_APPS, Advertise, Era
from hostcompat.probe.snapshot import Snapshot, UIResourceCapture, coverage_of
from hostcompat.probe.target import (
    HttpTarget,
    SseTarget,
    StdioTarget,
    Target,
    TransportTarget,
    describe_target,
    target_redactor,
)
from hostcompat.probe.ui_refs import ui_references
from hostcompat.redaction import Redactor

_STDERR_LINES: Final = 20


@dataclass(frozen=True)
class _Options:
    era: Era
    extensions: Mapping[str, Mapping[str, Any]]
    client_info: Mapping[str, str]
    calls: CallPlan = DEFAULT_CALLS

    def client_block(self) -> dict[str, Any]:
        return {"clientInfo": dict(self.client_info), "extensions": dict(self.extensions), "era": self.era}


def _options(
    advertise: Advertise, era: str, client_info: Mapping[str, str] | None, calls: CallPlan = DEFAULT_CALLS
) -> _Options:
    if not isinstance(calls, CallPlan):
        raise InvalidInput("calls must be a CallPlan", value=calls)
    checked_era = expect_choice(era, ERAS, "era")
    if advertise == MCP_APPS:
        extensions: dict[str, Any] = {EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}}
    elif advertise is None:
        extensions = {}
    elif isinstance(advertise, Mapping):
        extensions = copy_object(advertise, "advertised extensions")
        for identifier, settings in extensions.items():
            expect_object(settings, f"settings of extension {identifier!r}")
            from hostcompat.probe._sdk_session import check_extensions  # the SDK's rules for an identifier

            try:
                check_extensions({identifier: settings})
            except (TypeError, ValueError) as error:
                raise InvalidInput(f"invalid extension identifier {identifier!r}: {error}", value=identifier) from error
    else:
        raise InvalidInput("advertise must be 'mcp-apps', None or a mapping of extension settings", value=advertise)
    info = DEFAULT_CLIENT_INFO if client_info is None else expect_object(client_info, "client_info")
    checked = {key: expect_str(info.get(key), f"client_info[{key!r}]") for key in ("name", "version")}
    return _Options(checked_era, extensions, checked, calls)


def _check_target(target: object) -> Target:
    if not isinstance(target, StdioTarget | HttpTarget | SseTarget | TransportTarget):
        raise InvalidInput("a target must be a StdioTarget, HttpTarget, SseTarget or TransportTarget", value=target)
    return target


@dataclass
class _Capture:
    """The parts of a snapshot gathered so far (mutable while one probe runs, then frozen into a `Snapshot`)."""

    connection: dict[str, Any] | None = None
    requested_protocol_version: str | None = None
    initialize: dict[str, Any] | None = None
    listings: dict[Dimension, list[Mapping[str, Any]]] = field(default_factory=dict)
    ui_resources: dict[str, UIResourceCapture] = field(default_factory=dict)
    coverage: dict[Dimension, Coverage] = field(default_factory=coverage_of)
    calls: list[CallRecord] = field(default_factory=list)
    deadline: float = math.inf
    """When the probe's total time ends, on the `anyio.current_time()` clock."""


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


def _describe(error: BaseException) -> str:
    leaves = [leaf for leaf in _leaves(error) if not isinstance(leaf, anyio.get_cancelled_exc_class())] or [error]
    leaf = leaves[0]
    if isinstance(leaf, RpcError):
        return f"error {leaf.code}: {leaf.message}"
    exceptions = sys.modules.get("mcp.shared.exceptions")  # not imported: the SDK raised nothing
    if exceptions is not None and isinstance(leaf, exceptions.MCPError):
        return f"error {leaf.code}: {leaf.error.message}"
    if isinstance(leaf, ValidationError):
        first = leaf.errors()[0]["msg"]
        return f"the official client rejects the result: {leaf.error_count()} problem(s), first: {first}"
    return f"{type(leaf).__name__}: {leaf}"


def _unreachable(error: BaseException) -> bool:
    httpx2 = sys.modules.get("httpx2")  # not imported: no HTTP error can have been raised
    failures = (OSError,) if httpx2 is None else (OSError, httpx2.TransportError, httpx2.HTTPStatusError)
    return any(isinstance(leaf, failures) for leaf in _leaves(error))


def _record_failure(error: Exception, wire: Wire, capture: _Capture) -> None:
    """Turn an error that ended the connection into the event that explains it."""
    message = _describe(error)
    if wire.http_error is not None and wire.step in ("connect", "initialize"):
        status = wire.http_error
        wire.event(
            CONNECT_FAILED,
            "error",
            f"the server answered HTTP {status['status']} {status['reason']}".rstrip(),
            {key: value for key, value in status.items() if value is not None},
        )
    elif wire.step == "connect" or (wire.step == "initialize" and _unreachable(error)):
        wire.event(CONNECT_FAILED, "error", f"could not start or reach the server: {message}")
    elif wire.step == "initialize":
        if capture.initialize is None:
            capture.initialize = wire.take_result("initialize") or wire.take_result("server/discover")
        if not wire.closed:
            wire.event(HANDSHAKE_FAILED, "error", f"the handshake failed: {message}")
    elif _unreachable(error):
        wire.transport_failure = message
        if wire.closed_during in (None, "shutdown"):  # otherwise the exit finding names it
            wire.event(CONNECTION_CLOSED, "error", f"the transport failed: {message}")
    else:
        wire.event(INTERNAL_ERROR, "error", f"the probe failed at {wire.step}: {message}")


async def _handshake(session: ProbeSession, options: _Options, wire: Wire, capture: _Capture) -> bool:
    if options.era == "modern":
        with anyio.move_on_after(wire.limits.connect_timeout) as scope:
            try:
                raw = await session.discover(session.modern_versions[-1])
                session.adopt_discover(raw)
            except (RpcError, ValidationError, RuntimeError) as error:
                capture.initialize = wire.take_result("server/discover")
                if not wire.closed:
                    wire.event(HANDSHAKE_FAILED, "error", f"server/discover failed: {_describe(error)}")
                return False
        if scope.cancelled_caught:
            wire.event(timeout_code("initialize"), "error", "no answer to server/discover in time")
            return False
    version = session.protocol_version or ""
    modern = version in session.modern_versions
    method = "server/discover" if modern else "initialize"
    capture.initialize = wire.take_result(method)
    capture.connection = {"protocolVersion": version, "era": "modern" if modern else "handshake", "method": method}
    capture.requested_protocol_version = wire.asked_versions.get(method)
    return True


async def _collect(session: ProbeSession, options: _Options, wire: Wire, capture: _Capture) -> None:
    if not await _handshake(session, options, wire, capture):
        return
    capabilities = (capture.initialize or {}).get("capabilities")
    declared = capabilities if isinstance(capabilities, Mapping) else {}
    needs = {"tools": "tools", "resources": "resources", "resourceTemplates": "resources", "prompts": "prompts"}
    wanted = [listing for listing in LISTINGS if needs[listing.dimension] in declared]
    for listing in LISTINGS:
        if listing not in wanted:
            capture.coverage[listing.dimension] = "not-declared"
    for listing in wanted:
        gathered = Gathered()
        capture.listings[listing.dimension] = gathered.items
        capture.coverage[listing.dimension] = "truncated"  # until it completes: the total limit may cut it
        await gather(session, listing, wire, gathered)
        capture.coverage[listing.dimension] = gathered.coverage
        if gathered.fatal:
            return
    refs, findings = ui_references(capture.listings.get("tools", ()), capture.listings.get("resources", ()))
    for finding in findings:
        wire.add(finding)
    capture.coverage["uiResources"] = "truncated"
    coverage, _fatal = await read_ui_resources(session, refs, wire, capture.ui_resources)
    listed_unknown = any(capture.coverage[name] not in ("complete", "not-declared") for name in ("tools", "resources"))
    capture.coverage["uiResources"] = "truncated" if coverage == "complete" and listed_unknown else coverage
    if "tools" in declared:
        await _call_tools(session, options, wire, capture)


async def _call_tools(session: ProbeSession, options: _Options, wire: Wire, capture: _Capture) -> None:
    """Call the safe tools and the named ones (after everything else: a call is the least needed capture)."""
    planned, notes = plan_calls(
        options.calls,
        capture.listings.get("tools", ()),
        tools_known=capture.coverage["tools"] == "complete",
        max_auto=wire.limits.max_auto_calls,
    )
    for note in notes:
        wire.add(note)
    await make_calls(session, planned, wire, capture.calls, deadline=capture.deadline)


async def _probe(target: Target, options: _Options, wire: Wire, capture: _Capture) -> None:
    client = open_session(target, wire, era=options.era, extensions=options.extensions, client_info=options.client_info)
    connect = anyio.CancelScope(deadline=anyio.current_time() + wire.limits.connect_timeout)
    with connect:
        async with client as session:
            connect.deadline = math.inf
            await _collect(session, options, wire, capture)
            wire.step = "shutdown"
    if connect.cancelled_caught:
        limit = wire.limits.connect_timeout
        detail = silent_stdio_detail(target, wire) if capture.initialize is None else ""
        wire.event(timeout_code(wire.step), "error", f"{wire.step} did not finish within {limit:g} s{detail}")


def _exit_findings(target: Target, wire: Wire) -> None:
    if wire.closed_during in (None, "shutdown"):
        return
    during = wire.closed_during
    if isinstance(target, StdioTarget) and wire.process is not None:
        process = wire.process
        status = f"signal {process['signal']}" if process.get("signal") else f"code {process.get('exitCode')}"
        tail = "\n".join(str(process.get("stderrTail", "")).splitlines()[-_STDERR_LINES:])
        wire.event(
            SERVER_EXITED,
            "error",
            f"the server exited ({status}) during {during}" + (f"; stderr ends with: {tail[-500:]}" if tail else ""),
            {"exitCode": process.get("exitCode"), "signal": process.get("signal"), "stderrTail": tail},
            step=during,
        )
    else:
        why = f": {wire.transport_failure}" if wire.transport_failure else ""
        message = f"the connection ended during {during}{why}"
        wire.event(CONNECTION_CLOSED, "error", message, step=during)


async def capture(
    target: Target,
    *,
    limits: Limits = DEFAULT_LIMITS,
    advertise: Advertise = MCP_APPS,
    era: Era = "auto",
    client_info: Mapping[str, str] | None = None,
    calls: CallPlan = DEFAULT_CALLS,
) -> Snapshot:
    """Probe one server and return what it said, within `limits`.

    Args:
        target: what to probe (`StdioTarget`, `HttpTarget`, `SseTarget`, or a `TransportTarget` seam).
        limits: time and size limits; every one that cut something says so in the snapshot's events.
        advertise: the client extensions to advertise (see `Advertise`), to see what the server does for each host.
        era: the protocol era to speak (see `Era`).
        client_info: the `clientInfo` to send (`name`, `version`); servers that detect hosts by name read it.
        calls: which tools to call to capture their results: by default those annotated read-only that need no
            arguments (at most `limits.max_auto_calls`); `NO_CALLS` for none; named ones with their arguments.

    Raises:
        InvalidInput: a bad argument (never anything the server does).
    """
    options = _options(advertise, era, client_info, calls)
    _check_target(target)
    if not isinstance(limits, Limits):
        raise InvalidInput("limits must be a Limits", value=limits)
    redactor = target_redactor(target) | Redactor.of(argument_secrets(calls))
    wire = Wire(limits, redactor)
    gathered = _Capture(deadline=anyio.current_time() + limits.total_timeout)
    captured_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    started = time.monotonic()
    try:
        with anyio.move_on_after(limits.total_timeout) as total:
            await _probe(target, options, wire, gathered)
        if total.cancelled_caught:
            detail = silent_stdio_detail(target, wire) if gathered.initialize is None else ""
            wire.event(TIMEOUT_TOTAL, "error", f"the probe ran out of its {limits.total_timeout:g} s{detail}")
    except Exception as error:  # server misbehaviour never escapes; `_record_failure` names it
        _record_failure(error, wire, gathered)
    _exit_findings(target, wire)
    return Snapshot(
        target=describe_target(target),
        captured_at=captured_at,
        client=options.client_block(),
        connection=gathered.connection,
        initialize=gathered.initialize,
        tools=tuple(gathered.listings.get("tools", ())),
        resources=tuple(gathered.listings.get("resources", ())),
        resource_templates=tuple(gathered.listings.get("resourceTemplates", ())),
        prompts=tuple(gathered.listings.get("prompts", ())),
        ui_resources=gathered.ui_resources,
        limits=limits,
        coverage=gathered.coverage,
        events=tuple(wire.final_events()),
        process=wire.process,
        duration_seconds=round(time.monotonic() - started, 3),
        calls=tuple(gathered.calls),
        requested_protocol_version=gathered.requested_protocol_version,
    ).redacted(redactor)


async def capture_many(
    targets: Sequence[Target],
    *,
    limits: Limits = DEFAULT_LIMITS,
    advertise: Advertise = MCP_APPS,
    era: Era = "auto",
    client_info: Mapping[str, str] | None = None,
    concurrency: int | None = None,
    calls: CallPlan = DEFAULT_CALLS,
    on_progress: Callable[[int, bool], None] | None = None,
    on_snapshot: Callable[[int, Snapshot], None] | None = None,
) -> list[Snapshot]:
    """Probe several servers at once (at most `concurrency` at a time, default all); snapshots in target order.

    One server's failure never touches another's snapshot. Arguments are checked before any server starts.
    `on_progress(index, done)` is told when the probe of `targets[index]` starts (False) and ends (True), and
    `on_snapshot(index, snapshot)` gets each snapshot as soon as it is taken (while other probes may still run).

    Raises:
        InvalidInput: a bad argument.
    """
    _options(advertise, era, client_info, calls)
    checked = [_check_target(target) for target in targets]
    if concurrency is not None and (isinstance(concurrency, bool) or not isinstance(concurrency, int)):
        raise InvalidInput("concurrency must be a positive integer or None", value=concurrency)
    if concurrency is not None and concurrency < 1:
        raise InvalidInput("concurrency must be a positive integer or None", value=concurrency)
    slots = anyio.Semaphore(concurrency or max(1, len(checked)))
    results: list[Snapshot | None] = [None] * len(checked)

    async def run(index: int, target: Target) -> None:
        async with slots:
            if on_progress is not None:
                on_progress(index, False)
            try:
                snapshot = await capture(
                    target, limits=limits, advertise=advertise, era=era, client_info=client_info, calls=calls
                )
                results[index] = snapshot
                if on_snapshot is not None:
                    on_snapshot(index, snapshot)
            finally:
                if on_progress is not None:
                    on_progress(index, True)

    async with anyio.create_task_group() as group:
        for index, target in enumerate(checked):
            group.start_soon(run, index, target)
    return [snapshot for snapshot in results if snapshot is not None]


@asynccontextmanager
async def open_client(
    target: Target,
    *,
    limits: Limits = DEFAULT_LIMITS,
    advertise: Advertise = MCP_APPS,
    era: Era = "auto",
    client_info: Mapping[str, str] | None = None,
) -> AsyncIterator[Any]:
    """A connected official client to `target`, handshake done, for callers that forward requests to the server
    (an observed widget's tools/call and resources/read); the stdio child is stopped on exit.

    Raises:
        InvalidInput: a bad argument.
        ConnectionError: the server could not be reached or the handshake failed (said in the message).
    """
    from hostcompat.probe._sdk_session import SdkSession, sdk_client

    options = _options(advertise, era, client_info)
    _check_target(target)
    wire = Wire(limits, target_redactor(target))
    client = sdk_client(
        target,
        wire,
        era=options.era,
        extensions=options.extensions,
        client_info=options.client_info,
        read_timeout=limits.call_timeout,
    )
    yielded = False
    connect = anyio.CancelScope(deadline=anyio.current_time() + limits.connect_timeout)
    try:
        with connect:
            async with client:
                handshake = await _handshake(SdkSession(client.session), options, wire, _Capture())
                connect.deadline = math.inf
                if not handshake:
                    events = wire.final_events()
                    raise ConnectionError(wire.redactor.text(events[-1].message[:300] if events else "no handshake"))
                yielded = True
                yield client
    except ConnectionError:
        raise
    except Exception as error:  # the server's failure, named without its secrets
        if yielded:
            raise
        raise ConnectionError(wire.redactor.text(_describe(error)[:300])) from None
    if not yielded:
        raise ConnectionError(f"no handshake within {limits.connect_timeout:g} s")


__all__ = ["capture", "capture_many", "open_client"]
