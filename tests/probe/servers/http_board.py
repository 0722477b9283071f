"""The example MCP App server over HTTP: `http_board.py <streamable-http|sse> <port> [<bearer token>]`.

With a token, every request without `Authorization: Bearer <token>` gets 401, like a real protected server.
"""

import sys
from typing import Any

import anyio
import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from hostcompat.examples.board import build_server


class RequireBearer:
    """ASGI middleware: 401 unless the bearer token matches."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and dict(scope["headers"]).get(b"authorization") != self.expected:
            await send({"type": "http.response.start", "status": 401, "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"unauthorized"})
            return
        await self.app(scope, receive, send)


def main() -> None:
    transport, port = sys.argv[1], int(sys.argv[2])
    server = build_server()
    app: Any = server.sse_app() if transport == "sse" else server.streamable_http_app()
    if len(sys.argv) > 3:
        app = RequireBearer(app, sys.argv[3])
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    anyio.run(uvicorn.Server(config).serve)


if __name__ == "__main__":
    main()
