"""What got worse and what got better between two report documents: `check --baseline` and `hostcompat diff`.

Pure: two typed documents in, one `ReportDiff` out. Servers are matched by their identity (`server_identity`: the
target as the report shows it, secrets already redacted: `python my_server.py`, `https://…/mcp`, `name (mcp.json)`,
or the snapshot file's path), hosts by their id.

What is worse (and fails a baseline run):
- a host's verdict moved right in `works < unknown < degraded < blocked` (the report's own rank, `VERDICTS`:
  `unknown` is better than `degraded` because nothing is known to break);
- a finding id appeared on a server/host pair (or in the server's hygiene) that the baseline did not have;
- a server that was checked in the baseline could not be checked now;
- a server the baseline does not have: each of its hosts is compared with `works` and no findings.

What is better is the mirror image (a verdict moved left, a finding id went away, a server can be checked again).
A server only in the baseline, or a host only on one side (a catalog that gained or lost a host), is a note: it is
neither worse nor better. When either side could not check a server, only that is compared for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Literal, TypedDict

from hostcompat._dataclass import dataclass
from hostcompat.report.document import verdict_rank
from hostcompat.terminal import clean_line
from hostcompat.wire_json import WireJSON

if TYPE_CHECKING:
    from hostcompat.report.model import ReportDocument

ChangeKind = Literal["verdict", "finding", "checked"]
"""What changed: a host's verdict, a finding id, or whether the server could be checked at all."""

HYGIENE = "(hygiene)"
"""The host name under which a server's own hygiene findings are compared."""


class ChangeEntry(TypedDict):
    """One change, as `hostcompat diff --format json` writes it."""

    server: str
    host: str | None
    kind: ChangeKind
    before: str | None
    after: str | None


class DiffDocument(TypedDict):
    """The comparison as JSON: what got worse, what got better, and what could not be compared."""

    schema: Literal["hostcompat.diff/1"]
    worse: list[ChangeEntry]
    better: list[ChangeEntry]
    notes: list[str]


@dataclass(frozen=True)
class Change:
    """One difference between the baseline and the new report.

    For a verdict, `before`/`after` are verdicts; for a finding, the finding id is in `after` (new) or `before`
    (gone); for `checked`, the reason the server could not be checked (None: it was checked).
    """

    server: str
    host: str | None
    kind: ChangeKind
    before: str | None
    after: str | None

    def describe(self) -> str:
        """The change on one line, terminal-safe."""
        where = clean_line(self.server) + ("" if self.host is None else f" · {clean_line(self.host)}")
        if self.kind == "verdict":
            return f"{where}: {clean_line(self.before)} → {clean_line(self.after)}"
        if self.kind == "finding":
            return (
                f"{where}: new finding {clean_line(self.after)}"
                if self.after
                else f"{where}: {clean_line(self.before)} gone"
            )
        if self.after is not None:
            return f"{where}: could not be checked: {clean_line(self.after)}"
        return f"{where}: checked again (was: {clean_line(self.before)})"

    def entry(self) -> ChangeEntry:
        """The change as JSON."""
        return {"server": self.server, "host": self.host, "kind": self.kind, "before": self.before, "after": self.after}


@dataclass(frozen=True)
class ReportDiff:
    """Every change from a baseline to a new report, worse first."""

    worse: tuple[Change, ...]
    better: tuple[Change, ...]
    notes: tuple[str, ...]

    @property
    def regressed(self) -> bool:
        """True when anything got worse (the run fails)."""
        return bool(self.worse)

    def document(self) -> DiffDocument:
        """The comparison as a JSON document."""
        return {
            "schema": "hostcompat.diff/1",
            "worse": [change.entry() for change in self.worse],
            "better": [change.entry() for change in self.better],
            "notes": list(self.notes),
        }

    def text(self) -> str:
        """The comparison as text: what got worse, what got better, notes, and the outcome."""
        lines: list[str] = []
        for title, changes, mark in (("worse", self.worse, "-"), ("better", self.better, "+")):
            if changes:
                lines.append(f"{title} ({len(changes)}):")
                lines.extend(f"  {mark} {change.describe()}" for change in changes)
        if self.notes:
            lines.append(f"notes ({len(self.notes)}):")
            lines.extend(f"  · {clean_line(note)}" for note in self.notes)
        outcome = "worse than the baseline" if self.regressed else "no worse than the baseline"
        lines.append(f"{outcome}: {len(self.worse)} worse, {len(self.better)} better")
        return "\n".join(lines) + "\n"


def server_identity(server: WireJSON) -> str:
    """What matches a server across reports: its target as shown (redacted), else its handshake name."""
    target = server.get("target")
    display = target.get("display") if isinstance(target, dict) else None
    if isinstance(display, str) and display:
        return display
    info = server.get("server")
    name = info.get("name") if isinstance(info, dict) else None
    return str(name) if name is not None else "server"


def identified(document: ReportDocument) -> dict[str, WireJSON]:
    """The document's servers by identity, in order; a repeated identity gets `#2`, `#3` … appended."""
    servers: dict[str, WireJSON] = {}
    for server in _objects(document.get("servers")):
        key = base = server_identity(server)
        count = 1
        while key in servers:
            count += 1
            key = f"{base} #{count}"
        servers[key] = server
    return servers


def diff_reports(baseline: ReportDocument, current: ReportDocument) -> ReportDiff:
    """What got worse and what got better from `baseline` to `current` (see the module's rules)."""
    before, after = identified(baseline), identified(current)
    changes: list[tuple[bool, Change]] = []
    notes = [f"{name}: only in the baseline" for name in before if name not in after]
    for name, server in after.items():
        old = before.get(name)
        if old is None:
            notes.append(f"{name}: not in the baseline (compared with works and no findings)")
            old = {"server": {}, "hosts": [], "hygiene": []}
            changes += _compare_server(name, old, server, notes, new_server=True)
        else:
            changes += _compare_server(name, old, server, notes, new_server=False)
    return ReportDiff(
        worse=tuple(change for worse, change in changes if worse),
        better=tuple(change for worse, change in changes if not worse),
        notes=tuple(notes),
    )


def _not_checked(server: WireJSON) -> str | None:
    if server.get("error"):
        return str(server.get("error"))
    if server.get("server") is None or not server.get("hosts"):
        return "no handshake or no host verdicts"
    return None


def _compare_server(
    name: str, old: WireJSON, new: WireJSON, notes: list[str], *, new_server: bool
) -> Iterator[tuple[bool, Change]]:
    was, now = (None if new_server else _not_checked(old)), _not_checked(new)
    if was is not None or now is not None:
        if (was is None) != (now is None):
            yield now is not None, Change(name, None, "checked", was, now)
        return
    yield from _compare_findings(name, HYGIENE, old.get("hygiene"), new.get("hygiene"))
    old_hosts = {str(host.get("hostId")): host for host in _objects(old.get("hosts"))}
    new_hosts = {str(host.get("hostId")): host for host in _objects(new.get("hosts"))}
    notes.extend(f"{name} · {host}: only in the baseline" for host in old_hosts if host not in new_hosts)
    for host_id, host in new_hosts.items():
        base = old_hosts.get(host_id)
        if base is None and not new_server:
            notes.append(f"{name} · {host_id}: not in the baseline")
            continue
        base = base or {"verdict": "works", "findings": []}
        was_verdict, now_verdict = str(base.get("verdict")), str(host.get("verdict"))
        if verdict_rank(was_verdict) != verdict_rank(now_verdict):
            worse = verdict_rank(now_verdict) > verdict_rank(was_verdict)
            yield worse, Change(name, host_id, "verdict", was_verdict, now_verdict)
        yield from _compare_findings(name, host_id, base.get("findings"), host.get("findings"))


def _compare_findings(name: str, host: str, old: object, new: object) -> Iterator[tuple[bool, Change]]:
    was, now = _rule_ids(old), _rule_ids(new)
    for rule in now:
        if rule not in was:
            yield True, Change(name, host, "finding", None, rule)
    for rule in was:
        if rule not in now:
            yield False, Change(name, host, "finding", rule, None)


def _rule_ids(findings: object) -> list[str]:
    ids = [str(finding.get("ruleId")) for finding in _objects(findings)]
    return list(dict.fromkeys(ids))


def _objects(value: object) -> Iterable[WireJSON]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


__all__ = [
    "HYGIENE",
    "Change",
    "ChangeEntry",
    "ChangeKind",
    "DiffDocument",
    "ReportDiff",
    "diff_reports",
    "identified",
    "server_identity",
]
