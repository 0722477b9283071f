"""How much of what the engine reads the catalog really knows, per host: known, unknown and assumed cells, and the
age of their evidence.

A verdict is only as good as the host facts it joins, so the catalog's gaps are measured over the cells the
evaluator reads for that host (the widget features only where the host renders a widget format), not over every
fact the schema allows. Pure: the date to measure ages against is given.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import Final, Literal

from hostcompat._dataclass import dataclass
from hostcompat.engine.catalog.model import Catalog, Fact, HostProfile
from hostcompat.engine.verdicts.capabilities import NEED_FACTS, PERMISSION_ALLOW

FORMAT_CELLS: Final = ("ui.formats.mcp-apps", "ui.formats.openai-apps-sdk", "ui.formats.mcp-ui-legacy")
"""Read for every host: whether it renders each widget format."""
WIDGET_CELLS: Final = tuple(dict.fromkeys(path for path in NEED_FACTS.values() if path not in FORMAT_CELLS))
"""Read only for hosts that render MCP Apps or OpenAI widgets: what the host offers a widget."""
SERVER_CELLS: Final = (
    "server.protocolVersions",
    "server.features.appOnlyToolsHidden",
    "server.features.outputSchema",
    "server.features.structuredContent",
    "server.features.resourceLink",
    "server.features.embeddedResources",
    "server.features.images",
    "server.features.audio",
    "server.limits.maxTools",
    "server.limits.toolNameMaxLength",
    "server.limits.toolNameCharset",
    "server.limits.toolNamePrefixCounts",
    "server.limits.schemaFeaturesRejected",
)
"""Read for every host: protocol versions, result handling and the limits of the server lane."""
NAME_FORMAT_CELL: Final = "server.limits.toolNameFormat"
"""Read only where the host counts the server name in a tool name's length."""

CellState = Literal["known", "unknown", "assumed"]
_RENDERS: Final = frozenset({"supported", "partial"})


@dataclass(frozen=True)
class CellCoverage:
    """One cell the engine reads for a host: its path, whether the catalog knows it, and the fact if any."""

    path: str
    state: CellState
    fact: Fact | None


@dataclass(frozen=True)
class HostCoverage:
    """A host's cells the engine reads, and the age of their evidence (days before `as_of`)."""

    host: HostProfile
    cells: tuple[CellCoverage, ...]
    as_of: str

    def count(self, state: CellState) -> int:
        """How many cells are in `state`."""
        return sum(1 for cell in self.cells if cell.state == state)

    @property
    def unknown_share(self) -> float:
        """The share of cells that are unknown (0.0 to 1.0)."""
        return self.count("unknown") / len(self.cells) if self.cells else 0.0

    def ages(self) -> tuple[int, ...]:
        """The age in days of each known or assumed cell's evidence, sorted (facts with unreadable dates left out)."""
        found = (fact_age_days(cell.fact, self.as_of) for cell in self.cells if cell.fact is not None)
        return tuple(sorted(age for age in found if age is not None))

    @property
    def median_age(self) -> int | None:
        """The median age of the evidence, in days; None without evidence."""
        ages = self.ages()
        return ages[len(ages) // 2] if ages else None

    @property
    def oldest_age(self) -> int | None:
        """The age of the oldest evidence, in days; None without evidence."""
        ages = self.ages()
        return ages[-1] if ages else None


def used_cells(host: HostProfile) -> tuple[str, ...]:
    """The fact paths the evaluator reads for `host`, in a fixed order."""
    renders = any(host.level(path) in _RENDERS for path in FORMAT_CELLS[:2])
    cells: list[str] = list(FORMAT_CELLS)
    if renders:
        cells.extend(WIDGET_CELLS)
        if host.level("ui.mcpApps.features.sandboxPermissions") in _RENDERS:
            cells.append(PERMISSION_ALLOW)
    cells.extend(SERVER_CELLS)
    prefix = host.facts.get("server.limits.toolNamePrefixCounts")
    if prefix is not None and prefix.value is True:
        cells.append(NAME_FORMAT_CELL)
    return tuple(cells)


def cell_state(fact: Fact | None) -> CellState:
    """Unknown without a fact or with an `unknown` level; assumed when nobody verified it; known otherwise."""
    if fact is None or fact.value == "unknown":
        return "unknown"
    return "assumed" if fact.provenance == "assumed" else "known"


def host_coverage(host: HostProfile, as_of: str) -> HostCoverage:
    """The coverage of `host`'s used cells, with ages measured to the ISO date `as_of`."""
    facts = host.facts
    cells = tuple(CellCoverage(path, cell_state(facts.get(path)), facts.get(path)) for path in used_cells(host))
    return HostCoverage(host, cells, as_of)


def catalog_coverage(
    catalog: Catalog, as_of: str, hosts: Sequence[HostProfile] | None = None
) -> tuple[HostCoverage, ...]:
    """The coverage of each host of `catalog` (or of `hosts`), in order."""
    return tuple(host_coverage(host, as_of) for host in (catalog.hosts if hosts is None else hosts))


def fact_age_days(fact: Fact, as_of: str) -> int | None:
    """Days from the fact's date (a month or year alone: its first day) to `as_of`; None if either is unreadable."""
    start, end = _parse(fact.date), _parse(as_of)
    return None if start is None or end is None else (end - start).days


def stale_facts(hosts: Iterable[HostProfile], as_of: str, days: int) -> tuple[tuple[HostProfile, str, Fact, int], ...]:
    """(host, path, fact, age) for every fact whose evidence is more than `days` days older than `as_of`, oldest first.

    A fact that holds only for versions before a fix (`fixedIn`) is history, not stale evidence, and is left out.
    """
    found = []
    for host in hosts:
        for path, fact in host.facts.items():
            age = fact_age_days(fact, as_of)
            if age is not None and age > days and fact.fixed_in is None:
                found.append((host, path, fact, age))
    return tuple(sorted(found, key=lambda item: (-item[3], item[0].id, item[1])))


def _parse(text: str) -> datetime.date | None:
    parts = text.split("-")
    try:
        numbers = [int(part) for part in parts[:3]]
        return datetime.date(numbers[0], *[*numbers[1:], 1, 1][:2])
    except (ValueError, IndexError):
        return None


__all__ = [
    "FORMAT_CELLS",
    "NAME_FORMAT_CELL",
    "SERVER_CELLS",
    "WIDGET_CELLS",
    "CellCoverage",
    "CellState",
    "HostCoverage",
    "catalog_coverage",
    "cell_state",
    "fact_age_days",
    "host_coverage",
    "stale_facts",
    "used_cells",
]
