"""The report document: one plain, versioned JSON value that every output format renders.

A check produces one document (`hostcompat.report/1`): per server, the per-host verdicts with their findings, the
server's own MCP Apps hygiene findings, and what the probe saw happen (timeouts, crashes, caps hit). Renderers
(text, Markdown, SARIF) and the exit code are pure functions of it, so a JSON report can be re-rendered later.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Final, Literal, cast

from hostcompat._version import __version__
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireJSON

if TYPE_CHECKING:
    from hostcompat.report.model import (
        EventEntry,
        FindingEntry,
        HostEntry,
        ReportDocument,
        RequirementsEntry,
        ServerEntry,
        ServerInfo,
        Summary,
        TargetInfo,
        WidgetEntry,
    )

REPORT_SCHEMA: Final = "hostcompat.report/1"
VERDICTS: Final = ("works", "unknown", "degraded", "blocked")
"""Verdicts from best to worst (MCPJam's rank)."""
FailOn = Literal["blocked", "degraded", "unknown", "never"]

EXIT_OK: Final = 0
"""Every verdict is better than the `--fail-on` threshold."""
EXIT_FAILED: Final = 1
"""Some host's verdict reached the `--fail-on` threshold (or a server could not be checked at all)."""
EXIT_USAGE: Final = 2
"""Bad arguments or an unusable input file (nothing was checked)."""


def server_entry(
    *,
    target: TargetInfo | WireJSON,
    server: ServerInfo | WireJSON | None,
    hosts: Sequence[HostEntry | WireJSON],
    hygiene: Sequence[FindingEntry | WireJSON] = (),
    events: Sequence[EventEntry | WireJSON] = (),
    requirements: RequirementsEntry | WireJSON | None = None,
    error: str | None = None,
    widgets: Sequence[WidgetEntry | WireJSON] = (),
) -> ServerEntry:
    """One server's part of the document, each part copied.

    Every part is given in its typed form or as the JSON the engine builds of it, which has that shape: `hosts`
    are `HostReport.to_dict()`, `hygiene` `Finding.to_dict()` and `requirements` `ServerRequirements.to_dict()`.
    `error` says why the server could not be checked (its config entry cannot be resolved, the probe could not
    reach it or did not complete); such a server fails the run whatever `--fail-on` says. `widgets` are the widgets
    scanned, each with the needs it uses and where (`widget_analysis.WidgetSeen.to_dict()`), kept when there are any.
    """
    entry = {
        "target": dict(target),
        "error": error,
        "server": dict(server) if server is not None else None,
        "requirements": dict(requirements) if requirements is not None else None,
        "hosts": [dict(host) for host in hosts],
        "hygiene": [dict(finding) for finding in hygiene],
        "events": [dict(event) for event in events],
        "summary": summarize(hosts),
    }
    if widgets:
        entry["widgets"] = [dict(widget) for widget in widgets]
    return cast("ServerEntry", entry)


def report_document(servers: Iterable[ServerEntry | WireJSON]) -> ReportDocument:
    """The whole document for one run, from each server's part (`server_entry`, or that part as JSON)."""
    document = {
        "schema": REPORT_SCHEMA,
        "tool": {"name": "hostcompat", "version": __version__},
        "servers": [dict(server) for server in servers],
    }
    return cast("ReportDocument", document)


def summarize(hosts: Iterable[HostEntry | WireJSON]) -> Summary:
    """How many hosts got each verdict."""
    counts = dict.fromkeys(VERDICTS, 0)
    for host in hosts:
        verdict = host.get("verdict")
        if verdict in counts:
            counts[verdict] += 1
    return cast("Summary", counts)


def verdict_rank(verdict: str) -> int:
    """The rank of a verdict, worst highest; an unknown string ranks as `unknown`."""
    return VERDICTS.index(verdict) if verdict in VERDICTS else VERDICTS.index("unknown")


def exit_code(document: ReportDocument, fail_on: FailOn = "blocked") -> int:
    """`EXIT_FAILED` when a server could not be checked (an `error`, no `server` info or no host verdicts), whatever
    `fail_on` says, or when any host verdict is at or past `fail_on`; `EXIT_OK` otherwise.
    """
    if fail_on not in ("blocked", "degraded", "unknown", "never"):
        raise InvalidInput(f"--fail-on must be blocked, degraded, unknown or never, got {fail_on!r}", value=fail_on)
    servers = document.get("servers", ())
    if any(server.get("error") or server.get("server") is None or not server.get("hosts") for server in servers):
        return EXIT_FAILED
    if fail_on == "never":
        return EXIT_OK
    threshold = verdict_rank(fail_on)
    for server in servers:
        if any(verdict_rank(str(host.get("verdict"))) >= threshold for host in server.get("hosts") or ()):
            return EXIT_FAILED
    return EXIT_OK


def check_document(raw: object) -> ReportDocument:
    """`raw` as a report document of a known schema, or `InvalidInput` naming what is wrong."""
    if not isinstance(raw, Mapping):
        raise InvalidInput("a report document must be a JSON object", value=raw)
    if raw.get("schema") != REPORT_SCHEMA:
        raise InvalidInput(f"unknown report schema {raw.get('schema')!r}; expected {REPORT_SCHEMA!r}", value=raw)
    servers = raw.get("servers")
    if not isinstance(servers, list) or not all(isinstance(server, Mapping) for server in servers):
        raise InvalidInput("a report document's 'servers' must be a list of objects", value=servers)
    if "shard" in raw and not _is_shard(raw["shard"]):
        raise InvalidInput(
            f'a report document\'s \'shard\' must be {{"index": I, "count": N}} with 1 <= I <= N <= {MAX_SHARDS}',
            value=raw["shard"],
        )
    return cast("ReportDocument", raw)


MAX_SHARDS: Final = 10_000
"""The most shards one run may be split into (a report saying more is not one `check --shard` wrote)."""


def _is_shard(value: object) -> bool:
    if not isinstance(value, Mapping) or set(value) != {"index", "count"}:
        return False
    index, count = value["index"], value["count"]
    if type(index) is not int or type(count) is not int:  # exactly int: a bool is no number here
        return False
    return 1 <= index <= count <= MAX_SHARDS


__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "MAX_SHARDS",
    "REPORT_SCHEMA",
    "VERDICTS",
    "FailOn",
    "check_document",
    "exit_code",
    "report_document",
    "server_entry",
    "summarize",
    "verdict_rank",
]
