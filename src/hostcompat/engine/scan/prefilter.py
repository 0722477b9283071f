"""The scanner's multi-literal prefilter: which anchor literals occur in a stretch, found in one native pass.

Every scanner pass can only match text that contains one of a few literals (its gate: `postMessage`
for the sender pass, the method names for the wire pass, ...). With Hyperscan installed (the `fast`
extra), one SIMD pass over the stretch tells which anchors occur, and a pass whose gate is closed is
skipped, so code that never touches the bridge scans at close to memory speed. Without it every gate
is open: the same results, found by the passes' own searches.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["ALL_OPEN", "Anchors", "Gate", "find_anchors", "gate", "native_prefilter"]

_registry: dict[str, int] = {}
"""Anchor literal -> its bit; grows as modules declare gates at import."""


@dataclass(frozen=True)
class Gate:
    """The literals one pass needs: a match of the pass contains at least one of them."""

    literals: tuple[str, ...]
    mask: int


def gate(*literals: str) -> Gate:
    """Declare a pass's anchor literals (ASCII, case-sensitive); call at import time, next to the pass's pattern."""
    if not literals:
        raise ValueError("a gate needs at least one literal")
    mask = 0
    for literal in literals:
        if not literal or not literal.isascii():
            raise ValueError(f"an anchor must be non-empty ASCII: {literal!r}")
        mask |= 1 << _registry.setdefault(literal, len(_registry))
    return Gate(tuple(literals), mask)


@dataclass(frozen=True)
class Anchors:
    """Which anchors occur in one stretch (`mask`); `ALL_OPEN` when no prefilter ran."""

    mask: int

    def open(self, needed: Gate) -> bool:
        """Whether the pass behind `needed` may find anything here."""
        return bool(self.mask & needed.mask)


ALL_OPEN = Anchors(-1)
"""Every gate open: what a stretch gets when the native matcher is missing or fails."""


class _Matcher:
    """A compiled Hyperscan database of every registered anchor, one scratch space per thread.

    A stretch is fed in chunks, each encoded on its own and overlapping the next by the longest anchor
    less one character: the chunks stay in cache, where encoding the whole stretch at once would cost
    a fresh allocation as large as the input (and its page faults).
    """

    def __init__(self, hyperscan: Any, literals: Iterable[tuple[str, int]]) -> None:
        pairs = sorted(literals, key=lambda pair: pair[1])
        self.size = len(pairs)
        self._overlap = max(len(literal) for literal, _ in pairs) - 1
        self._hyperscan = hyperscan
        self._database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        self._database.compile(
            expressions=[literal.encode("ascii") for literal, _ in pairs],
            ids=[bit for _, bit in pairs],
            elements=len(pairs),
            flags=hyperscan.HS_FLAG_SINGLEMATCH,
            literal=True,
        )
        self._local = threading.local()

    def scan(self, text: str, start: int, end: int) -> int:
        """The bits of the anchors in `text[start:end]` (encoded as UTF-8, where ASCII anchors keep every match)."""
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = self._hyperscan.Scratch(self._database)
        found = 0

        def on_match(bit: int, _start: int, _end: int, _flags: int, _context: object) -> None:
            nonlocal found
            found |= 1 << bit

        scan = self._database.scan
        for at in range(start, end, _CHUNK_CHARS):
            chunk = text[at : min(end, at + _CHUNK_CHARS + self._overlap)]
            scan(chunk.encode("utf-8", "surrogatepass"), match_event_handler=on_match, scratch=scratch)
        return found


_CHUNK_CHARS = 1 << 18
"""Characters encoded and fed per step: small enough to stay in cache."""
_matcher: _Matcher | None = None
_unavailable = False
_lock = threading.Lock()


def _load_matcher() -> _Matcher | None:
    """The matcher for the anchors registered so far (rebuilt if more were declared since); None without Hyperscan."""
    global _matcher, _unavailable
    matcher = _matcher
    if matcher is not None and matcher.size == len(_registry):
        return matcher
    if _unavailable:
        return None
    with _lock:
        if _matcher is None or _matcher.size != len(_registry):
            try:
                import hyperscan  # type: ignore[import-not-found,unused-ignore]  # optional: the `fast` extra
            except ImportError:
                _unavailable = True
                return None
            _matcher = _Matcher(hyperscan, list(_registry.items()))
        return _matcher


def native_prefilter() -> bool:
    """Whether the native prefilter is in use (Hyperscan importable)."""
    return _load_matcher() is not None


def find_anchors(source: str, start: int, end: int) -> Anchors:
    """The anchors that occur in `source[start:end]`, or `ALL_OPEN` when there is no native matcher."""
    matcher = _load_matcher()
    if matcher is None:
        return ALL_OPEN
    if start >= end:
        return Anchors(0)
    try:
        return Anchors(matcher.scan(source, start, end))
    except Exception:  # a matcher failure costs speed, never results
        return ALL_OPEN
