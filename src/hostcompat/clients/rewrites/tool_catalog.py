"""Rewrites of the tool catalog (tools/list): tool-name charset and length, tool count.

Renames are computed for the whole page at once so that new names never collide with each other,
with names left alone, or with names this session already handed out; the result records
exposed name -> original name so an incoming tools/call can be routed back.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence

from hostcompat._dataclass import dataclass
from hostcompat.clients.rewrites.copy_on_write import JSONObject, with_key, without_keys
from hostcompat.wire_json import WireJSON

_ALNUM = frozenset(string.ascii_letters + string.digits)
_HASH_CHARS = 8
_SEPARATOR = "_"
HASH_SUFFIX_LENGTH = len(_SEPARATOR) + _HASH_CHARS
"""Characters a disambiguating suffix (`_` + 8 hex digits) takes."""

NameTransform = Callable[[str], str]


def name_digest(name: str, salt: int = 0) -> str:
    """Eight hex digits derived from `name` (stable across processes and sessions)."""
    import hashlib  # loads OpenSSL: only a rewrite that renames a tool pays for it

    data = f"{salt}\x00{name}".encode("utf-8", "surrogatepass") if salt else name.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:_HASH_CHARS]


def sanitize_name(name: str, allowed_punctuation: str) -> str:
    """`name` with every character outside ASCII letters, digits and `allowed_punctuation` replaced by `_`."""
    allowed = _ALNUM | frozenset(allowed_punctuation)
    if all(char in allowed for char in name):
        return name
    return "".join(char if char in allowed else _SEPARATOR for char in name)


def truncate_name(name: str, max_length: int) -> str:
    """`name` if it fits in `max_length`, else its head plus `_` and a digest of the whole name."""
    if len(name) <= max_length:
        return name
    return name[: max_length - HASH_SUFFIX_LENGTH] + _SEPARATOR + name_digest(name)


def cap_tool_count(method: str, payload: JSONObject, params: WireJSON) -> JSONObject:
    """tools/list: keep the first `max_tools` tools; when tools were cut, also drop `nextCursor`.

    The cap applies to each page (a stateless rewrite cannot count across pages); dropping the
    cursor of a cut page stops the client from fetching more.
    """
    tools = payload.get("tools")
    max_tools = params.get("max_tools")
    if method != "tools/list" or not isinstance(tools, list) or not isinstance(max_tools, int):
        return payload
    if len(tools) <= max_tools:
        return payload
    return without_keys(with_key(payload, "tools", tools[:max_tools]), ("nextCursor",))


@dataclass(frozen=True)
class RenameStep:
    """One rename rule's transform: the rule id, the name function, and the length budget it imposes."""

    rule_id: str
    transform: NameTransform
    max_length: int | None = None


@dataclass(frozen=True)
class Renamed:
    """The outcome of renaming one page of tools."""

    result: JSONObject
    exposed_to_original: Mapping[str, str]
    """Names handed out in this page -> the server's names."""
    kept_names: frozenset[str]
    """Tool names of this page that were left as they are."""
    applied: tuple[str, ...]
    """Ids of the rules whose transform changed at least one name."""


def _propose(name: str, steps: Sequence[RenameStep], applied: set[str]) -> str:
    current = name
    for step in steps:
        changed = step.transform(current)
        if changed != current:
            applied.add(step.rule_id)
            current = changed
    return current


def _is_fixed_point(name: str, steps: Sequence[RenameStep]) -> bool:
    return all(step.transform(name) == name for step in steps)


def _disambiguated(proposed: str, original: str, budget: int | None, salt: int) -> str:
    head = proposed if budget is None else proposed[: max(budget - HASH_SUFFIX_LENGTH, 0)]
    return head + _SEPARATOR + name_digest(original, salt)


def rename_tools(payload: JSONObject, steps: Sequence[RenameStep], known: Mapping[str, str]) -> Renamed:
    """Rename the tools of a tools/list page by `steps`, avoiding collisions.

    `known` is exposed -> original from earlier pages and earlier listings of this session; a tool
    renamed before keeps its earlier name when that name is still valid and free.
    """
    tools = payload.get("tools")
    if not isinstance(tools, list) or not steps:
        return Renamed(payload, {}, frozenset(), ())
    applied: set[str] = set()
    proposals: dict[int, str] = {}
    kept: set[str] = set()
    for index, tool in enumerate(tools):
        name = tool.get("name") if isinstance(tool, Mapping) else None
        if not isinstance(name, str):
            continue
        proposed = _propose(name, steps, applied)
        if proposed == name:
            kept.add(name)
        else:
            proposals[index] = proposed
    if not proposals:
        return Renamed(payload, {}, frozenset(kept), ())

    budgets = [step.max_length for step in steps if step.max_length is not None]
    budget = min(budgets) if budgets else None
    earlier = {original: exposed for exposed, original in known.items()}
    taken = set(kept)
    exposed_to_original: dict[str, str] = {}
    new_names: dict[int, str] = {}
    for index, proposed in proposals.items():
        original: str = tools[index]["name"]

        def free(candidate: str, original: str = original) -> bool:
            return candidate not in taken and known.get(candidate, original) == original

        previous = earlier.get(original)
        if previous is not None and free(previous) and _is_fixed_point(previous, steps):
            chosen = previous
        else:
            chosen, salt = proposed, 0
            while not free(chosen):
                chosen = _disambiguated(proposed, original, budget, salt)
                salt += 1
        taken.add(chosen)
        exposed_to_original[chosen] = original
        new_names[index] = chosen

    renamed = [
        with_key(tool, "name", new_names[index]) if index in new_names else tool for index, tool in enumerate(tools)
    ]
    result = with_key(payload, "tools", renamed)
    return Renamed(result, exposed_to_original, frozenset(kept), tuple(sorted(applied)))


__all__ = [
    "HASH_SUFFIX_LENGTH",
    "NameTransform",
    "RenameStep",
    "Renamed",
    "cap_tool_count",
    "name_digest",
    "rename_tools",
    "sanitize_name",
    "truncate_name",
]
