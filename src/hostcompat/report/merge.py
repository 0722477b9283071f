"""Many reports as one (`hostcompat merge`), the per-host summary across servers, and the shards of a batch run.

`check --shard I/N` checks the I-th of N contiguous, equal (±1) parts of its server list, in the list's own order
(the targets, then `--config` files' entries, as `check` plans them), and records `shard` in its report. The split
depends on nothing but the list and N, so N jobs of a CI matrix that run the same command with `--shard 1/N` …
`N/N` cover every server exactly once; `merge_reports` puts their reports back in shard order, so N shards merged
equal one unsharded run.

Pure: documents in, a document or text out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hostcompat.errors import InvalidInput
from hostcompat.report.document import MAX_SHARDS, VERDICTS, report_document
from hostcompat.terminal import clean_line

if TYPE_CHECKING:
    from hostcompat.report.model import HostTally, ReportDocument, ServerEntry, ShardInfo


def parse_shard(text: str) -> ShardInfo:
    """`I/N` as a shard (1 ≤ I ≤ N); `InvalidInput` for anything else."""
    index, sep, count = text.partition("/")
    try:
        shard: ShardInfo = {"index": int(index), "count": int(count)}
    except ValueError:
        shard = {"index": 0, "count": 0}
    if not sep or not 1 <= shard["index"] <= shard["count"]:
        raise InvalidInput(f"--shard {text!r}: expected I/N with 1 ≤ I ≤ N, such as 2/4", value=text)
    return shard


def shard_slice(total: int, shard: ShardInfo) -> slice:
    """The part of a list of `total` servers that `shard` checks: contiguous, sizes differing by at most one."""
    start = (shard["index"] - 1) * total // shard["count"]
    stop = shard["index"] * total // shard["count"]
    return slice(start, stop)


def merge_reports(documents: Sequence[ReportDocument]) -> ReportDocument:
    """One document of every server of `documents`, with the per-host summary (`hostSummary`, `notChecked`).

    When every document is a shard of the same run, they are put in shard order, and a missing or repeated shard is
    an `InvalidInput`; otherwise they are taken in the order given.
    """
    if not documents:
        raise InvalidInput("nothing to merge: give one or more JSON reports", value=None)
    shards = [document.get("shard") for document in documents]
    ordered = list(documents)
    if all(shard is not None for shard in shards):
        ordered = _in_shard_order(documents)
    servers: list[ServerEntry] = [server for document in ordered for server in document["servers"]]
    merged = report_document(servers)
    merged["hostSummary"] = host_summary(servers)
    merged["notChecked"] = sum(1 for server in servers if _not_checked(server))
    return merged


def _in_shard_order(documents: Sequence[ReportDocument]) -> list[ReportDocument]:
    counts = {int(document["shard"]["count"]) for document in documents}  # every document has one here
    if len(counts) != 1:
        raise InvalidInput(f"the reports are shards of different splits (N = {sorted(counts)})", value=None)
    (count,) = counts
    if not 1 <= count <= MAX_SHARDS:
        raise InvalidInput(f"the reports are shards of {count} parts, more than {MAX_SHARDS}", value=count)
    by_index: dict[int, ReportDocument] = {}
    for document in documents:
        index = int(document["shard"]["index"])
        if index in by_index:
            raise InvalidInput(f"shard {index}/{count} is given twice", value=index)
        by_index[index] = document
    missing = [index for index in range(1, count + 1) if index not in by_index]
    if missing:
        names = ", ".join(f"{index}/{count}" for index in missing[:10]) + (", …" if len(missing) > 10 else "")
        raise InvalidInput(f"shard {names} missing: merge every shard of the run", value=missing)
    return [by_index[index] for index in sorted(by_index)]


def _not_checked(server: ServerEntry) -> bool:
    return bool(server.get("error")) or server.get("server") is None or not server.get("hosts")


def host_summary(servers: Sequence[ServerEntry]) -> list[HostTally]:
    """Per host (in the order first met), how many of `servers` got each verdict on it."""
    tallies: dict[str, HostTally] = {}
    for server in servers:
        for host in server.get("hosts") or ():
            host_id = str(host.get("hostId"))
            tally = tallies.setdefault(
                host_id,
                {
                    "hostId": host_id,
                    "hostLabel": str(host.get("hostLabel") or host_id),
                    "works": 0,
                    "unknown": 0,
                    "degraded": 0,
                    "blocked": 0,
                },
            )
            verdict = host.get("verdict")
            key = verdict if verdict in VERDICTS else "unknown"
            tally[key] += 1
    return list(tallies.values())


def summary_text(document: ReportDocument) -> str:
    """The per-host summary across servers as a table that fits 80 columns."""
    servers = document["servers"]
    tallies = document.get("hostSummary") or host_summary(servers)
    not_checked = document.get("notChecked", sum(1 for server in servers if _not_checked(server)))
    lines = [f"{len(servers)} servers, {not_checked} not checked", ""]
    lines.append(f"{'host':<28} {'works':>8} {'degraded':>9} {'blocked':>8} {'unknown':>8}")
    for tally in tallies:
        label = clean_line(tally.get("hostLabel") or tally.get("hostId"))
        label = label if len(label) <= 28 else label[:27] + "…"
        lines.append(
            f"{label:<28} {tally['works']:>8} {tally['degraded']:>9} {tally['blocked']:>8} {tally['unknown']:>8}"
        )
    return "\n".join(lines) + "\n"


__all__ = ["host_summary", "merge_reports", "parse_shard", "shard_slice", "summary_text"]
