"""The probe's own record of one probe: its events, its step, the bytes received, and the raw JSON-RPC results.

The official client validates every result against the negotiated version and drops what that version does not
know; a probe needs what the server actually sent. Whichever client speaks for the probe shows the `Wire` each
request it sends and each answer it receives, as parsed (`sent`, `answered`, `refused`: the tee around the official
client's transport streams in `_sdk_wire`, or the probe's own session in `_session`), so the probe reads the wire
result of every request it made from here, and the official client's verdict (a validation error) becomes a finding
instead of a lost page.
"""

from __future__ import annotations

from typing import Any, Final

from hostcompat.probe._rpc import RequestId
from hostcompat.probe.events import EVENTS_TRUNCATED, MAX_MESSAGE_CHARS, ProbeEvent, Severity, Step
from hostcompat.probe.limits import Limits
from hostcompat.redaction import Redactor

PROTOCOL_VERSION_META_KEY: Final = "io.modelcontextprotocol/protocolVersion"
"""The `_meta` key of a 2026-07-28 request that names its protocol version (`mcp_types`' name; a test keeps both)."""

_MAX_EVENTS_PER_CODE: Final = 50
_SAMPLE_CHARS: Final = 200


def sample(data: bytes | str) -> str:
    """A short printable preview of untrusted output for an event."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = text[:_SAMPLE_CHARS]
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" if ord(ch) < 256 else "?" for ch in text)


class Wire:
    """One probe's mutable record: events, step, bytes received, and the raw results of requests in flight.

    Every event is recorded with the target's secrets redacted (`redactor`), before its message is cut to length.
    """

    def __init__(self, limits: Limits, redactor: Redactor | None = None) -> None:
        self.limits = limits
        self.redactor = redactor or Redactor()
        self.step: Step = "connect"
        self.events: list[ProbeEvent] = []
        self.received_bytes = 0
        self.counts_bytes = False
        """Set by a transport that counts the bytes it receives itself; otherwise the tee estimates them."""
        self.closed = False
        self.closed_during: Step | None = None
        self.process: dict[str, Any] | None = None
        self.transport_failure: str | None = None
        """Why the transport broke after the handshake, when it raised rather than just closing."""
        self.http_error: dict[str, Any] | None = None
        """The last HTTP error status a server answered with (`status`, `reason`, `wwwAuthenticate`)."""
        self._pending: dict[RequestId, str] = {}
        self._results: dict[str, dict[str, Any]] = {}
        self.asked_versions: dict[str, str] = {}
        """Method (`initialize`, `server/discover`) → the protocol version the client's last such request asked for."""
        self._per_code: dict[str, int] = {}
        self._last_id: dict[str, RequestId] = {}
        self.dropped: set[RequestId] = set()
        """Ids of requests whose reply a transport dropped as too large."""
        self.cut: set[RequestId] = set()
        """Ids of requests whose reply listed more items than the probe keeps, and was cut while it was parsed."""
        self.too_deep: set[RequestId] = set()
        """Ids of requests whose reply was nested too deeply to read."""

    # --- events --------------------------------------------------------------------------------------------------

    def event(
        self,
        code: str,
        severity: Severity,
        message: str,
        detail: dict[str, Any] | None = None,
        *,
        step: Step | None = None,
    ) -> None:
        """Record an event (at most a few dozen per code, so a flood cannot grow the snapshot)."""
        if self._room_for(code):
            message, redacted = self._message(message), self.redactor.json(detail or {})
            self.events.append(ProbeEvent(code, severity, step or self.step, message, redacted))

    def add(self, event: ProbeEvent) -> None:
        """Record an event built elsewhere, under the same per-code cap."""
        if self._room_for(event.code):
            message, detail = self._message(event.message), self.redactor.json(event.detail)
            if message != event.message or detail is not event.detail:
                event = ProbeEvent(event.code, event.severity, event.step, message, detail)
            self.events.append(event)

    def _message(self, message: str) -> str:
        """The message redacted, cut first to what an event keeps (a server's error text may be megabytes), so a
        secret the cut splits loses its first part too.
        """
        if len(message) <= MAX_MESSAGE_CHARS:
            return self.redactor.text(message)
        return self.redactor.head(message[:MAX_MESSAGE_CHARS])

    def _room_for(self, code: str) -> bool:
        seen = self._per_code.get(code, 0)
        self._per_code[code] = seen + 1
        return seen < _MAX_EVENTS_PER_CODE

    def final_events(self) -> list[ProbeEvent]:
        """The events in order (shutdown last), with a note counting the codes that hit the cap."""
        events = sorted(self.events, key=lambda event: event.step == "shutdown")
        over = {code: count for code, count in self._per_code.items() if count > _MAX_EVENTS_PER_CODE}
        if over:
            message = f"only the first {_MAX_EVENTS_PER_CODE} events of a code are kept"
            events.append(ProbeEvent(EVENTS_TRUNCATED, "info", "probe", message, {"counts": over}))
        return events

    def has_event(self, code: str) -> bool:
        """True when an event with this code was recorded."""
        return code in self._per_code

    # --- bytes ---------------------------------------------------------------------------------------------------

    def count(self, size: int) -> None:
        """Add `size` received bytes to the running total."""
        self.received_bytes += size

    @property
    def over_budget(self) -> bool:
        """True once the bytes received exceed `Limits.max_total_bytes`."""
        return self.received_bytes > self.limits.max_total_bytes

    # --- requests and results ------------------------------------------------------------------------------------

    def pending_ids(self) -> list[RequestId]:
        """The ids of requests sent and not yet answered."""
        return list(self._pending)

    def was_dropped(self, method: str) -> bool:
        """True when the reply to the last `method` request was dropped as too large."""
        return method in self._last_id and self._last_id[method] in self.dropped

    def was_cut(self, method: str) -> bool:
        """True when the reply to the last `method` request had its lists cut to `max_items` while parsed."""
        return method in self._last_id and self._last_id[method] in self.cut

    def was_too_deep(self, method: str) -> bool:
        """True when the reply to the last `method` request was nested too deeply to read."""
        return method in self._last_id and self._last_id[method] in self.too_deep

    def take_result(self, method: str) -> dict[str, Any] | None:
        """The raw result of the last answered `method` request, once (or `None` if it was not a result)."""
        return self._results.pop(method, None)

    def sent(self, request_id: RequestId, method: str, params: object) -> None:
        """Note a request the client sends."""
        self._pending[request_id] = method
        self._last_id[method] = request_id
        self._results.pop(method, None)
        asked = _asked_version(method, params)
        if asked is not None:
            self.asked_versions[method] = asked

    def answered(self, request_id: RequestId, result: dict[str, Any]) -> None:
        """Note a result the client receives; keep a shallow copy (the client may rewrite top keys)."""
        method = self._pending.pop(request_id, None)
        if method is not None:
            self._results[method] = dict(result)
        if not self.counts_bytes:
            import pydantic_core  # the byte count of a transport that does not count them itself (HTTP, a seam)

            self.count(len(pydantic_core.to_json(result)))

    def refused(self, request_id: RequestId | None) -> None:
        """Note an error answer the client receives."""
        if request_id is not None:
            self._pending.pop(request_id, None)

    def mark_closed(self) -> None:
        """Note that the server's side of the connection ended."""
        if not self.closed:
            self.closed = True
            self.closed_during = self.step


def _asked_version(method: str, params: object) -> str | None:
    """The protocol version a request that opens a connection asks for: `initialize`'s `protocolVersion`, or the
    `_meta` stamp of `server/discover`; None for any other request.
    """
    if not isinstance(params, dict):
        return None
    if method == "initialize":
        version = params.get("protocolVersion")
    elif method == "server/discover":
        meta = params.get("_meta")
        version = meta.get(PROTOCOL_VERSION_META_KEY) if isinstance(meta, dict) else None
    else:
        return None
    return version if isinstance(version, str) else None


__all__ = ["PROTOCOL_VERSION_META_KEY", "Wire", "sample"]
