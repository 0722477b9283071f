"""What a stdio server that never answered the handshake printed instead, for the timeout's message.

An HTTP-only server started as a command prints its address ("listening on http://127.0.0.1:3001/mcp") and waits for
connections that never come; the probe times out. The message then says what the server wrote on stdout (its first
line that is not JSON-RPC) and how its stderr ends, and, when one of them names an `http(s)://` URL, to check that
URL instead. Everything quoted is the server's text: already redacted, cut short, and shown with escapes.
"""

from __future__ import annotations

from typing import Final

from hostcompat._regex import regex
from hostcompat.probe._wire import Wire, sample
from hostcompat.probe.events import GARBAGE_OUTPUT
from hostcompat.probe.target import StdioTarget, Target

_URL: Final = regex(r"https?://[^\s'\"<>`)\]]+")
_TAIL_CHARS: Final = 300


def silent_stdio_detail(target: Target, wire: Wire) -> str:
    """`; on stdout it printed: …; stderr ends with: …; …check that URL…`, or "" for a server that said nothing."""
    if not isinstance(target, StdioTarget):
        return ""
    line = next(
        (str(event.detail.get("firstLine", "")) for event in wire.events if event.code == GARBAGE_OUTPUT),
        "",
    )
    tail = str((wire.process or {}).get("stderrTail", "")).strip()
    parts = []
    if line:
        parts.append(f"on stdout it printed {line!r} (not JSON-RPC)")
    if tail:
        parts.append("stderr ends with: " + sample(" | ".join(tail.splitlines()[-3:])[-_TAIL_CHARS:]))
    found = _URL.search(line) or _URL.search(tail)
    if found is not None:
        url = found.group(0).rstrip(".,;:")
        parts.append(f"it looks like a server over HTTP: check its URL ({url}) instead of running it as a command")
    return "".join(f"; {part}" for part in parts)


__all__ = ["silent_stdio_detail"]
