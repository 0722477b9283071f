"""A set of tools a check selected on the server alone, with its evidence and the names as text.

A verdict's finding names the tools it is about (all of them), cites at most `MAX_EVIDENCE` of them as evidence
and spells out at most `MAX_NAMED` names in its detail. A `ToolSet` holds the three, built once per server
(`hostcompat.engine.server.digest`) and shared by every host whose check selects it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from hostcompat.engine.findings.model import Evidence, cut_snippet

MAX_EVIDENCE: Final = 20
"""The most server-side evidence items one finding carries (the tools list stays complete)."""

MAX_NAMED: Final = 5
"""How many tool names a finding's detail spells out before it says "and N more"."""


@dataclass(frozen=True, kw_only=True)
class ToolSet:
    """Tools a check selected on the server alone: the names, their evidence (at most `MAX_EVIDENCE`), and the
    names as text for a finding's detail. Built once per server and shared by every host that selects them.
    """

    tools: tuple[str, ...]
    evidence: tuple[Evidence, ...]
    text: str

    @classmethod
    def of(cls, tools: Sequence[str], evidence: Iterable[Evidence]) -> ToolSet:
        """The set of `tools` with `evidence` (already cut to `MAX_EVIDENCE` by the caller)."""
        return cls(tools=tuple(tools), evidence=tuple(evidence), text=name_list(tools))


def name_list(names: Sequence[str], limit: int = MAX_NAMED) -> str:
    """`'a', 'b' and 3 more` — names quoted and cut, at most `limit` spelled out."""
    if type(names) is tuple and limit == MAX_NAMED and len(names) <= _CACHED_NAMES:
        return _tuple_name_list(names)  # the same tools are named on host after host
    return _name_list(names, limit)


_CACHED_NAMES: Final = 64
"""Lists this short are remembered (a bounded cache of small tuples: it never keeps a large tool list alive)."""


@functools.lru_cache(maxsize=256)
def _tuple_name_list(names: tuple[str, ...]) -> str:
    return _name_list(names, MAX_NAMED)


def _name_list(names: Sequence[str], limit: int) -> str:
    shown = ", ".join(cut_snippet(repr(name))[:80] for name in names[:limit])
    rest = len(names) - limit
    return f"{shown} and {rest} more" if rest > 0 else shown


__all__ = ["MAX_EVIDENCE", "MAX_NAMED", "ToolSet", "name_list"]
