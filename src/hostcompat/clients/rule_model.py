"""The data model of client rules: which clients, which methods, what trigger, which rewrite, from which source.

Plain frozen values; validation and loading live in `hostcompat.clients.rules`, which re-exports these.
"""

from __future__ import annotations

import fnmatch
import functools
from typing import Literal

from hostcompat._dataclass import dataclass
from hostcompat.clients.detect import ClientIdentity
from hostcompat.clients.versions import VersionRange
from hostcompat.wire_json import WireJSON

SourceKind = Literal["issue", "pr", "doc", "observed"]
SOURCE_KINDS: tuple[SourceKind, ...] = ("issue", "pr", "doc", "observed")


@functools.lru_cache(maxsize=4096)
def name_matches(name: str, pattern: str) -> bool:
    """Whether a clientInfo `name` is one a rule's `pattern` names (exact, or a case-sensitive glob), remembered:
    one check meets the same few names and patterns thousands of times (every host against every rule). A pattern
    with no `*`, `?` or `[` is the name itself, as `fnmatch` would say without compiling it.
    """
    if "*" not in pattern and "?" not in pattern and "[" not in pattern:
        return name == pattern
    return fnmatch.fnmatchcase(name, pattern)


@dataclass(frozen=True)
class ClientMatch:
    """Which clients a rule is for: a `clientInfo.name` (exact, or a glob with `*`, `?`, `[…]`) and a range."""

    name: str
    versions: VersionRange

    def matches(self, identity: ClientIdentity) -> bool:
        """Whether `identity` has this name (case-sensitive) and a version in range."""
        return name_matches(identity.name, self.name) and self.versions.contains(identity.version)


@dataclass(frozen=True)
class Trigger:
    """The condition on the result that sets a rule off (a kind from the closed set, with its params)."""

    kind: str
    params: WireJSON


@dataclass(frozen=True)
class RewriteSpec:
    """The operation a rule applies (from the closed set) and its params."""

    op: str
    params: WireJSON


@dataclass(frozen=True)
class Source:
    """Where the quirk is documented."""

    url: str
    kind: SourceKind


@dataclass(frozen=True)
class Rule:
    """One client quirk and the rewrite that avoids it."""

    id: str
    title: str
    clients: tuple[ClientMatch, ...]
    methods: frozenset[str]
    trigger: Trigger
    rewrite: RewriteSpec
    source: Source
    date: str
    enabled: bool = True
    symptom: str = ""
    notes: str = ""
    references: tuple[str, ...] = ()
    origin: str = ""
    """The file the rule came from."""

    def applies_to(self, identity: ClientIdentity) -> bool:
        """Whether this rule is enabled and names `identity` (name and version)."""
        return self.enabled and any(match.matches(identity) for match in self.clients)


@dataclass(frozen=True)
class RuleFile:
    """A parsed rule file: its rules and the ids it switches off."""

    origin: str
    rules: tuple[Rule, ...]
    disabled: tuple[str, ...] = ()


__all__ = [
    "ClientMatch",
    "RewriteSpec",
    "Rule",
    "RuleFile",
    "SOURCE_KINDS",
    "Source",
    "SourceKind",
    "Trigger",
    "name_matches",
]
