"""Host contexts: the OS, registration path and server-side gates a host is judged in, and the profile they select.

A fact or quirk may hold only on some operating systems, for some registration paths or behind a feature gate the
vendor switches on per account. The engine judges the common path by default (no OS, no path, no gate named) and
the other contexts the catalog knows only to say, as information, where the verdict would differ.
"""

from __future__ import annotations

import types
from typing import Final, cast

from hostcompat._dataclass import dataclass
from hostcompat.engine.catalog.model import Fact, HostProfile, QuirkRef
from hostcompat.engine.catalog.schema import GATE, OPERATING_SYSTEMS, REGISTRATIONS
from hostcompat.errors import InvalidInput

_SCOPE_KEYS: Final = ("os", "registration", "gate")


@dataclass(frozen=True)
class HostContext:
    """Where a host is judged: its OS, the registration path of the server, and the feature gates switched on."""

    os: str | None = None
    registration: str | None = None
    gates: frozenset[str] = frozenset()

    @property
    def is_common(self) -> bool:
        """Whether nothing is named: the common path, which the engine judges by default."""
        return self.os is None and self.registration is None and not self.gates

    def describe(self) -> str:
        """The context as `--host-context` spells it (`os=windows,registration=plugin`); empty for the common path."""
        parts = [f"os={self.os}"] if self.os else []
        parts += [f"registration={self.registration}"] if self.registration else []
        parts += [f"gate={gate}" for gate in sorted(self.gates)]
        return ",".join(parts)

    def merged(self, other: HostContext) -> HostContext:
        """This context with what `other` names put over it (gates added)."""
        return HostContext(
            os=other.os or self.os,
            registration=other.registration or self.registration,
            gates=self.gates | other.gates,
        )


COMMON: Final = HostContext()
"""The common path: no OS, registration path or gate named."""


def parse_host_context(text: str) -> tuple[str | None, HostContext]:
    """`[HOST:]key=value,…` (keys `os`, `registration`, `gate`) as the host name it names (None: every host) and
    the context; InvalidInput naming the problem for anything else.
    """
    if not isinstance(text, str) or not text.strip() or len(text) > 500:
        raise InvalidInput("a host context must be text such as claude:os=windows,registration=plugin", value=text)
    host: str | None = None
    body = text.strip()
    head, colon, rest = body.partition(":")
    if colon and "=" not in head:
        host, body = head.strip() or None, rest
    values: dict[str, str] = {}
    gates: set[str] = set()
    for part in body.split(","):
        key, sep, value = (piece.strip() for piece in part.partition("="))
        if not sep or not value:
            raise InvalidInput(f"host context {text!r}: expected key=value, such as os=windows", value=text)
        if key == "gate":
            if not GATE.match(value):
                raise InvalidInput(f"host context {text!r}: gate {value!r} is not a gate name", value=value)
            gates.add(value)
            continue
        choices = {"os": OPERATING_SYSTEMS, "registration": REGISTRATIONS}.get(key)
        if choices is None:
            raise InvalidInput(
                f"host context {text!r}: unknown key {key!r}; expected os, registration or gate", value=key
            )
        if value not in choices:
            raise InvalidInput(
                f"host context {text!r}: {key} {value!r} is not one of {', '.join(choices)}", value=value
            )
        if key in values and values[key] != value:
            raise InvalidInput(f"host context {text!r}: {key} is given twice", value=text)
        values[key] = value
    return host, HostContext(values.get("os"), values.get("registration"), frozenset(gates))


def holds_in(item: Fact | QuirkRef, context: HostContext) -> bool:
    """Whether a fact or quirk holds in `context`: every context key it is limited by names the context's value."""
    if item.os and context.os not in item.os:
        return False
    if item.registration and context.registration not in item.registration:
        return False
    return not item.gate or bool(context.gates.intersection(item.gate))


def is_scoped(item: Fact | QuirkRef) -> bool:
    """Whether a fact or quirk is limited to some host context (it does not hold on the common path alone)."""
    return bool(item.os or item.registration or item.gate)


def in_context(profile: HostProfile, context: HostContext) -> HostProfile:
    """The host as judged in `context`: the facts and quirks that hold there, a variant replacing the fact at its
    path (the most specific one that holds wins; on a tie, the later one), and no variants left.

    Computed once per profile and context (kept in `profile.memo`): every evaluation of the host asks again.
    """
    key = "in-common" if context is COMMON else ("in", context)  # a string hashes quicker than a context
    found = profile.memo.get(key)
    if found is None:
        found = profile.memo[key] = _in_context(profile, context)
    return cast(HostProfile, found)


def _in_context(profile: HostProfile, context: HostContext) -> HostProfile:
    scoped = any(is_scoped(fact) for fact in profile.facts.values()) or any(map(is_scoped, profile.quirks))
    if not profile.variants and not scoped:
        return profile
    chosen: dict[str, tuple[int, Fact]] = {
        path: (_specificity(fact), fact) for path, fact in profile.facts.items() if holds_in(fact, context)
    }
    for variant in profile.variants:
        if holds_in(variant.fact, context):
            rank = _specificity(variant.fact)
            if variant.path not in chosen or rank >= chosen[variant.path][0]:
                chosen[variant.path] = (rank, variant.fact)
    order = [path for path in profile.facts if path in chosen]
    order += [path for path in chosen if path not in profile.facts]
    return HostProfile(
        id=profile.id,
        display_name=profile.display_name,
        kind=profile.kind,
        aliases=profile.aliases,
        description=profile.description,
        facts=types.MappingProxyType({path: chosen[path][1] for path in order}),
        quirks=tuple(quirk for quirk in profile.quirks if holds_in(quirk, context)),
    )


ScopedItem = tuple[str, "Fact | QuirkRef"]
"""A limited fact or quirk with where the catalog holds it (`ui.formats.mcp-apps`, `variants.…`, `quirks.ID`)."""


def other_contexts(
    profile: HostProfile, context: HostContext
) -> tuple[tuple[HostContext, tuple[ScopedItem, ...]], ...]:
    """The contexts the host's catalog entry names that `context` is not in, each with the limited facts, variants
    and quirks that hold there and not in `context`: each gives the context of its first OS, path and gate, put
    over `context`. Computed once per profile and context (kept in `profile.memo`).
    """
    key = "others-common" if context is COMMON else ("others", context)
    found = profile.memo.get(key)
    if found is None:
        found = profile.memo[key] = _other_contexts(profile, context)
    return cast("tuple[tuple[HostContext, tuple[ScopedItem, ...]], ...]", found)


def _other_contexts(
    profile: HostProfile, context: HostContext
) -> tuple[tuple[HostContext, tuple[ScopedItem, ...]], ...]:
    items: list[ScopedItem] = [(path, fact) for path, fact in profile.facts.items() if is_scoped(fact)]
    items += [(f"variants.{variant.path}", variant.fact) for variant in profile.variants]
    items += [(f"quirks.{quirk.id}", quirk) for quirk in profile.quirks if is_scoped(quirk)]
    found: dict[HostContext, list[ScopedItem]] = {}
    for label, item in items:
        if holds_in(item, context):
            continue
        own = HostContext(
            os=item.os[0] if item.os else None,
            registration=item.registration[0] if item.registration else None,
            gates=frozenset(item.gate[:1]),
        )
        found.setdefault(context.merged(own), []).append((label, item))
    return tuple((other, tuple(listed)) for other, listed in found.items())


def _specificity(fact: Fact) -> int:
    return sum(1 for values in (fact.os, fact.registration, fact.gate) if values)


__all__ = [
    "COMMON",
    "HostContext",
    "ScopedItem",
    "holds_in",
    "in_context",
    "is_scoped",
    "other_contexts",
    "parse_host_context",
]
