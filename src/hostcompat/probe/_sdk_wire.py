"""The official client's side of the probe's record: a tee around its transport streams, and the codec the
probe's hardened stdio transport (`_stdio`) speaks when the official client drives it.

The tee shows the `Wire` every request the client sends and every answer it receives, as its transport parsed them
(a `JSONRPCResponse` keeps its `result` as a raw dict), before the client sees them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any

import anyio
from mcp_types import ErrorData, JSONRPCError, JSONRPCRequest, JSONRPCResponse, jsonrpc_message_adapter

from hostcompat.probe._rpc import RequestId
from hostcompat.probe._sdk import SessionMessage, Transport
from hostcompat.probe._wire import Wire


class SdkStdioCodec:
    """Lines to and from the official client's messages, as its own stdio transport reads and writes them."""

    def parse(self, text: str) -> SessionMessage:
        """One line as a message (`ValueError` for anything that is not a JSON-RPC message)."""
        return SessionMessage(jsonrpc_message_adapter.validate_json(text, by_name=False))

    def dropped(self, request_id: RequestId, code: int, why: str) -> SessionMessage:
        """The error answer that stands for a reply the transport dropped."""
        return SessionMessage(JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=why)))

    def dump(self, message: SessionMessage) -> bytes:
        """A message as the line written to the server."""
        return (message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n").encode("utf-8")


class _TeeRead:
    """A read stream that shows every inbound item to the `Wire` before the client sees it."""

    def __init__(self, inner: Any, wire: Wire) -> None:
        self._inner = inner
        self._wire = wire

    @property
    def last_context(self) -> Any:
        """The sender's context of the last item, passed through for streams that carry one."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        try:
            item: SessionMessage | Exception = await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._wire.mark_closed()
            raise
        if not isinstance(item, Exception):
            root = item.message
            if isinstance(root, JSONRPCResponse):
                self._wire.answered(root.id, root.result)
            elif isinstance(root, JSONRPCError):
                self._wire.refused(root.id)
        return item

    def __aiter__(self) -> _TeeRead:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _TeeRead:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


class _TeeWrite:
    """A write stream that shows every outbound request to the `Wire` before the transport sends it."""

    def __init__(self, inner: Any, wire: Wire) -> None:
        self._inner = inner
        self._wire = wire

    async def send(self, item: SessionMessage, /) -> None:
        root = item.message
        if isinstance(root, JSONRPCRequest):
            self._wire.sent(root.id, root.method, root.params)
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _TeeWrite:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


@asynccontextmanager
async def _teed(inner: Transport, wire: Wire) -> AsyncIterator[tuple[_TeeRead, _TeeWrite]]:
    async with inner as (read_stream, write_stream):
        if wire.step == "connect":
            wire.step = "initialize"
        yield _TeeRead(read_stream, wire), _TeeWrite(write_stream, wire)


def tee(inner: Transport, wire: Wire) -> Transport:
    """`inner` with both of its streams shown to `wire`; the step moves on to `initialize` once it is open."""
    teed: Transport = _teed(inner, wire)
    return teed


__all__ = ["SdkStdioCodec", "tee"]
