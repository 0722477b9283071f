"""URLs a widget's JavaScript loads or connects to, code it imports, and code it embeds encoded.

CSP needs the origin of every script, style, image or frame (resource/frame domains) and of every
`fetch`, `WebSocket` or `EventSource` target (connect domains); imports from elsewhere are code
the scanner never sees. A URL only counts in a loading context, or through a variable bound to it.
"""

from __future__ import annotations

import re

from hostcompat._regex import regex
from hostcompat.engine.scan.js.context import CodeView, at_word_start, callee_before, is_literal_at
from hostcompat.engine.scan.js.lexer import (
    STRING,
    TEMPLATE,
    enclosing_open_brace,
    is_code,
    prev_code_index,
    span_index_at,
)
from hostcompat.engine.scan.js.sdk import SdkRegion, in_regions
from hostcompat.engine.scan.needs import Directive, ExternalKind
from hostcompat.engine.scan.prefilter import gate
from hostcompat.engine.scan.raw import RawEmbedded, RawExternal, RawUrl

__all__ = ["decode_js_string", "domain_of", "scan_embedded", "scan_urls"]

_URL_TAIL = regex(r"//[^\s\"'`\\]{1,2048}")
_URL_GATE = gate("//")
_SCHEMES = ("https:", "http:", "wss:", "ws:")
_QUOTES = "\"'`"
_IMPORT_SPECIFIERS = tuple(
    (regex(keyword + r"\s*([\"'])([^\"'\r\n]{1,2048})\1"), gate(keyword)) for keyword in ("import", "from")
)
_DATA_CODE = regex(r"data:(?:text|application)/(?:javascript|ecmascript|html)")
_SPECIFIER_GATE = gate("import", "from")
_CONFIG_KEY = regex(r"([\w$]+)[\"']?\s*:\s*$")
_COMPOUND_URL_KEY = regex(r"(?:[a-z0-9_$](?:Url|URL|Uri|URI|Src)|[Ee]ndpoint)$")
_PLAIN_URL_KEY = regex(r"^(?:url|uri|src)$", re.IGNORECASE)
# `word(?<!\wword)` is `\bword` spelled so that the regex engine can skip ahead to the word (a leading `\b` stops it)
_CONSTRUCTOR_BEFORE = regex(r"new(?<!\wnew)\s+[\w$.]+\s*\(\s*$")
_BOUND_CONFIG = regex(r"(?:Url|URL|Src|Uri)[\"']?\s*:\s*([A-Za-z_$][\w$]*)\s*[,}]")
_BOUND_CONFIG_GATE = gate("Url", "URL", "Src", "Uri")
_FROM_OR_IMPORT = regex(r"(?:from(?<!\wfrom)|import(?<!\wimport))\s*$")
_XHR_OPEN = regex(r"\.open\(\s*[\"'][A-Za-z]+[\"']\s*,\s*$")
_SRC_ASSIGN = regex(r"\.src\s*=\s*$")
_BOUND_TAIL = r"\s*(?:`\$\{\s*([A-Za-z_$][\w$]*)\s*\}|([A-Za-z_$][\w$]*)\s*[),;+])"
_BOUND_USES = tuple(
    (name, regex(re.escape(name) + (r"\s*=" if name == ".src" else r"\s*\(") + _BOUND_TAIL), gate(name))
    for name in ("fetch", "WebSocket", "EventSource", "import", "importScripts", "Worker", "sendBeacon", ".src")
)
_BINDING = regex(r"([A-Za-z_$][\w$]*)\s*=\s*$")
_ATOB = regex(r"atob\s*\(\s*([\"'`])")
_BLOB_PART = regex(r"Blob\s*\(\s*\[\s*([\"'`])")
_EMBEDDED = (
    (_ATOB, "base64", gate("atob")),
    (_BLOB_PART, "text", gate("Blob")),
    (_DATA_CODE, "data-url", gate("data:")),
)
_ESCAPE = regex(r"\\(u\{[0-9A-Fa-f]{1,6}\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|\r\n|[\s\S])")
_HOST = regex(r"^(?:(https?|wss?):)?//([^/?#\s]+)", re.IGNORECASE)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_CONNECT_CALLEES = {"fetch": "connect", "WebSocket": "connect", "EventSource": "connect", "sendBeacon": "connect"}
_CODE_CALLEES: dict[str, ExternalKind] = {
    "import": "dynamic-import",
    "importScripts": "worker",
    "Worker": "worker",
    "SharedWorker": "worker",
}
_CODE_KINDS: dict[str, ExternalKind] = {
    "module-import": "module-import",
    "dynamic-import": "dynamic-import",
    "worker": "worker",
}
_URL_DIRECTIVES: dict[str, Directive] = {"connect": "connect", "resource": "resource", "frame": "frame"}
_MIN_EMBEDDED_CHARS = 40
_MAX_URLS = 2000
_MAX_BINDING_DISTANCE = 32_768


def domain_of(url: str) -> str | None:
    """The origin (`scheme://host[:port]`) of an absolute or protocol-relative URL; None otherwise."""
    match = _HOST.match(url)
    if match is None:
        return None
    host = match.group(2).rsplit("@", 1)[-1].lower()
    if not host or host.startswith("$"):
        return None
    scheme = (match.group(1) or "https").lower()
    return f"{scheme}://{host}"


def scan_urls(view: CodeView, regions: tuple[SdkRegion, ...]) -> tuple[list[RawUrl], list[RawExternal]]:
    """Classified URL uses and imported code in JavaScript outside SDK bodies."""
    source = view.source
    urls: list[RawUrl] = []
    externals: list[RawExternal] = []
    bindings: dict[str, tuple[str, int]] = {}
    for match in view.budget.hits(view.finditer(_URL_TAIL, _URL_GATE)):
        start = _url_literal_start(source, match.start(), view.start)
        if start < 0 or in_regions(regions, start) or not _literal_starts_at(view, start):
            continue
        url = source[start + 1 : match.end()]
        kind = _classify(view, start)
        if (external := _CODE_KINDS.get(kind)) is not None:
            externals.append(RawExternal(url=url, kind=external, offset=start))
            if domain_of(url):
                urls.append(RawUrl(url=url, directive="resource", offset=start))
        elif (directive := _URL_DIRECTIVES.get(kind)) is not None:
            urls.append(RawUrl(url=url, directive=directive, offset=start))
        elif kind == "config":
            urls.append(RawUrl(url=url, directive="connect", offset=start, confidence="medium"))
        elif kind.startswith("bind:"):
            bindings[kind[5:]] = (url, start)
        if len(urls) + len(externals) >= _MAX_URLS:
            break
    _bound_uses(view, regions, bindings, urls, externals)
    _bare_specifiers(view, regions, externals)
    return urls, externals


def _url_literal_start(source: str, slashes: int, floor: int) -> int:
    """The opening quote of a literal starting with an absolute or protocol-relative URL whose `//` is at `slashes`.

    -1 when the `//` is not at the start of a string (a comment, a path, a URL in the middle of a text).
    Searching for the `//` first keeps the pass at memory speed over code without URLs.
    """
    for scheme in _SCHEMES:
        begin = slashes - len(scheme)
        if begin > floor and source.startswith(scheme, begin):
            return begin - 1 if source[begin - 1] in _QUOTES else -1
    return slashes - 1 if slashes > floor and source[slashes - 1] in _QUOTES else -1


def _literal_starts_at(view: CodeView, start: int) -> bool:
    index = span_index_at(view.layout, start)
    return index >= 0 and view.layout.starts[index] == start and view.layout.kinds[index] in (STRING, TEMPLATE)


def _classify(view: CodeView, literal_start: int) -> str:
    """What the code around a URL literal does with it."""
    source = view.source
    before = prev_code_index(source, view.layout, literal_start)
    if before < 0:
        return "other"
    window_start = max(view.start, before - 60)
    if source[before] == "(":
        callee = callee_before(view, literal_start)
        if callee is not None:
            name = callee[0]
            if name in _CONNECT_CALLEES:
                return _CONNECT_CALLEES[name]
            if name in _CODE_CALLEES:
                return _CODE_CALLEES[name]
        return "other"
    if source[before] == "," and _XHR_OPEN.search(source, window_start, before + 1):
        return "connect"
    if source[before] == ":":
        key = _CONFIG_KEY.search(source, window_start, before + 1)
        if key is None:
            return "other"
        if _COMPOUND_URL_KEY.search(key.group(1)):
            return "config"
        if _PLAIN_URL_KEY.match(key.group(1)) and _constructor_option(view, literal_start):
            return "config"
        return "other"
    if _FROM_OR_IMPORT.search(source, window_start, before + 1):
        return "module-import"
    if source[before] == "=":
        if _SRC_ASSIGN.search(source, window_start, before + 1):
            return "resource"
        binding = _BINDING.search(source, window_start, before + 1)
        if binding is not None and source[before - 1 : before] not in ("=", "!", "<", ">"):
            return "bind:" + binding.group(1)
    return "other"


def _constructor_option(view: CodeView, literal_start: int) -> bool:
    """Whether the literal sits in an object literal passed straight to `new Something(`."""
    source = view.source
    brace = enclosing_open_brace(source, view.layout, literal_start, 2048)
    if brace < 0:
        return False
    paren = prev_code_index(source, view.layout, brace)
    if paren < 0 or source[paren] != "(":
        return False
    return _CONSTRUCTOR_BEFORE.search(source, max(view.start, paren - 80), paren + 1) is not None


def _bound_uses(
    view: CodeView,
    regions: tuple[SdkRegion, ...],
    bindings: dict[str, tuple[str, int]],
    urls: list[RawUrl],
    externals: list[RawExternal],
) -> None:
    """`fetch(API)`, `script.src = \\`${CDN}/x.js\\`` where the name was bound to a URL literal."""
    if not bindings:
        return
    source = view.source
    for name, pattern, needed in _BOUND_USES:
        for match in view.budget.hits(view.finditer(pattern, needed)):
            bound = bindings.get(match.group(1) or match.group(2))
            if bound is None or not is_code(view.layout, match.start()) or in_regions(regions, match.start()):
                continue
            if name != ".src" and not at_word_start(source, match.start()):
                continue
            if not 0 < match.start() - bound[1] <= _MAX_BINDING_DISTANCE:
                continue
            url = bound[0]
            if name in _CODE_CALLEES:
                externals.append(RawExternal(url=url, kind=_CODE_CALLEES[name], offset=match.start()))
                urls.append(RawUrl(url=url, directive="resource", offset=match.start()))
            elif name in _CONNECT_CALLEES:
                urls.append(RawUrl(url=url, directive="connect", offset=match.start()))
            else:
                urls.append(RawUrl(url=url, directive="resource", offset=match.start()))
    for match in view.budget.hits(view.finditer(_BOUND_CONFIG, _BOUND_CONFIG_GATE)):
        bound = bindings.get(match.group(1))
        before = source[match.start() - 1] if match.start() > 0 else ""
        if bound is None or not (before.isalnum() or before in ("_", "$")):
            continue
        if not is_code(view.layout, match.start()) or in_regions(regions, match.start()):
            continue
        if 0 < match.start() - bound[1] <= _MAX_BINDING_DISTANCE * 8:
            urls.append(RawUrl(url=bound[0], directive="connect", offset=match.start(), confidence="medium"))


def _bare_specifiers(view: CodeView, regions: tuple[SdkRegion, ...], externals: list[RawExternal]) -> None:
    """`import x from "./app.js"` or `from "react"`: module code that must come from elsewhere."""
    source = view.source
    if not view.may_match(_SPECIFIER_GATE):
        return
    specifiers = (m for pattern, needed in _IMPORT_SPECIFIERS for m in view.finditer(pattern, needed))
    for match in view.budget.hits(specifiers):
        spec = match.group(2)
        if spec.startswith(("http:", "https:", "//", "data:")) or in_regions(regions, match.start()):
            continue
        if not at_word_start(source, match.start()) or not is_code(view.layout, match.start()):
            continue
        if not is_literal_at(view, match.start(1), match.end()):
            continue
        before = prev_code_index(source, view.layout, match.start())
        if before >= 0 and source[before] == ".":
            continue
        externals.append(RawExternal(url=spec, kind="module-import", offset=match.start(1)))


def scan_embedded(view: CodeView) -> list[RawEmbedded]:
    """Code embedded as text: `atob("<base64>")`, `new Blob(["<code>"])`, `import("data:...")`."""
    found: list[RawEmbedded] = []
    source = view.source
    for pattern, kind, needed in _EMBEDDED:
        for match in view.budget.hits(view.finditer(pattern, needed)):
            literal_start = match.start(1) if kind != "data-url" else match.start() - 1
            if literal_start < view.start or source[literal_start] not in _QUOTES:
                continue
            in_code = at_word_start(source, match.start()) and is_code(view.layout, match.start())
            if kind != "data-url" and not in_code:
                continue
            index = span_index_at(view.layout, literal_start)
            if index < 0 or view.layout.starts[index] != literal_start:
                continue
            raw = source[literal_start + 1 : view.layout.ends[index] - 1]
            if len(raw) < _MIN_EMBEDDED_CHARS or "${" in raw:
                continue
            value = decode_js_string(raw)
            if kind == "data-url":
                found.append(RawEmbedded(offset=literal_start, payload=value, base64=False, media="data-url"))
            else:
                found.append(RawEmbedded(offset=literal_start, payload=value, base64=kind == "base64", media="js"))
    return found


def decode_js_string(raw: str) -> str:
    """The value of a JavaScript string body (escapes resolved; unknown escapes keep their character)."""
    if "\\" not in raw:
        return raw
    return _ESCAPE.sub(_unescape, raw)


def _unescape(match: re.Match[str]) -> str:
    body = match.group(1)
    if body.startswith("u{"):
        return _char(int(body[2:-1], 16))
    if body[0] in "ux" and len(body) > 1:
        return _char(int(body[1:], 16))
    if body in ("\n", "\r\n", "\r", "\u2028", "\u2029"):
        return ""
    return _SIMPLE_ESCAPES.get(body, body)


def _char(code: int) -> str:
    return chr(code) if code <= 0x10FFFF else "\ufffd"
