"""The scanner's multi-literal prefilter: which anchor literals occur in a stretch, found in one native pass.

Every scanner pass can only match text that contains one of a few literals (its gate: `postMessage`
for the sender pass, the method names for the wire pass, ...). With Hyperscan installed (the `fast`
extra), one SIMD pass over the stretch tells which anchors occur, and a pass whose gate is closed is
skipped, so code that never touches the bridge scans at close to memory speed. The same pass records
where each anchor lies, so a pass whose every match holds one of its anchors near its start tries its
pattern only there (`CodeView.finditer`) instead of running it over the whole stretch. Without Hyperscan
every gate is open and there are no positions: the same results, found by the passes' own searches.
"""

from __future__ import annotations

import importlib
import threading
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from itertools import chain
from typing import Any

from hostcompat._dataclass import dataclass

__all__ = ["ALL_OPEN", "Anchors", "Gate", "find_anchors", "gate", "native_prefilter"]

_registry: dict[str, int] = {}
"""Anchor literal -> its bit; grows as modules declare gates at import."""


@dataclass(frozen=True)
class Gate:
    """The literals one pass needs: a match of the pass contains at least one of them."""

    literals: tuple[str, ...]
    mask: int
    bits: tuple[int, ...] = ()
    """The registry bit of each literal (the keys of `Anchors.positions`)."""


def gate(*literals: str) -> Gate:
    """Declare a pass's anchor literals (ASCII, case-sensitive); call at import time, next to the pass's pattern."""
    if not literals:
        raise ValueError("a gate needs at least one literal")
    mask = 0
    bits = []
    for literal in literals:
        if not literal or not literal.isascii():
            raise ValueError(f"an anchor must be non-empty ASCII: {literal!r}")
        bits.append(_registry.setdefault(literal, len(_registry)))
        mask |= 1 << bits[-1]
    return Gate(tuple(literals), mask, tuple(sorted(set(bits))))


@dataclass(frozen=True)
class Anchors:
    """Which anchors occur in one stretch (`mask`) and where (`positions`); `ALL_OPEN` when no prefilter ran."""

    mask: int
    positions: Mapping[int, Sequence[int] | None] | None = field(default=None, compare=False, repr=False)
    """Per anchor bit, the ascending start offsets of its every occurrence (absolute; None when there were too
    many to keep); None when not known at all."""

    def open(self, needed: Gate) -> bool:
        """Whether the pass behind `needed` may find anything here."""
        return bool(self.mask & needed.mask)

    def where(self, needed: Gate) -> Sequence[int] | None:
        """Ascending offsets where any of `needed`'s literals starts; None when positions are not known."""
        if self.positions is None:
            return None
        if len(needed.bits) == 1:  # one literal: its positions as they are
            spots = self.positions.get(needed.bits[0], ())
            return None if spots is None else spots or ()
        found = []
        if len(self.positions) < len(needed.bits):  # fewer anchors seen than the gate has: go through those seen
            mask = needed.mask
            for bit, spots in self.positions.items():
                if mask >> bit & 1:
                    if spots is None:
                        return None
                    if spots:
                        found.append(spots)
        else:
            for bit in needed.bits:
                spots = self.positions.get(bit, ())
                if spots is None:
                    return None
                if spots:
                    found.append(spots)
        if len(found) <= 1:
            return found[0] if found else ()
        return sorted(chain.from_iterable(found))  # timsort merges the sorted runs (in C: no heap in Python)


ALL_OPEN = Anchors(-1)
"""Every gate open: what a stretch gets when the native matcher is missing or fails."""


class _Matcher:
    """A compiled Hyperscan database of every registered anchor, one scratch space per thread.

    A stretch is fed in chunks, each encoded on its own and overlapping the next by the longest anchor
    less one character: the chunks stay in cache, where encoding the whole stretch at once would cost
    a fresh allocation as large as the input (and its page faults). An anchor is kept by the chunk it
    starts in; the byte offsets of a chunk with non-ASCII text are mapped back to characters.
    """

    def __init__(self, hyperscan: Any, literals: Iterable[tuple[str, int]]) -> None:
        pairs = sorted(literals, key=lambda pair: pair[1])
        self.size = len(pairs)
        self._lengths = {bit: len(literal) for literal, bit in pairs}
        self._overlap = max(len(literal) for literal, _ in pairs) - 1
        self._hyperscan = hyperscan
        self._database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        self._database.compile(
            expressions=[literal.encode("ascii") for literal, _ in pairs],
            ids=[bit for _, bit in pairs],
            elements=len(pairs),
            flags=0,
            literal=True,
        )
        self._local = threading.local()

    def scan(self, text: str, start: int, end: int) -> Anchors:
        """The anchors in `text[start:end]` and where they start. An anchor seen more than `_MAX_POSITIONS` times
        keeps no positions (its passes search the stretch).

        With the C extension each chunk is folded to one byte per character (non-ASCII as 0x80), so a match's
        byte offset is its character offset; without it the chunk is encoded as UTF-8 (where ASCII anchors keep
        every match) and offsets past non-ASCII text are mapped back to characters.
        """
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = self._hyperscan.Scratch(self._database)
        lengths = self._lengths
        code = "i" if end < 2**31 else "q"
        if _fold is not None and end - start <= _CHUNK_CHARS:
            return self._scan_one_chunk(_fold(text, start, end), start, code, scratch)
        positions: dict[int, array[int]] = {}
        overflowed: set[int] = set()
        window = [0, 0]  # the chunk's start, and how many of its characters it owns (later ones: the next chunk's)

        def keep(bit: int, first: int) -> None:
            spots = positions.get(bit)
            if spots is None:
                if bit in overflowed:
                    return
                spots = positions[bit] = array(code)
            elif len(spots) >= _MAX_POSITIONS:
                overflowed.add(bit)
                del positions[bit]
                return
            spots.append(window[0] + first)

        def on_aligned(bit: int, _start: int, end_byte: int, _flags: int, _context: object) -> None:
            first = end_byte - lengths[bit]
            if first < window[1]:
                keep(bit, first)

        found: array[int] = array("q")  # (first byte << _BIT_BITS) | bit, compact: a page of anchors stays small

        def on_encoded(bit: int, _start: int, end_byte: int, _flags: int, _context: object) -> None:
            found.append(((end_byte - lengths[bit]) << _BIT_BITS) | bit)

        fold = _fold
        scan = self._database.scan
        for at in range(start, end, _CHUNK_CHARS):
            stop = min(end, at + _CHUNK_CHARS + self._overlap)
            window[0], window[1] = at, min(_CHUNK_CHARS, end - at)
            if fold is not None:
                scan(fold(text, at, stop), match_event_handler=on_aligned, scratch=scratch)
                continue
            chunk = text[at:stop]
            data = chunk.encode("utf-8", "surrogatepass")
            del found[:]
            scan(data, match_event_handler=on_encoded, scratch=scratch)
            char = byte = 0
            # per literal, Hyperscan reports in order; mapping bytes to characters needs them all in order
            for key in found if len(data) == len(chunk) else sorted(found):
                first_byte, bit = key >> _BIT_BITS, key & _BIT_MASK
                if len(data) == len(chunk):
                    char = first_byte
                else:
                    char += len(data[byte:first_byte].decode("utf-8", "surrogatepass"))
                    byte = first_byte
                if char < window[1]:
                    keep(bit, char)
        mask = 0
        for bit in (*positions, *overflowed):
            mask |= 1 << bit
        known: dict[int, array[int] | None] = {**positions, **dict.fromkeys(overflowed)}
        return Anchors(mask, known)

    def _scan_one_chunk(self, data: bytes, start: int, code: str, scratch: Any) -> Anchors:
        """`scan` of a stretch that fits one chunk, folded to one byte per character: the same anchors, with less
        work per match (most widgets' scripts are one chunk, and their scan's fixed cost is mostly this).
        """
        hits: list[tuple[int, int]] = []
        append = hits.append

        def on_match(bit: int, _start: int, end_byte: int, _flags: int, _context: object) -> None:
            append((bit, end_byte))

        self._database.scan(data, match_event_handler=on_match, scratch=scratch)
        lengths = self._lengths
        grouped: dict[int, list[int]] = {}
        for bit, end_byte in hits:  # per literal, Hyperscan reports in order
            spots = grouped.get(bit)
            if spots is None:
                spots = grouped[bit] = []
            spots.append(start + end_byte - lengths[bit])
        mask = 0
        known: dict[int, array[int] | None] = {}
        for bit, spots in grouped.items():
            mask |= 1 << bit
            known[bit] = array(code, spots) if len(spots) <= _MAX_POSITIONS else None
        return Anchors(mask, known)


def _load_fold() -> Callable[[str, int, int], bytes] | None:
    """The C extension's `ascii_fold` (one byte per character); None when it is not built."""
    try:
        native = importlib.import_module("hostcompat.engine.scan.js._clexer")
    except ImportError:
        return None
    fold: Callable[[str, int, int], bytes] = native.ascii_fold
    return fold


_fold = _load_fold()
_BIT_BITS = 10
_BIT_MASK = (1 << _BIT_BITS) - 1
_MAX_POSITIONS = 16_384
"""Occurrences of one anchor kept per stretch; past it the anchor's passes search the stretch themselves."""
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
            if len(_registry) > _BIT_MASK:
                raise RuntimeError(f"more than {_BIT_MASK} prefilter anchors")
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
        return Anchors(0, {})
    try:
        return matcher.scan(source, start, end)
    except Exception:  # a matcher failure costs speed, never results
        return ALL_OPEN
