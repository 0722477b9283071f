"""What one widget's code needs, whatever server serves it: the scan of one content item, keyed by its bytes.

A widget's scan reads its `resources/read` content item alone (its `text` or base64 `blob`, and the `mimeType` that
says whether the text is a list of URIs) and depends on nothing else but the scanner's code
(`engine.scan.version.SCANNER_VERSION`). So the same widget served by several servers is scanned once in a run, and
its result may be kept between runs (`hostcompat check --cache-dir`): `content_key` is the SHA-256 of those bytes and
the scanner's version, `ContentNeeds` the result, plain and frozen, with a strict JSON form (`needs_to_json`,
`needs_from_json`: a file that is not exactly that form is no result). `scan_content` is the pure function a scan
is, in this process or a worker's; `ScanSource` is what the widget stage asks for scans, and `MemoScans` the
simplest one (each distinct content scanned once).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, Protocol

from hostcompat._dataclass import dataclass
from hostcompat.engine.server.long_values import cut_value
from hostcompat.errors import HostCompatError, ScanTimedOut
from hostcompat.wire_json import WireJSON, WireObject

if TYPE_CHECKING:
    from hostcompat.engine.scan.model import NeedFinding

_HASH_CHUNK: Final = 1 << 20
"""Characters encoded at a time while hashing (a 16 MiB widget is never copied whole)."""
_MAX_JSON_ITEMS: Final = 100_000
"""The most uses or places one cached result may list (a scan caps its findings far below)."""


@dataclass(frozen=True, kw_only=True)
class NeedUse:
    """One place a widget uses a need: the spelling that matched, whether a capability check guards it, and where
    (1-based `line` and a short `snippet` of its code; None for a need its `_meta` declares).
    """

    need: str
    detail: str
    guarded: bool
    line: int | None
    snippet: str | None

    def to_dict(self) -> WireObject:
        """The report's JSON form; `line` and `snippet` only when known."""
        out: WireObject = {"need": self.need, "detail": self.detail, "guarded": self.guarded}
        if self.line is not None:
            out["line"] = self.line
        if self.snippet is not None:
            out["snippet"] = self.snippet
        return out


def need_use(finding: NeedFinding) -> NeedUse:
    """Where a scan (of the content or of the `_meta`) found one use of a need, as the report shows it."""
    evidence = finding.evidence
    return NeedUse(
        need=finding.need,
        detail=cut_value(finding.detail, 200),
        guarded=finding.kind == "guarded-call",
        line=None if evidence is None else evidence.line,
        snippet=None if evidence is None else evidence.snippet,
    )


@dataclass(frozen=True, kw_only=True)
class ContentNeeds:
    """What the scan of one widget's content found, independent of the server serving it.

    `uses` are the (need, guarded) uses it counts, `seen` where each was found (in order, each place once),
    `wrapper_only` the needs found only through a bridge wrapper the bundle defines. `code_analysed` is False when
    the page loads its code from elsewhere, `capped` when it holds more candidate calls than the scanner looks at,
    and `error` says why the content could not be scanned at all (the rest is then empty).
    """

    uses: tuple[tuple[str, bool], ...] = ()
    seen: tuple[NeedUse, ...] = ()
    wrapper_only: tuple[str, ...] = ()
    code_analysed: bool = True
    capped: bool = False
    error: str | None = None


class ScanSource(Protocol):
    """Where the widget stage gets the scan of one content item (scanned now, from a run's cache, or a worker's)."""

    def content_needs(self, item: WireJSON, deadline: float | None) -> ContentNeeds:
        """The scan of `item`, within `deadline` (`time.monotonic()`; None: none).

        Raises:
            ScanTimedOut: the scan ran past `deadline`.
        """
        ...


class MemoScans:
    """A `ScanSource` that scans each distinct content once and keeps the results.

    The same content is what `content_key` would give the same key (the scanner is this process's), found here
    without hashing it: by the field read, the MIME type and the length, then the text itself compared, which
    costs nothing for an item seen once (a 4 MB widget hashed took milliseconds of a check).
    """

    def __init__(self) -> None:
        self._done: dict[tuple[str, str, int], list[tuple[str, ContentNeeds]]] = {}

    def content_needs(self, item: WireJSON, deadline: float | None) -> ContentNeeds:
        """The kept scan of the same bytes, else a scan of `item` now (see `ScanSource`)."""
        read = _scanned_payload(item)
        if read is None:
            return scan_content(item, deadline)
        field, mime, payload = read
        kept = self._done.setdefault((field, mime, len(payload)), [])
        known = next((needs for text, needs in kept if text == payload), None)
        if known is not None:
            return known
        needs = scan_content(item, deadline)
        kept.append((payload, needs))
        return needs


def _scanned_payload(item: WireJSON) -> tuple[str, str, str] | None:
    """What a scan of `item` reads (as `content_key` hashes it): the field, the MIME type ('' when not a string)
    and the text or blob; None when `item` has neither as a string.
    """
    text, blob, mime = item.get("text"), item.get("blob"), item.get("mimeType")
    field, payload = ("text", text) if isinstance(text, str) else ("blob", blob)
    if not isinstance(payload, str):
        return None
    return field, mime if isinstance(mime, str) else "", payload


def content_key(item: WireJSON) -> str | None:
    """The SHA-256 (hex) of what a scan of `item` reads and of the scanner's version; None when `item` has no
    `text` or `blob` string (its scan fails the same way each time, and costs nothing).
    """
    import hashlib  # loads OpenSSL: only a run that keeps scans on disk or sends them to workers hashes

    from hostcompat.engine.scan.version import SCANNER_VERSION

    read = _scanned_payload(item)
    if read is None:
        return None
    field, mime, payload = read
    digest = hashlib.sha256()
    head = [SCANNER_VERSION, field, mime, str(len(payload))]
    digest.update("\0".join(head).encode("utf-8", "surrogatepass") + b"\0")
    for start in range(0, len(payload), _HASH_CHUNK):
        digest.update(payload[start : start + _HASH_CHUNK].encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def scan_content(item: WireJSON, deadline: float | None = None) -> ContentNeeds:
    """Scan one widget's content item (`engine.scan`) within `deadline` (`time.monotonic()`; None: none).

    Raises:
        ScanTimedOut: the scan ran past `deadline`.
    """
    from hostcompat.engine.scan.widget import scan_deadline, scan_widget_content
    from hostcompat.engine.scan.widget_needs import attributed_needs

    try:
        with scan_deadline(deadline):
            scan = scan_widget_content(item)
    except ScanTimedOut:
        raise
    except HostCompatError as error:
        return ContentNeeds(error=str(error))
    if not scan.code_analysed:
        return ContentNeeds(code_analysed=False)
    counting = [finding for finding in scan.findings if finding.counts]
    seen = (need_use(finding) for finding in counting)
    vias: dict[str, set[str]] = {}
    for finding in counting:
        vias.setdefault(finding.need, set()).add(finding.via)
    return ContentNeeds(
        uses=attributed_needs(scan),
        seen=tuple(dict.fromkeys(seen)),
        wrapper_only=tuple(need for need, how in vias.items() if how == {"wrapper"}),
        capped=any(limit.code == "hits_capped" for limit in scan.limits),
    )


_WARM_UP_ITEM: Final = {"uri": "ui://warm-up", "mimeType": "text/html", "text": "<script>window.openai</script>"}


def warm_up() -> None:
    """Load the scanner now (its modules, its compiled patterns) by scanning a few bytes, for a caller with time to
    spare: `hostcompat check` does it while its live servers start, so their first widget scan does not pay for it.
    """
    scan_content(_WARM_UP_ITEM)


def needs_to_json(needs: ContentNeeds) -> WireObject:
    """`needs` as plain JSON (read back by `needs_from_json`)."""
    return {
        "uses": [[need, guarded] for need, guarded in needs.uses],
        "seen": [[u.need, u.detail, u.guarded, u.line, u.snippet] for u in needs.seen],
        "wrapperOnly": list(needs.wrapper_only),
        "codeAnalysed": needs.code_analysed,
        "capped": needs.capped,
        "error": needs.error,
    }


def needs_from_json(data: object) -> ContentNeeds | None:
    """The `ContentNeeds` that `needs_to_json` wrote, or None for anything else (a file from elsewhere, cut short
    or edited): untrusted input is read, never obeyed, and a malformed one is no result rather than an error.
    """
    if not isinstance(data, Mapping) or set(data) != {"uses", "seen", "wrapperOnly", "codeAnalysed", "capped", "error"}:
        return None
    uses, seen, wrapped = data["uses"], data["seen"], data["wrapperOnly"]
    analysed, capped, error = data["codeAnalysed"], data["capped"], data["error"]
    if not (_short_list(uses) and _short_list(seen) and _short_list(wrapped)):
        return None
    if not (isinstance(analysed, bool) and isinstance(capped, bool) and (error is None or isinstance(error, str))):
        return None
    if not all(isinstance(need, str) for need in wrapped):
        return None
    read_uses = [_use(entry) for entry in uses]
    read_seen = [_place(entry) for entry in seen]
    if any(use is None for use in read_uses) or any(place is None for place in read_seen):
        return None
    return ContentNeeds(
        uses=tuple(use for use in read_uses if use is not None),
        seen=tuple(place for place in read_seen if place is not None),
        wrapper_only=tuple(wrapped),
        code_analysed=analysed,
        capped=capped,
        error=error,
    )


def _short_list(value: object) -> bool:
    return isinstance(value, list) and len(value) <= _MAX_JSON_ITEMS


def _use(entry: object) -> tuple[str, bool] | None:
    if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str) and isinstance(entry[1], bool):
        return entry[0], entry[1]
    return None


def _place(entry: object) -> NeedUse | None:
    if not isinstance(entry, list) or len(entry) != 5:
        return None
    need, detail, guarded, line, snippet = entry
    if not (isinstance(need, str) and isinstance(detail, str) and isinstance(guarded, bool)):
        return None
    if not (line is None or (isinstance(line, int) and not isinstance(line, bool))):
        return None
    if not (snippet is None or isinstance(snippet, str)):
        return None
    return NeedUse(need=need, detail=detail, guarded=guarded, line=line, snippet=snippet)


__all__ = [
    "ContentNeeds",
    "MemoScans",
    "NeedUse",
    "ScanSource",
    "content_key",
    "needs_from_json",
    "need_use",
    "needs_to_json",
    "scan_content",
    "warm_up",
]
