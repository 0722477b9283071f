"""Bridge calls made indirectly: through a posting helper, a constant holding the method, or a table of them.

`send("ui/open-link")` only counts when `send` posts messages; `const OPEN = "ui/open-link"; send(OPEN)` and
`request(Methods.CALL_TOOL)` count the same way; mcp-ui pages that wrap `postMessage({type, payload})` in a helper
(`sendAction("tool", …)`) are read through the helper. Everything stays a bounded look around each literal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hostcompat._regex import regex
from hostcompat.engine.scan.js.context import (
    CodeView,
    at_word_start,
    callee_before,
    enclosing_function,
    find_words,
    identifier_before,
    is_literal_at,
    object_text_around,
)
from hostcompat.engine.scan.js.lexer import is_code, next_code_index, prev_code_index
from hostcompat.engine.scan.js.sdk import SdkRegion, in_regions
from hostcompat.engine.scan.needs import MCP_UI_TYPE_NEEDS, WIRE_METHOD_NEEDS, Confidence
from hostcompat.engine.scan.prefilter import gate
from hostcompat.engine.scan.raw import RawNeed

__all__ = [
    "METHOD_KEY",
    "SENDER_NAME",
    "WIRE_GATE",
    "WIRE_LITERALS",
    "WireHits",
    "constant_calls",
    "mcp_ui_sender_calls",
    "method_value_confidence",
    "sender_functions",
]

WIRE_LITERALS = regex(
    r"([\"'`])(" + "|".join(re.escape(m) for m in sorted(WIRE_METHOD_NEEDS, key=len, reverse=True)) + r")\1"
)
"""A string literal holding a view-to-host wire method."""
WIRE_GATE = gate(*WIRE_METHOD_NEEDS)
"""A wire literal holds one of the method names."""
WireHits = Sequence[re.Match[str]]
"""The `WIRE_LITERALS` matches of one stretch, found once and shared by the passes that need them."""
# `word(?<!\wword)` is `\bword` spelled so that the regex engine can skip ahead to the word (a leading `\b` stops it)
METHOD_KEY = regex(r"(?:method(?<!\wmethod)|[\"']method[\"'])\s*$")
"""The `method:` key just before a value."""
SENDER_NAME = regex(r"^(?:send|request|rpc|call|notify|post|invoke|emit|dispatch)", re.IGNORECASE)
"""Function names that suggest a message sender."""
_POST_MESSAGE = regex(r"postMessage(?![\w$])")
_POST_MESSAGE_GATE = gate("postMessage")
_JSONRPC_KEY = regex(r"jsonrpc(?<!\wjsonrpc)\b")
_CONSTANT = regex(r"(?:(?:const(?<!\wconst)|let(?<!\wlet)|var(?<!\wvar))\s+|,\s*)([A-Za-z_$][\w$]*)\s*=\s*$")
_TABLE_KEY = regex(r"([A-Za-z_$][\w$]*)[\"']?\s*:\s*$")
_MCP_UI_ARGUMENT = regex(r"([\"'])(" + "|".join(re.escape(t) for t in MCP_UI_TYPE_NEEDS) + r")\1")
_MCP_UI_TYPE_GATE = gate(*(quote + t + quote for t in MCP_UI_TYPE_NEEDS for quote in "\"'"))
"""A quoted mcp-ui action type."""
_MAX_CONSTANTS = 64
_MAX_SENDER_WALK = 4
_EXPRESSION_ARROW = regex(
    r"(?:const(?<!\wconst)|let(?<!\wlet)|var(?<!\wvar))\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?"
    r"(?:\([^()]{0,200}\)|[\w$]+)\s*=>[^;{}]{0,200}$"
)


def sender_functions(view: CodeView, regions: tuple[SdkRegion, ...]) -> frozenset[str]:
    """Names of functions (outside SDK bodies) that post messages: calls to them carry a method name.

    The name is the innermost named function around the `postMessage` (anonymous callbacks, such as a
    `new Promise` executor, are walked through), or the binding of a one-expression arrow.
    """
    names: set[str] = set()
    source = view.source
    if not view.may_match(_POST_MESSAGE_GATE):
        return frozenset()
    for match in view.budget.hits(view.finditer(_POST_MESSAGE, _POST_MESSAGE_GATE)):
        at = match.start()
        if not at_word_start(source, at) or not is_code(view.layout, at) or in_regions(regions, at):
            continue
        arrow = _EXPRESSION_ARROW.search(source, max(view.start, at - 300), at)
        if arrow is not None:
            names.add(arrow.group(1))
        body, name = enclosing_function(view, at)
        for _ in range(_MAX_SENDER_WALK):
            if name or body < 0:
                break
            body, name = enclosing_function(view, body)
        if name:
            names.add(name)
        if len(names) > 64:
            break
    return frozenset(names)


def _wire_constants(view: CodeView, regions: tuple[SdkRegion, ...], hits: WireHits) -> dict[str, str]:
    """Names bound to wire method literals: `const OPEN = "ui/open-link"` gives `OPEN`, and a table
    entry `{OPEN_LINK: "ui/open-link"}` gives `.OPEN_LINK` (used as `Methods.OPEN_LINK`).
    """
    source = view.source
    constants: dict[str, str] = {}
    for match in view.budget.hits(hits):
        start = match.start()
        if not is_literal_at(view, start, match.end()) or in_regions(regions, start):
            continue
        before = prev_code_index(source, view.layout, start)
        if before < 0:
            continue
        window_start = max(view.start, before - 80)
        if source[before] == "=":
            bound = _CONSTANT.search(source, window_start, before + 1)
            if bound is not None and source[before - 1 : before] not in ("=", "!", "<", ">"):
                constants[bound.group(1)] = match.group(2)
        elif source[before] == ":":
            key = _TABLE_KEY.search(source, window_start, before + 1)
            if key is not None and key.group(1) not in ("method", "type"):
                constants["." + key.group(1)] = match.group(2)
        if len(constants) >= _MAX_CONSTANTS:
            break
    return constants


def constant_calls(
    view: CodeView, regions: tuple[SdkRegion, ...], senders: frozenset[str], hits: WireHits
) -> list[RawNeed]:
    """Wire methods sent through a constant: `send(OPEN)`, `{method: Methods.OPEN_LINK}`."""
    constants = _wire_constants(view, regions, hits)
    if not constants:
        return []
    source = view.source
    found: list[RawNeed] = []
    names = sorted({name.lstrip(".") for name in constants}, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w$])(" + "|".join(re.escape(n) for n in names) + r")(?![\w$])")
    for match in view.budget.hits(find_words(view, pattern, names)):
        at = match.start()
        if not is_code(view.layout, at) or in_regions(regions, at):
            continue
        before = prev_code_index(source, view.layout, at)
        member = before >= 0 and source[before] == "."
        method = constants.get(("." if member else "") + match.group(1))
        if method is None:
            continue
        start = _reference_start(view, before) if member else at
        after = next_code_index(source, view.layout, match.end())
        if after < 0 or source[after] not in ",)}":
            continue
        found.extend(_sent_constant(view, senders, method, start))
        if len(found) >= _MAX_CONSTANTS:
            break
    return found


def _reference_start(view: CodeView, dot: int) -> int:
    """Where `Table.KEY` starts, given the `.`."""
    end = prev_code_index(view.source, view.layout, dot)
    name = identifier_before(view, end) if end >= 0 else ""
    return end - len(name) + 1 if name else dot


def _sent_constant(view: CodeView, senders: frozenset[str], method: str, start: int) -> list[RawNeed]:
    source = view.source
    need = WIRE_METHOD_NEEDS[method]
    before = prev_code_index(source, view.layout, start)
    before_char = source[before] if before >= 0 else ""
    detail = f"{method} (through a constant)"
    if before_char == ":":
        key_end = prev_code_index(source, view.layout, before)
        if key_end >= 0 and METHOD_KEY.search(source, max(view.start, key_end - 12), key_end + 1):
            return [
                RawNeed(
                    need=need,
                    kind="call",
                    confidence=method_value_confidence(view, start),
                    via="json-rpc",
                    detail=detail,
                    offset=start,
                )
            ]
        return []
    if before_char == "(":
        callee = _callee_of_paren(view, before)
        if callee in senders:
            return [RawNeed(need=need, kind="call", confidence="high", via="json-rpc", detail=detail, offset=start)]
        if callee and SENDER_NAME.match(callee):
            return [RawNeed(need=need, kind="call", confidence="medium", via="json-rpc", detail=detail, offset=start)]
    return []


def _callee_of_paren(view: CodeView, paren: int) -> str:
    end = prev_code_index(view.source, view.layout, paren)
    return identifier_before(view, end) if end >= 0 else ""


def mcp_ui_sender_calls(view: CodeView, regions: tuple[SdkRegion, ...], senders: frozenset[str]) -> list[RawNeed]:
    """mcp-ui actions sent through a helper: `sendAction("tool", {toolName, params})` where the helper posts."""
    if not senders or not view.may_match(_MCP_UI_TYPE_GATE):
        return []
    source = view.source
    found: list[RawNeed] = []
    for match in view.budget.hits(view.finditer(_MCP_UI_ARGUMENT, _MCP_UI_TYPE_GATE)):
        start = match.start()
        if not is_literal_at(view, start, match.end()) or in_regions(regions, start):
            continue
        callee = callee_before(view, start)
        if callee is None or callee[0] not in senders:
            continue
        after = next_code_index(source, view.layout, match.end())
        if after < 0 or source[after] not in ",)":
            continue
        action = match.group(2)
        found.append(
            RawNeed(
                need=MCP_UI_TYPE_NEEDS[action],
                kind="call",
                confidence="high",
                via="mcp-ui",
                detail=f"type:{action}",
                offset=start,
            )
        )
    return found


def method_value_confidence(view: CodeView, literal_start: int) -> Confidence:
    """High when the object literal is plainly a JSON-RPC message or is handed to postMessage."""
    open_at, close_at = object_text_around(view, literal_start)
    if open_at < 0:
        return "medium"
    stop = close_at if close_at >= 0 else min(view.end, literal_start + 2048)
    for match in _JSONRPC_KEY.finditer(view.source, open_at, stop):
        if is_code(view.layout, match.start()) or is_literal_at(view, match.start() - 1, match.end() + 1):
            return "high"
    before = prev_code_index(view.source, view.layout, open_at)
    if before >= 0 and view.source[before] in "(,":
        window = view.source[max(view.start, before - 40) : before + 1]
        if "postMessage" in window:
            return "high"
    return "medium"
