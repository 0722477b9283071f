"""Client compatibility profiles as `mcp` SDK server middleware: rewrite each session's results for its client.

The SDK edge of `hostcompat.clients`: it finds out which client a request comes from (the `initialize`
handshake or, in the 2026-07-28 era, the request's `_meta`), keeps that connection's rename map, and runs
the pure core over the wire dicts. What the server returned is never mutated (the core is copy-on-write).
A call to a renamed tool this process never listed (a stateless request on another replica, after a restart, or
after the client's map was forgotten) lists the server's tools again, through the same chain, to route it.
"""

from __future__ import annotations

import logging
import os
import time
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from mcp.server import MCPServer, Server
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp_types import InitializeRequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from hostcompat.clients.detect import ClientIdentity, detect_client
from hostcompat.clients.rewrite import (
    EMPTY_SESSION,
    MAX_REMEMBERED_RENAMES,
    RequestRewrite,
    Rewrite,
    SessionProfile,
    SessionState,
    plan_rewrites,
    rewrite_request,
    rewrite_result,
)
from hostcompat.clients.rewrites.operations import RESULT_METHODS
from hostcompat.clients.rules import Rule, load_bundled_rules
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireJSON

ENVIRONMENT_VARIABLE = "HOSTCOMPAT_CLIENT_COMPAT"
"""The environment variable that switches the middleware off (value `off`)."""

DISABLED_VALUE = "off"
"""The one value of `HOSTCOMPAT_CLIENT_COMPAT` that disables the middleware; any other, empty included, enables it."""

MAX_STATELESS_CLIENTS = 256
"""How many 2026-07-28 client identities keep a rename map (least recently used are forgotten first)."""

RELIST_PAGES = 100
"""The most tools/list pages read to route a call to a tool this process never listed for its client."""

RELIST_INTERVAL = 5.0
"""Seconds between such listings for one client (a call to a name that exists nowhere must not list every time)."""

REQUEST_METHODS = frozenset({"tools/call"})
"""The requests whose params the middleware rewrites (the SDK reads `initialize` and the 2026-07-28 envelope before
any middleware runs, so a rule on those acts in the proxy only)."""

REWRITTEN_METHODS = RESULT_METHODS | REQUEST_METHODS
"""The methods the middleware acts on; every other message passes straight through."""

logger = logging.getLogger(__name__)


def enabled(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the compatibility middleware should be installed: `HOSTCOMPAT_CLIENT_COMPAT` is anything but `off`.

    Unset and empty enable it too; the comparison is exact (`OFF` enables). `environ` defaults to the process
    environment as it is when called (`os.environ`, read then, not when this module was imported).
    """
    if environ is None:
        environ = os.environ
    return environ.get(ENVIRONMENT_VARIABLE, "") != DISABLED_VALUE


class RewriteSession:
    """One client session: the rules planned for its client and the rename map built so far.

    Mutable on purpose (it is the per-connection slot); the values it holds are immutable.
    """

    __slots__ = ("listed_at", "profile", "seen", "state")

    def __init__(self, profile: SessionProfile, state: SessionState = EMPTY_SESSION) -> None:
        self.profile = profile
        self.state = state
        self.seen: set[str] = set()
        """Tool names this client was shown (renamed or not), so a call to one of them needs no new listing."""
        self.listed_at: float | None = None
        """When a call last made the middleware list the tools for this client (monotonic seconds)."""

    def knows_tool(self, name: str) -> bool:
        """Whether a tools/call for `name` can be routed without listing the tools again."""
        return not self.profile.renames_tools or name in self.state.tool_names or name in self.seen

    @property
    def active(self) -> bool:
        """Whether any rule applies to this client (if not, nothing is ever rewritten)."""
        return bool(self.profile.rules)

    def rewrite_request(self, method: str, params: Any) -> RequestRewrite:
        """Route a renamed tool back to the server's name and apply request rules; `params` is never mutated."""
        return rewrite_request(method, params, self.profile, self.state)

    def rewrite_result(self, method: str, result: Any) -> Rewrite:
        """Apply the session's rules to a wire result and remember the renames it handed out."""
        rewritten = rewrite_result(method, result, self.profile, self.state)
        self.state = rewritten.state
        if method == "tools/list" and self.profile.renames_tools:
            self._see(rewritten.result)
        if rewritten.applied:
            logger.debug("client rules %s rewrote %s for %s", rewritten.applied, method, self.profile.identity)
        return rewritten

    def _see(self, listing: Any) -> None:
        tools = listing.get("tools") if isinstance(listing, Mapping) else None
        if not isinstance(tools, list):
            return
        if len(self.seen) + len(tools) > MAX_REMEMBERED_RENAMES:
            self.seen.clear()
        for tool in tools[:MAX_REMEMBERED_RENAMES]:
            name = tool.get("name") if isinstance(tool, Mapping) else None
            if isinstance(name, str):
                self.seen.add(name)


def _identity_from_handshake(client_params: InitializeRequestParams) -> ClientIdentity | None:
    wire = client_params.model_dump(by_alias=True, mode="json", exclude_none=True)
    return detect_client(wire)


def _identity_from_meta(request_meta: Mapping[str, Any]) -> ClientIdentity | None:
    return detect_client({"_meta": request_meta})


class ClientSessions:
    """The rewrite session of every live connection, without leaking state between connections.

    Handshake-era connections are keyed by their committed `initialize` params (one object per
    connection); the entry goes away with the connection, through a weak reference. 2026-07-28
    requests each arrive on a fresh connection object, so their sessions are keyed by the client
    identity from `_meta` instead, and the least recently used of `max_stateless_clients` are dropped.
    Two stateless clients with the same name and version share a rename map: renames are a function
    of the server's tool names and the rules, so they would compute the same map anyway.
    """

    def __init__(self, rules: Iterable[Rule], *, max_stateless_clients: int = MAX_STATELESS_CLIENTS) -> None:
        if isinstance(max_stateless_clients, bool) or not isinstance(max_stateless_clients, int):
            raise InvalidInput("max_stateless_clients must be an integer", value=max_stateless_clients)
        if max_stateless_clients < 1:
            raise InvalidInput("max_stateless_clients must be at least 1", value=max_stateless_clients)
        self.rules: tuple[Rule, ...] = tuple(rules)
        self._max_stateless = max_stateless_clients
        self._connections: dict[int, tuple[weakref.ref[InitializeRequestParams], RewriteSession]] = {}
        self._stateless: OrderedDict[tuple[str, str, str | None], RewriteSession] = OrderedDict()

    def __len__(self) -> int:
        """How many sessions are tracked (live handshake connections plus remembered stateless clients)."""
        return len(self._connections) + len(self._stateless)

    def session_for(
        self,
        *,
        protocol_version: str,
        request_meta: WireJSON | None,
        client_params: InitializeRequestParams | None,
    ) -> RewriteSession | None:
        """The session a request belongs to, or None when the client has not said who it is.

        The client is the one the request's `_meta` names in the 2026-07-28 era, and the one that sent the
        connection's `initialize` before it; a handshake-era request with no `initialize` behind it (a stateless
        server) is identified by its `_meta` too. A client info of the wrong shape counts as no client info (the
        request is served unchanged).
        """
        try:
            if protocol_version in MODERN_PROTOCOL_VERSIONS or client_params is None:
                # every 2026-07-28 request names its client; so may a request on a stateless handshake-era server,
                # which keeps no initialize to remember the client by
                return self._stateless_session(request_meta)
            return self._connection_session(client_params)
        except InvalidInput as error:
            logger.debug("unusable client info, serving unchanged: %s", error.message)
            return None

    def _connection_session(self, client_params: InitializeRequestParams | None) -> RewriteSession | None:
        if client_params is None:
            return None
        key = id(client_params)
        entry = self._connections.get(key)
        if entry is not None and entry[0]() is client_params:
            return entry[1]
        session = RewriteSession(plan_rewrites(_identity_from_handshake(client_params), self.rules))
        connections = self._connections

        def forget(_: weakref.ref[InitializeRequestParams], key: int = key) -> None:
            connections.pop(key, None)

        self._connections[key] = (weakref.ref(client_params, forget), session)
        return session

    def _stateless_session(self, request_meta: Mapping[str, Any] | None) -> RewriteSession | None:
        if not isinstance(request_meta, Mapping):
            return None
        identity = _identity_from_meta(request_meta)
        if identity is None:
            return None
        key = (identity.name, identity.version, identity.via)
        session = self._stateless.get(key)
        if session is not None:
            self._stateless.move_to_end(key)
            return session
        session = RewriteSession(plan_rewrites(identity, self.rules))
        self._stateless[key] = session
        while len(self._stateless) > self._max_stateless:
            self._stateless.popitem(last=False)
        return session


def _request_meta(params: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    meta = params.get("_meta") if isinstance(params, Mapping) else None
    return meta if isinstance(meta, Mapping) else None


class ClientCompatMiddleware:
    """An `mcp` `ServerMiddleware` that applies client compatibility rules per client session.

    Incoming tools/call requests for a renamed tool are routed back to the server's name; results of
    tools/list, tools/call, resources/list, resources/read, resources/templates/list, prompts/list and
    prompts/get are rewritten for the client's rules. A client no rule names gets the server's result
    object itself. `initialize` is passed through: its result is never rewritten, and the identity is
    read from the connection's committed `initialize` params on every later request.
    """

    def __init__(self, rules: Iterable[Rule] | None = None, *, sessions: ClientSessions | None = None) -> None:
        if sessions is not None and rules is not None:
            raise InvalidInput("pass rules or sessions, not both", value=rules)
        if sessions is None:
            sessions = ClientSessions(load_bundled_rules() if rules is None else rules)
        self.sessions = sessions

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Rewrite the request for the server and the result for the client (the `ServerMiddleware` protocol)."""
        if ctx.request_id is None or ctx.method not in REWRITTEN_METHODS:
            return await call_next(ctx)
        session = self.sessions.session_for(
            protocol_version=ctx.protocol_version,
            request_meta=_request_meta(ctx.params),
            client_params=ctx.session.client_params,
        )
        if session is None or not session.active:
            return await call_next(ctx)
        if ctx.method in REQUEST_METHODS:
            name = ctx.params.get("name") if isinstance(ctx.params, Mapping) else None
            if ctx.method == "tools/call" and isinstance(name, str) and not session.knows_tool(name):
                await _relist(ctx, call_next, session)
            routed = session.rewrite_request(ctx.method, ctx.params)
            if routed.params is not ctx.params:
                ctx = replace(ctx, params=routed.params)
        result = await call_next(ctx)
        if ctx.method not in RESULT_METHODS:
            return result
        rewritten: HandlerResult = session.rewrite_result(ctx.method, result).result
        return rewritten


async def _relist(ctx: ServerRequestContext[Any, Any], call_next: CallNext, session: RewriteSession) -> None:
    """List the server's tools for this client through the rest of the chain, so the renames it would be shown are
    known again (at most every `RELIST_INTERVAL` seconds per client, at most `RELIST_PAGES` pages).
    """
    now = time.monotonic()
    if session.listed_at is not None and now - session.listed_at < RELIST_INTERVAL:
        return
    session.listed_at = now
    meta = _request_meta(ctx.params)
    base: dict[str, Any] = {} if meta is None else {"_meta": {k: v for k, v in meta.items() if k != "progressToken"}}
    params = base
    for _ in range(RELIST_PAGES):
        try:
            listing = await call_next(replace(ctx, method="tools/list", params=params))
        except Exception:  # the call goes on unrouted; the server answers it as it would have
            logger.debug("could not list the tools to route a call", exc_info=True)
            return
        if not isinstance(listing, Mapping):
            return
        session.rewrite_result("tools/list", listing)
        cursor = listing.get("nextCursor")
        if not isinstance(cursor, str):
            return
        params = {**base, "cursor": cursor}


def install(
    server: Server[Any] | MCPServer,
    *,
    rules: Iterable[Rule] | None = None,
    environ: Mapping[str, str] | None = None,
) -> ClientCompatMiddleware | None:
    """Install client compatibility rewriting on an `mcp` lowlevel `Server` or an `MCPServer`, in one line.

    Appends a `ClientCompatMiddleware` (bundled rules unless `rules` is given) to `server.middleware` and
    returns it; returns None and changes nothing when `HOSTCOMPAT_CLIENT_COMPAT=off` (in `environ`, by default
    the process environment at the time of the call). Installing twice keeps the first middleware and returns it.

    Raises:
        InvalidInput: `server` has no middleware list (not an `mcp` server).
    """
    chain = getattr(server, "middleware", None)
    if not isinstance(chain, list):
        raise InvalidInput("expected an mcp lowlevel Server or an MCPServer (one with a middleware list)", value=server)
    if not enabled(environ):
        return None
    for existing in chain:
        if isinstance(existing, ClientCompatMiddleware):
            return existing
    middleware = ClientCompatMiddleware(rules)
    chain.append(middleware)
    return middleware


__all__ = [
    "DISABLED_VALUE",
    "ENVIRONMENT_VARIABLE",
    "MAX_STATELESS_CLIENTS",
    "RELIST_INTERVAL",
    "RELIST_PAGES",
    "REQUEST_METHODS",
    "REWRITTEN_METHODS",
    "ClientCompatMiddleware",
    "ClientSessions",
    "RewriteSession",
    "enabled",
    "install",
]
