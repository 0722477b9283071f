"""Newline-delimited JSON framing with a size bound: split a byte stream into lines, flag any line too long.

The stdio transports of MCP frame one JSON-RPC message per line. A peer that never sends a newline must not make
the proxy buffer without end: once a line passes the limit its bytes are dropped up to the next newline, and an
`Oversized` marker takes its place in the output.
"""

from __future__ import annotations

from hostcompat._dataclass import dataclass
from hostcompat.errors import InvalidInput


@dataclass(frozen=True)
class Oversized:
    """Stands for a line that was longer than the limit; `size` is how many of its bytes had arrived by then."""

    size: int


class LineBuffer:
    """Collects bytes and hands back each complete line (without its newline), or `Oversized` for one too long."""

    def __init__(self, max_bytes: int) -> None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes <= 0:
            raise InvalidInput("max_bytes must be a positive integer", value=max_bytes)
        self.max_bytes = max_bytes
        self._buffer = bytearray()
        self._skipping = False

    @property
    def buffered(self) -> int:
        """Bytes of the unfinished line held so far (never more than `max_bytes`)."""
        return len(self._buffer)

    @property
    def at_line_start(self) -> bool:
        """Whether the next byte fed starts a new line (nothing held, no oversized line being skipped)."""
        return not self._buffer and not self._skipping

    def whole_line(self, data: bytes) -> bool:
        """Whether `data` is one whole line within the limit (its only newline at its end) arriving at a line start.

        The common case, which a relay may take as it is, with no copy, without calling `feed`.
        """
        last = len(data) - 1
        return 0 <= last <= self.max_bytes and data.find(b"\n") == last and not self._buffer and not self._skipping

    def feed(self, data: bytes) -> list[bytes | Oversized]:
        """The lines completed by `data`, in order; an unfinished tail is kept for the next call."""
        out: list[bytes | Oversized] = []
        position, length = 0, len(data)
        while position < length:
            newline = data.find(b"\n", position)
            end = length if newline < 0 else newline
            if self._skipping:
                self._skipping = newline < 0
            elif len(self._buffer) + end - position > self.max_bytes:
                out.append(Oversized(len(self._buffer) + end - position))
                self._buffer.clear()
                self._skipping = newline < 0
            elif newline < 0:
                self._buffer += data[position:end]
            elif self._buffer:
                self._buffer += data[position:end]
                out.append(bytes(self._buffer))
                self._buffer.clear()
            else:
                out.append(data[position:end])
            if newline < 0:
                break
            position = newline + 1
        return out

    def flush(self) -> bytes:
        """The unfinished last line (the stream ended without a newline), emptying the buffer."""
        rest = bytes(self._buffer)
        self._buffer.clear()
        self._skipping = False
        return rest


__all__ = ["LineBuffer", "Oversized"]
