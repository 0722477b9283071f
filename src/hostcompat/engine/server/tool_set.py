"""A set of tools a check selected on the server alone, with its evidence and the names as text.

A verdict's finding names the tools it is about (all of them), cites at most `MAX_EVIDENCE` of them as evidence
and spells out at most `MAX_NAMED` names in its detail. A `ToolSet` holds the three, built once per server
(`hostcompat.engine.server.digest`) and shared by every host whose check selects it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Final

from hostcompat.engine.findings.model import Evidence, cut_snippet

MAX_EVIDENCE: Final = 20
"""The most server-side evidence items one finding carries (the tools list stays complete)."""

MAX_NAMED: Final = 5
"""How many tool names a finding's detail spells out before it says "and N more"."""


class ToolSet:
    """Tools a check selected on the server alone: the names, their evidence (at most `MAX_EVIDENCE`), and the
    names as text for a finding's detail. Built once per server and shared by every host that selects them.

    A host's verdict reads only `tools`; the evidence and the text go into a finding when it is written, so a set
    made with `deferred` works them out on first read. A value: nothing changes it after it is made.
    """

    __slots__ = ("_evidence", "_make", "_make_text", "_text", "tools")

    def __init__(self, *, tools: tuple[str, ...], evidence: tuple[Evidence, ...], text: str) -> None:
        """The set of `tools` with its `evidence` and `text`."""
        self.tools: Final = tools
        self._evidence: tuple[Evidence, ...] | None = evidence
        self._text: str | None = text
        self._make: Callable[[], Iterable[Evidence]] | None = None
        self._make_text: Callable[[], str] | None = None

    @classmethod
    def of(cls, tools: Sequence[str], evidence: Iterable[Evidence]) -> ToolSet:
        """The set of `tools` with `evidence` (already cut to `MAX_EVIDENCE` by the caller)."""
        return cls(tools=tuple(tools), evidence=tuple(evidence), text=name_list(tools))

    @classmethod
    def deferred(
        cls, tools: Sequence[str], evidence: Callable[[], Iterable[Evidence]], text: Callable[[], str] | None = None
    ) -> ToolSet:
        """The set of `tools` whose evidence `evidence()` gives (cut to `MAX_EVIDENCE` by it) and whose text
        `text()` gives (by default their `name_list`), each worked out on first read.
        """
        made = cls(tools=tuple(tools), evidence=(), text="")
        made._evidence, made._text, made._make, made._make_text = None, None, evidence, text
        return made

    @property
    def evidence(self) -> tuple[Evidence, ...]:
        """The evidence of the first `MAX_EVIDENCE` tools."""
        if self._evidence is None:
            make = self._make
            self._evidence = () if make is None else tuple(make())
        return self._evidence

    @property
    def text(self) -> str:
        """The names as text for a finding's detail (`name_list`)."""
        if self._text is None:
            make = self._make_text
            self._text = name_list(self.tools) if make is None else make()
        return self._text

    def __eq__(self, other: object) -> bool:
        """Equal when the tools, evidence and text are."""
        if not isinstance(other, ToolSet):
            return NotImplemented
        return (self.tools, self.evidence, self.text) == (other.tools, other.evidence, other.text)

    def __hash__(self) -> int:
        """The hash of the tools, evidence and text."""
        return hash((self.tools, self.evidence, self.text))

    def __repr__(self) -> str:
        """`ToolSet(tools=..., evidence=..., text=...)`."""
        return f"ToolSet(tools={self.tools!r}, evidence={self.evidence!r}, text={self.text!r})"


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
