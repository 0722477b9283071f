"""What one widget run recorded: the bridge messages both ways, console and page errors, network attempts, how it
ended, and whether it painted. Plain data, bounded as it is collected; `rules.judge_run` reads it.
"""

from __future__ import annotations

import json
from dataclasses import field
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.wire_json import WireObject

MAX_MESSAGES: Final = 2_000
"""The most bridge messages a run keeps (the host page stops answering after its own cap and says so)."""
MAX_EVENTS: Final = 200
"""The most console lines, page errors, network attempts and dialogs each a run keeps."""
MAX_TEXT: Final = 500
"""The longest console line or error message kept."""


@dataclass(frozen=True)
class BridgeMessage:
    """One message over the bridge: `direction` `in` (view→host) or `out` (host→view), milliseconds since the host
    page started, and its JSON-RPC shape (`summary`: method, id, params/result/error cut to a bounded text), or
    None when the record could not be read back (cut).
    """

    direction: str
    at_ms: int
    summary: WireObject | None

    @property
    def method(self) -> str | None:
        """The method, when the message is a request or notification."""
        method = (self.summary or {}).get("method")
        return method if isinstance(method, str) else None

    @property
    def is_request(self) -> bool:
        """A request (a method and an id)."""
        summary = self.summary or {}
        return self.method is not None and summary.get("id") is not None

    @property
    def is_error(self) -> bool:
        """A response carrying an error."""
        return "error" in (self.summary or {})

    @property
    def valid(self) -> bool | None:
        """Whether it is JSON-RPC 2.0 (a request, notification or response); None when unreadable."""
        summary = self.summary
        if summary is None:
            return None
        if summary.get("shape") != "object" or summary.get("jsonrpc") != "2.0" or summary.get("json") is False:
            return False
        if "method" in summary:
            return isinstance(summary.get("method"), str)
        return "id" in summary and (("result" in summary) != ("error" in summary))

    def params(self) -> Any:
        """The params parsed back, or None when absent or cut."""
        text = (self.summary or {}).get("params")
        if not isinstance(text, str):
            return None
        try:
            return json.loads(text)
        except ValueError:
            return None

    def to_dict(self) -> WireObject:
        """The JSON form."""
        return {"direction": self.direction, "atMs": self.at_ms, "message": self.summary}


@dataclass
class RunRecord:
    """Everything one run saw (mutable while the run goes on; capped by `MAX_MESSAGES` and `MAX_EVENTS`)."""

    messages: list[BridgeMessage] = field(default_factory=list)
    dropped_messages: int = 0
    console: list[tuple[str, str]] = field(default_factory=list)
    page_errors: list[tuple[int, str]] = field(default_factory=list)
    network: list[str] = field(default_factory=list)
    csp_violations: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    navigations: list[str] = field(default_factory=list)
    spoofed_bindings: int = 0
    flooded: bool = False
    crashed: bool = False
    timed_out: bool = False
    painted: bool | None = None
    explored: int = 0
    first_paint_ms: int | None = None
    """When the widget frame first painted, in milliseconds from its own start (None: not seen)."""
    seconds: float = 0.0
    failure: str | None = None
    notes: list[str] = field(default_factory=list)
    """What the runner could not do (a screenshot that failed, …), for the reader of the record."""

    def add_message(self, direction: str, at_ms: int, text: str) -> None:
        """Keep one bridge message (its summary JSON from the host page)."""
        if len(self.messages) >= MAX_MESSAGES:
            self.dropped_messages += 1
            return
        try:
            summary = json.loads(text)
        except ValueError:
            summary = None
        self.messages.append(BridgeMessage(direction, at_ms, summary if isinstance(summary, dict) else None))

    def add_event(self, bucket: list[Any], item: Any) -> None:
        """Keep a console line, error, network attempt or dialog (bounded)."""
        if len(bucket) < MAX_EVENTS:
            bucket.append(item)

    def now_ms(self) -> int:
        """The time of the last message (the host page's clock), for errors seen from outside it."""
        return self.messages[-1].at_ms if self.messages else 0

    def sent(self) -> list[BridgeMessage]:
        """The view's messages, in order."""
        return [message for message in self.messages if message.direction == "in"]

    def to_dict(self) -> WireObject:
        """The JSON form of the whole record."""
        return {
            "seconds": round(self.seconds, 3),
            "messages": [message.to_dict() for message in self.messages],
            "droppedMessages": self.dropped_messages,
            "console": [{"type": kind, "text": text} for kind, text in self.console],
            "pageErrors": [{"atMs": at, "message": text} for at, text in self.page_errors],
            "network": list(self.network),
            "cspViolations": list(self.csp_violations),
            "dialogs": list(self.dialogs),
            "navigations": list(self.navigations),
            "spoofedBindings": self.spoofed_bindings,
            "flooded": self.flooded,
            "crashed": self.crashed,
            "timedOut": self.timed_out,
            "painted": self.painted,
            "explored": self.explored,
            "firstPaintMs": self.first_paint_ms,
            "failure": self.failure,
            "notes": list(self.notes),
        }


__all__ = ["MAX_EVENTS", "MAX_MESSAGES", "MAX_TEXT", "BridgeMessage", "RunRecord"]
