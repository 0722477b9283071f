"""The probe server: an MCP App on the official SDK whose widget tests the host it runs in, and which writes what it
saw as a catalog override file.

Tools: `probe_host` and `probe_host_plain` (model-visible) show the two widget variants; `probe_echo` (app-only)
and `probe_model_only` (model-only) are there for the view to call; `probe_report` (app-only) takes the view's
report; `probe_confirm` (model-visible) takes a token the model read in a `ui/message` or `ui/update-model-context`.
The server records the client each call comes from: the `initialize` params the SDK keeps for the connection (in
the 2026-07-28 era, the client info the request carries). After every report or confirmation the file is written
again, atomically; reports are bounded and read as untrusted data (`hostcompat.probekit.report`).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import platform
import secrets
import threading
from collections.abc import Mapping
from dataclasses import field, replace
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations

from hostcompat._dataclass import dataclass
from hostcompat._version import __version__
from hostcompat.apps.constants import EXTENSION_ID
from hostcompat.apps.server import CompatApps
from hostcompat.clients.detect import ClientIdentity, detect_client
from hostcompat.engine.catalog.model import Catalog
from hostcompat.errors import HostCompatError
from hostcompat.output_files import write_output
from hostcompat.probekit.facts import derive_facts
from hostcompat.probekit.override import Seen, build_override, os_of
from hostcompat.probekit.report import MAX_REPORT_CHARS, ViewReport, clean, read_report
from hostcompat.probekit.widget import (
    CONFIRM_TOOL,
    ECHO_TOOL,
    MODEL_ONLY_TOOL,
    REPORT_TOOL,
    SHOW_PLAIN_TOOL,
    SHOW_TOOL,
    VARIANTS,
    WIDGET_URIS,
    widget_html,
    widget_ui,
)
from hostcompat.wire_json import WireObject

_SERVER_OS = {"Windows": "windows", "Darwin": "macos", "Linux": "linux"}
_QUIET = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


@dataclass(frozen=True)
class ProbeOptions:
    """Where the file goes and what the user says about the host: its catalog id, how the server was registered,
    whether the result stands for the common path, and the transport the server runs on.
    """

    out: str
    host_id: str | None = None
    registration: str | None = None
    common: bool = False
    transport: str = "stdio"


@dataclass
class ProbeState:
    """What the probe has seen so far, and the file it keeps up to date."""

    options: ProbeOptions
    catalog: Catalog
    nonce: str = field(default_factory=lambda: secrets.token_hex(8))
    views: dict[str, ViewReport] = field(default_factory=dict)
    reporter: ClientIdentity | None = None
    confirmed: set[str] = field(default_factory=set)
    written: WireObject | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add_report(self, client: ClientIdentity | None, raw: object) -> str:
        """Read one view report, then write the file; returns what was written, in words."""
        size = len(json.dumps(raw, default=str))
        if size > MAX_REPORT_CHARS:
            raise HostCompatError(f"the report is {size} characters; the probe reads at most {MAX_REPORT_CHARS}")
        view = read_report(raw)
        with self.lock:
            self.views[view.variant] = view
            self.reporter = client or self.reporter
            return self.write()

    def shown(self, client: ClientIdentity | None) -> None:
        """A widget tool was called: before any report, write what the server knows (the client, the transport)."""
        with self.lock:
            if not self.views:
                self.reporter = client or self.reporter
                self.write()

    def confirm(self, token: str) -> str:
        """Record a token the model sent back; rewrite the file when it decides a fact."""
        with self.lock:
            if len(self.confirmed) < 100:
                self.confirmed.add(token)
            return self.write() if self.views else "no report yet; the token is kept"

    def seen(self) -> Seen:
        """Who and where, from the reporting session's initialize and the views' navigator."""
        client = self.reporter
        view = self.views.get("declared") or next(iter(self.views.values()), None)
        server_os = _SERVER_OS.get(platform.system()) if self.options.transport == "stdio" else None
        extensions = client.capabilities.get("extensions") if client is not None else None
        return Seen(
            client_name=clean(client.name) if client is not None else None,
            client_version=clean(client.version, 40) if client is not None else None,
            protocol_version=clean(client.protocol_version, 40) if client is not None else None,
            ui_extension=(isinstance(extensions, Mapping) and EXTENSION_ID in extensions) if client else None,
            capabilities=capability_names(client),
            transport=self.options.transport,
            os=(os_of(view.nav_platform, view.user_agent) if view is not None else None) or server_os,
            registration=self.options.registration,
            host_name=view.host_name if view is not None else None,
            host_version=view.host_version if view is not None else None,
            kit_version=__version__,
            date=datetime.date.today().isoformat(),
        )

    def write(self) -> str:
        """Build the override document from everything seen and write it atomically."""
        derived = derive_facts(self.views, confirmed=frozenset(self.confirmed), nonce=self.nonce)
        document = build_override(
            self.catalog, self.seen(), derived, host_id=self.options.host_id, common=self.options.common
        )
        write_output(self.options.out, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        self.written = document
        host = document["hosts"][0]["id"]
        return f"wrote {len(derived.facts)} facts about host {host!r} to the probe file"


def client_of(ctx: Context[Any]) -> ClientIdentity | None:
    """The client of this call's connection, as it introduced itself (None: it said nothing, or nothing usable)."""
    params = ctx.session.client_params
    if params is None:
        return None
    try:
        return detect_client(params.model_dump(by_alias=True, exclude_none=True, mode="json"))
    except HostCompatError:
        return None


def capability_names(client: ClientIdentity | None) -> tuple[str, ...]:
    """The client's capabilities by name, each extension by its id (`extensions/io.modelcontextprotocol/ui`)."""
    if client is None:
        return ()
    names: list[str] = []
    for key, value in list(client.capabilities.items())[:50]:
        if key == "extensions" and isinstance(value, Mapping):
            names.extend(f"extensions/{clean(name, 100)}" for name in list(value)[:50] if clean(name, 100))
        elif clean(key, 60):
            names.append(str(clean(key, 60)))
    return tuple(sorted(names))


def _shown(state: ProbeState, client: ClientIdentity | None, variant: str) -> CallToolResult:
    seen = {
        "clientInfo": {"name": client.name, "version": client.version} if client is not None else None,
        "protocolVersion": client.protocol_version if client is not None else None,
        "capabilities": list(capability_names(client)),
    }
    text = (
        f"The hostcompat probe ({variant} widget) is running in the view; it reports to the server by itself. "
        f"The server saw this client at initialize: {json.dumps(seen)}."
    )
    with contextlib.suppress(HostCompatError):  # the file is written again with the report, which says why
        state.shown(client)
    structured = {"nonce": state.nonce, "variant": variant, "initialize": seen}
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=structured)


def build_probe_server(options: ProbeOptions, catalog: Catalog) -> tuple[MCPServer, ProbeState]:
    """The probe server and its state (tests read the state; the command only runs the server)."""
    state = ProbeState(options=options, catalog=catalog)
    apps = CompatApps()

    @apps.tool(
        resource_uri=WIDGET_URIS["declared"],
        name=SHOW_TOOL,
        annotations=_QUIET,
        description=(
            "Test which MCP Apps features this host supports (hostcompat probe). Shows a widget that runs its checks "
            f"and reports them by itself; afterwards call {SHOW_PLAIN_TOOL} too."
        ),
    )
    def probe_host(ctx: Context[Any]) -> CallToolResult:
        return _shown(state, client_of(ctx), "declared")

    @apps.tool(
        resource_uri=WIDGET_URIS["plain"],
        name=SHOW_PLAIN_TOOL,
        annotations=_QUIET,
        description=(
            "The second hostcompat probe widget: it declares no CSP origin and no permission, to see what the host "
            "refuses by default."
        ),
    )
    def probe_host_plain(ctx: Context[Any]) -> CallToolResult:
        return _shown(state, client_of(ctx), "plain")

    @apps.tool(
        resource_uri=WIDGET_URIS["declared"],
        name=ECHO_TOOL,
        visibility=["app"],
        annotations=_QUIET,
        description="Called by the probe widget: echoes its token.",
    )
    def probe_echo(token: str = "") -> CallToolResult:
        echoed = clean(token, 60) or ""
        return CallToolResult(content=[TextContent(type="text", text=echoed)], structured_content={"token": echoed})

    @apps.tool(
        resource_uri=WIDGET_URIS["declared"],
        name=MODEL_ONLY_TOOL,
        visibility=["model"],
        annotations=_QUIET,
        description="Part of the hostcompat probe; there is no need to call it.",
    )
    def probe_model_only() -> str:
        return "model-only tool called"

    @apps.tool(
        resource_uri=WIDGET_URIS["declared"],
        name=REPORT_TOOL,
        visibility=["app"],
        description="Called by the probe widget with what it saw.",
    )
    def probe_report(ctx: Context[Any], report: dict[str, Any]) -> CallToolResult:
        try:
            said = state.add_report(client_of(ctx), report)
        except HostCompatError as error:
            return CallToolResult(content=[TextContent(type="text", text=str(error))], is_error=True)
        return CallToolResult(content=[TextContent(type="text", text=said)], structured_content={"written": True})

    for variant in VARIANTS:
        apps.add_html_resource(
            WIDGET_URIS[variant],
            widget_html(variant, __version__),
            name=f"hostcompat-probe-{variant}",
            title="hostcompat host probe",
            ui=widget_ui(variant),
        )

    server = MCPServer(
        "hostcompat-probe",
        instructions=f"Call {SHOW_TOOL}, then {SHOW_PLAIN_TOOL}, to test this host's MCP Apps support.",
        extensions=[apps],
        middleware=[apps.handshake_middleware()],
    )

    @server.tool(
        name=CONFIRM_TOOL,
        annotations=_QUIET,
        description=("Call this with the token when a hostcompat probe message or context asks you to."),
    )
    def probe_confirm(token: str) -> str:
        kept = clean(token, 60)
        if kept is None:
            return "no token given"
        try:
            return state.confirm(kept)
        except HostCompatError as error:
            return f"not written: {error}"

    return server, state


def probe_options(out: str | os.PathLike[str], **kwargs: Any) -> ProbeOptions:
    """`ProbeOptions` with `out` as text (a path object accepted)."""
    return replace(ProbeOptions(out=os.fspath(out)), **kwargs)


__all__ = ["ProbeOptions", "ProbeState", "build_probe_server", "capability_names", "client_of", "probe_options"]
