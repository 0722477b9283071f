"""When each request in flight on the pipe relay times out, with one event-loop timer for them all.

Every deadline is the same number of seconds after its request was sent (or last showed progress), so keeping
them in a dict in the order they were set keeps them in deadline order: the earliest is always first, and one
timer, re-armed for the next, serves them all. The relay answers what `due` hands back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from hostcompat.clients.proxy.tracker import RequestId


class Deadlines:
    """Requests in flight -> when they time out (`seconds` after they were sent or renewed); `on_due` runs on the
    event loop when the earliest has passed, and should call `due`.
    """

    def __init__(self, seconds: float, on_due: Callable[[], None]) -> None:
        self.seconds = seconds
        self._on_due = on_due
        self._at: dict[RequestId, float] = {}
        self._timer: asyncio.TimerHandle | None = None

    def __len__(self) -> int:
        return len(self._at)

    def start(self, loop: asyncio.AbstractEventLoop, request_id: RequestId) -> None:
        """A request was sent: it times out `seconds` from now (a request sent again under its id starts over)."""
        at = self._at
        at.pop(request_id, None)
        deadline = at[request_id] = loop.time() + self.seconds
        if self._timer is None:
            self._timer = loop.call_at(deadline, self._on_due)

    def renew(self, loop: asyncio.AbstractEventLoop, request_id: RequestId) -> None:
        """A request in flight showed progress: it times out `seconds` from now (nothing if it is not in flight)."""
        if self._at.pop(request_id, None) is not None:
            self._at[request_id] = loop.time() + self.seconds

    def settle(self, request_id: RequestId | None) -> None:
        """A request was answered or cancelled: it no longer times out."""
        if request_id is not None:
            self._at.pop(request_id, None)

    def due(self, loop: asyncio.AbstractEventLoop) -> list[RequestId]:
        """The requests past their deadline, now forgotten, oldest first; the timer is re-armed for the next."""
        self._timer = None
        now = loop.time()
        expired: list[RequestId] = []
        for request_id, deadline in self._at.items():
            if deadline > now:
                self._timer = loop.call_at(deadline, self._on_due)
                break
            expired.append(request_id)
        for request_id in expired:
            del self._at[request_id]
        return expired

    def clear(self) -> None:
        """Forget every deadline (the requests were all answered some other way)."""
        self._at.clear()

    def cancel(self) -> None:
        """Stop the timer (the relay is closing)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


__all__ = ["Deadlines"]
