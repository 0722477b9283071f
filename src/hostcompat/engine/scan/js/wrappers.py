"""What a bundled bridge wrapper's own methods do, so that calls to them from outside count as the app's.

Frameworks wrap the host bridges in an adaptor class whose methods have their own names (`setViewState`,
`requestSize`, `download` …) and forward to `app.updateModelContext`, `window.openai.setWidgetState` and so
on. The wrapper's body is wiring and is discounted; each of its methods inherits the needs of the bridge calls
in its body, and a call such as `adaptor.setViewState(…)` made outside the wrapper (by a hook the app uses)
counts for them.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from hostcompat._regex import regex
from hostcompat.engine.scan.js.context import CodeView, at_word_start, find_words
from hostcompat.engine.scan.js.lexer import enclosing_open_brace, is_code, next_code_index, prev_code_index
from hostcompat.engine.scan.js.sdk import SdkRegion, in_regions
from hostcompat.engine.scan.needs import APP_METHOD_NEEDS, OPENAI_METHOD_NEEDS
from hostcompat.engine.scan.raw import RawNeed

__all__ = ["wrapper_method_calls"]

_MEMBER_HEAD = regex(
    r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*(?:=\s*(?:async\s*)?(?:\([^()]{0,300}\)|[A-Za-z_$][\w$]*)\s*=>|\([^()]{0,300}\)\s*\{)"
)
_NOT_METHODS = frozenset(
    {"if", "for", "while", "switch", "catch", "function", "constructor", "return", "super", "with", "async", "await"}
)
_MAX_METHODS = 200
_MAX_CALLS = 200


def wrapper_method_calls(
    view: CodeView,
    wrappers: tuple[SdkRegion, ...],
    regions: tuple[SdkRegion, ...],
    uses: list[tuple[int, str, str, str]],
) -> list[RawNeed]:
    """Calls, outside every SDK body, of wrapper methods whose bodies call the host.

    `uses` are the bridge-name hits of the stretch: (offset, name, role, receiver).
    """
    derived = _method_needs(view, wrappers, uses)
    if not derived:
        return []
    names = sorted(derived, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w$])(" + "|".join(re.escape(n) for n in names) + r")(?![\w$])")
    found: list[RawNeed] = []
    for match in view.budget.hits(find_words(view, pattern, names)):
        at = match.start()
        if not is_code(view.layout, at) or in_regions(regions, at) or not _is_member_call(view, at, match.end()):
            continue
        detail = f"{match.group(1)} (wraps the host)"
        found.extend(
            RawNeed(need=need, kind="call", confidence="medium", via="wrapper", detail=detail, offset=at)
            for need in sorted(derived[match.group(1)])
        )
        if len(found) >= _MAX_CALLS:
            break
    return found


def _is_member_call(view: CodeView, start: int, end: int) -> bool:
    """`x.name(`, `x?.name(` or `x.name?.(` with a receiver other than `this`."""
    source = view.source
    dot = prev_code_index(source, view.layout, start)
    if dot < 0 or source[dot] != ".":
        return False
    receiver_end = prev_code_index(source, view.layout, dot - 1 if source[dot - 1] == "?" else dot)
    if (
        receiver_end >= 3
        and source[receiver_end - 3 : receiver_end + 1] == "this"
        and at_word_start(source, receiver_end - 3)
    ):
        return False
    after = next_code_index(source, view.layout, end)
    return after >= 0 and (source[after] == "(" or source.startswith("?.(", after))


def _method_needs(
    view: CodeView, wrappers: tuple[SdkRegion, ...], uses: list[tuple[int, str, str, str]]
) -> dict[str, set[str]]:
    """Per wrapper method name (other than the bridge names themselves): the needs its body calls for."""
    derived: dict[str, set[str]] = {}
    calls = sorted((at, name) for at, name, role, _ in uses if role == "call")
    positions = [at for at, _ in calls]
    for region in wrappers:
        heads = _member_heads(view, region)
        for index, (head, name) in enumerate(heads):
            stop = heads[index + 1][0] if index + 1 < len(heads) else region.end
            first = bisect_right(positions, head)
            for at, called in calls[first:]:
                if at >= stop:
                    break
                need = APP_METHOD_NEEDS.get(called) or OPENAI_METHOD_NEEDS.get(called)
                if need is not None and name not in APP_METHOD_NEEDS and name not in OPENAI_METHOD_NEEDS:
                    derived.setdefault(name, set()).add(need)
    return derived


def _member_heads(view: CodeView, region: SdkRegion) -> list[tuple[int, str]]:
    """(offset, name) of the methods and arrow-function fields directly in a wrapper body, in order."""
    heads: list[tuple[int, str]] = []
    for match in _MEMBER_HEAD.finditer(view.source, region.start + 1, region.end):
        at = match.start(1)
        name = match.group(1)
        if name in _NOT_METHODS or not is_code(view.layout, at):
            continue
        if enclosing_open_brace(view.source, view.layout, at, region.end - region.start) != region.start:
            continue
        heads.append((at, name))
        if len(heads) >= _MAX_METHODS:
            break
    return heads
