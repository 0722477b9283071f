"""Find the app's own bridge calls in one stretch of JavaScript (ext-apps App API and raw JSON-RPC).

Technique: a multi-pattern prefilter over the text finds every candidate name or method literal;
the lexer's layout discards hits inside comments and strings; a local check around each hit tells
a call (`app.openLink(`) from a definition (`openLink(e,t){`), and bodies that define three or
more bridge methods (the bundled SDK, or a hand-written wrapper) are discounted as wiring. Calls to
a wrapper's methods from outside it (`adaptor.callTool(…)` in a hook) are the app's, and so are
method names held in constants (`const M = "ui/open-link"; send(M)`).
"""

from __future__ import annotations

import re
from typing import Final, Literal

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.engine.scan.budget import HitBudget
from hostcompat.engine.scan.js.browser import scan_permission_apis
from hostcompat.engine.scan.js.context import (
    CodeView,
    at_word_start,
    bracket_member_use,
    callee_before,
    enclosing_function,
    identifier_before,
    is_called,
    is_literal_at,
    member_use,
    word_alternation,
)
from hostcompat.engine.scan.js.guards import is_guarded
from hostcompat.engine.scan.js.indirect import (
    METHOD_KEY,
    SENDER_NAME,
    WIRE_GATE,
    WIRE_LITERALS,
    WireHits,
    constant_calls,
    mcp_ui_sender_calls,
    method_value_confidence,
    sender_functions,
)
from hostcompat.engine.scan.js.lexer import (
    STRING,
    TEMPLATE,
    is_code,
    next_code_index,
    prev_code_index,
    span_index_at,
)
from hostcompat.engine.scan.js.sdk import SdkRegion, find_adapter_regions, find_sdk_regions, in_regions, merge_regions
from hostcompat.engine.scan.js.styles import scan_mcp_ui, scan_openai
from hostcompat.engine.scan.js.urls import scan_embedded, scan_urls
from hostcompat.engine.scan.js.wrappers import wrapper_method_calls
from hostcompat.engine.scan.needs import (
    APP_GUARD_KEYS,
    APP_HANDLER_PROPERTIES,
    APP_METHOD_NEEDS,
    DISTINCTIVE_APP_METHODS,
    HOST_TO_VIEW_TOOL_METHODS,
    OPENAI_METHOD_NEEDS,
    WIRE_METHOD_NEEDS,
    Confidence,
)
from hostcompat.engine.scan.prefilter import gate
from hostcompat.engine.scan.raw import RawEmbedded, RawExternal, RawNeed, RawSdk, RawUrl

__all__ = ["JsScan", "scan_js"]

_BRIDGE_NAMES = frozenset([*APP_METHOD_NEEDS, *OPENAI_METHOD_NEEDS])


_API_NAMES = regex("(" + word_alternation(sorted([*_BRIDGE_NAMES, *APP_HANDLER_PROPERTIES])) + r")(?![\w$])")
_OPENAI_RECEIVERS = frozenset({"openai"})
_API_GATE = gate(*sorted([*_BRIDGE_NAMES, *APP_HANDLER_PROPERTIES]))
_AUTO_RESIZE_OFF = regex(r"autoResize[\"']?\s*:\s*(?:!1|false|0)(?![\w$])")
_AUTO_RESIZE_GATE = gate("autoResize")
_EXT_APPS_PACKAGE = "@modelcontextprotocol/ext-apps"
_EXT_APPS_GATE = gate(_EXT_APPS_PACKAGE)
_EXT_APPS_PATTERN = regex(re.escape(_EXT_APPS_PACKAGE))
_GUARD_PATTERNS: dict[str, re.Pattern[str]] = {}


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


AdapterTarget = Literal["mcp-apps", "apps-sdk", "unknown"]
"""What an mcp-ui host adapter turns the page's actions into (the `how` of its SDK detection)."""

ADAPTER_TARGET_TEXT: Final[dict[AdapterTarget, str]] = {
    "mcp-apps": "to MCP Apps JSON-RPC",
    "apps-sdk": "to window.openai",
    "unknown": "target not recognised",
}
"""What an mcp-ui host adapter turns the page's actions into, as the `how` of its `RawSdk`."""


def adapter_target(body: str) -> AdapterTarget:
    """Whether an mcp-ui adapter's class body speaks MCP Apps JSON-RPC, the OpenAI Apps SDK, or neither seen.

    @mcp-ui/server's MCP Apps adapter builds `{jsonrpc: "2.0", …}` messages; its Apps SDK adapter calls
    `window.openai` and sends no JSON-RPC (the MCP Apps adapter also reads `window.openai`, so JSON-RPC decides).
    """
    if "jsonrpc" in body:
        return "mcp-apps"
    return "apps-sdk" if "openai" in body else "unknown"


def scan_js(source: str, start: int, end: int, budget: HitBudget | None = None) -> JsScan:
    """Scan `source[start:end]` as JavaScript; every offset in the result is absolute in `source`.

    `budget` is shared by the stretches of one scan (a fresh one when not given); `hits_capped` says it ran out.
    """
    view = CodeView(source, start, end, budget or HitBudget())
    needs: list[RawNeed] = []
    sdks: list[RawSdk] = []
    uses = _api_uses(view)
    definitions = [(at, name) for at, name, role, _ in uses if role == "definition" and name in _BRIDGE_NAMES]
    wrappers, adapters = find_sdk_regions(view, definitions), find_adapter_regions(view)
    regions = merge_regions(wrappers, adapters)
    for region in regions:
        if region in adapters:
            target = adapter_target(source[region.start : region.end])
            detail = f"mcp-ui host adapter ({ADAPTER_TARGET_TEXT[target]}) dispatching " + ", ".join(region.methods)
            sdks.append(RawSdk(name="mcp-ui-adapter", how=target, detail=detail, offset=region.start))
        elif region.ext_apps:
            detail = "App class defining " + ", ".join(region.methods)
            sdks.append(RawSdk(name="ext-apps", how="bundled", detail=detail, offset=region.start))
        else:
            detail = "wrapper defining " + ", ".join(region.methods)
            sdks.append(RawSdk(name="bridge-wrapper", how="bundled", detail=detail, offset=region.start))
    imported = _ext_apps_import(view)
    if imported is not None:
        sdks.append(
            RawSdk(
                name="ext-apps",
                how="imported",
                detail="module import of @modelcontextprotocol/ext-apps",
                offset=imported,
            )
        )
    ext_apps_present = any(sdk.name == "ext-apps" for sdk in sdks)
    needs.extend(_app_calls(view, uses, regions, ext_apps_present))
    plain_wrappers = tuple(r for r in wrappers if not r.ext_apps and r in regions)
    needs.extend(wrapper_method_calls(view, plain_wrappers, regions, uses))
    senders = sender_functions(view, regions)
    wire_hits = list(view.budget.hits(view.finditer(WIRE_LITERALS, WIRE_GATE, back=1)))
    needs.extend(_wire_calls(view, regions, senders, wire_hits))
    needs.extend(constant_calls(view, regions, senders, wire_hits))
    needs.extend(mcp_ui_sender_calls(view, regions, senders))
    openai_needs, openai_sdk = scan_openai(view, regions)
    needs.extend(openai_needs)
    sdks.extend(openai_sdk)
    ui_needs, ui_sdk = scan_mcp_ui(view, regions)
    needs.extend(ui_needs)
    sdks.extend(ui_sdk)
    needs.extend(scan_permission_apis(view, regions))
    urls, externals = scan_urls(view, regions)
    auto_resize_off = view.may_match(_AUTO_RESIZE_GATE) and any(
        at_word_start(source, m.start()) and is_code(view.layout, m.start()) and not in_regions(regions, m.start())
        for m in view.budget.hits(view.finditer(_AUTO_RESIZE_OFF, _AUTO_RESIZE_GATE))
    )
    return JsScan(
        tuple(needs),
        tuple(urls),
        tuple(externals),
        tuple(sdks),
        tuple(scan_embedded(view)),
        ext_apps_present,
        auto_resize_off,
        view.budget.capped,
    )


def _api_uses(view: CodeView) -> list[tuple[int, str, str, str]]:
    """Every App-method name in code: (offset, name, role, receiver)."""
    uses: list[tuple[int, str, str, str]] = []
    if not view.may_match(_API_GATE):
        return uses
    for match in view.budget.hits(view.finditer(_API_NAMES, _API_GATE)):
        if not at_word_start(view.source, match.start()):
            continue
        if is_code(view.layout, match.start()):
            role, receiver = member_use(view, match.start(), match.end())
        else:  # in a literal: only `app["openLink"](…)` counts
            subscript = bracket_member_use(view, match.start(), match.end())
            if subscript is None:
                continue
            role, receiver = subscript.role, subscript.receiver
        uses.append((match.start(), match.group(1), role, receiver))
    return uses


def _ext_apps_import(view: CodeView) -> int | None:
    """Offset of an import of the ext-apps package (bare, or from a CDN), if any."""
    source = view.source
    if not view.may_match(_EXT_APPS_GATE):
        return None
    for match in view.finditer(_EXT_APPS_PATTERN, _EXT_APPS_GATE):
        at = match.start()
        index = span_index_at(view.layout, at)
        if index >= 0 and view.layout.kinds[index] in (STRING, TEMPLATE):
            literal_start = view.layout.starts[index]
            before = prev_code_index(source, view.layout, literal_start)
            if before >= 0 and (identifier_before(view, before) in ("from", "import") or source[before] == "("):
                return literal_start
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
                found.append(
                    RawNeed(
                        need=APP_HANDLER_PROPERTIES[name],
                        kind="use",
                        confidence="medium",
                        via="ext-apps",
                        detail=name,
                        offset=offset,
                    )
                )
            continue
        if name not in APP_METHOD_NEEDS:
            wrapped = _wrapper_call(name, role, receiver, regions, offset)
            if wrapped is not None:
                found.append(wrapped)
            continue
        need = APP_METHOD_NEEDS[name]
        if role == "definition":
            found.append(
                RawNeed(need=need, kind="declaration", confidence="low", via="ext-apps", detail=name, offset=offset)
            )
            continue
        if role != "call":
            continue
        confidence: Confidence = "high" if (ext_apps or name in DISTINCTIVE_APP_METHODS) else "medium"
        if receiver == "this":
            confidence = "medium"
        guarded = _app_guarded(view, offset, need)
        found.append(
            RawNeed(
                need=need,
                kind="guarded-call" if guarded else "call",
                confidence=confidence,
                via="ext-apps",
                detail=name,
                offset=offset,
            )
        )
    return found


def _wrapper_call(name: str, role: str, receiver: str, regions: tuple[SdkRegion, ...], offset: int) -> RawNeed | None:
    """`adaptor.callTool(…)` outside a wrapper that defines `callTool`: the app calls the host through it.

    Calls on `window.openai` itself are the OpenAI pass's; an OpenAI-named method nobody wraps is
    some other library's.
    """
    if role != "call" or receiver in _OPENAI_RECEIVERS:
        return None
    if not any(name in region.methods for region in regions):
        return None
    return RawNeed(
        need=OPENAI_METHOD_NEEDS[name], kind="call", confidence="medium", via="wrapper", detail=name, offset=offset
    )


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


def _wire_calls(
    view: CodeView, regions: tuple[SdkRegion, ...], senders: frozenset[str], hits: WireHits
) -> list[RawNeed]:
    """JSON-RPC method literals sent by the app: `{method:"ui/open-link"}` or `send("ui/open-link")`."""
    found: list[RawNeed] = []
    source = view.source
    for match in hits:
        start, end = match.start(), match.end()
        if not is_literal_at(view, start, end) or in_regions(regions, start):
            continue
        method = match.group(2)
        need = WIRE_METHOD_NEEDS[method]
        before = prev_code_index(source, view.layout, start)
        before_char = source[before] if before >= 0 else ""
        if before_char == ":":
            key_end = prev_code_index(source, view.layout, before)
            if key_end >= 0 and METHOD_KEY.search(source, max(view.start, key_end - 12), key_end + 1):
                found.append(_method_value(view, need, method, start))
            continue
        if before_char == "(":
            callee = callee_before(view, start)
            if callee is None:
                continue
            name, _ = callee
            if name in senders:
                found.append(
                    RawNeed(need=need, kind="call", confidence="high", via="json-rpc", detail=method, offset=start)
                )
            elif SENDER_NAME.match(name):
                found.append(
                    RawNeed(need=need, kind="call", confidence="medium", via="json-rpc", detail=method, offset=start)
                )
            continue
        if method in HOST_TO_VIEW_TOOL_METHODS and _is_dispatch(view, before, end):
            found.append(
                RawNeed(
                    need="appTools",
                    kind="use",
                    confidence="medium",
                    via="json-rpc",
                    detail=f"handles {method}",
                    offset=start,
                )
            )
    return found


def _method_value(view: CodeView, need: str, method: str, start: int) -> RawNeed:
    """A `method: "<wire>"` value: a call, unless it only builds a request inside a wrapper nobody calls."""
    confidence = method_value_confidence(view, start)
    if confidence == "high":
        return RawNeed(need=need, kind="call", confidence="high", via="json-rpc", detail=method, offset=start)
    body_start, name = enclosing_function(view, start)
    if name and not is_called(view, name, body_start):
        return RawNeed(
            need=need,
            kind="declaration",
            confidence="low",
            via="json-rpc",
            detail=f"{method} (in {name}, never called)",
            offset=start,
        )
    return RawNeed(need=need, kind="call", confidence=confidence, via="json-rpc", detail=method, offset=start)


def _is_dispatch(view: CodeView, before: int, literal_end: int) -> bool:
    """Whether the literal is compared with a message's method (`msg.method === "tools/call"`)."""
    source = view.source
    if before >= 1 and source[before] == "=" and source[before - 1] == "=":
        k = before - 1
        while k > view.start and source[k] in "=!":
            k -= 1
        left = prev_code_index(source, view.layout, k + 1)
        return left >= 0 and identifier_before(view, left) == "method"
    after = next_code_index(source, view.layout, literal_end)
    if after < 0 or not source.startswith(("===", "=="), after):
        return False
    right = next_code_index(source, view.layout, after + (3 if source.startswith("===", after) else 2))
    tail = source[right : right + 120] if right >= 0 else ""
    return re.match(r"[\w$.?]*\bmethod\b", tail) is not None
