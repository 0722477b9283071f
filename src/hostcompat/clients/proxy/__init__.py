"""A compatibility proxy in front of any MCP server: everything passes through, except the matching rules' patches.

Importing this package is cheap: every name loads on first use, so the configuration and the pure session tracker
never pay for the parts that talk to the network or to a subprocess (and so import the `mcp` SDK).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.clients.proxy.config import DEFAULT_MAX_MESSAGE_BYTES as DEFAULT_MAX_MESSAGE_BYTES
    from hostcompat.clients.proxy.config import DEFAULT_MAX_PENDING as DEFAULT_MAX_PENDING
    from hostcompat.clients.proxy.config import DEFAULT_MAX_SESSIONS as DEFAULT_MAX_SESSIONS
    from hostcompat.clients.proxy.config import DEFAULT_REQUEST_TIMEOUT as DEFAULT_REQUEST_TIMEOUT
    from hostcompat.clients.proxy.config import DEFAULT_SESSION_IDLE_TIMEOUT as DEFAULT_SESSION_IDLE_TIMEOUT
    from hostcompat.clients.proxy.config import MCP_PATH as MCP_PATH
    from hostcompat.clients.proxy.config import HttpUpstream as HttpUpstream
    from hostcompat.clients.proxy.config import ProxyConfig as ProxyConfig
    from hostcompat.clients.proxy.config import StdioUpstream as StdioUpstream
    from hostcompat.clients.proxy.config import Upstream as Upstream
    from hostcompat.clients.proxy.config import build_rules as build_rules
    from hostcompat.clients.proxy.config import http_upstream as http_upstream
    from hostcompat.clients.proxy.config import parse_listen as parse_listen
    from hostcompat.clients.proxy.config import stdio_upstream as stdio_upstream
    from hostcompat.clients.proxy.failures import UpstreamEnd as UpstreamEnd
    from hostcompat.clients.proxy.serve import HttpProxyServer as HttpProxyServer
    from hostcompat.clients.proxy.serve import http_proxy as http_proxy
    from hostcompat.clients.proxy.serve import run_stdio_proxy as run_stdio_proxy
    from hostcompat.clients.proxy.session.relay import ProxySession as ProxySession
    from hostcompat.clients.proxy.tracker import Pending as Pending
    from hostcompat.clients.proxy.tracker import SessionTracker as SessionTracker

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.clients.proxy.config": [
            "DEFAULT_MAX_MESSAGE_BYTES",
            "DEFAULT_MAX_PENDING",
            "DEFAULT_MAX_SESSIONS",
            "DEFAULT_REQUEST_TIMEOUT",
            "DEFAULT_SESSION_IDLE_TIMEOUT",
            "HttpUpstream",
            "MCP_PATH",
            "ProxyConfig",
            "StdioUpstream",
            "Upstream",
            "build_rules",
            "http_upstream",
            "parse_listen",
            "stdio_upstream",
        ],
        "hostcompat.clients.proxy.failures": ["UpstreamEnd"],
        "hostcompat.clients.proxy.serve": ["HttpProxyServer", "http_proxy", "run_stdio_proxy"],
        "hostcompat.clients.proxy.session.relay": ["ProxySession"],
        "hostcompat.clients.proxy.tracker": ["Pending", "SessionTracker"],
    },
)

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
