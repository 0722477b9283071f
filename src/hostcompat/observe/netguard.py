"""The network a widget run gets: none. A proxy on 127.0.0.1 that each run's browser context must use records
where the widget tried to go (CONNECT host:port, or the absolute URL) and refuses every request.

Request interception in the page does not see a sandboxed srcdoc frame's own requests, so the proxy is what keeps
an untrusted widget off the network (loopback included: `<-loopback>` sends it through the proxy as well).
"""

from __future__ import annotations

import asyncio
from typing import Final

MAX_REQUEST_LINE: Final = 4_096
MAX_TARGETS: Final = 200
_REFUSAL: Final = b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
BYPASS_NONE: Final = "<-loopback>"
"""Chromium's proxy bypass rule that sends loopback traffic through the proxy too (nothing bypasses it)."""


class RefusingProxy:
    """A proxy that refuses everything and remembers what was asked (`targets`, at most `MAX_TARGETS`)."""

    def __init__(self, ignore_hosts: tuple[str, ...] = ()) -> None:
        """A proxy, not listening yet; requests for `ignore_hosts` are refused but not recorded."""
        self.targets: list[str] = []
        self._ignore = ignore_hosts
        self._server: asyncio.Server | None = None

    async def start(self) -> str:
        """Listen on an ephemeral loopback port; the proxy URL for a browser context."""
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def close(self) -> None:
        """Stop listening."""
        if self._server is not None:
            self._server.close()
            self._server = None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readuntil(b"\n"), 2.0)
            self._remember(line[:MAX_REQUEST_LINE].decode("latin-1").strip())
            writer.write(_REFUSAL)
            await asyncio.wait_for(writer.drain(), 2.0)
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
            pass
        finally:
            writer.close()

    def _remember(self, line: str) -> None:
        parts = line.split(" ")
        if len(parts) < 2:
            return
        method, target = parts[0], parts[1]
        url = f"https://{target}" if method == "CONNECT" else target
        if any(url.startswith((f"https://{host}", f"http://{host}")) for host in self._ignore):
            return
        if len(self.targets) < MAX_TARGETS:
            self.targets.append(url[:500])


__all__ = ["BYPASS_NONE", "RefusingProxy"]
