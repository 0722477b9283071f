"""Browser APIs that only work in a sandboxed iframe when the host grants a permission.

`getUserMedia`, speech recognition, geolocation and clipboard writes fail inside a widget unless
the host's iframe `allow` list carries the matching feature, so using them is a
`sandboxPermissions` need, named after the `_meta.ui.permissions` key that requests it.
"""

from __future__ import annotations

from hostcompat._regex import regex
from hostcompat.engine.scan.js.context import CodeView, at_word_start
from hostcompat.engine.scan.js.lexer import is_code, prev_code_index
from hostcompat.engine.scan.js.sdk import SdkRegion, in_regions
from hostcompat.engine.scan.needs import Confidence
from hostcompat.engine.scan.prefilter import gate
from hostcompat.engine.scan.raw import RawNeed

__all__ = ["scan_permission_apis"]

_PERMISSION_APIS = (
    ("getUserMedia", regex(r"getUserMedia\s*\(")),
    ("SpeechRecognition", regex(r"SpeechRecognition(?![\w$])")),
    ("geolocation", regex(r"geolocation\s*\??\.\s*(?:getCurrentPosition|watchPosition)(?![\w$])")),
    ("clipboard", regex(r"clipboard\s*\??\.\s*(?:writeText|write)\s*\(")),
)
_GATES = {marker: gate(marker) for marker, _ in _PERMISSION_APIS}
_NAVIGATOR_ONLY = frozenset({"geolocation", "clipboard"})
# `word(?<!\wword)` is `\bword` spelled so that the regex engine can skip ahead to the word (a leading `\b` stops it)
_NAVIGATOR_BEFORE = regex(r"navigator(?<!\wnavigator)\s*\??\.\s*$")
_MEDIA_WINDOW = 120
_MAX_FINDINGS = 32


def scan_permission_apis(view: CodeView, regions: tuple[SdkRegion, ...]) -> list[RawNeed]:
    """Uses of permission-gated browser APIs in code outside SDK bodies."""
    source = view.source
    found: list[RawNeed] = []
    for marker, pattern in _PERMISSION_APIS:
        for match in view.budget.hits(view.finditer(pattern, _GATES[marker])):
            at = match.start()
            word_start = at_word_start(source, at) or source[at - 6 : at] == "webkit"
            if not word_start or not is_code(view.layout, at) or in_regions(regions, at):
                continue
            if marker in _NAVIGATOR_ONLY and not _on_navigator(view, at):
                continue
            for permission in _permissions(source, match.group(0), match.end()):
                confidence: Confidence = "medium" if marker == "SpeechRecognition" else "high"
                found.append(
                    RawNeed(
                        need="sandboxPermissions",
                        kind="use",
                        confidence=confidence,
                        via="browser-api",
                        detail=permission,
                        offset=at,
                    )
                )
            if len(found) >= _MAX_FINDINGS:
                return found
    return found


def _on_navigator(view: CodeView, at: int) -> bool:
    """`navigator.geolocation…` (or a bare `geolocation…`), not a library option such as `this.options.geolocation`."""
    before = prev_code_index(view.source, view.layout, at)
    if before < 0 or view.source[before] != ".":
        return True
    return _NAVIGATOR_BEFORE.search(view.source, max(view.start, at - 24), at) is not None


def _permissions(source: str, text: str, end: int) -> tuple[str, ...]:
    if text.startswith("getUserMedia"):
        window = source[end : end + _MEDIA_WINDOW]
        wanted = tuple(name for key, name in (("audio", "microphone"), ("video", "camera")) if key in window)
        return wanted or ("camera", "microphone")
    if "SpeechRecognition" in text:
        return ("microphone",)
    if text.startswith("geolocation"):
        return ("geolocation",)
    return ("clipboardWrite",)
