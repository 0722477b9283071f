"""The scanner's results as frozen data: needs with evidence, loaded code and domains, SDKs, limits.

Everything is plain and immutable so a scan can be cached, compared and serialised (`to_dict()`
gives JSON-ready dicts) without touching the scanner again.
"""

from __future__ import annotations

from hostcompat._dataclass import dataclass
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
    confidence_rank,
)
from hostcompat.wire_json import WireObject

__all__ = [
    "DomainUse",
    "SourceLocation",
    "ExternalCode",
    "MetaScan",
    "NeedFinding",
    "ScanLimit",
    "SdkDetection",
    "WidgetScan",
]

_COUNTING_KINDS = frozenset({"call", "guarded-call", "automatic", "use", "meta"})


@dataclass(frozen=True, kw_only=True)
class SourceLocation:
    """Where in a widget's source something was seen: character offset, 1-based line and a short snippet (≤120
    chars). A finding's `Evidence` (`hostcompat.engine.findings.model`) names a place in what a server sent; this
    is a place in one text.
    """

    offset: int
    line: int
    snippet: str

    def to_dict(self) -> WireObject:
        """JSON-ready form."""
        return {"offset": self.offset, "line": self.line, "snippet": self.snippet}


@dataclass(frozen=True, kw_only=True)
class NeedFinding:
    """One piece of evidence that a widget needs a host capability.

    `via` names the bridge style ("ext-apps", "json-rpc", "openai", "mcp-ui", "html", "meta"),
    `detail` the spelling that matched (`callServerTool`, `ui/open-link`, `_meta.ui.csp.frameDomains` …).
    """

    need: str
    kind: Kind
    confidence: Confidence
    via: Via
    detail: str
    evidence: SourceLocation | None

    @property
    def counts(self) -> bool:
        """Whether this finding makes the need used (a definition alone does not)."""
        return self.kind in _COUNTING_KINDS

    def to_dict(self) -> WireObject:
        """JSON-ready form."""
        return {
            "need": self.need,
            "kind": self.kind,
            "confidence": self.confidence,
            "via": self.via,
            "detail": self.detail,
            "evidence": None if self.evidence is None else self.evidence.to_dict(),
        }


@dataclass(frozen=True, kw_only=True)
class ExternalCode:
    """Code the widget loads but the scanner did not read: `kind` is "script-src", "module-import",
    "dynamic-import", "importmap" or "worker"; `domain` is None for relative URLs.
    """

    url: str
    kind: ExternalKind
    domain: str | None
    evidence: SourceLocation

    def to_dict(self) -> WireObject:
        """JSON-ready form."""
        return {"url": self.url, "kind": self.kind, "domain": self.domain, "evidence": self.evidence.to_dict()}


@dataclass(frozen=True, kw_only=True)
class DomainUse:
    """An origin the widget reaches: `directive` is "resource", "connect", "frame" or "mention"."""

    domain: str
    directive: Directive
    url: str
    evidence: SourceLocation

    def to_dict(self) -> WireObject:
        """JSON-ready form."""
        evidence = self.evidence.to_dict()
        return {"domain": self.domain, "directive": self.directive, "url": self.url, "evidence": evidence}


@dataclass(frozen=True, kw_only=True)
class SdkDetection:
    """A bridge SDK seen in the widget: `name` is "ext-apps", "openai-apps-sdk", "mcp-ui", "mcp-ui-adapter" or
    "bridge-wrapper"; `how` is "bundled", "imported" or "runtime", and for an mcp-ui adapter what it translates the
    page's actions to ("mcp-apps", "apps-sdk" or "unknown"); `version` only when a fingerprint pins one.
    """

    name: SdkName
    how: SdkHow
    version: str | None
    detail: str
    evidence: SourceLocation

    def to_dict(self) -> WireObject:
        """JSON-ready form."""
        return {
            "name": self.name,
            "how": self.how,
            "version": self.version,
            "detail": self.detail,
            "evidence": self.evidence.to_dict(),
        }


@dataclass(frozen=True, kw_only=True)
class ScanLimit:
    """Something the scanner could not fully do (over budget, undecodable, not analysed)."""

    code: LimitCode
    detail: str
    offset: int | None

    def to_dict(self) -> WireObject:
        """JSON-ready form."""
        return {"code": self.code, "detail": self.detail, "offset": self.offset}


def _needs_used(findings: tuple[NeedFinding, ...], min_confidence: str) -> tuple[str, ...]:
    floor = confidence_rank(min_confidence)
    used = {f.need for f in findings if f.counts and confidence_rank(f.confidence) >= floor}
    return tuple(need for need in ALL_NEEDS if need in used)


@dataclass(frozen=True, kw_only=True)
class WidgetScan:
    """What one widget's source needs of a host, with the evidence for each need.

    `code_analysed` is False when the widget's code could not be read (it loads it from elsewhere,
    or nothing executable was found while external code exists): then no need list is "clean".
    `complete` is False when some code (external scripts, input past the budget) was not read.
    """

    findings: tuple[NeedFinding, ...]
    code_analysed: bool
    complete: bool
    external_code: tuple[ExternalCode, ...]
    domains: tuple[DomainUse, ...]
    sdks: tuple[SdkDetection, ...]
    limits: tuple[ScanLimit, ...]
    scanned_chars: int
    total_chars: int

    def needs_used(self, min_confidence: str = "medium") -> tuple[str, ...]:
        """Need ids with at least one counting finding of at least `min_confidence`, in report order."""
        return _needs_used(self.findings, min_confidence)

    def findings_for(self, need: str) -> tuple[NeedFinding, ...]:
        """All findings about one need, in source order."""
        return tuple(f for f in self.findings if f.need == need)

    def domains_for(self, directive: Directive) -> tuple[str, ...]:
        """Distinct domains used under one directive ("resource", "connect", "frame", "mention"), sorted."""
        return tuple(sorted({d.domain for d in self.domains if d.directive == directive}))

    def to_dict(self) -> WireObject:
        """JSON-ready form."""
        return {
            "needs_used": list(self.needs_used()),
            "findings": [f.to_dict() for f in self.findings],
            "code_analysed": self.code_analysed,
            "complete": self.complete,
            "external_code": [e.to_dict() for e in self.external_code],
            "domains": [d.to_dict() for d in self.domains],
            "sdks": [s.to_dict() for s in self.sdks],
            "limits": [limit.to_dict() for limit in self.limits],
            "scanned_chars": self.scanned_chars,
            "total_chars": self.total_chars,
        }


@dataclass(frozen=True, kw_only=True)
class MetaScan:
    """What a resource `_meta` declares: needs, CSP domains per directive, permission names, shape problems."""

    findings: tuple[NeedFinding, ...]
    connect_domains: tuple[str, ...]
    resource_domains: tuple[str, ...]
    frame_domains: tuple[str, ...]
    base_uri_domains: tuple[str, ...]
    permission_names: tuple[str, ...]
    problems: tuple[ScanLimit, ...]

    def needs_used(self, min_confidence: str = "low") -> tuple[str, ...]:
        """Need ids the metadata declares, in report order."""
        return _needs_used(self.findings, min_confidence)

    def to_dict(self) -> WireObject:
        """JSON-ready form."""
        return {
            "needs_used": list(self.needs_used()),
            "findings": [f.to_dict() for f in self.findings],
            "connect_domains": list(self.connect_domains),
            "resource_domains": list(self.resource_domains),
            "frame_domains": list(self.frame_domains),
            "base_uri_domains": list(self.base_uri_domains),
            "permission_names": list(self.permission_names),
            "problems": [p.to_dict() for p in self.problems],
        }
