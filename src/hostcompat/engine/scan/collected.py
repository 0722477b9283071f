"""What one widget scan collects as it reads, and how that becomes its `WidgetScan`.

The scanner (`engine.scan.widget`) walks the page and its scripts, adding needs, externals, domains, SDKs and limits
to a `Collected`; `finish` then settles what they mean together (a method name alone in a page with no MCP Apps
bridge is another library's, `window.openai` beside the MCP Apps SDK is host detection), keeps a dozen findings per
need and makes their evidence. A `Locator` turns an offset in a (possibly decoded) text into evidence in the page.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import field, replace
from functools import cached_property

from hostcompat._dataclass import dataclass
from hostcompat.engine.scan.budget import HitBudget
from hostcompat.engine.scan.model import (
    DomainUse,
    ExternalCode,
    NeedFinding,
    ScanLimit,
    SdkDetection,
    SourceLocation,
    WidgetScan,
)
from hostcompat.engine.scan.needs import ALL_NEEDS, Confidence, Kind, Via

__all__ = ["MAX_FINDINGS_PER_NEED", "SNIPPET_CHARS", "Collected", "Locator", "PendingNeed", "finish"]

MAX_FINDINGS_PER_NEED = 12
"""The most findings kept per need, counting ones first (and the most external scripts named)."""
_SNIPPET_BEFORE = 40
SNIPPET_CHARS = 120
"""The longest snippet of evidence, in characters."""
_NEED_ORDER = {need: index for index, need in enumerate(ALL_NEEDS)}
_COUNTING = frozenset({"call", "guarded-call", "automatic", "use", "meta"})


@dataclass(frozen=True, kw_only=True)
class PendingNeed:
    """A need found, before its evidence is made: only the dozen kept per need ever get a snippet and a line."""

    need: str
    kind: Kind
    confidence: Confidence
    via: Via
    detail: str
    locator: Locator | None
    offset: int
    evidence: SourceLocation | None = None
    """Given instead of `locator` and `offset` when it is known already."""

    @property
    def counts(self) -> bool:
        """Whether it is a use of the need (a call, a guarded call, an automatic or metadata use), not a mention."""
        return self.kind in _COUNTING

    @property
    def sort_offset(self) -> int:
        """The offset its evidence will have (an embedded script's evidence points at its anchor)."""
        if self.evidence is not None:
            return self.evidence.offset
        if self.locator is None:
            return -1
        return self.locator.anchor if self.locator.anchor is not None else self.offset

    def finding(self) -> NeedFinding:
        """The finding, with its evidence made now."""
        evidence = self.evidence if self.locator is None else self.locator.evidence(self.offset)
        return NeedFinding(
            need=self.need,
            kind=self.kind,
            confidence=self.confidence,
            via=self.via,
            detail=self.detail,
            evidence=evidence,
        )


@dataclass
class Collected:
    """Mutable accumulator for one scan (kept private to this module)."""

    budget: HitBudget = field(default_factory=HitBudget)
    needs: list[PendingNeed] = field(default_factory=list)
    externals: list[ExternalCode] = field(default_factory=list)
    externals_left_out: int = 0
    domains: list[DomainUse] = field(default_factory=list)
    domain_keys: set[tuple[str, str]] = field(default_factory=set)
    sdks: list[SdkDetection] = field(default_factory=list)
    limits: list[ScanLimit] = field(default_factory=list)
    js_found: bool = False
    ext_apps: bool = False
    auto_resize_off: bool = False
    embedded_chars: int = 0


@dataclass(frozen=True)
class Locator:
    """Turns offsets in a (possibly decoded) text into evidence in the outer document."""

    text: str
    end: int
    anchor: int | None
    anchor_line: int

    @cached_property
    def _lines_known(self) -> tuple[list[int], list[int]]:
        """Offsets whose line is known, sorted, and their lines: counting starts from the nearest one."""
        return [0], [1]

    def line(self, offset: int) -> int:
        """The 1-based line of `offset`: line breaks are counted from the nearest offset already placed, so a few
        pieces of evidence cost a few counts, and nothing is kept per line (a page of empty lines stays small).
        """
        offsets, lines = self._lines_known
        index = bisect_left(offsets, offset)
        if index < len(offsets) and offsets[index] == offset:
            return lines[index]
        below = offsets[index - 1]
        if index < len(offsets) and offsets[index] - offset < offset - below:
            line = lines[index] - self.text.count("\n", offset, offsets[index])
        else:
            line = lines[index - 1] + self.text.count("\n", below, offset)
        offsets.insert(index, offset)
        lines.insert(index, line)
        return line

    def evidence(self, offset: int) -> SourceLocation:
        """Where `offset` is in the page (an embedded text's anchor), with a snippet of the code around it."""
        start = max(0, offset - _SNIPPET_BEFORE)
        # blank runs as one space: `str.split` splits at what the regex `\s` matches, and far faster than `re.sub`
        snippet = " ".join(self.text[start : start + SNIPPET_CHARS * 2].split())[:SNIPPET_CHARS]
        if self.anchor is not None:
            return SourceLocation(offset=self.anchor, line=self.anchor_line, snippet=snippet)
        return SourceLocation(offset=offset, line=self.line(min(offset, self.end)), snippet=snippet)


def finish(collected: Collected, scanned: int, total: int) -> WidgetScan:
    """The scan's result from what it collected, having read `scanned` of the input's `total` characters."""
    needs = [_beside_mcp_apps(f) for f in collected.needs] if collected.ext_apps else list(collected.needs)
    if not _may_hold_an_app(collected):
        needs = [_without_an_app(f) for f in needs]
    if collected.ext_apps and not collected.auto_resize_off:
        first = next(s for s in collected.sdks if s.name == "ext-apps")
        detail = "autoResize (on by default)"
        needs.append(
            PendingNeed(
                need="sizeChanged",
                kind="automatic",
                confidence="medium",
                via="ext-apps",
                detail=detail,
                locator=None,
                offset=-1,
                evidence=first.evidence,
            )
        )
    findings = [need.finding() for need in _cap(needs)]
    counted = any(f.counts and f.via != "html" for f in findings) or bool(collected.sdks)
    externals = tuple(collected.externals)
    limits = list(collected.limits)
    truncated = any(limit.code == "input_truncated" for limit in limits)
    if externals:
        detail = f"{len(externals) + collected.externals_left_out} external script(s) or module(s) were not read"
        limits.append(ScanLimit(code="external_code_not_analysed", detail=detail, offset=None))
    code_analysed = counted or (not externals and not truncated)
    complete = not externals and not any(
        limit.code in ("input_truncated", "hits_capped", "embedded_not_scanned") for limit in limits
    )
    return WidgetScan(
        findings=tuple(findings),
        code_analysed=code_analysed,
        complete=complete,
        external_code=externals,
        domains=tuple(_dedupe_domains(collected.domains)),
        sdks=tuple(_dedupe_sdks(collected.sdks)),
        limits=tuple(limits),
        scanned_chars=scanned,
        total_chars=total,
    )


def _may_hold_an_app(collected: Collected) -> bool:
    """Whether the page can hold an MCP Apps `App` whose methods its code calls: the SDK is bundled or imported,
    a look-alike wrapper defines the methods, the page posts JSON-RPC itself, or code was loaded that nobody read.
    """
    return (
        collected.ext_apps
        or bool(collected.externals)
        or any(sdk.name == "bridge-wrapper" for sdk in collected.sdks)
        or any(finding.via == "json-rpc" and finding.counts for finding in collected.needs)
    )


def _without_an_app(finding: PendingNeed) -> PendingNeed:
    """A call by an App method's name alone (`chat.sendMessage(…)`), in a page with no MCP Apps bridge anywhere, is
    another library's method: it does not count. Calls by names only the App has are high confidence and stay.
    """
    if finding.via != "ext-apps" or finding.confidence != "medium" or not finding.counts:
        return finding
    detail = f"{finding.detail} (no MCP Apps bridge in the page: another library's method)"
    return replace(finding, kind="declaration", confidence="low", detail=detail)


def _beside_mcp_apps(finding: PendingNeed) -> PendingNeed:
    """A widget that also carries the MCP Apps SDK runs without the OpenAI runtime: its reads of `window.openai`
    and its calls behind an `openai` check are host detection, so they do not make the runtime a need.
    """
    if finding.need != "openaiApps" or finding.kind not in ("use", "guarded-call"):
        return finding
    detail = f"{finding.detail} (host detection beside the MCP Apps SDK)"
    return replace(finding, kind="declaration", confidence="low", detail=detail)


def _cap(findings: list[PendingNeed]) -> list[PendingNeed]:
    """Keep at most a dozen findings per need, preferring counting ones; in need order, then by offset (counting ones
    first at one offset, else in the order found).
    """
    per_need: dict[str, int] = {}
    for finding in findings:
        per_need[finding.need] = per_need.get(finding.need, 0) + 1
    if all(count <= MAX_FINDINGS_PER_NEED for count in per_need.values()):  # nothing to leave out: one sort
        return sorted(findings, key=lambda f: (_NEED_ORDER.get(f.need, 99), f.sort_offset, not f.counts))
    kept: list[PendingNeed] = []
    per_need.clear()
    ordered = sorted(findings, key=lambda f: (_NEED_ORDER.get(f.need, 99), f.sort_offset))
    for finding in sorted(ordered, key=lambda f: (not f.counts,)):
        count = per_need.get(finding.need, 0)
        if count < MAX_FINDINGS_PER_NEED:
            kept.append(finding)
            per_need[finding.need] = count + 1
    return sorted(kept, key=lambda f: (_NEED_ORDER.get(f.need, 99), f.sort_offset))


def _dedupe_domains(domains: list[DomainUse]) -> list[DomainUse]:
    seen: set[tuple[str, str]] = set()
    kept: list[DomainUse] = []
    for use in domains:
        key = (use.domain, use.directive)
        if key not in seen:
            seen.add(key)
            kept.append(use)
    return kept


def _dedupe_sdks(sdks: list[SdkDetection]) -> list[SdkDetection]:
    seen: set[tuple[str, str]] = set()
    kept: list[SdkDetection] = []
    for sdk in sdks:
        if (sdk.name, sdk.how) not in seen:
            seen.add((sdk.name, sdk.how))
            kept.append(sdk)
    return kept
