"""Client versions and version ranges, compared as versions rather than strings.

Clients report versions in several dialects (`0.148.0-alpha.9`, `1.0.0rc1`, `26.820.60940`,
`v2.1`); one tolerant parser orders them all so that a rule's range means what it says.
"""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.errors import InvalidInput

MAX_VERSION_LENGTH = 128
"""The longest version string parsed; longer ones are rejected (untrusted input)."""

MAX_RANGE_LENGTH = 512
"""The longest version-range expression parsed."""

_RELEASE = regex(r"[vV]?(\d{1,18}(?:\.\d{1,18}){0,15})")
_SUFFIX_CHARS = regex(r"[0-9A-Za-z.\-_]*")
_SUFFIX_TOKEN = regex(r"\d+|[A-Za-z]+")
_BUILD_CHARS = regex(r"[0-9A-Za-z.\-_]+")
_LABEL_SYNONYMS = {"a": "alpha", "b": "beta", "c": "rc", "pre": "rc", "preview": "rc"}
_POST_LABELS = frozenset({"post", "rev", "r"})

PreReleasePart = int | str
_TokenKey = tuple[int, int, str]
_SortKey = tuple[tuple[int, ...], tuple[object, ...]]


def _token_key(token: PreReleasePart) -> _TokenKey:
    # Numbers sort before labels (as in SemVer); `dev` sorts before every other label (as in PEP 440).
    if isinstance(token, int):
        return (0, token, "")
    return (1, 0 if token == "dev" else 1, token)


def _sort_key(release: tuple[int, ...], pre: tuple[PreReleasePart, ...], post: int | None) -> _SortKey:
    trimmed = release
    while len(trimmed) > 1 and trimmed[-1] == 0:
        trimmed = trimmed[:-1]
    if pre:
        phase: tuple[object, ...] = (0, tuple(_token_key(token) for token in pre))
    elif post is not None:
        phase = (2, post)
    else:
        phase = (1,)
    return (trimmed, phase)


@dataclass(frozen=True, order=True)
class Version:
    """A parsed version: release numbers, an optional pre-release, an optional post-release.

    Ordering: `1.0` == `1.0.0`; a pre-release sorts before its release
    (`0.148.0-alpha.9` < `0.148.0`); `dev` < `alpha` < `beta` < `rc` < release < `post`;
    numeric pre-release parts compare as numbers; build metadata (`+…`) is ignored.
    """

    key: _SortKey = field(init=False, repr=False)
    release: tuple[int, ...] = field(compare=False)
    pre: tuple[PreReleasePart, ...] = field(default=(), compare=False)
    post: int | None = field(default=None, compare=False)
    text: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", _sort_key(self.release, self.pre, self.post))
        if not self.text:
            object.__setattr__(self, "text", _render(self.release, self.pre, self.post))

    @property
    def is_prerelease(self) -> bool:
        """Whether this is a pre-release (alpha, beta, rc, dev, …)."""
        return bool(self.pre)

    def __str__(self) -> str:
        return self.text


def _render(release: tuple[int, ...], pre: tuple[PreReleasePart, ...], post: int | None) -> str:
    text = ".".join(str(part) for part in release)
    if pre:
        text += "-" + ".".join(str(part) for part in pre)
    if post is not None:
        text += f".post{post}"
    return text


def _split_suffix(suffix: str, original: str) -> tuple[tuple[PreReleasePart, ...], int | None]:
    if not _SUFFIX_CHARS.fullmatch(suffix):
        raise InvalidInput(f"not a version: unexpected characters in {original!r}", value=original)
    tokens: list[PreReleasePart] = []
    for match in _SUFFIX_TOKEN.finditer(suffix):
        raw = match.group()
        if raw.isdigit():
            tokens.append(int(raw))
        else:
            label = raw.lower()
            tokens.append(_LABEL_SYNONYMS.get(label, label))
    if tokens and tokens[0] in _POST_LABELS:
        rest = tokens[1:]
        if not rest:
            return (), 0
        if len(rest) == 1 and isinstance(rest[0], int):
            return (), rest[0]
    return tuple(tokens), None


def parse_version(text: str) -> Version:
    """Parse a client version such as `0.148.0-alpha.9`, `1.0.0rc1`, `v2.1` or `1.2.3+build.5`.

    Raises:
        InvalidInput: not a string, empty, longer than `MAX_VERSION_LENGTH`, or not a version.
    """
    if not isinstance(text, str):
        raise InvalidInput("a version must be a string", value=text)
    stripped = text.strip()
    if not stripped or len(stripped) > MAX_VERSION_LENGTH:
        raise InvalidInput(f"not a version (empty or over {MAX_VERSION_LENGTH} characters)", value=text)
    main, plus, build = stripped.partition("+")
    if plus and not _BUILD_CHARS.fullmatch(build):
        raise InvalidInput(f"not a version: bad build metadata in {text!r}", value=text)
    match = _RELEASE.match(main)
    if match is None:
        raise InvalidInput(f"not a version: {text!r} does not start with a number", value=text)
    release = tuple(int(part) for part in match.group(1).split("."))
    pre, post = _split_suffix(main[match.end() :], text)
    return Version(release=release, pre=pre, post=post, text=stripped)


def try_parse_version(text: object) -> Version | None:
    """`parse_version`, or None when the text is not a version (clients send all sorts of strings)."""
    if not isinstance(text, str):
        return None
    try:
        return parse_version(text)
    except InvalidInput:
        return None


Operator = Literal[">=", "<=", ">", "<", "==", "!="]
_OPERATORS: tuple[Operator, ...] = (">=", "<=", "==", "!=", ">", "<")
_ANY_RANGE = frozenset({"", "*", "any"})


@dataclass(frozen=True)
class Comparator:
    """One `<op> <version>` clause of a range."""

    operator: Operator
    version: Version

    def accepts(self, version: Version) -> bool:
        """Whether `version` satisfies this clause."""
        if self.operator == ">=":
            return version >= self.version
        if self.operator == "<=":
            return version <= self.version
        if self.operator == ">":
            return version > self.version
        if self.operator == "<":
            return version < self.version
        if self.operator == "==":
            return version == self.version
        return version != self.version


@dataclass(frozen=True)
class VersionRange:
    """Comma-separated clauses that must all hold (`>=0.1,<0.150`); no clauses means any version.

    Pre-releases are ordinary points on the line: `<0.150` includes `0.150.0-alpha.8`.
    """

    text: str
    comparators: tuple[Comparator, ...] = ()

    @property
    def is_any(self) -> bool:
        """Whether the range accepts every version, unparsable ones included."""
        return not self.comparators

    def contains(self, version: Version | str) -> bool:
        """Whether `version` is in the range; a version string that does not parse is only in `*`."""
        if self.is_any:
            return True
        parsed = version if isinstance(version, Version) else try_parse_version(version)
        if parsed is None:
            return False
        return all(clause.accepts(parsed) for clause in self.comparators)

    def __str__(self) -> str:
        return self.text


ANY_VERSION = VersionRange(text="*")
"""The range that accepts every version."""


def _parse_clause(clause: str, whole: str) -> Comparator:
    for operator in _OPERATORS:
        if clause.startswith(operator):
            rest = clause[len(operator) :].strip()
            break
    else:
        operator, rest = "==", clause.lstrip("=").strip()
    try:
        return Comparator(operator=operator, version=parse_version(rest))
    except InvalidInput as error:
        raise InvalidInput(f"bad clause {clause!r} in version range {whole!r}: {error.message}", value=whole) from None


def parse_version_range(text: str) -> VersionRange:
    """Parse `*` (any version) or comma-separated clauses such as `>=0.1,<0.150` or `==0.148.0-alpha.9`.

    A clause without an operator means `==`.

    Raises:
        InvalidInput: not a string, too long, an empty clause, or a clause that is not `<op> <version>`.
    """
    if not isinstance(text, str):
        raise InvalidInput("a version range must be a string", value=text)
    if len(text) > MAX_RANGE_LENGTH:
        raise InvalidInput(f"version range over {MAX_RANGE_LENGTH} characters", value=text)
    stripped = text.strip()
    if stripped.lower() in _ANY_RANGE:
        return VersionRange(text="*")
    clauses = [clause.strip() for clause in stripped.split(",")]
    if any(not clause for clause in clauses):
        raise InvalidInput(f"empty clause in version range {text!r}", value=text)
    return VersionRange(text=stripped, comparators=tuple(_parse_clause(clause, text) for clause in clauses))


__all__ = [
    "ANY_VERSION",
    "Comparator",
    "MAX_RANGE_LENGTH",
    "MAX_VERSION_LENGTH",
    "Operator",
    "PreReleasePart",
    "Version",
    "VersionRange",
    "parse_version",
    "parse_version_range",
    "try_parse_version",
]
