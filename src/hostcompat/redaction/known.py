"""`Redactor`: the secret values of one target, removed from any text or JSON wherever they show up (a server
echoing its key on stderr, say), with URL credentials too.
"""

from __future__ import annotations

import json as json_text
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import field
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.redaction.names import REDACTED
from hostcompat.redaction.urls import redact_url

MIN_SECRET_CHARS: Final = 6
"""The shortest known secret a `Redactor` searches for in free text.

Shorter values (`1`, `true`, `3000`, `dev`) would blank out ordinary words and numbers everywhere, and are too short
to be keys anyway; they are still redacted in their own place (the env entry, the header, the argument).
"""


@dataclass(frozen=True)
class Redactor:
    """The secret values of one target (env and header values, URL passwords and tokens, secret arguments), removed
    from any text or JSON wherever they appear.

    Values shorter than `MIN_SECRET_CHARS` are left out (see there). `text` also redacts URL credentials and
    secret-looking URL parameters it finds; `known` removes only the known values (for data kept as a server sent
    it, such as tool listings, where a URL is the server's own business).
    """

    values: tuple[str, ...] = ()
    _pattern: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    _in_json: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    """The values as they appear in JSON text too (a quote or backslash escaped), to skip data that holds none."""

    def __post_init__(self) -> None:
        kept = sorted(
            {value for value in self.values if isinstance(value, str) and len(value.strip()) >= MIN_SECRET_CHARS},
            key=lambda value: (-len(value), value),
        )
        object.__setattr__(self, "values", tuple(kept))
        if kept:
            object.__setattr__(self, "_pattern", re.compile("|".join(map(re.escape, kept))))
            escaped = {json_text.dumps(value, ensure_ascii=False)[1:-1] for value in kept}
            object.__setattr__(self, "_in_json", re.compile("|".join(map(re.escape, sorted({*kept, *escaped})))))

    @classmethod
    def of(cls, *groups: Iterable[str]) -> Redactor:
        """A redactor for the values in all `groups`."""
        return cls(tuple(value for group in groups for value in group))

    def __or__(self, other: Redactor) -> Redactor:
        return Redactor((*self.values, *other.values))

    def __bool__(self) -> bool:
        return bool(self.values)

    def known(self, text: str) -> str:
        """`text` with every known secret value replaced by `REDACTED`."""
        if self._pattern is None or not text:
            return text
        return self._pattern.sub(REDACTED, text)

    def text(self, text: str) -> str:
        """`text` with every known secret value, every URL's credentials and every secret URL parameter redacted."""
        return redact_url(self.known(text))

    def tail(self, text: str) -> str:
        """`text` redacted as `text` does, for the end of a longer output whose start was cut off: it may begin with
        the last part of a known secret, which is redacted too (when at least `MIN_SECRET_CHARS` long).
        """
        redacted = self.text(text)
        for value in self.values:
            for size in range(len(value) - 1, MIN_SECRET_CHARS - 1, -1):
                if redacted.startswith(value[-size:]):
                    return REDACTED + redacted[size:]
        return redacted

    def head(self, text: str) -> str:
        """`text` redacted as `text` does, for the start of a longer text whose end was cut off: it may end with the
        first part of a known secret, which is redacted too (when at least `MIN_SECRET_CHARS` long).
        """
        redacted = self.text(text)
        for value in self.values:
            for size in range(len(value) - 1, MIN_SECRET_CHARS - 1, -1):
                if redacted.endswith(value[:size]):
                    return redacted[:-size] + REDACTED
        return redacted

    def json(self, value: Any, *, urls: bool = True) -> Any:
        """`value` (plain JSON data) with its strings, keys included, redacted (`urls`: as `text` does, else as
        `known` does). Copy-on-write: what holds no secret is returned as the same object. Any depth.

        With `urls` false (the listings of a snapshot: megabytes), each item of a top-level list is first serialised
        and searched at C speed, and only the rare item holding a known value is walked string by string.
        """
        if urls:
            return _walk(value, self.text)
        if self._pattern is None:
            return value
        if not isinstance(value, list | tuple):
            return self._known_item(value)
        items = list(value)
        for start in range(0, len(items), _CHUNK):
            if self._holds_known(items[start : start + _CHUNK]):
                items[start : start + _CHUNK] = map(self._known_item, items[start : start + _CHUNK])
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return tuple(items) if isinstance(value, tuple) else items

    def _holds_known(self, value: Any) -> bool:
        """Whether `value` may hold a known value (True when it cannot be serialised to tell)."""
        assert self._in_json is not None
        try:
            return self._in_json.search(_ENCODER.encode(value)) is not None
        except (TypeError, ValueError, RecursionError):  # not plain JSON data, or too deep for the encoder
            return True

    def _known_item(self, value: Any) -> Any:
        return _walk(value, self.known) if self._holds_known(value) else value


_ENCODER: Final = json_text.JSONEncoder(ensure_ascii=False)
_CHUNK: Final = 256
"""Items of a listing serialised together to look for known values: few calls, and bounded memory."""


class _Frame:
    """One container being rebuilt by `_walk`: its items so far, and whether any of them changed."""

    def __init__(self, container: Any, slot: Any) -> None:
        self.container = container
        self.slot = slot
        self.items: Iterator[tuple[Any, Any]] = iter(
            container.items() if isinstance(container, Mapping) else enumerate(container)
        )
        self.built: list[tuple[Any, Any]] = []
        self.changed = False

    def put(self, key: Any, old: Any, new: Any) -> None:
        self.built.append((key, new))
        if new is not old and (not isinstance(new, str) or new != old):
            self.changed = True

    def result(self) -> Any:
        if not self.changed:
            return self.container
        if isinstance(self.container, Mapping):
            return dict(self.built)
        values = [value for _key, value in self.built]
        return tuple(values) if isinstance(self.container, tuple) else values


def _walk(root: Any, redact: Any) -> Any:
    """`root` with `redact` applied to every string in it (keys of mappings too), rebuilt only where it changed."""
    if isinstance(root, str):
        return redact(root)
    if not isinstance(root, Mapping | list | tuple):
        return root
    stack = [_Frame(root, None)]
    while True:
        frame = stack[-1]
        entry = next(frame.items, None)
        if entry is None:
            stack.pop()
            done = frame.result()
            if not stack:
                return done
            parent = stack[-1]
            key, old = frame.slot
            parent.put(key, old, done)
            continue
        key, child = entry
        if isinstance(frame.container, Mapping) and isinstance(key, str):
            new_key = redact(key)
            if new_key != key:
                frame.changed = True
                key = new_key
        if isinstance(child, Mapping | list | tuple):
            stack.append(_Frame(child, (key, child)))
        elif isinstance(child, str):
            frame.put(key, child, redact(child))
        else:
            frame.put(key, child, child)


__all__ = ["MIN_SECRET_CHARS", "Redactor"]
