"""The verdict a host would give with hostcompat in front: the client rules applied to the server's captured data.

For each host that is not `works`, the client rules planned for the client the host introduces itself as (its
clientInfo name, and the version asked for or the newest the sources name) rewrite the snapshot's tool list,
resource and prompt lists and captured call results, exactly as the proxy (or the middleware in a Python server) would
on the wire, and the host is judged again on that. The join lives here, between the layers: the engine never learns
of client rules, the rules never of verdicts. Pure: plain data in, plain data out.

What an offline check cannot replay is left out, and said: a rule that changes the client's requests (a capability
declared upstream) changes what a live server answers, which a snapshot does not hold.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.clients.detect import parse_client_spec
from hostcompat.clients.rewrite import (
    EMPTY_SESSION,
    SessionProfile,
    SessionState,
    plan_rewrites,
    rewrite_result,
    with_server_capabilities,
)
from hostcompat.clients.rule_model import Rule, name_matches
from hostcompat.clients.versions import Version, try_parse_version
from hostcompat.engine.catalog.model import Catalog, HostProfile
from hostcompat.engine.verdicts.model import Evaluation, HostReport
from hostcompat.errors import HostCompatError
from hostcompat.probe.snapshot import Snapshot
from hostcompat.wire_json import WireJSON, WireObject

CLIENT_NAMES_FACT: Final = "clientInfoNames"
"""The catalog fact that lists the clientInfo names a host introduces itself with."""

_RANK: Final = {"blocked": 0, "degraded": 1, "unknown": 2, "works": 3}
_LISTS: Final = (
    ("tools", "tools/list", "tools"),
    ("resources", "resources/list", "resources"),
    ("resource_templates", "resources/templates/list", "resourceTemplates"),
    ("prompts", "prompts/list", "prompts"),
)


@dataclass(frozen=True)
class ProxiedVerdict:
    """A host's verdict with the client rules in front: the client, the rules that changed the captured data, the
    verdict on the rewritten data, and the findings that went away.
    """

    host_id: str
    client: str
    rules: tuple[str, ...]
    verdict: str
    fixed: tuple[str, ...]

    def to_dict(self) -> WireObject:
        """The report's `withProxy` entry of a host."""
        return {"client": self.client, "rules": list(self.rules), "verdict": self.verdict, "fixed": list(self.fixed)}


def known_version(host: HostProfile, rules: Iterable[Rule] = ()) -> str | None:
    """The newest host version the catalog (its facts' and quirks' `since` and `fixedIn`) or a client rule for one
    of its clientInfo names (a bound of the rule's range) names; None when none does.
    """
    names = host.fact(CLIENT_NAMES_FACT)
    client_names = names.value if names is not None and isinstance(names.value, tuple) else ()
    bounds = [(fact.since, fact.fixed_in) for fact in host.facts.values()]
    bounds += [(quirk.since, quirk.fixed_in) for quirk in host.quirks]
    texts = [text for pair in bounds for text in pair if text]
    parsed = [version for version in (try_parse_version(text) for text in texts) if version is not None]
    for rule in rules:
        for match in rule.clients:
            if any(name_matches(str(name), match.name) for name in client_names):
                parsed += [comparator.version for comparator in match.versions.comparators]
    newest: Version | None = max(parsed, default=None)
    return None if newest is None else str(newest)


def _names(rule: Rule, client_name: str) -> bool:
    return any(name_matches(client_name, match.name) for match in rule.clients)


def client_for_host(host: HostProfile, rules: Iterable[Rule], version: str = "") -> tuple[str, str]:
    """The clientInfo (name, version) a catalog host introduces itself with, for matching client rules: the first
    of its clientInfo names that a rule names (else its first one, else its id), and `version`, else the newest
    version the sources name (`known_version`).
    """
    names = host.fact(CLIENT_NAMES_FACT)
    client_names = [str(name) for name in names.value] if names is not None and isinstance(names.value, tuple) else []
    rules = tuple(rules)
    named = [name for name in client_names if any(_names(rule, name) for rule in rules)]
    chosen = (named or client_names or [host.id])[0]
    return chosen, version or known_version(host, rules) or ""


def proxied_snapshot(snapshot: Snapshot, profile: SessionProfile) -> tuple[Snapshot, tuple[str, ...]]:
    """`snapshot` as the client of `profile` would receive it through the proxy, and the ids of the rules that
    changed something (the snapshot itself and `()` when none did).
    """
    if not profile.rules:
        return snapshot, ()
    capabilities = (snapshot.initialize or {}).get("capabilities")
    state: SessionState = with_server_capabilities(EMPTY_SESSION, capabilities)
    applied: dict[str, None] = {}
    changes: dict[str, Any] = {}
    for field_name, method, key in _LISTS:
        items = list(getattr(snapshot, field_name))
        page = {key: items}
        rewritten = rewrite_result(method, page, profile, state)
        state = rewritten.state
        applied.update(dict.fromkeys(rewritten.applied))
        if rewritten.result is not page and isinstance(rewritten.result.get(key), list):
            changes[field_name] = tuple(rewritten.result[key])
    exposed = {original: name for name, original in state.tool_names.items()}
    calls = []
    for call in snapshot.calls:
        new = call
        if call.result is not None:
            rewritten = rewrite_result("tools/call", call.result, profile, state)
            applied.update(dict.fromkeys(rewritten.applied))
            if rewritten.result is not call.result:
                new = dataclasses.replace(new, result=rewritten.result)
        if call.tool in exposed:
            new = dataclasses.replace(new, tool=exposed[call.tool])
        calls.append(new)
    if any(new is not old for new, old in zip(calls, snapshot.calls, strict=True)):
        changes["calls"] = tuple(calls)
    if not changes:
        return snapshot, ()
    ids = tuple(rule_id for rule_id in profile.rule_ids if rule_id in applied)
    return dataclasses.replace(snapshot, **changes), ids


Judge = Callable[[Snapshot, tuple[str, ...]], Evaluation]
"""Judges a (rewritten) snapshot for the given host ids: the pipeline's own stages, passed in."""


def proxied_verdicts(
    snapshot: Snapshot,
    evaluation: Evaluation,
    catalog: Catalog,
    rules: Sequence[Rule],
    judge: Judge,
    *,
    host_versions: Mapping[str, str] | None = None,
) -> dict[str, ProxiedVerdict]:
    """Host id → its verdict with the client rules in front, for each host not `works` whose verdict they improve.

    Hosts whose clients get the same rules are judged together, once. A rewritten snapshot the check cannot judge
    says nothing (no entry), as does a verdict the rules do not improve.
    """
    groups: dict[tuple[str, ...], list[tuple[HostReport, str]]] = {}
    profiles: dict[tuple[str, ...], SessionProfile] = {}
    for report in evaluation.reports:
        if _RANK.get(report.verdict.value, 3) >= _RANK["works"]:
            continue
        host = catalog.get(report.host_id)
        name, version = client_for_host(host, rules, (host_versions or {}).get(report.host_id, ""))
        client = f"{name}@{version}" if version else name
        try:
            profile = plan_rewrites(parse_client_spec(client), rules)
        except HostCompatError:
            continue
        if profile.rules:  # the same rules rewrite the same data, whichever client they were planned for
            groups.setdefault(profile.rule_ids, []).append((report, client))
            profiles.setdefault(profile.rule_ids, profile)
    out: dict[str, ProxiedVerdict] = {}
    for key, members in groups.items():
        rewritten, applied = proxied_snapshot(snapshot, profiles[key])
        if not applied:
            continue
        try:
            judged = judge(rewritten, tuple(report.host_id for report, _ in members)).reports
        except HostCompatError:
            continue
        after = {report.host_id: report for report in judged}
        for report, client in members:
            fixed = after.get(report.host_id)
            if fixed is None or _RANK.get(fixed.verdict.value, 0) <= _RANK.get(report.verdict.value, 0):
                continue
            gone = tuple(dict.fromkeys(rule for rule in report.rule_ids if rule not in fixed.rule_ids))
            out[report.host_id] = ProxiedVerdict(report.host_id, client, applied, fixed.verdict.value, gone)
    return out


def with_proxied(hosts: Sequence[WireJSON], proxied: Mapping[str, ProxiedVerdict]) -> list[WireJSON]:
    """The report's host entries, each with its `withProxy` entry where the client rules improve its verdict."""
    return [
        {**host, "withProxy": proxied[str(host.get("hostId"))].to_dict()} if host.get("hostId") in proxied else host
        for host in hosts
    ]


__all__ = [
    "CLIENT_NAMES_FACT",
    "Judge",
    "ProxiedVerdict",
    "client_for_host",
    "known_version",
    "proxied_snapshot",
    "proxied_verdicts",
    "with_proxied",
]
