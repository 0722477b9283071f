"""The scanner's bounds on work: a deadline for the whole scan, and a number of hits each pass looks at.

Every pass looks at a bounded window around each hit, so its cost is (hits) x (a window), and a widget made of
nothing but hits (half a million `window.openai.callTool("x")`) is the worst case. Each pass therefore looks at no
more than `MAX_PASS_HITS` hits (the scan then reports `hits_capped`), and every loop over the input checks the
deadline now and then: a scan past it raises `ScanTimedOut`, which the caller turns into "not analysed".
The deadline is a context variable, set around one scan (or a check's scans) by `scan_deadline`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Final, TypeVar

from hostcompat.errors import ScanTimedOut

__all__ = [
    "MAX_PASS_HITS",
    "MAX_SCAN_HITS",
    "MAX_SCAN_STRETCHES",
    "HitBudget",
    "check_deadline",
    "scan_deadline",
    "ticking",
]

MAX_PASS_HITS: Final = 5_000
"""The most hits one pass looks at in one stretch of code (the largest bundles of the corpus have about 100)."""
MAX_SCAN_HITS: Final = 50_000
"""The most hits all passes of one scan look at together (the corpus: at most about 500)."""
MAX_SCAN_STRETCHES: Final = 1_000
"""The most stretches of code (scripts, event handlers, embedded code) one scan reads."""

_TICK_EVERY: Final = 256
_DEADLINE: ContextVar[float | None] = ContextVar("hostcompat_scan_deadline", default=None)

_T = TypeVar("_T")


def check_deadline() -> None:
    """Raise `ScanTimedOut` when the current scan's deadline has passed (no deadline: never)."""
    deadline = _DEADLINE.get()
    if deadline is not None and time.monotonic() > deadline:
        raise ScanTimedOut("the widget scan ran out of time")


@contextmanager
def scan_deadline(at: float | None) -> Iterator[None]:
    """Scans inside the block stop with `ScanTimedOut` once `time.monotonic()` passes `at` (None: no deadline).

    An enclosing, earlier deadline still holds.
    """
    outer = _DEADLINE.get()
    effective = at if outer is None else outer if at is None else min(at, outer)
    token = _DEADLINE.set(effective)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def ticking(items: Iterable[_T]) -> Iterator[_T]:
    """`items`, checking the deadline every few hundred (for loops whose count grows with the input)."""
    if _DEADLINE.get() is None:
        yield from items
        return
    for count, item in enumerate(items):
        if count % _TICK_EVERY == 0:
            check_deadline()
        yield item


class HitBudget:
    """The hits each pass (and the whole scan) may still look at, and the stretches the scan may still read;
    `capped` once any of them ran out.
    """

    def __init__(
        self, per_pass: int = MAX_PASS_HITS, per_scan: int = MAX_SCAN_HITS, stretches: int = MAX_SCAN_STRETCHES
    ) -> None:
        self.per_pass = per_pass
        self.left = per_scan
        self.stretches_left = stretches
        self.capped = False

    def hits(self, items: Iterable[_T]) -> Iterator[_T]:
        """The first `per_pass` of `items` while the scan has hits left (`capped` when some are left out), checking
        the deadline as it goes.
        """
        for count, item in enumerate(items):
            if count >= self.per_pass or self.left <= 0:
                self.capped = True
                return
            self.left -= 1
            if count % _TICK_EVERY == 0:
                check_deadline()
            yield item

    def stretch(self) -> bool:
        """Whether one more stretch of code may be read (`capped` when not)."""
        check_deadline()
        if self.stretches_left <= 0:
            self.capped = True
            return False
        self.stretches_left -= 1
        return True
