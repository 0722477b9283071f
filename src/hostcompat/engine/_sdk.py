"""Find bundled bridge SDK code (the ext-apps `App` class and look-alike wrappers) inside a script.

A bundle inlines the SDK whose methods send every bridge request; those definitions and their
internal wiring are not the app's calls. A class or object literal that defines three or more
bridge methods is such a wrapper: its whole body is discounted, and calls made from outside it count.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from hostcompat.engine._js_context import CodeView
from hostcompat.engine._js_lexer import enclosing_open_brace, matching_close_brace, prev_code_index

__all__ = ["SdkRegion", "find_sdk_regions", "in_regions"]

_CLASS_HEAD = re.compile(r"\bclass(?:\s+[\w$]+)?(?:\s+extends\s+[\w$.()]{1,80})?\s*$")
_MIN_DEFINITIONS = 3
_MAX_MEMBER_DISTANCE = 65_536
_MAX_BODY = 8 * 1024 * 1024
_EXT_APPS_MARKERS = ("_assertInitialized", "autoResize", "ui/initialize", "getHostCapabilities")


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
        end = view.layout.end if close < 0 else close + 1
        if regions and brace < regions[-1].end:
            continue
        head_end = prev_code_index(view.source, view.layout, brace)
        head_start = max(view.layout.start, head_end - 120)
        is_class = head_end >= 0 and _CLASS_HEAD.search(view.source, head_start, head_end + 1) is not None
        markers = sum(view.source.find(marker, brace, end) >= 0 for marker in _EXT_APPS_MARKERS)
        ext_apps = is_class and markers >= 2
        regions.append(SdkRegion(brace, end, is_class, ext_apps, tuple(sorted(names))))
    return tuple(regions)


def in_regions(regions: tuple[SdkRegion, ...], offset: int) -> bool:
    """Whether `offset` lies inside one of the (sorted, disjoint) regions."""
    index = bisect_right([r.start for r in regions], offset) - 1
    return index >= 0 and offset < regions[index].end
