"""The reports a server keeps: in memory, the newest N (least recently used out first), each with its progress events.

A check that runs appends events (`progress`, then `done` or `failed`); readers of the event stream wait on a
condition for the next one. Nothing here touches the network.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from dataclasses import field
from typing import TYPE_CHECKING, Final, Literal

from hostcompat._dataclass import dataclass
from hostcompat.wire_json import WireObject

if TYPE_CHECKING:
    from hostcompat.report.model import ReportDocument

DEFAULT_MAX_REPORTS: Final = 32

Status = Literal["running", "done", "failed"]


@dataclass
class Run:
    """One check: its id, status, events so far, and the report (when done) or the error (when failed)."""

    id: str
    status: Status = "running"
    events: list[dict[str, str]] = field(default_factory=list)
    report: ReportDocument | None = None
    error: str | None = None
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def add(self, kind: str, message: str) -> None:
        """Record one event and wake the stream readers."""
        async with self.changed:
            self.events.append({"event": kind, "message": message})
            self.changed.notify_all()

    async def finish(self, report: ReportDocument | None, error: str | None = None) -> None:
        """The check ended: with its report, or with an error."""
        self.report, self.error = report, error
        self.status = "done" if error is None else "failed"
        await self.add(self.status, error or "the report is ready")

    def summary(self) -> WireObject:
        """The run as the API shows it, as JSON (its report included when done)."""
        out: WireObject = {"id": self.id, "status": self.status, "events": list(self.events)}
        if self.error is not None:
            out["error"] = self.error
        if self.report is not None:
            out["report"] = self.report
        return out


class ReportStore:
    """The newest `limit` runs, by id; reading one makes it the newest."""

    def __init__(self, limit: int = DEFAULT_MAX_REPORTS) -> None:
        self.limit = limit
        self._runs: OrderedDict[str, Run] = OrderedDict()

    def new(self) -> Run:
        """A new running check with a fresh random id (the oldest run is dropped when full)."""
        run = Run(secrets.token_hex(12))
        self._runs[run.id] = run
        while len(self._runs) > self.limit:
            self._runs.popitem(last=False)
        return run

    def get(self, run_id: str) -> Run | None:
        """The run with this id, or None (never kept, or dropped)."""
        run = self._runs.get(run_id)
        if run is not None:
            self._runs.move_to_end(run_id)
        return run

    def __len__(self) -> int:
        return len(self._runs)


__all__ = ["DEFAULT_MAX_REPORTS", "ReportStore", "Run", "Status"]
