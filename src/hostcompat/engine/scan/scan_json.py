"""A `WidgetScan` read back from its JSON form (`WidgetScan.to_dict()`), as a cache entry holds it: exactly, or not.

A kept scan comes from a file anyone may have written, so it is untrusted: every field must have the type and one
of the values the scanner writes, every list is bounded, no key is missing or extra, and `needs_used` must be what
the findings say. Anything else is no scan (None), never an error: the caller scans the widget again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar, get_args

from hostcompat.engine.scan.model import (
    DomainUse,
    ExternalCode,
    NeedFinding,
    ScanLimit,
    SdkDetection,
    SourceLocation,
    WidgetScan,
)
from hostcompat.engine.scan.needs import (
    ALL_NEEDS,
    Confidence,
    Directive,
    ExternalKind,
    Kind,
    LimitCode,
    SdkHow,
    SdkName,
    Via,
)

__all__ = ["scan_from_json"]

MAX_ITEMS: Final = 100_000
"""The longest list a kept scan may hold (a scan caps its findings, externals and domains far below)."""

_T = TypeVar("_T")
_KINDS: Final[frozenset[object]] = frozenset(get_args(Kind))
_CONFIDENCES: Final[frozenset[object]] = frozenset(get_args(Confidence))
_VIAS: Final[frozenset[object]] = frozenset(get_args(Via))
_DIRECTIVES: Final[frozenset[object]] = frozenset(get_args(Directive))
_EXTERNAL_KINDS: Final[frozenset[object]] = frozenset(get_args(ExternalKind))
_SDK_NAMES: Final[frozenset[object]] = frozenset(get_args(SdkName))
_SDK_HOWS: Final[frozenset[object]] = frozenset(get_args(SdkHow))
_LIMIT_CODES: Final[frozenset[object]] = frozenset(get_args(LimitCode))
_NEEDS: Final[frozenset[object]] = frozenset(ALL_NEEDS)
_SCAN_KEYS: Final = frozenset(
    {
        "needs_used",
        "findings",
        "code_analysed",
        "complete",
        "external_code",
        "domains",
        "sdks",
        "limits",
        "scanned_chars",
        "total_chars",
    }
)


class _NotAScan(Exception):
    """Raised inside the reader at the first thing that is not what the scanner writes."""


def scan_from_json(data: object) -> WidgetScan | None:
    """The scan whose `to_dict()` is `data`, or None when `data` is anything else."""
    try:
        scan = _scan(data)
    except _NotAScan:
        return None
    return scan


def _scan(data: object) -> WidgetScan:
    fields = _object(data, _SCAN_KEYS)
    scan = WidgetScan(
        findings=_list(fields["findings"], _finding),
        code_analysed=_bool(fields["code_analysed"]),
        complete=_bool(fields["complete"]),
        external_code=_list(fields["external_code"], _external),
        domains=_list(fields["domains"], _domain),
        sdks=_list(fields["sdks"], _sdk),
        limits=_list(fields["limits"], _limit),
        scanned_chars=_count(fields["scanned_chars"]),
        total_chars=_count(fields["total_chars"]),
    )
    if fields["needs_used"] != list(scan.needs_used()):
        raise _NotAScan
    return scan


def _finding(data: object) -> NeedFinding:
    fields = _object(data, {"need", "kind", "confidence", "via", "detail", "evidence"})
    evidence = fields["evidence"]
    return NeedFinding(
        need=_one_of(fields["need"], _NEEDS),
        kind=_one_of(fields["kind"], _KINDS),
        confidence=_one_of(fields["confidence"], _CONFIDENCES),
        via=_one_of(fields["via"], _VIAS),
        detail=_text(fields["detail"]),
        evidence=None if evidence is None else _location(evidence),
    )


def _location(data: object) -> SourceLocation:
    fields = _object(data, {"offset", "line", "snippet"})
    offset, line, snippet = _count(fields["offset"]), _count(fields["line"]), _text(fields["snippet"])
    return SourceLocation(offset=offset, line=line, snippet=snippet)


def _external(data: object) -> ExternalCode:
    fields = _object(data, {"url", "kind", "domain", "evidence"})
    return ExternalCode(
        url=_text(fields["url"]),
        kind=_one_of(fields["kind"], _EXTERNAL_KINDS),
        domain=_optional_text(fields["domain"]),
        evidence=_location(fields["evidence"]),
    )


def _domain(data: object) -> DomainUse:
    fields = _object(data, {"domain", "directive", "url", "evidence"})
    return DomainUse(
        domain=_text(fields["domain"]),
        directive=_one_of(fields["directive"], _DIRECTIVES),
        url=_text(fields["url"]),
        evidence=_location(fields["evidence"]),
    )


def _sdk(data: object) -> SdkDetection:
    fields = _object(data, {"name", "how", "version", "detail", "evidence"})
    return SdkDetection(
        name=_one_of(fields["name"], _SDK_NAMES),
        how=_one_of(fields["how"], _SDK_HOWS),
        version=_optional_text(fields["version"]),
        detail=_text(fields["detail"]),
        evidence=_location(fields["evidence"]),
    )


def _limit(data: object) -> ScanLimit:
    fields = _object(data, {"code", "detail", "offset"})
    offset = fields["offset"]
    return ScanLimit(
        code=_one_of(fields["code"], _LIMIT_CODES),
        detail=_text(fields["detail"]),
        offset=None if offset is None else _count(offset),
    )


def _object(data: object, keys: frozenset[str] | set[str]) -> Mapping[str, object]:
    if not isinstance(data, Mapping) or set(data) != keys:
        raise _NotAScan
    return data


def _list(data: object, item: Callable[[object], _T]) -> tuple[_T, ...]:
    if not isinstance(data, list) or len(data) > MAX_ITEMS:
        raise _NotAScan
    return tuple(item(entry) for entry in data)


def _one_of(data: object, allowed: frozenset[object]) -> Any:  # one of a Literal's values, checked here
    if not isinstance(data, str) or data not in allowed:
        raise _NotAScan
    return data


def _text(data: object) -> str:
    if not isinstance(data, str):
        raise _NotAScan
    return data


def _optional_text(data: object) -> str | None:
    return None if data is None else _text(data)


def _bool(data: object) -> bool:
    if not isinstance(data, bool):
        raise _NotAScan
    return data


def _count(data: object) -> int:
    if not isinstance(data, int) or isinstance(data, bool) or data < 0:
        raise _NotAScan
    return data
