"""The accurate widget scanner: which host capabilities a widget's own code uses, with evidence.

Unlike a presence test on method names (which every bundled SDK satisfies), it reads HTML and
JavaScript structurally: calls by the app count, the SDK's definitions and wiring do not, mentions
in comments and strings do not, guarded calls say so, and code it could not read is reported as
not analysed instead of clean. Linear in the input, bounded by a size budget.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from hostcompat._regex import regex
from hostcompat.engine.scan.budget import scan_deadline, ticking
from hostcompat.engine.scan.collected import (
    MAX_FINDINGS_PER_NEED,
    SNIPPET_CHARS,
    Collected,
    Locator,
    PendingNeed,
    finish,
)
from hostcompat.engine.scan.embedded import decode_base64_text, decode_data_url, looks_like_code
from hostcompat.engine.scan.html import split_html
from hostcompat.engine.scan.js.scan import JsScan, scan_js
from hostcompat.engine.scan.js.urls import domain_of
from hostcompat.engine.scan.model import (
    DomainUse,
    ExternalCode,
    ScanLimit,
    SdkDetection,
    SourceLocation,
    WidgetScan,
)
from hostcompat.engine.scan.needs import Directive
from hostcompat.engine.scan.raw import RawEmbedded, RawExternal, RawSdk, RawUrl
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireJSON

__all__ = ["DEFAULT_MAX_SCAN_CHARS", "scan_deadline", "scan_widget_content", "scan_widget_source"]

DEFAULT_MAX_SCAN_CHARS = 16 * 1024 * 1024
"""Input beyond this many characters is not scanned (a `input_truncated` limit says so)."""

_MAX_EMBED_DEPTH = 2
_MAX_EMBEDDED_CHARS = 8 * 1024 * 1024
_MAX_EXTERNALS = 1000
_NEWLINE = regex("\n")
_NOT_BLANK = regex(r"\S")
_LEADING_BLANK = regex("[\ufeff \t\r\n]+")
_JS_MEDIA = ("javascript", "ecmascript", "module")
_URI_LIST = "text/uri-list"


def scan_widget_source(html: str, *, max_chars: int = DEFAULT_MAX_SCAN_CHARS) -> WidgetScan:
    """Scan a widget's HTML (or a bare script) and report what it needs of a host, with evidence."""
    if not isinstance(html, str):
        raise InvalidInput("widget source must be a str", value=html)
    if not isinstance(max_chars, int) or isinstance(max_chars, bool) or max_chars <= 0:
        raise InvalidInput("max_chars must be a positive int", value=max_chars)
    collected = Collected()
    end = min(len(html), max_chars)
    if end < len(html):
        detail = f"input is {len(html)} characters; only the first {end} were scanned"
        collected.limits.append(ScanLimit(code="input_truncated", detail=detail, offset=end))
    locator = Locator(html, end, None, 0)
    _scan_text(html, end, locator, collected, depth=0)
    return finish(collected, scanned=end, total=len(html))


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
            evidence = SourceLocation(offset=offset, line=number, snippet=url[:SNIPPET_CHARS])
            externals.append(ExternalCode(url=url[:2048], kind="iframe-url", domain=domain_of(url), evidence=evidence))
        offset += len(line)
        if len(externals) >= MAX_FINDINGS_PER_NEED:
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


def _scan_text(text: str, end: int, locator: Locator, collected: Collected, depth: int) -> None:
    """Scan `text[:end]` as HTML when it starts with markup, else as JavaScript."""
    first = _LEADING_BLANK.match(text, 0, end)
    start = first.end() if first else 0
    if text[start : min(start + 1, end)] != "<":  # one character: a slice to `end` copied the whole text
        _scan_script(text, 0, end, locator, collected, depth)
        return
    parts = split_html(text, end)
    for block in parts.scripts:
        if block.kind == "importmap":
            _import_map(text[block.code_start : block.code_end], block.code_start, locator, collected)
        elif block.src is not None:
            _script_src(block.src, block.code_start, locator, collected, depth)
        elif block.decoded is not None:
            inner = Locator(
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
            PendingNeed(
                need=need,
                kind="use",
                confidence="high",
                via="html",
                detail=url.url[:200],
                locator=locator,
                offset=url.offset,
            )
        )


def _domain(collected: Collected, domain: str, directive: Directive, url: str, locator: Locator, offset: int) -> None:
    """Record the first use of `domain` under `directive` (later ones add nothing: the report keeps the first)."""
    if (domain, directive) not in collected.domain_keys:
        collected.domain_keys.add((domain, directive))
        collected.domains.append(
            DomainUse(domain=domain, directive=directive, url=url, evidence=locator.evidence(offset))
        )


def _line(locator: Locator, offset: int) -> int:
    return locator.evidence(offset).line


def _script_src(src: str, offset: int, locator: Locator, collected: Collected, depth: int) -> None:
    evidence = locator.evidence(offset)
    if src[:5].lower() == "data:":
        _embedded(RawEmbedded(offset=offset, payload=src, base64=False, media="data-url"), locator, collected, depth)
        return
    domain = domain_of(src)
    _add_external(collected, ExternalCode(url=src, kind="script-src", domain=domain, evidence=evidence))
    if domain is not None:
        _domain(collected, domain, "resource", src, locator, offset)
        collected.needs.append(
            PendingNeed(
                need="cspResourceDomains",
                kind="use",
                confidence="high",
                via="html",
                detail=src[:200],
                locator=locator,
                offset=offset,
            )
        )


def _import_map(content: str, offset: int, locator: Locator, collected: Collected) -> None:
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


def _scan_script(text: str, start: int, end: int, locator: Locator, collected: Collected, depth: int) -> None:
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


def _collect_js(result: JsScan, locator: Locator, collected: Collected) -> None:
    collected.ext_apps = collected.ext_apps or result.ext_apps_present
    collected.auto_resize_off = collected.auto_resize_off or result.auto_resize_off
    collected.needs.extend(
        PendingNeed(
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


def _note_capped(collected: Collected) -> None:
    """Say once that the scan's hit or stretch budget left something out."""
    if not any(limit.code == "hits_capped" for limit in collected.limits):
        collected.limits.append(
            ScanLimit(code="hits_capped", detail="too many candidate names; later ones were skipped", offset=None)
        )


def _sdk(raw: RawSdk, locator: Locator) -> SdkDetection:
    return SdkDetection(
        name=raw.name, how=raw.how, version=None, detail=raw.detail, evidence=locator.evidence(raw.offset)
    )


def _url(raw: RawUrl, locator: Locator, collected: Collected) -> None:
    domain = domain_of(raw.url)
    if domain is None:
        return
    _domain(collected, domain, raw.directive, raw.url, locator, raw.offset)
    need = {"connect": "cspConnectDomains", "frame": "cspFrameDomains"}.get(raw.directive, "cspResourceDomains")
    collected.needs.append(
        PendingNeed(
            need=need,
            kind="use",
            confidence=raw.confidence,
            via="js",
            detail=raw.url[:200],
            locator=locator,
            offset=raw.offset,
        )
    )


def _external(raw: RawExternal, locator: Locator, collected: Collected) -> None:
    if len(collected.externals) >= _MAX_EXTERNALS:  # counted, without making its evidence
        collected.externals_left_out += 1
        return
    _add_external(
        collected,
        ExternalCode(url=raw.url, kind=raw.kind, domain=domain_of(raw.url), evidence=locator.evidence(raw.offset)),
    )


def _add_external(collected: Collected, external: ExternalCode) -> None:
    if len(collected.externals) < _MAX_EXTERNALS:
        collected.externals.append(external)
    else:
        collected.externals_left_out += 1


def _embedded(raw: RawEmbedded, locator: Locator, collected: Collected, depth: int) -> None:
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
    inner = Locator(text, len(text), anchor, _line(locator, raw.offset))
    if "html" in media:
        _scan_text(text, len(text), inner, collected, depth + 1)
    elif any(kind in media for kind in _JS_MEDIA) or text.lstrip()[:1] != "<":
        _scan_script(text, 0, len(text), inner, collected, depth + 1)
    else:
        _scan_text(text, len(text), inner, collected, depth + 1)
