"""Who may talk to the local server: the `Host` and `Origin` checks, and the start-up token.

A page elsewhere on the web can make a browser send requests to 127.0.0.1, and DNS rebinding can make such a page
same-origin with it. So every request must name one of the server's own loopback addresses in `Host`, and carry no
`Origin` or exactly the origin of that address. Starting a server command or probing a URL also needs the token
printed at start-up: a local page that runs commands is a local code-execution door.

Pure: plain strings in, a refusal reason (or None) out.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable
from typing import Final

from hostcompat._dataclass import dataclass

TOKEN_HEADER: Final = "x-hostcompat-token"
"""The request header that carries the start-up token."""

LOOPBACK_NAMES: Final = ("127.0.0.1", "localhost", "[::1]")


def new_token() -> str:
    """A fresh random token (URL-safe, 32 bytes of entropy)."""
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Guard:
    """The addresses the server answers to (`host:port` forms) and its token."""

    hosts: frozenset[str]
    token: str

    @classmethod
    def for_address(cls, host: str, port: int, token: str, *, extra_names: Iterable[str] = ()) -> Guard:
        """The guard of a server bound to `host:port`: its loopback names, and `host` itself when it is another."""
        names = {*LOOPBACK_NAMES, *extra_names}
        if host not in ("0.0.0.0", "::", ""):
            names.add(f"[{host}]" if ":" in host and not host.startswith("[") else host)
        return cls(frozenset(f"{name}:{port}".lower() for name in names), token)

    def refusal(self, host: str | None, origin: str | None) -> str | None:
        """Why a request with these `Host` and `Origin` headers is refused, or None when it may go on."""
        if not host:
            return "the request has no Host header"
        if host.lower() not in self.hosts:
            return "the Host header names another site (this server answers only to its loopback address)"
        if origin is None:
            return None
        if origin.lower() != f"http://{host.lower()}":
            return "the Origin header names another site: this server serves only its own page"
        return None

    def token_ok(self, presented: str | None) -> bool:
        """Whether `presented` is the start-up token (compared in constant time)."""
        return presented is not None and hmac.compare_digest(presented.encode(), self.token.encode())


__all__ = ["LOOPBACK_NAMES", "TOKEN_HEADER", "Guard", "new_token"]
