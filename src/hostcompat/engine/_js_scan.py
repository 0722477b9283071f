"""Find the app's own bridge calls in one stretch of JavaScript (ext-apps App API and raw JSON-RPC).

Technique: a multi-pattern prefilter over the text finds every candidate name or method literal;
the lexer's layout discards hits inside comments and strings; a local check around each hit tells
a call (`app.openLink(`) from a definition (`openLink(e,t){`), and bodies that define three or
more bridge methods (the bundled SDK, or a hand-written wrapper) are discounted as wiring.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hostcompat.engine._browser import scan_permission_apis
from hostcompat.engine._guards import is_guarded
from hostcompat.engine._js_context import (
    CodeView,
    at_word_start,
    callee_before,
    enclosing_function,
    identifier_before,
    is_literal_at,
    member_use,
    object_text_around,
)
from hostcompat.engine._js_lexer import (
    STRING,
    TEMPLATE,
    is_code,
    lex_js,
    matching_close_brace,
    next_code_index,
    prev_code_index,
    span_index_at,
)
from hostcompat.engine._js_styles import scan_mcp_ui, scan_openai
from hostcompat.engine._raw import RawEmbedded, RawExternal, RawNeed, RawSdk, RawUrl
from hostcompat.engine._sdk import SdkRegion, find_sdk_regions, in_regions
from hostcompat.engine._urls import scan_embedded, scan_urls
from hostcompat.engine.needs import (
    APP_GUARD_KEYS,
    APP_HANDLER_PROPERTIES,
    APP_METHOD_NEEDS,
    DISTINCTIVE_APP_METHODS,
    HOST_TO_VIEW_TOOL_METHODS,
    WIRE_METHOD_NEEDS,
    Confidence,
)

__all__ = ["JsScan", "scan_js"]

_API_NAMES = re.compile(
    "(" + "|".join(sorted([*APP_METHOD_NEEDS, *APP_HANDLER_PROPERTIES], key=len, reverse=True)) + r")(?![\w$])"
)
_WIRE_LITERALS = re.compile(
    r"([\"'`])(" + "|".join(re.escape(m) for m in sorted(WIRE_METHOD_NEEDS, key=len, reverse=True)) + r")\1"
)
_POST_MESSAGE = re.compile(r"postMessage(?![\w$])")
_AUTO_RESIZE_OFF = re.compile(r"autoResize[\"']?\s*:\s*(?:!1|false|0)(?![\w$])")
_EXT_APPS_PACKAGE = "@modelcontextprotocol/ext-apps"
_METHOD_KEY = re.compile(r"(?:\bmethod|[\"']method[\"'])\s*$")
_JSONRPC_KEY = re.compile(r"\bjsonrpc\b")
_SENDER_NAME = re.compile(r"^(?:send|request|rpc|call|notify|post|invoke|emit|dispatch)", re.IGNORECASE)
_GUARD_PATTERNS: dict[str, re.Pattern[str]] = {}
_MAX_HITS = 100_000
_MAX_WRAPPER_BODY = 65_536
_MAX_WRAPPER_REFERENCES = 500


@dataclass(frozen=True)
class JsScan:
    """Everything one JavaScript stretch told the scanner."""

    needs: tuple[RawNeed, ...]
    urls: tuple[RawUrl, ...]
    externals: tuple[RawExternal, ...]
    sdks: tuple[RawSdk, ...]
    embedded: tuple[RawEmbedded, ...]
    ext_apps_present: bool
    auto_resize_off: bool
    hits_capped: bool


def scan_js(source: str, start: int, end: int) -> JsScan:
    """Scan `source[start:end]` as JavaScript; every offset in the result is absolute in `source`."""
    view = CodeView(source, lex_js(source, start, end))
    needs: list[RawNeed] = []
    sdks: list[RawSdk] = []
    uses, capped = _api_uses(view)
    definitions = [(at, name) for at, name, role, _ in uses if role == "definition" and name in APP_METHOD_NEEDS]
    regions = find_sdk_regions(view, definitions)
    for region in regions:
        if region.ext_apps:
            detail = "App class defining " + ", ".join(region.methods)
            sdks.append(RawSdk("ext-apps", "bundled", detail, region.start))
    imported = _ext_apps_import(view)
    if imported is not None:
        sdks.append(RawSdk("ext-apps", "imported", "module import of @modelcontextprotocol/ext-apps", imported))
    ext_apps_present = bool(sdks)
    needs.extend(_app_calls(view, uses, regions, ext_apps_present))
    senders = _sender_functions(view, regions)
    needs.extend(_wire_calls(view, regions, senders))
    openai_needs, openai_sdk = scan_openai(view, regions)
    needs.extend(openai_needs)
    sdks.extend(openai_sdk)
    ui_needs, ui_sdk = scan_mcp_ui(view, regions)
    needs.extend(ui_needs)
    sdks.extend(ui_sdk)
    needs.extend(scan_permission_apis(view, regions))
    urls, externals = scan_urls(view, regions)
    auto_resize_off = any(
        at_word_start(source, m.start()) and is_code(view.layout, m.start()) and not in_regions(regions, m.start())
        for m in _AUTO_RESIZE_OFF.finditer(source, start, end)
    )
    return JsScan(
        tuple(needs),
        tuple(urls),
        tuple(externals),
        tuple(sdks),
        tuple(scan_embedded(view)),
        ext_apps_present,
        auto_resize_off,
        capped,
    )


def _api_uses(view: CodeView) -> tuple[list[tuple[int, str, str, str]], bool]:
    """Every App-method name in code: (offset, name, role, receiver)."""
    uses: list[tuple[int, str, str, str]] = []
    for match in _API_NAMES.finditer(view.source, view.layout.start, view.layout.end):
        if not at_word_start(view.source, match.start()) or not is_code(view.layout, match.start()):
            continue
        role, receiver = member_use(view, match.start(), match.end())
        uses.append((match.start(), match.group(1), role, receiver))
        if len(uses) >= _MAX_HITS:
            return uses, True
    return uses, False


def _ext_apps_import(view: CodeView) -> int | None:
    """Offset of an import of the ext-apps package (bare, or from a CDN), if any."""
    source = view.source
    at = source.find(_EXT_APPS_PACKAGE, view.layout.start, view.layout.end)
    while at >= 0:
        index = span_index_at(view.layout, at)
        if index >= 0 and view.layout.kinds[index] in (STRING, TEMPLATE):
            literal_start = view.layout.starts[index]
            before = prev_code_index(source, view.layout, literal_start)
            if before >= 0 and (identifier_before(view, before) in ("from", "import") or source[before] == "("):
                return literal_start
        at = source.find(_EXT_APPS_PACKAGE, at + 1, view.layout.end)
    return None


def _app_calls(
    view: CodeView, uses: list[tuple[int, str, str, str]], regions: tuple[SdkRegion, ...], ext_apps: bool
) -> list[RawNeed]:
    found: list[RawNeed] = []
    for offset, name, role, receiver in uses:
        if in_regions(regions, offset):
            continue
        if name in APP_HANDLER_PROPERTIES:
            if role == "assign":
                found.append(RawNeed(APP_HANDLER_PROPERTIES[name], "use", "medium", "ext-apps", name, offset))
            continue
        need = APP_METHOD_NEEDS[name]
        if role == "definition":
            found.append(RawNeed(need, "declaration", "low", "ext-apps", name, offset))
            continue
        if role != "call":
            continue
        confidence: Confidence = "high" if (ext_apps or name in DISTINCTIVE_APP_METHODS) else "medium"
        if receiver == "this":
            confidence = "medium"
        guarded = _app_guarded(view, offset, need)
        found.append(RawNeed(need, "guarded-call" if guarded else "call", confidence, "ext-apps", name, offset))
    return found


def _app_guarded(view: CodeView, offset: int, need: str) -> bool:
    """Whether a `getHostCapabilities()` check for this need controls the call at `offset`."""
    key = APP_GUARD_KEYS.get(need)
    if key is None:
        return False
    return is_guarded(view, offset, _guard_pattern(key), "getHostCapabilities")


def _guard_pattern(key: str) -> re.Pattern[str]:
    pattern = _GUARD_PATTERNS.get(key)
    if pattern is None:
        pattern = re.compile(r"[.?]\s*" + re.escape(key) + r"\b(?!\s*\()|\[\s*[\"']" + re.escape(key) + r"[\"']\s*\]")
        _GUARD_PATTERNS[key] = pattern
    return pattern


def _sender_functions(view: CodeView, regions: tuple[SdkRegion, ...]) -> frozenset[str]:
    """Names of functions (outside SDK bodies) that post messages: calls to them carry a method name."""
    names: set[str] = set()
    for match in _POST_MESSAGE.finditer(view.source, view.layout.start, view.layout.end):
        if not at_word_start(view.source, match.start()) or not is_code(view.layout, match.start()):
            continue
        if in_regions(regions, match.start()):
            continue
        _, name = enclosing_function(view, match.start())
        if name:
            names.add(name)
        if len(names) > 64:
            break
    return frozenset(names)


def _wire_calls(view: CodeView, regions: tuple[SdkRegion, ...], senders: frozenset[str]) -> list[RawNeed]:
    """JSON-RPC method literals sent by the app: `{method:"ui/open-link"}` or `send("ui/open-link")`."""
    found: list[RawNeed] = []
    source = view.source
    for match in _WIRE_LITERALS.finditer(source, view.layout.start, view.layout.end):
        start, end = match.start(), match.end()
        if not is_literal_at(view, start, end) or in_regions(regions, start):
            continue
        method = match.group(2)
        need = WIRE_METHOD_NEEDS[method]
        before = prev_code_index(source, view.layout, start)
        before_char = source[before] if before >= 0 else ""
        if before_char == ":":
            key_end = prev_code_index(source, view.layout, before)
            if key_end >= 0 and _METHOD_KEY.search(source, max(view.layout.start, key_end - 12), key_end + 1):
                found.append(_method_value(view, need, method, start))
            continue
        if before_char == "(":
            callee = callee_before(view, start)
            if callee is None:
                continue
            name, _ = callee
            if name in senders:
                found.append(RawNeed(need, "call", "high", "json-rpc", method, start))
            elif _SENDER_NAME.match(name):
                found.append(RawNeed(need, "call", "medium", "json-rpc", method, start))
            continue
        if method in HOST_TO_VIEW_TOOL_METHODS and _is_dispatch(view, before, end):
            found.append(RawNeed("appTools", "use", "medium", "json-rpc", f"handles {method}", start))
    return found


def _method_value(view: CodeView, need: str, method: str, start: int) -> RawNeed:
    """A `method: "<wire>"` value: a call, unless it only builds a request inside a wrapper nobody calls."""
    confidence = _method_value_confidence(view, start)
    if confidence == "high":
        return RawNeed(need, "call", "high", "json-rpc", method, start)
    body_start, name = enclosing_function(view, start)
    if name and not _is_called(view, name, body_start):
        return RawNeed(need, "declaration", "low", "json-rpc", f"{method} (in {name}, never called)", start)
    return RawNeed(need, "call", confidence, "json-rpc", method, start)


def _is_called(view: CodeView, name: str, body_start: int) -> bool:
    """Whether `name` is called or passed as a callback somewhere outside its own body."""
    source = view.source
    body_end = matching_close_brace(source, view.layout, body_start, _MAX_WRAPPER_BODY)
    pattern = re.compile(re.escape(name) + r"(?![\w$])")
    for seen, match in enumerate(pattern.finditer(source, view.layout.start, view.layout.end)):
        if seen > _MAX_WRAPPER_REFERENCES:
            return True
        at = match.start()
        if body_start <= at <= body_end or not at_word_start(source, at) or not is_code(view.layout, at):
            continue
        after = next_code_index(source, view.layout, match.end())
        next_char = source[after] if after >= 0 else ""
        before = prev_code_index(source, view.layout, at)
        before_char = source[before] if before >= 0 else ""
        if next_char == "(" and member_use(view, at, match.end())[0] != "definition":
            return True
        if before_char in "(,=" and next_char in "),;}":
            return True
    return False


def _method_value_confidence(view: CodeView, literal_start: int) -> Confidence:
    """High when the object literal is plainly a JSON-RPC message or is handed to postMessage."""
    open_at, close_at = object_text_around(view, literal_start)
    if open_at < 0:
        return "medium"
    stop = close_at if close_at >= 0 else min(view.layout.end, literal_start + 2048)
    for match in _JSONRPC_KEY.finditer(view.source, open_at, stop):
        if is_code(view.layout, match.start()) or is_literal_at(view, match.start() - 1, match.end() + 1):
            return "high"
    before = prev_code_index(view.source, view.layout, open_at)
    if before >= 0 and view.source[before] in "(,":
        window = view.source[max(view.layout.start, before - 40) : before + 1]
        if "postMessage" in window:
            return "high"
    return "medium"


def _is_dispatch(view: CodeView, before: int, literal_end: int) -> bool:
    """Whether the literal is compared with a message's method (`msg.method === "tools/call"`)."""
    source = view.source
    if before >= 1 and source[before] == "=" and source[before - 1] == "=":
        k = before - 1
        while k > view.layout.start and source[k] in "=!":
            k -= 1
        left = prev_code_index(source, view.layout, k + 1)
        return left >= 0 and identifier_before(view, left) == "method"
    after = next_code_index(source, view.layout, literal_end)
    if after < 0 or not source.startswith(("===", "=="), after):
        return False
    right = next_code_index(source, view.layout, after + (3 if source.startswith("===", after) else 2))
    tail = source[right : right + 120] if right >= 0 else ""
    return re.match(r"[\w$.?]*\bmethod\b", tail) is not None
