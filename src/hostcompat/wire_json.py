"""Names for raw JSON as it comes off the wire or out of a file, before anything has validated it.

A `dict[str, Any]` that crosses a package boundary is either one of these (raw JSON, named as such) or a typed
value (a frozen dataclass or a TypedDict). Any JSON named here is untrusted: read it with `isinstance` checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

__all__ = ["WireJSON", "WireObject", "WireValue"]

WireValue: TypeAlias = Any
"""Any JSON value as parsed (`None`, `bool`, `int`, `float`, `str`, `list`, `dict`), not yet validated."""

WireJSON: TypeAlias = Mapping[str, Any]
"""A JSON object as read from a server, a client, a snapshot, a config or a report file, not yet validated."""

WireObject: TypeAlias = dict[str, Any]
"""A JSON object being built to be written to the wire or a file (a message, a report document)."""
