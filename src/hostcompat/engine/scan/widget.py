"""The accurate widget scanner: which host capabilities a widget's own code uses, with evidence.

Unlike a presence test on method names (which every bundled SDK satisfies), it reads HTML and
JavaScript structurally: calls by the app count, the SDK's definitions and wiring do not, mentions
in comments and strings do not, guarded calls say so, and code it could not read is reported as
not analysed instead of clean. Linear in the input, bounded by a size budget.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property

from hostcompat.engine.scan.budget import HitBudget, scan_deadline, ticking
from hostcompat.engine.scan.embedded import decode_base64_text, decode_data_url, looks_like_code
from hostcompat.engine.scan.html import split_html
from hostcompat.engine.scan.js.scan import JsScan, scan_js
from hostcompat.engine.scan.js.urls import domain_of
from hostcompat.engine.scan.model import (
    DomainUse,
    ExternalCode,
    NeedFinding,
    ScanLimit,
    SdkDetection,
    SourceLocation,
    WidgetScan,
)
from hostcompat.engine.scan.needs import ALL_NEEDS, Confidence, Directive, Kind, Via
from hostcompat.engine.scan.raw import RawEmbedded, RawExternal, RawSdk, RawUrl
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireJSON

__all__ = ["DEFAULT_MAX_SCAN_CHARS", "scan_deadline", "scan_widget_content", "scan_widget_source"]

DEFAULT_MAX_SCAN_CHARS = 16 * 1024 * 1024
"""Input beyond this many characters is not scanned (a `input_truncated` limit says so)."""

_MAX_EMBED_DEPTH = 2
_MAX_EMBEDDED_CHARS = 8 * 1024 * 1024
_MAX_FINDINGS_PER_NEED = 12
_MAX_EXTERNALS = 1000
_SNIPPET_BEFORE = 40
_SNIPPET_CHARS = 120
_BLANK = re.compile(r"\s+")
_NEWLINE = re.compile("\n")
_NOT_BLANK = re.compile(r"\S")
_LEADING_BLANK = re.compile("[\ufeff \t\r\n]+")
_JS_MEDIA = ("javascript", "ecmascript", "module")
_URI_LIST = "text/uri-list"
_NEED_ORDER = {need: index for index, need in enumerate(ALL_NEEDS)}
_COUNTING = frozenset({"call", "guarded-call", "automatic", "use", "meta"})


@dataclass(frozen=True, kw_only=True)
class _Need:
    """A need found, before its evidence is made: only the dozen kept per need ever get a snippet and a line."""

    need: str
    kind: Kind
    confidence: Confidence
    via: Via
    detail: str
    locator: _Locator | None
    offset: int
    evidence: SourceLocation | None = None
    """Given instead of `locator` and `offset` when it is known already."""

    @property
    def counts(self) -> bool:
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
class _Collected:
    """Mutable accumulator for one scan (kept private to this module)."""

    budget: HitBudget = field(default_factory=HitBudget)
    needs: list[_Need] = field(default_factory=list)
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
class _Locator:
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
        start = max(0, offset - _SNIPPET_BEFORE)
        snippet = _BLANK.sub(" ", self.text[start : start + _SNIPPET_CHARS * 2]).strip()[:_SNIPPET_CHARS]
        if self.anchor is not None:
            return SourceLocation(offset=self.anchor, line=self.anchor_line, snippet=snippet)
        return SourceLocation(offset=offset, line=self.line(min(offset, self.end)), snippet=snippet)


def scan_widget_source(html: str, *, max_chars: int = DEFAULT_MAX_SCAN_CHARS) -> WidgetScan:
    """Scan a widget's HTML (or a bare script) and report what it needs of a host, with evidence."""
    if not isinstance(html, str):
        raise InvalidInput("widget source must be a str", value=html)
    if not isinstance(max_chars, int) or isinstance(max_chars, bool) or max_chars <= 0:
        raise InvalidInput("max_chars must be a positive int", value=max_chars)
    collected = _Collected()
    end = min(len(html), max_chars)
    if end < len(html):
        detail = f"input is {len(html)} characters; only the first {end} were scanned"
        collected.limits.append(ScanLimit(code="input_truncated", detail=detail, offset=end))
    locator = _Locator(html, end, None, 0)
    _scan_text(html, end, locator, collected, depth=0)
    return _finish(collected, scanned=end, total=len(html))


def scan_widget_content(content: WireJSON, *, max_chars: int = DEFAULT_MAX_SCAN_CHARS) -> WidgetScan:
    """Scan one `resources/read` content item: its `text`, else its base64 `blob`."""
    if not isinstance(content, Mapping):
        raise InvalidInput("a resource content item must be a mapping", value=content)
    text = content.get("text")
    mime = content.get("mimeType")
    if isinstance(text, str) and isinstance(mime, str) and mime.split(";")[0].strip().lower() == _URI_LIST:
        return _external_page(text[:max_chars])
    if isinstance(text, str):
        return scan_widget_source(text, max_chars=max_chars)
    blob = content.get("blob")
    if not isinstance(blob, str):
        raise InvalidInput("a resource content item needs a str `text` or `blob`", value=content)
    decoded = decode_base64_text(blob, max_chars)
    if decoded is None:
        limit = ScanLimit(
            code="blob_undecodable", detail="the blob is not base64-encoded UTF-8 text; nothing was analysed", offset=0
        )
        return WidgetScan(
            findings=(),
            code_analysed=False,
            complete=False,
            external_code=(),
            domains=(),
            sdks=(),
            limits=(limit,),
            scanned_chars=0,
            total_chars=len(blob),
        )
    scan = scan_widget_source(decoded, max_chars=max_chars)
    return scan if len(blob) <= (max_chars // 3 + 1) * 4 else _truncated_blob(scan, len(blob))


def _external_page(text: str) -> WidgetScan:
    """An mcp-ui `text/uri-list` resource: the widget is a page elsewhere, so nothing of its code is seen."""
    externals: list[ExternalCode] = []
    offset = 0
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        url = line.strip()
        if url and not url.startswith("#"):
            evidence = SourceLocation(offset=offset, line=number, snippet=url[:_SNIPPET_CHARS])
            externals.append(ExternalCode(url=url[:2048], kind="iframe-url", domain=domain_of(url), evidence=evidence))
        offset += len(line)
        if len(externals) >= _MAX_FINDINGS_PER_NEED:
            break
    detail = f"the widget is an external page ({len(externals)} URL(s)); its code was not read"
    limit = ScanLimit(code="external_code_not_analysed", detail=detail, offset=None)
    return WidgetScan(
        findings=(),
        code_analysed=False,
        complete=False,
        external_code=tuple(externals),
        domains=(),
        sdks=(),
        limits=(limit,),
        scanned_chars=len(text),
        total_chars=len(text),
    )


def _truncated_blob(scan: WidgetScan, blob_chars: int) -> WidgetScan:
    limit = ScanLimit(
        code="input_truncated", detail=f"the blob has {blob_chars} characters; only its start was decoded", offset=None
    )
    return WidgetScan(
        findings=scan.findings,
        code_analysed=scan.code_analysed,
        complete=False,
        external_code=scan.external_code,
        domains=scan.domains,
        sdks=scan.sdks,
        limits=(*scan.limits, limit),
        scanned_chars=scan.scanned_chars,
        total_chars=scan.total_chars,
    )


def _scan_text(text: str, end: int, locator: _Locator, collected: _Collected, depth: int) -> None:
    """Scan `text[:end]` as HTML when it starts with markup, else as JavaScript."""
    first = _LEADING_BLANK.match(text, 0, end)
    if text[first.end() if first else 0 : end][:1] != "<":
        _scan_script(text, 0, end, locator, collected, depth)
        return
    parts = split_html(text, end)
    for block in parts.scripts:
        if block.kind == "importmap":
            _import_map(text[block.code_start : block.code_end], block.code_start, locator, collected)
        elif block.src is not None:
            _script_src(block.src, block.code_start, locator, collected, depth)
        elif block.decoded is not None:
            inner = _Locator(
                block.decoded, len(block.decoded), locator.anchor or block.code_start, _line(locator, block.code_start)
            )
            _scan_script(block.decoded, 0, len(block.decoded), inner, collected, depth)
        else:
            _scan_script(text, block.code_start, block.code_end, locator, collected, depth)
    for url in ticking(parts.urls):
        domain = domain_of(url.url)
        if domain is None:
            continue
        _domain(collected, domain, url.directive, url.url, locator, url.offset)
        need = "cspFrameDomains" if url.directive == "frame" else "cspResourceDomains"
        collected.needs.append(
            _Need(
                need=need,
                kind="use",
                confidence="high",
                via="html",
                detail=url.url[:200],
                locator=locator,
                offset=url.offset,
            )
        )


def _domain(collected: _Collected, domain: str, directive: Directive, url: str, locator: _Locator, offset: int) -> None:
    """Record the first use of `domain` under `directive` (later ones add nothing: the report keeps the first)."""
    if (domain, directive) not in collected.domain_keys:
        collected.domain_keys.add((domain, directive))
        collected.domains.append(
            DomainUse(domain=domain, directive=directive, url=url, evidence=locator.evidence(offset))
        )


def _line(locator: _Locator, offset: int) -> int:
    return locator.evidence(offset).line


def _script_src(src: str, offset: int, locator: _Locator, collected: _Collected, depth: int) -> None:
    evidence = locator.evidence(offset)
    if src[:5].lower() == "data:":
        _embedded(RawEmbedded(offset=offset, payload=src, base64=False, media="data-url"), locator, collected, depth)
        return
    domain = domain_of(src)
    _add_external(collected, ExternalCode(url=src, kind="script-src", domain=domain, evidence=evidence))
    if domain is not None:
        _domain(collected, domain, "resource", src, locator, offset)
        collected.needs.append(
            _Need(
                need="cspResourceDomains",
                kind="use",
                confidence="high",
                via="html",
                detail=src[:200],
                locator=locator,
                offset=offset,
            )
        )


def _import_map(content: str, offset: int, locator: _Locator, collected: _Collected) -> None:
    evidence = locator.evidence(offset)
    try:
        parsed = json.loads(content)
    except ValueError:
        collected.limits.append(
            ScanLimit(code="importmap_invalid", detail="an import map is not valid JSON", offset=offset)
        )
        return
    for url in _import_map_urls(parsed):
        domain = domain_of(url)
        _add_external(collected, ExternalCode(url=url, kind="importmap", domain=domain, evidence=evidence))
        if domain is not None:
            _domain(collected, domain, "resource", url, locator, offset)


def _import_map_urls(parsed: object) -> list[str]:
    if not isinstance(parsed, dict):
        return []
    urls: list[str] = []
    tables = [parsed.get("imports")]
    scopes = parsed.get("scopes")
    if isinstance(scopes, dict):
        tables.extend(scopes.values())
    for table in tables:
        if isinstance(table, dict):
            urls.extend(v for v in table.values() if isinstance(v, str))
    return urls[:200]


def _scan_script(text: str, start: int, end: int, locator: _Locator, collected: _Collected, depth: int) -> None:
    if _NOT_BLANK.search(text, start, end) is None:
        return
    collected.js_found = True
    if not collected.budget.stretch():
        _note_capped(collected)
        return
    result = scan_js(text, start, end, collected.budget)
    _collect_js(result, locator, collected)
    for embedded in result.embedded:
        _embedded(embedded, locator, collected, depth)


def _collect_js(result: JsScan, locator: _Locator, collected: _Collected) -> None:
    collected.ext_apps = collected.ext_apps or result.ext_apps_present
    collected.auto_resize_off = collected.auto_resize_off or result.auto_resize_off
    collected.needs.extend(
        _Need(
            need=r.need,
            kind=r.kind,
            confidence=r.confidence,
            via=r.via,
            detail=r.detail,
            locator=locator,
            offset=r.offset,
        )
        for r in result.needs
    )
    collected.sdks.extend(_sdk(raw, locator) for raw in result.sdks)
    for url in result.urls:
        _url(url, locator, collected)
    for external in result.externals:
        _external(external, locator, collected)
    if result.hits_capped:
        _note_capped(collected)


def _note_capped(collected: _Collected) -> None:
    """Say once that the scan's hit or stretch budget left something out."""
    if not any(limit.code == "hits_capped" for limit in collected.limits):
        collected.limits.append(
            ScanLimit(code="hits_capped", detail="too many candidate names; later ones were skipped", offset=None)
        )


def _sdk(raw: RawSdk, locator: _Locator) -> SdkDetection:
    return SdkDetection(
        name=raw.name, how=raw.how, version=None, detail=raw.detail, evidence=locator.evidence(raw.offset)
    )


def _url(raw: RawUrl, locator: _Locator, collected: _Collected) -> None:
    domain = domain_of(raw.url)
    if domain is None:
        return
    _domain(collected, domain, raw.directive, raw.url, locator, raw.offset)
    need = {"connect": "cspConnectDomains", "frame": "cspFrameDomains"}.get(raw.directive, "cspResourceDomains")
    collected.needs.append(
        _Need(
            need=need,
            kind="use",
            confidence=raw.confidence,
            via="js",
            detail=raw.url[:200],
            locator=locator,
            offset=raw.offset,
        )
    )


def _external(raw: RawExternal, locator: _Locator, collected: _Collected) -> None:
    if len(collected.externals) >= _MAX_EXTERNALS:  # counted, without making its evidence
        collected.externals_left_out += 1
        return
    _add_external(
        collected,
        ExternalCode(url=raw.url, kind=raw.kind, domain=domain_of(raw.url), evidence=locator.evidence(raw.offset)),
    )


def _add_external(collected: _Collected, external: ExternalCode) -> None:
    if len(collected.externals) < _MAX_EXTERNALS:
        collected.externals.append(external)
    else:
        collected.externals_left_out += 1


def _embedded(raw: RawEmbedded, locator: _Locator, collected: _Collected, depth: int) -> None:
    """Decode and scan embedded code one level deeper; report what could not be read."""
    budget = _MAX_EMBEDDED_CHARS - collected.embedded_chars
    if depth >= _MAX_EMBED_DEPTH or budget <= 0:
        collected.limits.append(
            ScanLimit(code="embedded_not_scanned", detail="embedded code over the depth or size budget", offset=None)
        )
        return
    text: str | None
    media = "text/javascript"
    if raw.media == "data-url":
        decoded = decode_data_url(raw.payload, budget)
        if decoded is None:
            return
        media, text = decoded
    elif raw.base64:
        text = decode_base64_text(raw.payload, budget)
    else:
        text = raw.payload[:budget]
    if text is None or not looks_like_code(text):
        return
    collected.embedded_chars += len(text)
    anchor = locator.anchor if locator.anchor is not None else raw.offset
    inner = _Locator(text, len(text), anchor, _line(locator, raw.offset))
    if "html" in media:
        _scan_text(text, len(text), inner, collected, depth + 1)
    elif any(kind in media for kind in _JS_MEDIA) or text.lstrip()[:1] != "<":
        _scan_script(text, 0, len(text), inner, collected, depth + 1)
    else:
        _scan_text(text, len(text), inner, collected, depth + 1)


def _finish(collected: _Collected, scanned: int, total: int) -> WidgetScan:
    needs = [_beside_mcp_apps(f) for f in collected.needs] if collected.ext_apps else list(collected.needs)
    if not _may_hold_an_app(collected):
        needs = [_without_an_app(f) for f in needs]
    if collected.ext_apps and not collected.auto_resize_off:
        first = next(s for s in collected.sdks if s.name == "ext-apps")
        detail = "autoResize (on by default)"
        needs.append(
            _Need(
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
    findings = [
        need.finding() for need in _cap(sorted(needs, key=lambda f: (_NEED_ORDER.get(f.need, 99), f.sort_offset)))
    ]
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


def _may_hold_an_app(collected: _Collected) -> bool:
    """Whether the page can hold an MCP Apps `App` whose methods its code calls: the SDK is bundled or imported,
    a look-alike wrapper defines the methods, the page posts JSON-RPC itself, or code was loaded that nobody read.
    """
    return (
        collected.ext_apps
        or bool(collected.externals)
        or any(sdk.name == "bridge-wrapper" for sdk in collected.sdks)
        or any(finding.via == "json-rpc" and finding.counts for finding in collected.needs)
    )


def _without_an_app(finding: _Need) -> _Need:
    """A call by an App method's name alone (`chat.sendMessage(…)`), in a page with no MCP Apps bridge anywhere, is
    another library's method: it does not count. Calls by names only the App has are high confidence and stay.
    """
    if finding.via != "ext-apps" or finding.confidence != "medium" or not finding.counts:
        return finding
    detail = f"{finding.detail} (no MCP Apps bridge in the page: another library's method)"
    return replace(finding, kind="declaration", confidence="low", detail=detail)


def _beside_mcp_apps(finding: _Need) -> _Need:
    """A widget that also carries the MCP Apps SDK runs without the OpenAI runtime: its reads of `window.openai`
    and its calls behind an `openai` check are host detection, so they do not make the runtime a need.
    """
    if finding.need != "openaiApps" or finding.kind not in ("use", "guarded-call"):
        return finding
    detail = f"{finding.detail} (host detection beside the MCP Apps SDK)"
    return replace(finding, kind="declaration", confidence="low", detail=detail)


def _cap(findings: list[_Need]) -> list[_Need]:
    """Keep at most a dozen findings per need, preferring counting ones."""
    kept: list[_Need] = []
    per_need: dict[str, int] = {}
    for finding in sorted(findings, key=lambda f: (not f.counts,)):
        count = per_need.get(finding.need, 0)
        if count < _MAX_FINDINGS_PER_NEED:
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
