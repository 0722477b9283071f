"""The engine's shared output model: verdicts, severities, lanes, provenance, evidence and findings.

Frozen values with a JSON `to_dict()` (and a strict `from_dict()` to replay saved reports), so requirements,
hygiene, evaluation and reports all speak about the same findings the same way. The rule ids a finding carries
are registered in `hostcompat.engine.findings.rules`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any, Final, TypeVar

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireJSON, WireObject

MAX_SNIPPET_CHARS: Final = 200
"""Evidence snippets are cut to this many characters (an ellipsis marks the cut)."""

MAX_TEXT_CHARS: Final = 4000
"""The longest title, detail, remediation or evidence detail accepted in a finding."""

MAX_FINDING_ITEMS: Final = 10_000
"""The most tools, resources or evidence items one finding may carry."""

RULE_ID_PATTERN: Final = regex(r"\A[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-[0-9]{3}\Z")
"""The shape of a rule id: upper-case words joined by `-`, then a three-digit number (`APPS-RENDER-001`)."""


class Verdict(str, Enum):
    """How a server fares on one host (or one lane of it)."""

    WORKS = "works"
    DEGRADED = "degraded"
    BLOCKED = "blocked"
    UNKNOWN = "unknown"

    @property
    def rank(self) -> int:
        """MCPJam's aggregation rank: works 0 < unknown 1 < degraded 2 < blocked 3 (the worst wins)."""
        return _VERDICT_RANK[self]


class Severity(str, Enum):
    """How bad one finding is."""

    BLOCKER = "blocker"
    DEGRADED = "degraded"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Info 0 < degraded 1 < blocker 2."""
        return _SEVERITY_RANK[self]

    @property
    def verdict(self) -> Verdict:
        """The verdict a finding of this severity alone implies: blocked, degraded, or works for info."""
        return _SEVERITY_VERDICT[self]


class Lane(str, Enum):
    """Which part of a host a finding concerns: widget rendering and host APIs, or the server connection."""

    APPS = "apps"
    SERVER = "server"


class Provenance(str, Enum):
    """Where a host fact comes from (MCPJam's labels)."""

    OBSERVED = "observed"
    VENDOR_DOC = "vendor-doc"
    PROBE = "probe"
    ASSUMED = "assumed"

    @property
    def trust(self) -> int:
        """MCPJam's trust rank: assumed 0 < probe 1 < vendor-doc 2 < observed 3."""
        return _PROVENANCE_TRUST[self]


_VERDICT_RANK: Final = {Verdict.WORKS: 0, Verdict.UNKNOWN: 1, Verdict.DEGRADED: 2, Verdict.BLOCKED: 3}
_SEVERITY_RANK: Final = {Severity.INFO: 0, Severity.DEGRADED: 1, Severity.BLOCKER: 2}
_SEVERITY_VERDICT: Final = {
    Severity.INFO: Verdict.WORKS,
    Severity.DEGRADED: Verdict.DEGRADED,
    Severity.BLOCKER: Verdict.BLOCKED,
}
_PROVENANCE_TRUST: Final = {
    Provenance.ASSUMED: 0,
    Provenance.PROBE: 1,
    Provenance.VENDOR_DOC: 2,
    Provenance.OBSERVED: 3,
}

_EnumT = TypeVar("_EnumT", bound=Enum)


def parse_enum(kind: type[_EnumT], value: object) -> _EnumT:
    """`value` (a member or its string value) as a member of `kind`; anything else is `InvalidInput`."""
    if isinstance(value, kind):
        return value
    for member in kind:
        if isinstance(value, str) and member.value == value:
            return member
    choices = ", ".join(repr(member.value) for member in kind)
    raise InvalidInput(f"{kind.__name__} must be one of {choices}, got {_preview(value)}", value=value)


def worst(verdicts: Iterable[Verdict | str]) -> Verdict:
    """The worst of `verdicts` by rank (works < unknown < degraded < blocked); `works` when there are none."""
    result = Verdict.WORKS
    for item in verdicts:
        verdict = parse_enum(Verdict, item)
        if verdict.rank > result.rank:
            result = verdict
    return result


def weakest(provenances: Iterable[Provenance | str | None]) -> Provenance | None:
    """The least trusted of `provenances` (None entries skipped); None when none is given."""
    result: Provenance | None = None
    for item in provenances:
        if item is None:
            continue
        provenance = parse_enum(Provenance, item)
        if result is None or provenance.trust < result.trust:
            result = provenance
    return result


@dataclass(frozen=True)
class Evidence:
    """Where a finding was seen.

    `source` names the place: `tool:_meta`, `tools[3]`, `resource:<uri>` (a resources/list entry),
    `resource-read:<uri>` (a resources/read content item), `widget:<uri>` (the HTML), `call:<tool>` (a captured
    tools/call result). `detail` says what was seen there (a JSON path, a value); `offset` (0-based characters),
    `line` (1-based) and `snippet` (cut to `MAX_SNIPPET_CHARS`) point into text when there is one.
    """

    source: str
    detail: str | None = None
    offset: int | None = None
    line: int | None = None
    snippet: str | None = None

    def __post_init__(self) -> None:
        _require_text(self.source, "Evidence.source")
        _optional_text(self.detail, "Evidence.detail")
        for name, minimum in (("offset", 0), ("line", 1)):
            number = getattr(self, name)
            if number is not None and (isinstance(number, bool) or not isinstance(number, int) or number < minimum):
                raise InvalidInput(f"Evidence.{name} must be an int >= {minimum} or None", value=number)
        if self.snippet is not None:
            if not isinstance(self.snippet, str):
                raise InvalidInput("Evidence.snippet must be a string or None", value=self.snippet)
            object.__setattr__(self, "snippet", cut_snippet(self.snippet))

    def to_dict(self) -> WireObject:
        """The JSON form; unset fields are left out."""
        out: WireObject = {"source": self.source}
        for key in ("detail", "offset", "line", "snippet"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out

    @classmethod
    def from_dict(cls, raw: object) -> Evidence:
        """Parse the JSON form of `to_dict` strictly (unknown keys are an error)."""
        wire = _object(raw, "evidence", ("source", "detail", "offset", "line", "snippet"))
        return cls(
            source=_required(wire, "source", "evidence"),  # types are checked in __post_init__
            detail=wire.get("detail"),
            offset=wire.get("offset"),
            line=wire.get("line"),
            snippet=wire.get("snippet"),
        )


@dataclass(frozen=True)
class Finding:
    """One thing a server does that matters on some host, with the rule that found it and the evidence.

    `tools` and `resources` name what it concerns; `provenance`, `fact_source` and `fact_date` say where the host
    fact behind it comes from (None for the server's own hygiene), and `fact_since` / `fact_fixed_in` the host
    versions its source says it holds for (None: the source gives no bound). Strings for the enums are accepted and
    converted; lists become tuples.
    """

    rule_id: str
    lane: Lane
    severity: Severity
    title: str
    detail: str
    remediation: str | None = None
    tools: tuple[str, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    provenance: Provenance | None = None
    fact_source: str | None = None
    fact_date: str | None = None
    resources: tuple[str, ...] = ()
    fact_since: str | None = None
    fact_fixed_in: str | None = None

    def __post_init__(self) -> None:
        if type(self.rule_id) is str and self.rule_id in _CHECKED_RULE_IDS:
            pass  # seen before: findings of one rule are built again and again, keep that cheap
        elif not isinstance(self.rule_id, str) or not RULE_ID_PATTERN.match(self.rule_id):
            raise InvalidInput(
                f"a rule id looks like 'APPS-RENDER-001', got {_preview(self.rule_id)}", value=self.rule_id
            )
        elif len(_CHECKED_RULE_IDS) < _MAX_CHECKED_RULE_IDS:
            _CHECKED_RULE_IDS.add(self.rule_id)
        object.__setattr__(self, "lane", parse_enum(Lane, self.lane))
        object.__setattr__(self, "severity", parse_enum(Severity, self.severity))
        _require_text(self.title, "Finding.title")
        _require_text(self.detail, "Finding.detail")
        _optional_text(self.remediation, "Finding.remediation")
        _optional_text(self.fact_source, "Finding.fact_source")
        _optional_text(self.fact_date, "Finding.fact_date")
        _optional_text(self.fact_since, "Finding.fact_since")
        _optional_text(self.fact_fixed_in, "Finding.fact_fixed_in")
        object.__setattr__(self, "tools", _names(self.tools, "Finding.tools"))
        object.__setattr__(self, "resources", _names(self.resources, "Finding.resources"))
        evidence = _bounded_tuple(self.evidence, "Finding.evidence")
        for item in evidence:
            if not isinstance(item, Evidence):
                raise InvalidInput("Finding.evidence must hold Evidence values", value=item)
        object.__setattr__(self, "evidence", evidence)
        if self.provenance is not None:
            object.__setattr__(self, "provenance", parse_enum(Provenance, self.provenance))

    @property
    def verdict(self) -> Verdict:
        """The verdict this finding alone implies (see `Severity.verdict`)."""
        return self.severity.verdict

    def to_dict(self) -> WireObject:
        """The JSON form (camelCase keys); unset optional fields are left out."""
        out: WireObject = {
            "ruleId": self.rule_id,
            "lane": self.lane.value,
            "severity": self.severity.value,
            "title": self.title,
            "detail": self.detail,
        }
        if self.remediation is not None:
            out["remediation"] = self.remediation
        out["tools"] = list(self.tools)
        if self.resources:
            out["resources"] = list(self.resources)
        out["evidence"] = [item.to_dict() for item in self.evidence]
        if self.provenance is not None:
            out["provenance"] = self.provenance.value
        if self.fact_source is not None:
            out["factSource"] = self.fact_source
        if self.fact_date is not None:
            out["factDate"] = self.fact_date
        if self.fact_since is not None:
            out["factSince"] = self.fact_since
        if self.fact_fixed_in is not None:
            out["factFixedIn"] = self.fact_fixed_in
        return out

    @classmethod
    def from_dict(cls, raw: object) -> Finding:
        """Parse the JSON form of `to_dict` strictly; `Finding.from_dict(f.to_dict()) == f`."""
        wire = _object(raw, "finding", _FINDING_KEYS)
        evidence = wire.get("evidence", [])
        if not isinstance(evidence, list):
            raise InvalidInput("finding evidence must be a list", value=evidence)
        return cls(
            rule_id=_required(wire, "ruleId", "finding"),  # every field is type checked in __post_init__
            lane=_required(wire, "lane", "finding"),
            severity=_required(wire, "severity", "finding"),
            title=_required(wire, "title", "finding"),
            detail=_required(wire, "detail", "finding"),
            remediation=wire.get("remediation"),
            tools=_list_field(wire, "tools"),
            evidence=tuple(Evidence.from_dict(item) for item in evidence[: MAX_FINDING_ITEMS + 1]),
            provenance=wire.get("provenance"),
            fact_source=wire.get("factSource"),
            fact_date=wire.get("factDate"),
            resources=_list_field(wire, "resources"),
            fact_since=wire.get("factSince"),
            fact_fixed_in=wire.get("factFixedIn"),
        )


_FINDING_KEYS: Final = (
    "ruleId",
    "lane",
    "severity",
    "title",
    "detail",
    "remediation",
    "tools",
    "resources",
    "evidence",
    "provenance",
    "factSource",
    "factDate",
    "factSince",
    "factFixedIn",
)


_CHECKED_RULE_IDS: set[object] = set()
"""Rule ids already validated (bounded, so arbitrary ids from parsed JSON cannot grow it without limit)."""
_MAX_CHECKED_RULE_IDS = 4096


def cut_text(text: str) -> str:
    """`text` cut to what a finding's title, detail or remediation may hold."""
    return text if len(text) <= MAX_TEXT_CHARS else text[: MAX_TEXT_CHARS - 1] + "…"


def cut_snippet(text: str) -> str:
    """`text` cut to `MAX_SNIPPET_CHARS` characters, the last one an ellipsis when it was cut."""
    return text if len(text) <= MAX_SNIPPET_CHARS else text[: MAX_SNIPPET_CHARS - 1] + "…"


def _preview(value: object) -> str:
    return cut_snippet(repr(value))


def _require_text(value: object, where: str) -> None:
    if not isinstance(value, str) or not value:
        raise InvalidInput(f"{where} must be a non-empty string", value=value)
    if len(value) > MAX_TEXT_CHARS:
        raise InvalidInput(f"{where} is longer than {MAX_TEXT_CHARS} characters", value=value)


def _optional_text(value: object, where: str) -> None:
    if value is not None:
        _require_text(value, where)


def _bounded_tuple(value: object, where: str) -> tuple[Any, ...]:
    if not isinstance(value, (list, tuple)):
        raise InvalidInput(f"{where} must be a list or tuple", value=value)
    if len(value) > MAX_FINDING_ITEMS:
        raise InvalidInput(f"{where} has more than {MAX_FINDING_ITEMS} items", value=value)
    return tuple(value)


def _names(value: object, where: str) -> tuple[str, ...]:
    names = _bounded_tuple(value, where)
    if all(type(name) is str for name in names):
        return names
    for name in names:
        if not isinstance(name, str):
            raise InvalidInput(f"{where} must hold only strings", value=name)
    return names


def _object(raw: object, what: str, allowed: tuple[str, ...]) -> WireJSON:
    if not isinstance(raw, Mapping):
        raise InvalidInput(f"a {what} must be an object, got {type(raw).__name__}", value=raw)
    unknown = [key for key in raw if key not in allowed]
    if unknown:
        raise InvalidInput(f"a {what} has unknown keys {_preview(unknown[:5])}", value=raw)
    return raw


def _required(wire: WireJSON, key: str, what: str) -> Any:
    if key not in wire:
        raise InvalidInput(f"a {what} needs {key!r}", value=dict(wire))
    return wire[key]


def _list_field(wire: WireJSON, key: str) -> tuple[Any, ...]:
    value = wire.get(key, [])
    if not isinstance(value, list):
        raise InvalidInput(f"finding {key} must be a list", value=value)
    return _bounded_tuple(value, f"finding {key}")


__all__ = [
    "MAX_FINDING_ITEMS",
    "MAX_SNIPPET_CHARS",
    "MAX_TEXT_CHARS",
    "RULE_ID_PATTERN",
    "Evidence",
    "Finding",
    "Lane",
    "Provenance",
    "Severity",
    "Verdict",
    "cut_snippet",
    "cut_text",
    "parse_enum",
    "weakest",
    "worst",
]
