"""Client compatibility profiles for FastMCP 4 servers (local, mounted or `create_proxy`): one line to install.

FastMCP's own `Middleware` hooks see component objects, and whatever they return is re-validated by the
SDK's per-version wire models: a rounded priority comes out as `1.0`, never the integer `1` Codex needs,
and a renamed tool gets a new title derived from the new name. So the rewrite runs one layer down, as the
SDK `ServerMiddleware` FastMCP itself is built on, over the final wire dicts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from mcp.server import Server

from hostcompat.clients.middleware import ClientCompatMiddleware, install
from hostcompat.clients.rules import Rule
from hostcompat.errors import InvalidInput

if TYPE_CHECKING:
    from fastmcp import FastMCP


def fastmcp_sdk_server(server: FastMCP[Any]) -> Server[Any]:
    """The `mcp` lowlevel `Server` a FastMCP 4 server runs on (its middleware chain sees every wire result).

    Raises:
        InvalidInput: `server` is not a FastMCP 4 server (for `mcp` servers use `install`).
    """
    # FastMCP 4.1 has no public handle on its SDK server; its own in-memory transport reads this attribute.
    lowlevel = getattr(server, "_mcp_server", None)
    if not isinstance(lowlevel, Server):
        raise InvalidInput("expected a FastMCP 4 server (for an mcp Server or MCPServer use install())", value=server)
    return lowlevel


def install_fastmcp(
    server: FastMCP[Any],
    *,
    rules: Iterable[Rule] | None = None,
    environ: Mapping[str, str] | None = None,
) -> ClientCompatMiddleware | None:
    """Install client compatibility rewriting on a FastMCP 4 server (a proxy from `create_proxy` included).

    Appends a `ClientCompatMiddleware` (bundled rules unless `rules` is given) to the middleware chain of
    the SDK server under FastMCP, inside FastMCP's own dispatch: FastMCP middleware and tools see the
    server's real tool names, and the client sees the rewritten wire result. Returns the middleware, or
    None (changing nothing) when `HOSTCOMPAT_CLIENT_COMPAT=off` (in `environ`, by default the process environment
    at the time of the call); installing twice returns the first.

    Raises:
        InvalidInput: `server` is not a FastMCP 4 server.
    """
    return install(fastmcp_sdk_server(server), rules=rules, environ=environ)


__all__ = ["fastmcp_sdk_server", "install_fastmcp"]
