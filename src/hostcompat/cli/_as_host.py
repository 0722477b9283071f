"""`--as-host ID`: probe a server the way a catalog host would meet it, to see what the server does for that host.

Servers adapt to their client: some read `clientInfo.name`, most check whether the client advertised the MCP Apps
extension. The catalog knows both for many hosts (`clientInfoNames`, `ui.formats.mcp-apps`); this turns them into the
probe's `client_info` and `advertise`. Pure: the caller loads the catalog and the client rules.

The `clientInfo.version` sent is the host version asked for (`--host-version ID=VERSION`), else the newest version
the sources name for the host (the versions its facts and quirks hold since or until, and the bounds of the client
rules for its clientInfo names): the catalog records no release number, and the newest version a source names is the
closest to the current one it knows, so version-ranged rules (`>=0.14.0`) can be tried.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from hostcompat.clients.rule_model import Rule
from hostcompat.clients.versions import Version, try_parse_version
from hostcompat.engine.catalog.model import HostProfile
from hostcompat.probe.options import MCP_APPS, Advertise

CLIENT_NAMES_FACT = "clientInfoNames"
MCP_APPS_FORMAT_FACT = "ui.formats.mcp-apps"
CLIENT_VERSION = "0"
"""The `clientInfo.version` sent with `--client-name`, and as a host no source names a version of."""


@dataclass(frozen=True)
class Presentation:
    """How the probe presents itself as a host: what it advertises, the `clientInfo` it sends, and a note for the
    user when the catalog could not say something (the probe's own name is sent then).
    """

    advertise: Advertise
    client_info: Mapping[str, str] | None
    note: str | None = None


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
            if any(fnmatch.fnmatchcase(str(name), match.name) for name in client_names):
                parsed += [comparator.version for comparator in match.versions.comparators]
    newest: Version | None = max(parsed, default=None)
    return None if newest is None else str(newest)


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


def _names(rule: Rule, client_name: str) -> bool:
    return any(fnmatch.fnmatchcase(client_name, match.name) for match in rule.clients)


def present_as(host: HostProfile, version: str | None = None) -> Presentation:
    """The MCP Apps extension only if the catalog says the host renders MCP Apps (fully or partly), and the first
    `clientInfo` name the catalog records for it, with `version` (`CLIENT_VERSION` when None).
    """
    renders = host.level(MCP_APPS_FORMAT_FACT) in ("supported", "partial")
    advertise: Advertise = MCP_APPS if renders else None
    names = host.fact(CLIENT_NAMES_FACT)
    if names is None or not isinstance(names.value, tuple) or not names.value:
        note = f"the catalog has no clientInfo name for {host.display_name}: the probe sends its own"
        return Presentation(advertise, None, note)
    return Presentation(advertise, {"name": names.value[0], "version": version or CLIENT_VERSION})


__all__ = ["CLIENT_VERSION", "Presentation", "client_for_host", "known_version", "present_as"]
