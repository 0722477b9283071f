"""Running the application under uvicorn: bind first (so port 0 gets a real port), print the page's address with
the token, then serve until interrupted.
"""

from __future__ import annotations

import socket
from collections.abc import Callable

from hostcompat.web.guard import Guard, new_token

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on `host:port` (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    *,
    catalog_overrides: tuple[str, ...] = (),
    announce: Callable[[str], None] = print,
    token: str | None = None,
) -> None:
    """Serve the page and the API on `host:port` until interrupted; `announce` gets the page's address with token."""
    import uvicorn

    from hostcompat.engine.catalog.load import load_catalog
    from hostcompat.web.api import create_app

    catalog = load_catalog(overrides=list(catalog_overrides))
    sock = bind(host, port)
    bound_port = sock.getsockname()[1]
    guard = Guard.for_address(host, bound_port, token or new_token())
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    announce(f"hostcompat serve: http://{shown}:{bound_port}/?token={guard.token}")
    config = uvicorn.Config(create_app(guard, catalog), log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    server.run(sockets=[sock])


__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "bind", "serve"]
