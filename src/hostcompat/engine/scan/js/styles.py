"""The other two widget styles: OpenAI Apps SDK (`window.openai.*`) and legacy mcp-ui messages.

OpenAI widgets call methods on a host-provided global, so a use is any `window.openai` access
(or an alias of it) in code; legacy mcp-ui widgets post `{type: "tool"|"prompt"|…, payload}`.
"""

from __future__ import annotations

import re
from typing import Final

from hostcompat._regex import regex
from hostcompat.engine.scan.js.context import (
    CodeView,
    at_word_start,
    bracket_member_use,
    downleveled_optional_call,
    enclosing_function,
    identifier_before,
    is_called,
    is_literal_at,
    object_text_around,
)
from hostcompat.engine.scan.js.guards import is_guarded
from hostcompat.engine.scan.js.lexer import (
    enclosing_open_brace,
    is_code,
    matching_close_brace,
    next_code_index,
    prev_code_index,
)
from hostcompat.engine.scan.js.sdk import SdkRegion, in_regions
from hostcompat.engine.scan.needs import MCP_UI_TYPE_NEEDS, OPENAI_METHOD_NEEDS, Confidence
from hostcompat.engine.scan.prefilter import gate
from hostcompat.engine.scan.raw import RawNeed, RawSdk

__all__ = ["scan_mcp_ui", "scan_openai"]

_OPENAI_NAME = regex(r"openai(?![\w$])")
_GLOBAL_BEFORE = regex(r"(?:window|globalThis|self)\s*\??\.\s*$")
_MEMBER_AFTER = regex(
    r"\s*(?:\??\.\s*(?P<dot>[A-Za-z_$][\w$]*)|(?:\?\.)?\s*\[\s*(?P<q>[\"'])(?P<sub>[A-Za-z_$][\w$]*)(?P=q)\s*\])"
)
"""`.name`, `?.name`, `["name"]` or `?.["name"]` after a reference to the runtime."""
_GLOBALS: Final = frozenset({"window", "globalThis", "self"})
_SET_GLOBALS = regex(r"openai:set_globals")
_DESTRUCTURED = regex(r"\{([^{}]{1,400})\}\s*=\s*$")
_MCP_UI_TYPE = regex(r"type[\"']?\s*:\s*([\"'])(" + "|".join(re.escape(t) for t in MCP_UI_TYPE_NEEDS) + r")\1")
_MCP_UI_MARKERS = regex(r"ui-(?:lifecycle-iframe-ready|request-render-data|message-received)(?=[\"'`])")
_MCP_UI_MARKERS_GATE = gate("ui-lifecycle-iframe-ready", "ui-request-render-data", "ui-message-received")
_OPENAI_GATE = gate("openai")
_MCP_UI_TYPE_GATE = gate(*(quote + t + quote for t in MCP_UI_TYPE_NEEDS for quote in "\"'"))
_NOT_THE_HOST = regex(r"(?i)(?:worker|port\d*|channel|contentWindow|socket)[\w$]*\s*\??\.\s*postMessage\s*\(\s*$")
"""A `postMessage` whose receiver is plainly not the host window: a worker, a message port, a child frame."""
# `word(?<!\wword)` is `\bword` spelled so that the regex engine can skip ahead to the word (a leading `\b` stops it)
_PAYLOAD_KEY = regex(r"(?:payload(?<!\wpayload)|[\"']payload[\"'])\s*[:,}]")
_MAX_ALIASES = 8
_MAX_SCOPE = 1 << 22


def scan_openai(view: CodeView, regions: tuple[SdkRegion, ...]) -> tuple[list[RawNeed], list[RawSdk]]:
    """Calls and reads of `window.openai` (and of names bound to it) in code outside SDK bodies."""
    source = view.source
    needs: list[RawNeed] = []
    aliases: dict[str, tuple[int, int]] = {}
    reads: dict[str, list[int]] = {}
    first: int | None = None
    if not view.may_match(_OPENAI_GATE):
        return needs, []
    for match in view.budget.hits(view.finditer(_OPENAI_NAME, _OPENAI_GATE)):
        if not at_word_start(source, match.start()) or in_regions(regions, match.start()):
            continue
        reference = _global_reference(view, match.start(), match.end())
        if reference is None:
            continue
        ref_start, ref_end = reference
        first = ref_start if first is None else first
        if not _member_use(view, ref_end, ref_start, needs, reads):
            _bare_use(view, ref_start, ref_end, needs, aliases)
    for alias, (scope_start, scope_end) in sorted(aliases.items())[:_MAX_ALIASES]:
        member = alias.startswith(".")
        pattern = re.compile(re.escape(alias.lstrip(".")) + r"(?![\w$])")
        for match in view.budget.hits(pattern.finditer(source, scope_start, scope_end)):
            at = match.start()
            if (at > 0 and source[at - 1] == ".") != member:
                continue
            if at_word_start(source, at) and is_code(view.layout, at) and not in_regions(regions, at):
                _member_use(view, match.end(), match.start(), needs, reads)
    for match in view.budget.hits(view.finditer(_SET_GLOBALS, _OPENAI_GATE)):
        literal_start = match.start() - 1
        if is_literal_at(view, literal_start, match.end() + 1) and not in_regions(regions, literal_start):
            needs.append(
                RawNeed(
                    need="openaiApps",
                    kind="use",
                    confidence="medium",
                    via="openai",
                    detail="openai:set_globals",
                    offset=literal_start,
                )
            )
            first = literal_start if first is None else first
    guarded = [_guard(view, n) for n in needs]
    sdks = (
        []
        if first is None
        else [RawSdk(name="openai-apps-sdk", how="runtime", detail="uses window.openai", offset=first)]
    )
    return guarded, sdks


def _global_reference(view: CodeView, start: int, end: int) -> tuple[int, int] | None:
    """Where `window.openai` (or `globalThis?.openai`, `self["openai"]`, …) around the name at `start` begins and
    ends; None when the name is not the runtime global.
    """
    source = view.source
    if is_code(view.layout, start):
        global_ref = _GLOBAL_BEFORE.search(source, max(view.start, start - 24), start)
        return None if global_ref is None else (global_ref.start(), end)
    subscript = bracket_member_use(view, start, end)
    if subscript is None or subscript.receiver not in _GLOBALS:
        return None
    return subscript.receiver_end - len(subscript.receiver) + 1, subscript.close + 1


def _member_use(view: CodeView, after_global: int, at: int, needs: list[RawNeed], reads: dict[str, list[int]]) -> bool:
    """Record `<openai>.name(...)` or `<openai>.name`; False when no member follows."""
    source = view.source
    member = _MEMBER_AFTER.match(source, after_global, view.end)
    if member is None:
        return False
    group = "dot" if member.group("dot") is not None else "sub"
    name = member.group(group)
    after = next_code_index(source, view.layout, member.end())
    next_char = source[after] if after >= 0 else ""
    if (
        next_char == "("
        or source.startswith("?.(", after)
        or (next_char == ")" and downleveled_optional_call(source, view.start, member.start(group), after))
    ):
        need = OPENAI_METHOD_NEEDS.get(name)
        if need is not None and need != "openaiApps":
            needs.append(
                RawNeed(
                    need=need, kind="call", confidence="high", via="openai", detail=name, offset=member.start(group)
                )
            )
        needs.append(
            RawNeed(
                need="openaiApps", kind="call", confidence="high", via="openai", detail=name, offset=member.start(group)
            )
        )
    elif next_char == "=" and source[after + 1 : after + 2] not in ("=", ">"):
        return True
    else:
        reads.setdefault(name, []).append(member.start(group))
        needs.append(RawNeed(need="openaiApps", kind="use", confidence="high", via="openai", detail=name, offset=at))
    return True


def _bare_use(view: CodeView, start: int, end: int, needs: list[RawNeed], aliases: dict[str, tuple[int, int]]) -> None:
    """`window.openai` used whole: an alias (`const o = window.openai`), a destructuring, or a check."""
    source = view.source
    before = prev_code_index(source, view.layout, start)
    after = next_code_index(source, view.layout, end)
    if after >= 0 and source[after] == "=" and source[after + 1 : after + 2] not in ("=", ">"):
        return
    if before >= 0 and source[before] == "=" and source[before - 1 : before] not in ("=", "!", "<", ">"):
        name_end = prev_code_index(source, view.layout, before)
        name = identifier_before(view, name_end) if name_end >= 0 else ""
        dot = prev_code_index(source, view.layout, name_end - len(name) + 1) if name else -1
        if name and dot >= 0 and source[dot] == ".":
            # `this.openai = window.openai`: later `this.openai.callTool(…)` anywhere (property names survive minifying)
            aliases["." + name] = (view.start, view.end)
        elif name:
            aliases[name] = _block_scope(view, start)
        else:
            _destructured(view, before, needs)
    needs.append(
        RawNeed(need="openaiApps", kind="use", confidence="medium", via="openai", detail="window.openai", offset=start)
    )


def _block_scope(view: CodeView, offset: int) -> tuple[int, int]:
    """From `offset` to the end of the block declaring a local name (a minified `t` means another thing elsewhere)."""
    brace = enclosing_open_brace(view.source, view.layout, offset, _MAX_SCOPE)
    if brace < 0:
        return offset, view.end
    close = matching_close_brace(view.source, view.layout, brace, _MAX_SCOPE)
    return offset, view.end if close < 0 else close


def _destructured(view: CodeView, equals: int, needs: list[RawNeed]) -> None:
    """`const {callTool, sendFollowUpMessage} = window.openai`: the picked methods are uses."""
    found = _DESTRUCTURED.search(view.source, max(view.start, equals - 420), equals + 1)
    if found is None:
        return
    for part in found.group(1).split(","):
        name = part.split(":")[0].strip()
        need = OPENAI_METHOD_NEEDS.get(name)
        if need is not None:
            needs.append(
                RawNeed(need=need, kind="call", confidence="medium", via="openai", detail=name, offset=found.start(1))
            )


def _guard(view: CodeView, need: RawNeed) -> RawNeed:
    """A call whose method (or the runtime itself) is feature-detected in a controlling check is guarded."""
    if need.kind != "call":
        return need
    check = re.compile(
        r"\.\s*" + re.escape(need.detail) + r"\b(?!\s*(?:\(|\?\.\())"
        r"|(?:openai(?<!\wopenai)|\[\s*[\"']openai[\"']\s*\])\s*(?=\)|&&|\|\|)|typeof(?<!\wtypeof)\b[^;]{0,80}openai"
    )
    if is_guarded(view, need.offset, check, None):
        return RawNeed(
            need=need.need,
            kind="guarded-call",
            confidence=need.confidence,
            via=need.via,
            detail=need.detail,
            offset=need.offset,
        )
    return need


def _type_key_start(source: str, anchor: int) -> int:
    """Where `type: ` (or `"type": `) starts before the quoted action at `anchor`, as `_MCP_UI_TYPE` reads it;
    -1 when no key is there. Whitespace is what the pattern's `\\s` takes (`str.isspace`).
    """
    j = anchor - 1
    while j >= 0 and source[j].isspace():
        j -= 1
    if j < 0 or source[j] != ":":
        return -1
    j -= 1
    while j >= 0 and source[j].isspace():
        j -= 1
    if j >= 0 and source[j] in "\"'":
        j -= 1
    return j - 3 if j >= 3 and source[j - 3 : j + 1] == "type" else -1


def scan_mcp_ui(view: CodeView, regions: tuple[SdkRegion, ...]) -> tuple[list[RawNeed], list[RawSdk]]:
    """Legacy mcp-ui actions: object literals `{type: "tool"|…, payload}` posted to the host."""
    source = view.source
    needs: list[RawNeed] = []
    sdks: list[RawSdk] = []
    for match in view.budget.hits(view.finditer(_MCP_UI_TYPE, _MCP_UI_TYPE_GATE, start_of=_type_key_start)):
        literal_start = match.start(1)
        literal_end = match.end()
        if not at_word_start(source, match.start()) and source[match.start() - 1] not in "\"'":
            continue
        if not is_code(view.layout, match.start()) and not is_literal_at(view, match.start() - 1, match.start() + 5):
            continue
        if in_regions(regions, match.start()):
            continue
        if not is_literal_at(view, literal_start, literal_end):
            continue
        open_at, close_at = object_text_around(view, match.start())
        if open_at < 0:
            continue
        stop = close_at if close_at >= 0 else min(view.end, literal_end + 2048)
        has_payload = any(
            is_code(view.layout, m.start()) or is_literal_at(view, m.start(), m.start() + 9)
            for m in _PAYLOAD_KEY.finditer(source, open_at, stop)
        )
        window = source[max(view.start, open_at - 40) : open_at]
        posted = "postMessage" in window
        if posted and _NOT_THE_HOST.search(window):
            continue  # `worker.postMessage({type: "notify", …})`: a message to the page's own worker or frame
        if not (has_payload or posted):
            continue
        action = match.group(2)
        confidence: Confidence = "high" if has_payload and posted else "medium"
        need = MCP_UI_TYPE_NEEDS[action]
        body, builder = enclosing_function(view, open_at) if not posted else (-1, "")
        if builder and not is_called(view, builder, body):
            detail = f"type:{action} (built in {builder}, never called)"
            needs.append(
                RawNeed(
                    need=need, kind="declaration", confidence="low", via="mcp-ui", detail=detail, offset=literal_start
                )
            )
            continue
        needs.append(
            RawNeed(
                need=need,
                kind="call",
                confidence=confidence,
                via="mcp-ui",
                detail=f"type:{action}",
                offset=literal_start,
            )
        )
    for match in view.budget.hits(view.finditer(_MCP_UI_MARKERS, _MCP_UI_MARKERS_GATE)):
        if is_literal_at(view, match.start() - 1, match.end() + 1):
            sdks.append(RawSdk(name="mcp-ui", how="runtime", detail=match.group(0), offset=match.start() - 1))
            break
    if needs and not sdks:
        sdks.append(
            RawSdk(name="mcp-ui", how="runtime", detail="legacy {type, payload} actions", offset=needs[0].offset)
        )
    return needs, sdks
