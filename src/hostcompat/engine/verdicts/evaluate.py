"""Per-host verdicts: how a server fares on each MCP host, lane by lane, with the findings and sources behind them.

`evaluate_host_compat(requirements, profile)` and `evaluate_all_hosts(tools, catalog)` are pure functions over
plain data that follow MCPJam's host-compat engine (its decision table, its four finding codes as the rule ids
APPS-RENDER-001/002, APPS-CAP-001 and SERVER-PROTO-001, its verdict ranks) over hostcompat's sourced catalog.

Where hostcompat deliberately differs from MCPJam, and why:

1. An unknown host fact gives `unknown`, not `degraded`. MCPJam reads a missing capability as unsupported and a
   missing render flag as "does not render"; the catalog marks what nobody has checked as unknown, and a verdict
   must not claim more than its sources (APPS-RENDER-003, APPS-CAP-002 say which fact is missing).
2. A guarded call (the widget checks `getHostCapabilities()` first) is `info` (APPS-CAP-003), not degraded: the
   widget degrades on its own. MCPJam's regex scan cannot see guards.
3. `logging` stays `info` as in MCPJam: a lost log line changes nothing for the user.
4. A tool the host cannot render (or may not render) gets no capability findings on that host: its render
   finding already says what happens, and MCPJam's duplicates inflate the list.
5. `partial` support (a level MCPJam does not have) is `degraded`, and the finding carries the fact's note.
6. Needs beyond MCPJam's nine (display mode, size changes, app tools, sampling, the OpenAI runtime, declared
   domains, ...) are checked only where the catalog has a fact for them, and hosts that render no widgets get no
   capability checks at all: a missing fact there says nothing about the server.
7. Malformed `_meta` (and unusable tool entries) are findings on those tools, reported in every host's server
   lane, instead of an exception that aborts the whole evaluation as in MCPJam.
8. The server lane goes beyond the protocol version: tool-count caps, tool-name length (with the server-name
   prefix where the host counts it) and charset, input-schema constructs a host rejects, and output schemas,
   structured content and result content types a host mishandles, each only where the catalog has the fact.
9. A lane's provenance is the weakest provenance of the host facts it consulted (MCPJam uses one provenance per
   host), so each verdict is exactly as trustworthy as its least reliable source.
10. An app-only widget tool on a host that renders none of its formats (APPS-RENDER-001) is `degraded`, not a
    blocker, and only where the host may list it to the model: a host without MCP Apps does not read `visibility`,
    so the model sees an internal tool as an ordinary one and gets its text result. Where the catalog says the host
    hides app-only tools, it is `info`: only its widget would call it, and nothing else breaks.
11. A malformed tool `_meta` breaks that one tool's widget, so on a host that renders widgets it is at most
    `degraded`, and on a host that renders none it is `info`: such a host never reads `_meta.ui`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final, NamedTuple

from hostcompat.engine.catalog.host_context import COMMON, HostContext, ScopedItem, in_context, other_contexts
from hostcompat.engine.catalog.model import Catalog, CatalogHeader, HostProfile
from hostcompat.engine.catalog.schema import HOST_VERSION, SCHEMA_VERSION
from hostcompat.engine.findings.model import Lane, Provenance, Verdict
from hostcompat.engine.server.digest import ServerDigest, digest_requirements, digest_server
from hostcompat.engine.server.facts import ConnectionFacts, WidgetUsage
from hostcompat.engine.server.observed import ObservedRun
from hostcompat.engine.server.requirements import ServerRequirements
from hostcompat.engine.server.surface import ServerSurface, describe_server_surface
from hostcompat.engine.verdicts.apps import evaluate_apps_lane
from hostcompat.engine.verdicts.context import context_findings
from hostcompat.engine.verdicts.model import (
    Evaluation,
    HostReport,
    LaneBuilder,
    LaneVerdict,
    pending_report,
    report_lanes,
)
from hostcompat.engine.verdicts.server import evaluate_server_lane
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireJSON, WireValue


def evaluate_host_compat(
    requirements: ServerRequirements, profile: HostProfile, *, surface: ServerSurface | None = None
) -> HostReport:
    """One host's verdict for a server: its apps and server lanes, their findings, and the roll-up.

    `surface` (from `describe_server_surface`) lets the server lane check input schemas, output schemas and
    captured results; without it only the tool names and count are checked.

    Raises:
        InvalidInput: `requirements` is not `ServerRequirements`, `profile` not a `HostProfile`, or `surface`
            not a `ServerSurface`.
    """
    return _evaluate(digest_requirements(requirements, surface), _profile(profile))


def evaluate_all_hosts(
    tools: Sequence[WireValue] | None,
    catalog_or_profiles: Catalog | Iterable[HostProfile],
    *,
    widget_usage: WidgetUsage | WireJSON | None = None,
    connection_facts: ConnectionFacts | WireJSON | None = None,
    tools_truncated: bool = False,
    host_ids: Iterable[str] | str | None = None,
    call_results: WireJSON | None = None,
    tools_metadata: WireJSON | None = None,
    host_versions: Mapping[str, str] | None = None,
    as_of: str | None = None,
    observed: Iterable[ObservedRun] = (),
    host_contexts: Mapping[str | None, HostContext] | None = None,
    digest: ServerDigest | None = None,
) -> Evaluation:
    """Derive a server's requirements once and evaluate them on every host (or on `host_ids`, by id or alias).

    `tools` is the tools list of tools/list (None = not loaded); `widget_usage`, `connection_facts`,
    `tools_truncated` and `tools_metadata` are as in `derive_server_requirements`; `call_results` maps a tool name
    to a captured tools/call result for the result checks. `host_versions` maps a host id to the version to judge
    (by default each host's current version); `as_of` is the date of the check (ISO), against which the age of old
    sources is told; `observed` are runs of the widgets in a browser (`hostcompat.observe`), each cited in the
    apps lane of the host it emulated. `host_contexts` maps a host name (None: every host) to the `HostContext`
    (OS, registration path, feature gates) to judge it in; by default the common path, whose reports name, as
    information, the other contexts the catalog knows where a lane's verdict differs. Reports come in catalog
    order, or in the order of `host_ids` when given (each host once). `digest` is the server as `digest_server`
    made it from these server-side arguments (`tools` to `observed`), which are then not read: a caller that also
    needs it elsewhere (the hygiene check) builds it once. Inputs are never changed; the same inputs give the same
    evaluation. Each report's verdict, lanes and provenance are worked out here; its findings are decided here and
    written (texts, evidence, sources) when first read, the same value whenever that is
    (`hostcompat.engine.verdicts.model`).

    Raises:
        InvalidInput: a malformed argument (see `derive_server_requirements`, `describe_server_surface`), an
            entry of `catalog_or_profiles` that is not a `HostProfile`, or a `digest` that is not a `ServerDigest`.
        CatalogError: a name in `host_ids` that names no host (or several).
    """
    if digest is None:
        server = digest_server(
            tools,
            widget_usage=widget_usage,
            connection_facts=connection_facts,
            tools_truncated=tools_truncated,
            call_results=call_results,
            tools_metadata=tools_metadata,
            observed=observed,
        )
    elif isinstance(digest, ServerDigest):
        server = digest
    else:
        raise InvalidInput(f"digest must be a ServerDigest, got {type(digest).__name__}", value=digest)
    profiles = _select(_profiles(catalog_or_profiles), host_ids)
    versions = _versions(host_versions, profiles)
    contexts = _contexts(host_contexts, profiles)
    reports = tuple(
        _evaluate(server, profile, versions.get(profile.id), as_of, contexts.get(profile.id, COMMON))
        for profile in profiles
    )
    return Evaluation(requirements=server.requirements, reports=reports, surface=server.surface)


def _evaluate(
    server: ServerDigest,
    profile: HostProfile,
    version: str | None = None,
    as_of: str | None = None,
    context: HostContext = COMMON,
) -> HostReport:
    """The host's report in `context`, with an info finding for each other context the catalog names where a
    lane's verdict differs.
    """
    if context is COMMON:  # the host on its common path, and the other contexts it names (one memo look-up)
        found = profile.memo.get("common-path")
        if not isinstance(found, _Path):
            found = profile.memo["common-path"] = _Path(in_context(profile, COMMON), other_contexts(profile, COMMON))
        host, others = found
    else:
        host, others = in_context(profile, context), other_contexts(profile, context)
    apps, server_lane = _judge(server, host, version, as_of)
    apps_verdict, server_verdict = apps.verdict(), server_lane.verdict()
    pending = apps.pending + server_lane.pending
    if others:
        judged = []
        for other, items in others:
            other_apps, other_server = _judge(server, in_context(profile, other), version, as_of)
            lanes = {_APPS: other_apps.verdict().verdict, _SERVER: other_server.verdict().verdict}
            judged.append((other, items, lanes, [*other_apps.pending, *other_server.pending]))
        here = {_APPS: apps_verdict.verdict, _SERVER: server_verdict.verdict}
        pending.extend(context_findings(profile, here, pending, judged))
    server_worse = _VERDICT_RANK[server_verdict.verdict] > _VERDICT_RANK[apps_verdict.verdict]
    worse = server_verdict if server_worse else apps_verdict
    weaker = _weaker(apps_verdict.provenance, server_verdict.provenance)
    return pending_report(
        host.id,
        host.display_name,
        worse.verdict,
        report_lanes(apps_verdict, server_verdict),
        pending,
        weaker,
        host.kind,
    )


class _Path(NamedTuple):
    """A host on one path: its profile there and the other contexts its catalog entry names."""

    host: HostProfile
    others: tuple[tuple[HostContext, tuple[ScopedItem, ...]], ...]


def _judge(
    server: ServerDigest, host: HostProfile, version: str | None, as_of: str | None
) -> tuple[LaneBuilder, LaneBuilder]:
    """The host's apps and server lanes, their findings decided."""
    apps = LaneBuilder(host, version, as_of)
    server_lane = LaneBuilder(host, version, as_of, at=apps.at)
    evaluate_apps_lane(server, apps)
    evaluate_server_lane(server, server_lane)
    return apps, server_lane


_VERDICT_RANK: Final = {verdict: verdict.rank for verdict in Verdict}
_APPS: Final = Lane.APPS.value
_SERVER: Final = Lane.SERVER.value


def _weaker(first: Provenance | None, second: Provenance | None) -> Provenance | None:
    """The less trusted of two lanes' provenances (the first on a tie; None only when both are), as `weakest`."""
    if first is None or second is None:
        return second if first is None else first
    return second if second.trust < first.trust else first


def _versions(host_versions: Mapping[str, str] | None, profiles: tuple[HostProfile, ...]) -> dict[str, str]:
    """Host id → the version to judge, from names (ids or aliases) of evaluated hosts."""
    if not host_versions:
        return {}
    if not isinstance(host_versions, Mapping):
        raise InvalidInput("host_versions must map host names to versions", value=host_versions)
    catalog = Catalog(header=_SELECTION_HEADER, hosts=profiles)
    out: dict[str, str] = {}
    for name, version in host_versions.items():
        if not isinstance(version, str) or not HOST_VERSION.match(version):
            raise InvalidInput(f"host version {version!r} for {name!r} must look like 2.0.21", value=version)
        out[catalog.get(name).id] = version  # CatalogError for a name that is not an evaluated host
    return out


def _contexts(
    host_contexts: Mapping[str | None, HostContext] | None, profiles: tuple[HostProfile, ...]
) -> dict[str, HostContext]:
    """Host id → the context to judge it in: the one given for every host (key None), with a host's own over it."""
    if not host_contexts:
        return {}
    if not isinstance(host_contexts, Mapping) or not all(isinstance(c, HostContext) for c in host_contexts.values()):
        raise InvalidInput("host_contexts must map host names (or None) to HostContext", value=host_contexts)
    general = host_contexts.get(None, COMMON)
    out = {profile.id: general for profile in profiles} if not general.is_common else {}
    catalog = Catalog(header=_SELECTION_HEADER, hosts=profiles)
    for name, context in host_contexts.items():
        if name is not None:
            host_id = catalog.get(name).id  # CatalogError for a name that is not an evaluated host
            out[host_id] = out.get(host_id, general).merged(context)
    return out


def _profile(profile: object) -> HostProfile:
    if not isinstance(profile, HostProfile):
        raise InvalidInput(f"a host profile must be a HostProfile, got {type(profile).__name__}", value=profile)
    return profile


def _profiles(catalog_or_profiles: object) -> tuple[HostProfile, ...]:
    if isinstance(catalog_or_profiles, Catalog):
        return catalog_or_profiles.hosts
    if isinstance(catalog_or_profiles, (str, bytes, Mapping)) or not isinstance(catalog_or_profiles, Iterable):
        raise InvalidInput(
            f"expected a Catalog or host profiles, got {type(catalog_or_profiles).__name__}", value=catalog_or_profiles
        )
    return tuple(_profile(profile) for profile in catalog_or_profiles)


def _select(profiles: tuple[HostProfile, ...], host_ids: Iterable[str] | str | None) -> tuple[HostProfile, ...]:
    if host_ids is None:
        return profiles
    names = (host_ids,) if isinstance(host_ids, str) else tuple(host_ids)
    catalog = Catalog(header=_SELECTION_HEADER, hosts=profiles)
    chosen: dict[str, HostProfile] = {}
    for name in names:
        host = catalog.get(name)  # CatalogError for an unknown (with close names) or ambiguous name
        chosen.setdefault(host.id, host)
    return tuple(chosen.values())


_SELECTION_HEADER: Final = CatalogHeader(SCHEMA_VERSION, "1970-01-01", "host profiles given to evaluate_all_hosts")

__all__ = [
    "Evaluation",
    "HostReport",
    "LaneVerdict",
    "ServerSurface",
    "describe_server_surface",
    "evaluate_all_hosts",
    "evaluate_host_compat",
]
