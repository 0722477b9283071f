"""Which HTTP requests the proxy's HTTP front takes at all: the `Host` and `Origin` checks, on every request.

A browser page can reach a server on this machine or the local network (DNS rebinding, or a plain cross-origin
POST), so the front checks both headers on every request, wherever it listens: `Origin`, when a browser sends one,
must be an allowed origin, and `Host` must name the proxy itself. On loopback the proxy's own loopback origins are
allowed; listening beyond loopback needs an explicit list of allowed origins. Pure values and checks.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.clients.proxy.config import is_loopback
from hostcompat.errors import InvalidInput

_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
_ORIGIN = regex(
    r"(?P<scheme>https?)://(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]{1,253})(?::(?P<port>\d{1,5}|\*))?",
    re.IGNORECASE,
)
_HOST = regex(r"(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]{1,253})(?::(?P<port>\d{1,5}|\*))?")
_WILDCARD_BINDS = frozenset({"0.0.0.0", "::", ""})


def normalize_origin(text: str) -> str:
    """An `--allow-origin` value as compared with `Origin` headers: `scheme://host[:port]`, lower case.

    A port of `*` allows every port of that host.

    Raises:
        InvalidInput: not `http(s)://host[:port]` (no path, no `*` host: the list is explicit).
    """
    match = _ORIGIN.fullmatch(text.strip().rstrip("/")) if isinstance(text, str) else None
    if match is None or (match["port"] not in (None, "*") and not 0 < int(match["port"]) <= 65535):
        raise InvalidInput("an allowed origin looks like https://app.example.com or http://host:8080", value=text)
    port = f":{match['port']}" if match["port"] else ""
    return f"{match['scheme'].lower()}://{match['host'].lower()}{port}"


def normalize_host(text: str) -> str:
    """An `--allow-host` value as compared with `Host` headers: `host` or `host:port`, lower case.

    Raises:
        InvalidInput: not a host name or address with an optional port.
    """
    match = _HOST.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise InvalidInput("an allowed host looks like mcp.example.com or 192.168.1.5:8765", value=text)
    port = f":{match['port']}" if match["port"] else ""
    return f"{match['host'].lower()}{port}"


def _host_part(origin: str) -> str:
    """The host of a normalized origin (`https://[::1]:8443` -> `[::1]`)."""
    match = _ORIGIN.fullmatch(origin)
    assert match is not None  # normalized already
    return match["host"]


def _matches(value: str, allowed: frozenset[str]) -> bool:
    if value in allowed:
        return True
    head, sep, _ = value.rpartition(":")
    return bool(sep) and not head.endswith(":") and f"{head}:*" in allowed


@dataclass(frozen=True)
class FrontGuard:
    """The `Host` values and browser `Origin`s the HTTP front accepts (lower case; `:*` matches any port)."""

    hosts: frozenset[str]
    origins: frozenset[str]

    def refusal(self, headers: Mapping[str, str]) -> tuple[int, str] | None:
        """None when the request may go on; else the HTTP status and the reason (421 for Host, 403 for Origin)."""
        host = headers.get("host", "").strip().lower()
        if not host or not _matches(host, self.hosts):
            return 421, "Invalid Host header"
        origin = headers.get("origin")
        if origin is not None and not _matches(origin.strip().lower().rstrip("/"), self.origins):
            return 403, "Invalid Origin header"
        return None


def _with_port(host: str, port: int) -> list[str]:
    return [host, f"{host}:{port}"]


def front_guard(
    bind_host: str, port: int, allowed_origins: Iterable[str] = (), allowed_hosts: Iterable[str] = ()
) -> FrontGuard:
    """The guard for a front listening on `bind_host:port`, with extra allowed origins and hosts.

    Accepted `Host`s: the loopback names, the address listened on, the hosts of the allowed origins, and
    `allowed_hosts`. Accepted `Origin`s: the proxy's own loopback origins and `allowed_origins`.

    Raises:
        InvalidInput: a malformed origin or host, or a front beyond loopback with no allowed origin.
    """
    origins = [normalize_origin(origin) for origin in allowed_origins]
    extra_hosts = [normalize_host(host) for host in allowed_hosts]
    if not is_loopback(bind_host) and not origins:
        raise InvalidInput(
            f"listening on {bind_host}, beyond this machine, needs --allow-origin for each web origin allowed to "
            "connect (clients that send no Origin, like command-line ones, are not affected)",
            value=bind_host,
        )
    hosts: list[str] = [name for loopback in _LOOPBACK_NAMES for name in _with_port(loopback, port)]
    if bind_host not in _WILDCARD_BINDS and not is_loopback(bind_host):
        try:
            shown = f"[{bind_host}]" if ipaddress.ip_address(bind_host).version == 6 else bind_host
        except ValueError:
            shown = bind_host
        hosts += _with_port(shown.lower(), port)
    for origin in origins:
        hosts += [_host_part(origin), f"{_host_part(origin)}:*"]
    hosts += extra_hosts
    own = [f"http://{loopback}:{port}" for loopback in _LOOPBACK_NAMES]
    return FrontGuard(hosts=frozenset(hosts), origins=frozenset(own + origins))


def exposure_warning(bind_host: str, port: int, allowed_origins: Iterable[str]) -> str | None:
    """The warning to print when the front listens beyond loopback (None on loopback)."""
    if is_loopback(bind_host):
        return None
    origins = ", ".join(normalize_origin(origin) for origin in allowed_origins)
    return (
        f"warning: listening on {bind_host}:{port}, beyond this machine: anyone who can reach this port can start "
        f"the server and call its tools (there is no authentication); browsers are allowed only from {origins}"
    )


__all__ = ["FrontGuard", "exposure_warning", "front_guard", "normalize_host", "normalize_origin"]
