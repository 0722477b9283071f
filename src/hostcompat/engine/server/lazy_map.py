"""A read-only mapping over known keys whose values are computed the first time each is read.

The server digest holds, per trigger, per schema construct and per render selection, what a host may ask; most
hosts ask for few of them, so each is worked out when first read and kept. The mapping behaves like any other
read-only mapping: its keys are fixed, and iterating or comparing it computes what it has not yet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Final, Generic, TypeVar, overload

_K = TypeVar("_K")
_V = TypeVar("_V")
_T = TypeVar("_T")
_MISSING: Final = object()


class LazyMapping(Mapping[_K, _V], Generic[_K, _V]):
    """`keys` (in their order) → `compute(key)`, computed on first read of each key and kept."""

    __slots__ = ("_compute", "_keys", "_values")

    def __init__(self, keys: Iterable[_K], compute: Callable[[_K], _V]) -> None:
        """Map each of `keys` to `compute(key)`; nothing is computed yet."""
        self._keys: dict[_K, None] = dict.fromkeys(keys)
        self._compute = compute
        self._values: dict[_K, _V] = {}

    def __getitem__(self, key: _K) -> _V:
        """The value of `key`, computed on its first read; `KeyError` for a key not given."""
        values = self._values
        if key in values:
            return values[key]
        if key not in self._keys:
            raise KeyError(key)
        value = self._values[key] = self._compute(key)
        return value

    @overload
    def get(self, key: _K, /) -> _V | None: ...
    @overload
    def get(self, key: _K, default: _V | _T, /) -> _V | _T: ...

    def get(self, key: _K, default: object = None, /) -> object:
        """The value of `key` (computed on its first read), or `default` for a key not given."""
        found = self._values.get(key, _MISSING)
        if found is not _MISSING:
            return found
        if key not in self._keys:
            return default
        value = self._values[key] = self._compute(key)
        return value

    def __iter__(self) -> Iterator[_K]:
        """The keys in the order given."""
        return iter(self._keys)

    def __len__(self) -> int:
        """How many keys there are."""
        return len(self._keys)

    def __contains__(self, key: object) -> bool:
        """Whether `key` is one of the keys (nothing is computed)."""
        return key in self._keys

    def __repr__(self) -> str:
        """The mapping as a dict (every value computed)."""
        return f"LazyMapping({dict(self.items())!r})"


__all__ = ["LazyMapping"]
