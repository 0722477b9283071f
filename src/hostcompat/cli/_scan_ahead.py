"""One server's widget scans started ahead, in a child forked from this process, on a second core.

The offline check of a snapshot spends about a third of its time scanning widget code, and most of the rest loading
and running the checker around the scan. Forked as soon as the snapshot is read, a child scans the widgets the
snapshot's tools name while this process loads the checker, loads the catalog and derives the server's requirements;
the widget stage then takes the child's results (issue 18).

The child changes when a scan runs, never what it finds: it runs `widget_scans.scan_content`, the pure function the
check runs in process, on the same content items, within the same deadline. A fork is used only where it is safe
and pays: on Linux, with a core to spare and no other thread in this process, for items the parent picked before
forking, holding at most `MAX_AHEAD_CHARS` of code. A child that fails, dies, stops at its deadline or sends
anything but a result costs nothing but time: the widget stage then scans in process, as it does without a child.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, NoReturn

from hostcompat.errors import ScanTimedOut
from hostcompat.probe.snapshot import LISTING_REFERENCE
from hostcompat.widget_items import widget_chars, widget_item

if TYPE_CHECKING:
    from hostcompat.probe.snapshot import Snapshot
    from hostcompat.widget_scans import ContentNeeds
    from hostcompat.wire_json import WireJSON

_FRAME: Final = struct.Struct("<II")
"""Each result the child sends: the index of its item, then the length of the pickled `ContentNeeds` (or None)."""
_MAX_FRAME_BYTES: Final = 16 * 1024 * 1024
"""A result longer than this is not one the scanner makes (it caps what it keeps): the child is stopped."""
_READ_BYTES: Final = 1 << 20
MAX_AHEAD_CHARS: Final = 8 * 1024 * 1024
"""The most widget code a child scans: about twice what the scanner gets through while the checker loads, which is
all the child can save. Beyond it the scan takes longer than the overlap saves, while the child's own memory grows
with the code (measured in peak PSS of both processes: +10 MiB for the pdf example's 4.3 MB widget, +15 MiB for
16 MB of widget code, +26 MiB for seven 14 MB widgets), so larger widgets are scanned in process."""


def items_to_scan_ahead(snapshot: Snapshot, max_chars: int) -> list[WireJSON]:
    """The content items of the widgets the snapshot's tools pointed the probe at (all but those only the resource
    listing offered), in the order it read them, within `max_chars` characters of code: those the widget stage will
    ask for, picked without deriving the requirements (which loads the checker). An item picked and never asked for
    costs the child's time, not the result.
    """
    chars_left = max_chars
    items: list[WireJSON] = []
    for uri, capture in snapshot.ui_resources.items():
        if capture.referenced_by and all(who == LISTING_REFERENCE for who in capture.referenced_by):
            continue  # offered by the resource listing alone: no tool renders it
        item = widget_item(snapshot, uri)
        size = widget_chars(item)
        if item is None or size > chars_left:
            continue
        chars_left -= size
        items.append(item)
    return items


def cores() -> int:
    """How many CPUs this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def can_fork() -> bool:
    """Whether a scanning child pays and is safe here: a core to run it on, Linux (where a forked child keeps a
    working runtime), and no other thread in this process (whose locks the child would inherit held).
    """
    return sys.platform.startswith("linux") and hasattr(os, "fork") and threading.active_count() == 1 and cores() > 1


class AheadScans:
    """The scans of `items`, run one after another by a forked child; `content_needs` takes their results."""

    def __init__(self, pid: int, fd: int, items: Sequence[WireJSON]) -> None:
        self._pid: int | None = pid
        self._fd = fd
        self._items = list(items)
        self._results: dict[int, ContentNeeds | None] = {}
        self._buffer = bytearray()
        self._ended = False

    @classmethod
    def start(cls, items: Sequence[WireJSON], seconds: float | None) -> AheadScans | None:
        """A child scanning `items` within `seconds` from now (None: no limit); None when there is nothing to scan,
        no fork is safe here, or the fork fails.
        """
        if not items or not can_fork():
            return None
        deadline = None if seconds is None else time.monotonic() + seconds  # one clock for both on Linux
        read_fd, write_fd = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_fd)
            os.close(write_fd)
            return None
        if pid == 0:  # pragma: no cover - the child; its results are tested through the parent
            _scan_in_child(items, read_fd, write_fd, deadline)
        os.close(write_fd)
        return cls(pid, read_fd, items)

    def content_needs(self, item: WireJSON, deadline: float | None) -> ContentNeeds | None:
        """The child's scan of `item`, waiting for it until `deadline` (`time.monotonic()`); None when the child was
        not given it, stopped at its own deadline, or failed: the caller then scans in process.

        Raises:
            ScanTimedOut: `deadline` passed while waiting.
        """
        index = self._index_of(item)
        if index is None:
            return None
        while index not in self._results and not self._ended:
            self._read(deadline)
        return self._results.get(index)

    def close(self) -> None:
        """Stop the child if it still runs, and reap it (idempotent)."""
        self._end()

    def _index_of(self, item: WireJSON) -> int | None:
        """The child's index of an item with the same text or blob as `item` (the check stage may hold a copy)."""
        for index, picked in enumerate(self._items):
            if picked is item or _payload(picked) == _payload(item):
                return index
        return None

    def _read(self, deadline: float | None) -> None:
        wait = None if deadline is None else deadline - time.monotonic()
        if wait is not None and wait <= 0:
            raise ScanTimedOut("the widget scan ran out of time")
        ready, _, _ = select.select([self._fd], [], [], wait)
        if not ready:
            raise ScanTimedOut("the widget scan ran out of time")
        chunk = os.read(self._fd, _READ_BYTES)
        if not chunk:  # the child is done, or died
            self._end()
            return
        self._buffer += chunk
        self._take_frames()

    def _take_frames(self) -> None:
        from hostcompat.widget_scans import ContentNeeds

        while len(self._buffer) >= _FRAME.size:
            index, size = _FRAME.unpack_from(self._buffer)
            if size > _MAX_FRAME_BYTES or index >= len(self._items):
                self._end()
                return
            if len(self._buffer) < _FRAME.size + size:
                return
            needs = pickle.loads(self._buffer[_FRAME.size : _FRAME.size + size])  # our own child's results
            del self._buffer[: _FRAME.size + size]
            self._results[index] = needs if isinstance(needs, ContentNeeds) else None

    def _end(self) -> None:
        self._ended = True
        pid, self._pid = self._pid, None
        if pid is None:
            return
        os.close(self._fd)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)  # a child still scanning is not waited for
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def _payload(item: WireJSON) -> tuple[object, object, object]:
    """What a scan of `item` reads: its text, blob and MIME type."""
    return item.get("text"), item.get("blob"), item.get("mimeType")


def _scan_in_child(items: Sequence[WireJSON], read_fd: int, write_fd: int, deadline: float | None) -> NoReturn:
    """The child: scan each item, send each result as it comes, and leave without running anything of the parent's:
    `os._exit` runs no exit handler and writes none of the output the parent had buffered when it forked.
    """
    code = 1
    try:
        os.close(read_fd)
        from hostcompat.widget_scans import scan_content

        for index, item in enumerate(items):
            try:
                needs: ContentNeeds | None = scan_content(item, deadline)
            except ScanTimedOut:
                needs = None
            payload = pickle.dumps(needs, protocol=pickle.HIGHEST_PROTOCOL)
            _write_all(write_fd, _FRAME.pack(index, len(payload)) + payload)
        code = 0
    except BaseException:  # the parent scans in process whatever the child could not send
        code = 1
    finally:
        os._exit(code)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


__all__ = ["MAX_AHEAD_CHARS", "AheadScans", "can_fork", "cores", "items_to_scan_ahead"]
