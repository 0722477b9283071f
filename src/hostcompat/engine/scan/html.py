"""A tolerant, linear HTML splitter: where the scripts, event handlers and loaded URLs of a widget are.

The scanner does not need a DOM: it needs the JavaScript regions (inline and module scripts,
`on*` attributes), the external code (`<script src>`, import maps) and the URLs that CSP
governs (`<link href>`, `<img src>`, `<iframe src>` …). HTML comments hide all of them.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Literal

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.engine.scan.budget import check_deadline

__all__ = ["HtmlParts", "MarkupUrl", "ScriptBlock", "split_html"]

_TAG_OF_NOTE = regex(
    r"<(?:!--"
    r"|(/?)(?=([A-Za-z][A-Za-z0-9:-]*))\2(?!>)"  # a tag with attributes (the whole name, then no `>`)
    r"|()(?=([Ss][Cc][Rr][Ii][Pp][Tt]|[Ss][Tt][Yy][Ll][Ee])>)\4)"  # `<script>`, `<style>`: raw text follows
)
"""A comment, or a tag with something to read: every other tag (`<p>`, `</div>`) is passed over, in C."""
_OPENING_TAG = regex(r"<[A-Za-z]")
_TAG_STEP = regex(r"""(/?>)|[\s/]*([^\s=>/"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?|[\s\S]""")
"""One step through a tag: its end (`>` or `/>`), else an attribute (blanks and slashes before it), else a stray
character. Every step is one character or more, so the steps follow each other with nothing skipped."""
_RAW_TEXT_END = {name: regex("</" + "".join(f"[{c}{c.upper()}]" for c in name)) for name in ("script", "style")}
"""Where a raw-text element's content ends: `</name`, ASCII case-insensitive as browsers read it."""
_MAX_TAG_CHARS = 65_536
_DEADLINE_EVERY = 1024
_MEMCHR_PROBES = 32
_JS_TYPES = frozenset(
    {
        "",
        "module",
        "text/javascript",
        "application/javascript",
        "text/ecmascript",
        "application/ecmascript",
        "text/babel",
        "text/jsx",
    }
)
_URL_ATTRIBUTES: dict[str, tuple[str, Literal["resource", "frame"]]] = {
    "img": ("src", "resource"),
    "source": ("src", "resource"),
    "video": ("src", "resource"),
    "audio": ("src", "resource"),
    "track": ("src", "resource"),
    "embed": ("src", "resource"),
    "object": ("data", "resource"),
    "iframe": ("src", "frame"),
    "frame": ("src", "frame"),
}
_LINK_RESOURCE_RELS = frozenset({"stylesheet", "modulepreload", "preload", "prefetch", "icon", "manifest"})


@dataclass(frozen=True)
class ScriptBlock:
    """One piece of JavaScript in the document, or one external script reference.

    `kind` is "inline", "module", "handler" (an `on*` attribute) or "importmap"; `src` is set for
    an external script; `code_start:code_end` is the code inside `source` (empty for `src`).
    `decoded` holds attribute code after entity decoding, when it differs from the raw text.
    """

    kind: str
    tag_offset: int
    code_start: int
    code_end: int
    src: str | None
    decoded: str | None


@dataclass(frozen=True, kw_only=True)
class MarkupUrl:
    """A URL the markup loads: `directive` is "resource" or "frame"."""

    url: str
    directive: Literal["resource", "frame"]
    offset: int


@dataclass(frozen=True)
class HtmlParts:
    """The scripts and URLs of one document; `looks_like_html` is False for a bare script."""

    scripts: tuple[ScriptBlock, ...]
    urls: tuple[MarkupUrl, ...]
    looks_like_html: bool


def split_html(source: str, end: int) -> HtmlParts:
    """Split `source[:end]` into script blocks and loaded URLs, in document order."""
    scripts: list[ScriptBlock] = []
    urls: list[MarkupUrl] = []
    saw_tag = False
    pos = 0
    steps = 0
    while pos < end:
        steps += 1
        if steps % _DEADLINE_EVERY == 0:
            check_deadline()  # a page of half a million tags is a long walk
        hit = _TAG_OF_NOTE.search(source, pos, end)
        if not saw_tag and _OPENING_TAG.search(source, pos, end if hit is None else hit.start()):
            saw_tag = True  # a plain opening tag (`<p>`) was passed over
        if hit is None:
            break
        if hit.group(0) == "<!--":
            close = source.find("-->", hit.end(), end)
            pos = end if close < 0 else close + 3
            continue
        name_end = hit.end()
        raw_name = hit.group(2)
        if raw_name is None:  # `<script>` or `<style>`: no attributes
            raw_name = hit.group(4)
            attributes: dict[str, tuple[str, int]] = {}
            tag_end = name_end + 1
        else:
            attributes, tag_end = _read_attributes(source, name_end, end)
        pos = tag_end
        if hit.group(1):
            continue
        saw_tag = True
        name = raw_name.lower()
        if attributes:
            _collect_handlers(source, hit.start(), attributes, scripts)
            _collect_urls(name, attributes, hit.start(), urls)
        raw_end = _RAW_TEXT_END.get(name)
        if raw_end is None:
            continue
        content_end = _raw_text_end(source, raw_end, tag_end, end)
        if name == "script":
            _collect_script(source, hit.start(), tag_end, content_end, attributes, scripts)
        pos = content_end
    return HtmlParts(tuple(scripts), tuple(urls), saw_tag)


def _raw_text_end(source: str, close_tag: re.Pattern[str], start: int, end: int) -> int:
    """Where raw text from `start` ends (`end` when unclosed): `close_tag.search`, but the first few `<` are
    found by `str.find` (memchr), which outruns the regex engine's prefix search on code with few tags.
    """
    at = start
    for _ in range(_MEMCHR_PROBES):
        at = source.find("<", at, end)
        if at < 0:
            return end
        if close_tag.match(source, at, end):
            return at
        at += 1
    found = close_tag.search(source, at, end)
    return end if found is None else found.start()


def _read_attributes(source: str, pos: int, end: int) -> tuple[dict[str, tuple[str, int]], int]:
    """Read a tag's attributes from `pos`; return them (name -> (value, offset)) and the index after `>`.

    Each step is the tag's end, an attribute, or one stray character skipped, tried in that order (`_TAG_STEP`).
    """
    attributes: dict[str, tuple[str, int]] = {}
    limit = min(end, pos + _MAX_TAG_CHARS)
    for step in _TAG_STEP.finditer(source, pos, limit):
        kind = step.lastindex  # 1: the end, 2: a name alone, 3-5: a name and its value; None: a stray character
        if kind is None:
            if step.start() == limit - 1 and source.startswith("/>", limit - 1):
                return attributes, limit + 1  # a `/>` across the limit closes the tag, as it always did
            continue
        if kind == 1:
            return attributes, step.end()
        if kind == 2:
            attributes.setdefault(step.group(2).lower(), ("", step.start(2)))
            continue
        value = step.group(kind)
        value_offset = step.start(kind)
        if kind == 5 and value[:1] in ("'", '"'):  # an unclosed quote: the value is cut at both ends, as ever
            value = value[1:-1]
            value_offset += 1
        attributes.setdefault(step.group(2).lower(), (value, value_offset))
    return attributes, limit


def _unescape(text: str) -> str:
    """`html.unescape(text)`; `html` (and its table of 2,000 entities) is imported for the first text with an `&`."""
    if "&" not in text:
        return text  # what `html.unescape` returns too
    unescape: Callable[[str], str] = importlib.import_module("html").unescape
    return unescape(text)


def _collect_handlers(
    source: str, tag_offset: int, attributes: dict[str, tuple[str, int]], scripts: list[ScriptBlock]
) -> None:
    for attribute, (value, offset) in attributes.items():
        if not attribute.startswith("on") or not value:
            continue
        decoded = _unescape(value)
        scripts.append(
            ScriptBlock("handler", tag_offset, offset, offset + len(value), None, decoded if decoded != value else None)
        )


def _collect_urls(name: str, attributes: dict[str, tuple[str, int]], tag_offset: int, urls: list[MarkupUrl]) -> None:
    if name == "link":
        rels = set(attributes.get("rel", ("", 0))[0].lower().split())
        href = attributes.get("href")
        if href and rels & _LINK_RESOURCE_RELS:
            urls.append(MarkupUrl(url=_unescape(href[0]).strip(), directive="resource", offset=href[1]))
        return
    spec = _URL_ATTRIBUTES.get(name)
    if spec is None:
        return
    found = attributes.get(spec[0])
    if found and found[0].strip():
        urls.append(MarkupUrl(url=_unescape(found[0]).strip(), directive=spec[1], offset=found[1]))


def _collect_script(
    source: str,
    tag_offset: int,
    content_start: int,
    content_end: int,
    attributes: dict[str, tuple[str, int]],
    scripts: list[ScriptBlock],
) -> None:
    script_type = attributes.get("type", ("", 0))[0].strip().lower()
    src = attributes.get("src")
    if script_type == "importmap":
        scripts.append(ScriptBlock("importmap", tag_offset, content_start, content_end, None, None))
        return
    if script_type not in _JS_TYPES:
        return
    kind = "module" if script_type == "module" else "inline"
    if src is not None and src[0].strip():
        scripts.append(ScriptBlock(kind, tag_offset, src[1], src[1], _unescape(src[0]).strip(), None))
        return
    scripts.append(ScriptBlock(kind, tag_offset, content_start, content_end, None, None))
