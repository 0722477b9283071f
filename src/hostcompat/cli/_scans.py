"""The widget scans of one `check` run: each distinct content scanned once, early, beside the probes.

A check of many servers probes them all at once; a server's widgets are scanned as soon as its probe returns
(`prescan`), in a pool of worker processes sized to the cores, while the other probes still run. The check stage
then asks for each scan (`content_needs`, the `widget_scans.ScanSource` the pipeline reads) and gets the worker's
result, the run's earlier one for the same bytes, or the one kept in `--cache-dir`.

The pool changes when a scan runs, never what it finds: a worker runs `widget_scans.scan_content`, the pure function
the check runs in process, on the same content item (bounded by the widget budget's characters before it is sent)
with the same deadline. A scan the worker stopped at a deadline earlier than the check's is run again here; any
failure of the pool (it cannot start, a worker dies, a result does not come back) turns it off and the scans run in
this process, as without a pool.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Final

from hostcompat.cli._scan_ahead import cores
from hostcompat.errors import ScanTimedOut
from hostcompat.widget_scans import ContentNeeds, MemoScans, content_key, scan_content

if TYPE_CHECKING:  # concurrent.futures loads only with a pool: a check of one server does without
    from concurrent.futures import Future, ProcessPoolExecutor

    from hostcompat.cli._scan_ahead import AheadScans
    from hostcompat.cli._scan_cache import DiskScanCache
    from hostcompat.probe.snapshot import Snapshot
    from hostcompat.widget_analysis import WidgetBudget
    from hostcompat.wire_json import WireJSON

_PRELOAD: Final = [
    "hostcompat.cli",  # a worker runs the main module again: `python -m hostcompat` imports the command line
    "hostcompat.widget_scans",
    "hostcompat.engine.scan.widget",
    "hostcompat.engine.scan.widget_needs",
]
"""What a fork server imports once for every worker it starts."""


def _scan_in_worker(item: WireJSON, wall_deadline: float | None) -> ContentNeeds | None:
    """A worker's scan (`scan_content`), its deadline given in wall-clock time; None when it ran past it."""
    deadline = None if wall_deadline is None else time.monotonic() + (wall_deadline - time.time())
    try:
        return scan_content(item, deadline)
    except ScanTimedOut:
        return None


class RunScans:
    """The run's scans (a `ScanSource`): kept by content key, done ahead in a process pool, kept on disk."""

    def __init__(self, *, workers: int = 0, disk: DiskScanCache | None = None, ahead: AheadScans | None = None) -> None:
        """`workers` processes scan ahead (0: scans run in this process when asked); `disk` keeps them between runs;
        `ahead` is a child already scanning the widgets of the run's one snapshot (its results are taken first).
        """
        self._disk = disk
        self._forked = ahead
        self._done: dict[str, ContentNeeds] = {}
        self._pending: dict[str, tuple[Future[ContentNeeds | None], float | None]] = {}
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None  # started with the first scan to do (none: every one is kept)
        self._memo = MemoScans() if workers == 0 and disk is None else None
        """Without workers or a disk, scans need no content key: the memo finds the same bytes without hashing."""

    def prescan(self, snapshot: Snapshot, budget: WidgetBudget) -> None:
        """Start scanning the widgets the check of `snapshot` will ask for (see `widget_analysis.widgets_to_scan`).

        Never raises: it runs beside the probes, and the check itself says what goes wrong with a server's data.
        """
        if self._workers == 0 and self._disk is None:
            return
        from hostcompat.pipeline import bound_values, derive
        from hostcompat.widget_analysis import widgets_to_scan

        try:
            derived = derive(bound_values(snapshot))
            for item in widgets_to_scan(derived.snapshot, derived.requirements, budget):
                self._ahead(item, budget.seconds)
        except Exception:  # scanning ahead is an optimisation; the check stage does it again
            pass

    def _ahead(self, item: WireJSON, seconds: float | None) -> None:
        key = content_key(item)
        if key is None or key in self._done or key in self._pending:
            return
        kept = None if self._disk is None else self._disk.read(key)
        if kept is not None:
            self._done[key] = kept
            return
        if self._pool is None and self._workers > 0:
            self._pool = _start_pool(self._workers)
            self._workers = 0 if self._pool is None else self._workers
        if self._pool is None:
            return
        wall_deadline = None if seconds is None else time.time() + seconds
        try:
            self._pending[key] = (self._pool.submit(_scan_in_worker, item, wall_deadline), wall_deadline)
        except Exception:  # a pool that cannot take work: scan in process
            self._stop_pool()

    def content_needs(self, item: WireJSON, deadline: float | None) -> ContentNeeds:
        """The scan of `item`: the run's for the same bytes, a worker's, the cache's, else one run now.

        Raises:
            ScanTimedOut: the scan ran past `deadline` (`time.monotonic()`).
        """
        if self._forked is not None:
            forked = self._forked.content_needs(item, deadline)
            if forked is not None:
                return forked
        if self._memo is not None:
            return self._memo.content_needs(item, deadline)
        key = content_key(item)
        if key is None:
            return scan_content(item, deadline)
        known = self._done.get(key)
        if known is None and key in self._pending:
            known = self._from_worker(key, deadline)
        if known is None and key not in self._pending and self._disk is not None:
            known = self._disk.read(key)
        if known is None:
            known = scan_content(item, deadline)
            if self._disk is not None:
                self._disk.write(key, known)
        self._done[key] = known
        return known

    def _from_worker(self, key: str, deadline: float | None) -> ContentNeeds | None:
        """The worker's scan of `key`, or None to scan in process (the pool failed, or stopped it early).

        Raises:
            ScanTimedOut: `deadline` passed while waiting for it.
        """
        from concurrent.futures import TimeoutError as FutureTimeout

        future, _ = self._pending.pop(key)
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            needs = future.result(timeout=wait)
        except FutureTimeout:
            future.cancel()
            raise ScanTimedOut("the widget scan ran out of time") from None
        except Exception:  # a broken pool or a worker's failure: the same scan in process says what
            self._stop_pool()
            return None
        if needs is not None and self._disk is not None:
            self._disk.write(key, needs)
        return needs  # None: stopped at the worker's deadline, which may be earlier than this one

    def _stop_pool(self) -> None:
        pool, self._pool, self._workers = self._pool, None, 0
        for future, _ in self._pending.values():
            future.cancel()
        self._pending.clear()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (a scan still running is not waited for), and keep the disk cache within its bound."""
        self._stop_pool()
        if self._forked is not None:
            self._forked.close()
        if self._disk is not None:
            self._disk.close()


def _start_pool(workers: int) -> ProcessPoolExecutor | None:
    """A pool of `workers` processes started from a fork server that has loaded the scanner (spawned where there
    is none); None when no pool can start.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.context import BaseContext

    context: BaseContext
    try:
        if sys.platform != "win32" and "forkserver" in multiprocessing.get_all_start_methods():
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(_PRELOAD)
        else:
            context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    except Exception:  # no pool: the scans run in this process
        return None
    return pool


__all__ = ["RunScans", "cores"]
