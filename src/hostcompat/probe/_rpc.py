"""What the probe's steps need of a client session, whichever speaks for it: the official client (`_sdk_session`),
or the probe's own JSON-RPC over stdio (`_session`), which does what the official client does, without its import.

The steps (`_collect`, `_call`, the handshake in `live`) send requests through `ProbeSession` and read the raw
results from the `Wire`; a server's error answer (or the client's own: a timeout, a closed connection) arrives as
`RpcError`, with the code and message the SDK's `MCPError` would carry; a result the official client rejects, as the
SDK's `pydantic.ValidationError`.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

CONNECTION_CLOSED: Final = -32000
REQUEST_TIMEOUT: Final = -32001
UNSUPPORTED_PROTOCOL_VERSION: Final = -32022
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
"""JSON-RPC error codes, as `mcp_types` numbers them (a test keeps them the same)."""

RequestId = int | str


class RpcError(Exception):
    """An error answer to a request, or the client's own (`REQUEST_TIMEOUT`, `CONNECTION_CLOSED`)."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(code, message, data)
        self.code = code
        self.message = message
        self.data = data

    def __str__(self) -> str:
        return self.message


class ProbeSession(Protocol):
    """A connected client session, after its handshake (or, for the modern era, before `server/discover`)."""

    @property
    def protocol_version(self) -> str | None:
        """The negotiated protocol version."""
        ...

    @property
    def modern_versions(self) -> tuple[str, ...]:
        """The 2026 (modern) protocol versions the official client speaks, oldest first."""
        ...

    async def request(self, method: str, params: dict[str, Any] | None = None) -> None:
        """Send one request and wait for its answer; the raw result is the `Wire`'s.

        Raises:
            RpcError: the server answered with an error, or the connection closed.
            pydantic.ValidationError: the official client rejects the result.
        """
        ...

    async def discover(self, version: str) -> dict[str, Any]:
        """Send one `server/discover` stamped with `version`; its raw result.

        Raises:
            RpcError: the server answered with an error, or the connection closed.
        """
        ...

    def adopt_discover(self, raw: dict[str, Any]) -> None:
        """Take a `server/discover` result as the official client's `adopt` does.

        Raises:
            pydantic.ValidationError: the official client rejects it.
            RuntimeError: it shares no modern protocol version with the client.
        """
        ...


__all__ = [
    "CONNECTION_CLOSED",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "REQUEST_TIMEOUT",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "ProbeSession",
    "RequestId",
    "RpcError",
]
