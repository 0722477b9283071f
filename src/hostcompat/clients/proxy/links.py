"""The two ends a relay joins: a front link to the client and an upstream link to the server.

Each is a pair of message streams (the SDK's transports yield such pairs) plus what the relay must know about that
end: how an upstream ended, and whether a front can take server messages outside of any request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Protocol, TypeAlias, TypeVar

from mcp.shared.message import SessionMessage

from hostcompat._dataclass import dataclass
from hostcompat.clients.proxy.failures import UpstreamEnd

T_co = TypeVar("T_co", covariant=True)
T_contra = TypeVar("T_contra", contravariant=True)


class Receiver(Protocol[T_co]):
    """The reading end of a message stream (anyio memory streams and the SDK's context streams are ones)."""

    async def receive(self) -> T_co:
        """The next item; raises `anyio.EndOfStream` (or `ClosedResourceError`) once the stream is over."""
        ...


class Sender(Protocol[T_contra]):
    """The writing end of a message stream."""

    async def send(self, item: T_contra, /) -> None:
        """Send one item; raises `anyio.BrokenResourceError` or `ClosedResourceError` when nobody reads anymore."""
        ...

    async def aclose(self) -> None:
        """Close this end."""
        ...


@dataclass(frozen=True)
class UpstreamLink:
    """An open upstream session.

    `read` yields the server's messages (or errors for lines that are not JSON-RPC) and ends when the server does;
    `write` takes the client's messages; `ended()` says why the server's side ended, once `read` has.
    `stamps_protocol_version` is true for HTTP, whose requests must carry the negotiated version as a header.
    """

    read: Receiver[SessionMessage | Exception]
    write: Sender[SessionMessage]
    ended: Callable[[], Awaitable[UpstreamEnd]]
    stamps_protocol_version: bool = False


UpstreamOpener: TypeAlias = Callable[[], AbstractAsyncContextManager[UpstreamLink]]
"""Opens one upstream session (the proxy's own for a command or URL; tests and embedders may bring theirs)."""


def _always() -> bool:
    return True


@dataclass(frozen=True)
class FrontLink:
    """An open front session with one client.

    `standalone_stream()` says whether a server message that belongs to no request can reach the client now (stdio:
    always; HTTP: while the client holds its GET stream open). `answers_unreadable` is true when the proxy itself
    must answer a client message it cannot read (stdio); the HTTP transport answers those on its own.
    `drains_on_close` is true when a client that stops sending may still read the answers in flight (stdio), so
    the relay waits for them before closing the upstream.
    """

    read: Receiver[SessionMessage | Exception]
    write: Sender[SessionMessage]
    standalone_stream: Callable[[], bool] = _always
    answers_unreadable: bool = True
    drains_on_close: bool = True


__all__ = ["FrontLink", "Receiver", "Sender", "UpstreamLink", "UpstreamOpener"]
