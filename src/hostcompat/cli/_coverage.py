"""`hostcompat hosts --coverage` and `--stale DAYS`: how much of what the verdicts read the catalog knows, and how old
its evidence is, as a table or JSON.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import IO, Any

from hostcompat.engine.catalog.coverage import catalog_coverage, stale_facts
from hostcompat.engine.catalog.model import Catalog, HostProfile


def write_coverage(catalog: Catalog, hosts: Sequence[HostProfile], as_of: str, fmt: str, out: IO[str]) -> None:
    """Per host: the cells the verdicts read, how many are known, unknown and assumed, and the age of the evidence."""
    rows = catalog_coverage(catalog, as_of, hosts)
    if fmt == "json":
        document: dict[str, Any] = {
            "asOf": as_of,
            "hosts": [
                {
                    "id": row.host.id,
                    "cells": len(row.cells),
                    "known": row.count("known"),
                    "unknown": row.count("unknown"),
                    "assumed": row.count("assumed"),
                    "medianAgeDays": row.median_age,
                    "oldestAgeDays": row.oldest_age,
                    "unknownCells": [cell.path for cell in row.cells if cell.state == "unknown"],
                    "assumedCells": [cell.path for cell in row.cells if cell.state == "assumed"],
                }
                for row in rows
            ],
        }
        json.dump(document, out, indent=2)
        out.write("\n")
        return
    width = max((len(row.host.id) for row in rows), default=4)
    out.write(f"{'host':<{width}}  cells  known  unknown  assumed  unknown%  median age  oldest\n")
    totals = [0, 0, 0, 0]
    for row in rows:
        counts = (len(row.cells), row.count("known"), row.count("unknown"), row.count("assumed"))
        totals = [total + count for total, count in zip(totals, counts, strict=True)]
        out.write(
            f"{row.host.id:<{width}}  {counts[0]:>5}  {counts[1]:>5}  {counts[2]:>7}  {counts[3]:>7}  "
            f"{100 * row.unknown_share:>7.1f}%  {_age(row.median_age):>10}  {_age(row.oldest_age):>6}\n"
        )
    share = 100 * totals[2] / totals[0] if totals[0] else 0.0
    out.write(
        f"{'total':<{width}}  {totals[0]:>5}  {totals[1]:>5}  {totals[2]:>7}  {totals[3]:>7}  {share:>7.1f}%\n"
        f"\nCells: the facts the verdicts read for each host (the widget features only where the host renders "
        f"widgets); ages in days before {as_of}. `hostcompat hosts ID` shows the facts.\n"
    )


def write_stale(hosts: Sequence[HostProfile], as_of: str, days: int, fmt: str, out: IO[str]) -> None:
    """Every fact whose evidence is more than `days` days old, oldest first."""
    found = stale_facts(hosts, as_of, days)
    if fmt == "json":
        items = [{"host": host.id, "path": path, "ageDays": age, **fact.to_dict()} for host, path, fact, age in found]
        json.dump({"asOf": as_of, "olderThanDays": days, "facts": items}, out, indent=2)
        out.write("\n")
        return
    for host, path, fact, age in found:
        out.write(f"{age:>5} days  {host.id}  {path}  ({fact.provenance}, {fact.source}, {fact.date})\n")
    out.write(f"\n{len(found)} fact(s) with evidence older than {days} days before {as_of}.\n")


def _age(days: int | None) -> str:
    return "-" if days is None else f"{days} d"


__all__ = ["write_coverage", "write_stale"]
