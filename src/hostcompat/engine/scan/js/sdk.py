"""Find bundled bridge SDK code (the ext-apps `App` class, look-alike wrappers, host adapters) inside a script.

A bundle inlines the SDK whose methods send every bridge request; those definitions and their
internal wiring are not the app's calls. A class or object literal that defines three or more
bridge methods is such a wrapper: its whole body is discounted, and calls made from outside it count.
A class that dispatches on three or more mcp-ui action types (`case "tool":` …) is a host adapter
(mcp-ui's Apps SDK and MCP Apps adapters): it translates the page's actions, so it is wiring too.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.engine.scan.js.context import CodeView
from hostcompat.engine.scan.js.lexer import enclosing_open_brace, matching_close_brace, prev_code_index, span_index_at
from hostcompat.engine.scan.prefilter import gate

__all__ = ["SdkRegion", "find_adapter_regions", "find_sdk_regions", "in_regions", "merge_regions"]

# `word(?<!\wword)` is `\bword` spelled so that the regex engine can skip ahead to the word (a leading `\b` stops it)
_CLASS_HEAD = regex(r"class(?<!\wclass)(?:\s+[\w$]+)?(?:\s+extends\s+[\w$.()]{1,80})?\s*$")
_MIN_DEFINITIONS = 3
_MAX_MEMBER_DISTANCE = 65_536
_MAX_BODY = 8 * 1024 * 1024
_EXT_APPS_MARKERS = ("_assertInitialized", "autoResize", "ui/initialize", "getHostCapabilities")
_ADAPTER_TYPES = ("tool", "prompt", "intent", "notify", "link", "ui-size-change", "ui-lifecycle-iframe-ready")
_ADAPTER_LITERAL = regex(r"([\"'])(" + "|".join(re.escape(t) for t in _ADAPTER_TYPES) + r")\1")
_ADAPTER_GATE = gate(*(quote + t + quote for t in _ADAPTER_TYPES for quote in "\"'"))
_CASE_BEFORE = regex(r"(?:case(?<!\wcase)|===?)\s*$")
_MIN_DISPATCHED = 3
_MAX_CLASS_WALK = 12


@dataclass(frozen=True)
class SdkRegion:
    """A body that defines bridge methods: `start:end` spans its braces.

    `is_class` tells a class from an object literal; `ext_apps` is True when the body carries
    the ext-apps App class's own markers; `methods` are the bridge methods it defines.
    """

    start: int
    end: int
    is_class: bool
    ext_apps: bool
    methods: tuple[str, ...]


def find_sdk_regions(view: CodeView, definitions: list[tuple[int, str]]) -> tuple[SdkRegion, ...]:
    """Group bridge-method definitions by their enclosing body; keep bodies with three or more.

    `definitions` are (offset, method name) pairs of definition sites (`name(...){`), in order.
    """
    groups: dict[int, set[str]] = {}
    for offset, name in definitions:
        brace = enclosing_open_brace(view.source, view.layout, offset, _MAX_MEMBER_DISTANCE)
        if brace >= 0:
            groups.setdefault(brace, set()).add(name)
    regions: list[SdkRegion] = []
    for brace, names in sorted(groups.items()):
        if len(names) < _MIN_DEFINITIONS:
            continue
        close = matching_close_brace(view.source, view.layout, brace, _MAX_BODY)
        end = view.end if close < 0 else close + 1
        if regions and brace < regions[-1].end:
            continue
        head_end = prev_code_index(view.source, view.layout, brace)
        head_start = max(view.start, head_end - 120)
        is_class = head_end >= 0 and _CLASS_HEAD.search(view.source, head_start, head_end + 1) is not None
        markers = sum(view.source.find(marker, brace, end) >= 0 for marker in _EXT_APPS_MARKERS)
        ext_apps = is_class and markers >= 2
        regions.append(SdkRegion(brace, end, is_class, ext_apps, tuple(sorted(names))))
    return tuple(regions)


def in_regions(regions: tuple[SdkRegion, ...], offset: int) -> bool:
    """Whether `offset` lies inside one of the (sorted, disjoint) regions."""
    index = bisect_right([r.start for r in regions], offset) - 1
    return index >= 0 and offset < regions[index].end


def find_adapter_regions(view: CodeView) -> tuple[SdkRegion, ...]:
    """Class bodies that dispatch on three or more mcp-ui action types (host adapters), sorted and disjoint."""
    source = view.source
    seen: dict[int, set[str]] = {}
    if not view.may_match(_ADAPTER_GATE):
        return ()
    for match in view.budget.hits(view.finditer(_ADAPTER_LITERAL, _ADAPTER_GATE)):
        start = match.start()
        if not _is_literal(view, start, match.group(2)) or not _compared(view, start, match.end()):
            continue
        body = _enclosing_class(view, start)
        if body >= 0:
            seen.setdefault(body, set()).add(match.group(2))
    regions: list[SdkRegion] = []
    for brace, types in sorted(seen.items()):
        if len(types) < _MIN_DISPATCHED or (regions and brace < regions[-1].end):
            continue
        close = matching_close_brace(source, view.layout, brace, _MAX_BODY)
        end = view.end if close < 0 else close + 1
        regions.append(SdkRegion(brace, end, True, False, tuple(sorted(types))))
    return tuple(regions)


def _is_literal(view: CodeView, start: int, text: str) -> bool:
    index = span_index_at(view.layout, start)
    return index >= 0 and view.layout.starts[index] == start and view.layout.ends[index] == start + len(text) + 2


def _compared(view: CodeView, start: int, end: int) -> bool:
    """`case "tool":`, `x === "tool"` or `"tool" === x`."""
    source = view.source
    if _CASE_BEFORE.search(source, max(view.start, start - 12), start):
        return True
    return source.startswith("==", _skip_blanks(source, end, view.end))


def _skip_blanks(source: str, index: int, end: int) -> int:
    while index < end and source[index] in " \t\r\n":
        index += 1
    return index


def _enclosing_class(view: CodeView, offset: int) -> int:
    """The `{` of the innermost class body around `offset` (a bounded walk outwards); -1 when none."""
    source = view.source
    pos = offset
    for _ in range(_MAX_CLASS_WALK):
        brace = enclosing_open_brace(source, view.layout, pos, _MAX_BODY)
        if brace < 0:
            return -1
        head_end = prev_code_index(source, view.layout, brace)
        head_start = max(view.start, head_end - 120)
        if head_end >= 0 and _CLASS_HEAD.search(source, head_start, head_end + 1) is not None:
            return brace
        pos = brace
    return -1


def merge_regions(*groups: tuple[SdkRegion, ...]) -> tuple[SdkRegion, ...]:
    """All regions of several searches, sorted, with any region nested in an earlier one dropped."""
    merged: list[SdkRegion] = []
    for region in sorted((r for group in groups for r in group), key=lambda r: (r.start, -r.end)):
        if merged and region.start < merged[-1].end:
            continue
        merged.append(region)
    return tuple(merged)
