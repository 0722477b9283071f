"""The upstream server's stderr: copied through to ours, its last bytes kept to explain how the server ended."""

from __future__ import annotations

from collections import deque
from contextlib import suppress
from typing import BinaryIO

import anyio
from anyio.abc import ByteReceiveStream

from hostcompat.clients.proxy.failures import MAX_STDERR_TAIL


class StderrTail:
    """Copies the server's stderr to ours and keeps its last few thousand bytes for error messages."""

    def __init__(self, sink: BinaryIO | None) -> None:
        self._sink = sink
        self._chunks: deque[bytes] = deque()
        self._size = 0
        self.done = anyio.Event()

    def keep(self, chunk: bytes) -> None:
        """Copy `chunk` to the sink and remember it (only the last `MAX_STDERR_TAIL` bytes or so are kept)."""
        if self._sink is not None:
            with suppress(OSError, ValueError):
                self._sink.write(chunk)
                self._sink.flush()
        self._chunks.append(chunk)
        self._size += len(chunk)
        while self._size - len(self._chunks[0]) >= MAX_STDERR_TAIL and len(self._chunks) > 1:
            self._size -= len(self._chunks.popleft())

    async def pump(self, stream: ByteReceiveStream) -> None:
        """Keep everything `stream` yields until it ends, then set `done`."""
        try:
            async for chunk in stream:
                self.keep(chunk)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass
        finally:
            self.done.set()

    def text(self) -> str:
        """The last stderr output, decoded leniently."""
        return b"".join(self._chunks)[-MAX_STDERR_TAIL:].decode("utf-8", "replace")


__all__ = ["StderrTail"]
