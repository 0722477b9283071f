"""The bounds a probe puts on an untrusted server: time per step and in total, pages, items and bytes.

Everything a server sends is untrusted, so every loop and buffer in the probe is bounded by one of these numbers.
The defaults fit real servers (a 10,000-tool catalog, a widget over the 1 MiB budget) with room to spare.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.errors import InvalidInput
from hostcompat.probe._json import expect_int, expect_number, expect_object
from hostcompat.wire_json import WireJSON, WireObject

_MIB: Final = 1024 * 1024

_WIRE_KEYS: Final = {
    "connect_timeout": "connectTimeout",
    "step_timeout": "stepTimeout",
    "total_timeout": "totalTimeout",
    "max_pages": "maxPages",
    "max_items": "maxItems",
    "max_message_bytes": "maxMessageBytes",
    "max_bytes_per_resource": "maxBytesPerResource",
    "max_ui_resources": "maxUiResources",
    "max_total_bytes": "maxTotalBytes",
    "max_stderr_bytes": "maxStderrBytes",
    "shutdown_grace": "shutdownGrace",
    "call_timeout": "callTimeout",
    "max_call_result_bytes": "maxCallResultBytes",
    "max_auto_calls": "maxAutoCalls",
}
_SECONDS: Final = frozenset({"connect_timeout", "step_timeout", "total_timeout", "shutdown_grace", "call_timeout"})


@dataclass(frozen=True)
class Limits:
    """Time and size limits for one probe. Seconds are floats; sizes count bytes; all must be positive.

    - `connect_timeout`: starting or reaching the server and the handshake, together (servers can be slow to start).
    - `step_timeout`: one later step (one page, one resource read).
    - `total_timeout`: the whole probe, shutdown excluded (shutdown has its own bound: 2 x `shutdown_grace` + 1 s).
    - `max_pages`: pages per listing (tools, resources, templates, prompts).
    - `max_items`: items kept per listing.
    - `max_message_bytes`: one JSON-RPC message; a larger one is dropped unread.
    - `max_bytes_per_resource`: the text or blob of one `ui://` resource kept in the snapshot; longer ones are cut.
    - `max_ui_resources`: distinct `ui://` resources read.
    - `max_total_bytes`: every message received, summed; the probe stops capturing when it is spent.
    - `max_stderr_bytes`: the tail of the server's stderr kept for the report.
    - `shutdown_grace`: how long a stopping server gets after stdin closes, and again after SIGTERM.
    - `call_timeout`: one tools/call (shortened to what is left of `total_timeout`, which also bounds the calls).
    - `max_call_result_bytes`: one tool result kept in the snapshot (as compact JSON); a larger one is measured and
      not kept.
    - `max_auto_calls`: tools the probe calls on its own (read-only, no arguments); named calls are not counted.
    """

    connect_timeout: float = 30.0
    step_timeout: float = 10.0
    total_timeout: float = 60.0
    max_pages: int = 200
    max_items: int = 20_000
    max_message_bytes: int = 32 * _MIB  # a 16 MiB widget as base64 inside a JSON-RPC message
    max_bytes_per_resource: int = 16 * _MIB  # the scanner's budget; real single-file bundles pass 5 MB
    max_ui_resources: int = 100
    max_total_bytes: int = 128 * _MIB
    max_stderr_bytes: int = 64 * 1024
    shutdown_grace: float = 2.0
    call_timeout: float = 5.0
    max_call_result_bytes: int = 4 * _MIB
    max_auto_calls: int = 10

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if item.name in _SECONDS:
                object.__setattr__(self, item.name, expect_number(value, f"Limits.{item.name}"))
            else:
                expect_int(value, f"Limits.{item.name}", minimum=1)
        for name in ("connect_timeout", "step_timeout"):
            if getattr(self, name) > self.total_timeout:
                raise InvalidInput(
                    f"Limits.{name} ({getattr(self, name)}) must not exceed total_timeout ({self.total_timeout})",
                    value=getattr(self, name),
                )

    def to_dict(self) -> WireObject:
        """The limits as JSON data with camelCase keys, as written in a snapshot."""
        return {wire: getattr(self, name) for name, wire in _WIRE_KEYS.items()}

    @classmethod
    def from_dict(cls, data: object) -> Limits:
        """Limits from `to_dict` output; missing keys take the defaults, unknown keys are an error.

        Raises:
            InvalidInput: not an object, an unknown key, or a value out of range.
        """
        obj: WireJSON = expect_object(data, "limits")
        by_wire = {wire: name for name, wire in _WIRE_KEYS.items()}
        unknown = sorted(set(obj) - set(by_wire))
        if unknown:
            raise InvalidInput(f"limits has unknown keys {unknown}", value=dict(obj))
        return cls(**{by_wire[key]: value for key, value in obj.items()})


DEFAULT_LIMITS: Final = Limits()
"""The limits a probe uses when none are given."""


__all__ = ["DEFAULT_LIMITS", "Limits"]
