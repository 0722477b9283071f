"""A compatibility proxy in front of any MCP server: everything passes through, except the matching rules' patches.

Importing this package is cheap: the configuration and the pure session tracker load at once, while the parts that
talk to the network or to a subprocess (and so import the `mcp` SDK) load on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from hostcompat.clients.proxy.config import (
    DEFAULT_MAX_MESSAGE_BYTES as DEFAULT_MAX_MESSAGE_BYTES,
)
from hostcompat.clients.proxy.config import (
    DEFAULT_MAX_PENDING as DEFAULT_MAX_PENDING,
)
from hostcompat.clients.proxy.config import (
    DEFAULT_MAX_SESSIONS as DEFAULT_MAX_SESSIONS,
)
from hostcompat.clients.proxy.config import (
    DEFAULT_REQUEST_TIMEOUT as DEFAULT_REQUEST_TIMEOUT,
)
from hostcompat.clients.proxy.config import (
    DEFAULT_SESSION_IDLE_TIMEOUT as DEFAULT_SESSION_IDLE_TIMEOUT,
)
from hostcompat.clients.proxy.config import (
    MCP_PATH as MCP_PATH,
)
from hostcompat.clients.proxy.config import (
    HttpUpstream as HttpUpstream,
)
from hostcompat.clients.proxy.config import (
    ProxyConfig as ProxyConfig,
)
from hostcompat.clients.proxy.config import (
    StdioUpstream as StdioUpstream,
)
from hostcompat.clients.proxy.config import (
    Upstream as Upstream,
)
from hostcompat.clients.proxy.config import (
    build_rules as build_rules,
)
from hostcompat.clients.proxy.config import (
    http_upstream as http_upstream,
)
from hostcompat.clients.proxy.config import (
    parse_listen as parse_listen,
)
from hostcompat.clients.proxy.config import (
    stdio_upstream as stdio_upstream,
)
from hostcompat.clients.proxy.failures import (
    UpstreamEnd as UpstreamEnd,
)
from hostcompat.clients.proxy.tracker import (
    Pending as Pending,
)
from hostcompat.clients.proxy.tracker import (
    SessionTracker as SessionTracker,
)

if TYPE_CHECKING:
    from hostcompat.clients.proxy.serve import HttpProxyServer as HttpProxyServer
    from hostcompat.clients.proxy.serve import http_proxy as http_proxy
    from hostcompat.clients.proxy.serve import run_stdio_proxy as run_stdio_proxy
    from hostcompat.clients.proxy.session.relay import ProxySession as ProxySession

_LAZY = {
    "HttpProxyServer": "hostcompat.clients.proxy.serve",
    "ProxySession": "hostcompat.clients.proxy.session.relay",
    "http_proxy": "hostcompat.clients.proxy.serve",
    "run_stdio_proxy": "hostcompat.clients.proxy.serve",
}


def __getattr__(name: str) -> Any:
    """Load the SDK-backed names on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "DEFAULT_MAX_PENDING",
    "DEFAULT_MAX_SESSIONS",
    "DEFAULT_REQUEST_TIMEOUT",
    "DEFAULT_SESSION_IDLE_TIMEOUT",
    "HttpProxyServer",
    "HttpUpstream",
    "MCP_PATH",
    "Pending",
    "ProxyConfig",
    "ProxySession",
    "SessionTracker",
    "StdioUpstream",
    "Upstream",
    "UpstreamEnd",
    "build_rules",
    "http_proxy",
    "http_upstream",
    "parse_listen",
    "run_stdio_proxy",
    "stdio_upstream",
]
