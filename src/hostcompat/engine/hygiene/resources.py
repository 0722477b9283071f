"""Hygiene of a server's `ui://` resources: URI, MIME type, text-or-blob, HTML document, size, hash, `_meta.ui`, CSP.

Pure checks over a resources/list entry and a captured resources/read result; each problem is a finding that
names the resource and the tools rendering it. The HTML check is deliberately cheap: a bounded prefix is parsed
with the standard library, looking for `<!DOCTYPE html>` or an `<html>` element.
"""

from __future__ import annotations

import base64
import binascii
import difflib
import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.apps.bridge.methods import LEGACY_METHOD_RENAMES, METHODS
from hostcompat.apps.constants import (
    LEGACY_RESOURCE_MIME_TYPE,
    MAX_HTML_BYTES,
    META_UI_KEY,
    OPENAI_WIDGET_MIME_TYPE,
    RESOURCE_MIME_TYPE,
    UI_URI_PREFIX,
)
from hostcompat.apps.csp import csp_source_is_valid
from hostcompat.apps.meta.access import ResourceUI
from hostcompat.apps.openai.mapping import (
    OPENAI_WIDGET_CSP,
    OPENAI_WIDGET_DOMAIN,
    OPENAI_WIDGET_PREFERS_BORDER,
    openai_conflicts,
)
from hostcompat.apps.resource import content_hash, decode_html_blob, html_byte_size
from hostcompat.apps.uri import validate_ui_uri
from hostcompat.engine.findings.model import Evidence, Finding, cut_snippet
from hostcompat.engine.findings.rules import finding_for
from hostcompat.engine.hygiene.sent_methods import sent_ui_methods
from hostcompat.engine.server.tool_meta import preview_value
from hostcompat.errors import (
    EmptyResource,
    HostCompatError,
    InvalidInput,
    InvalidOpenAIMeta,
    NotUTF8,
    ResourceTooLarge,
)
from hostcompat.wire_json import WireJSON, WireValue

HTML_SNIFF_CHARS: Final = 65_536
"""How much of a document's start is parsed when looking for `<!DOCTYPE html>` or `<html>`."""

MAX_CHECKED_BLOB_CHARS: Final = 64 * 1024 * 1024
"""Over-budget blobs up to this length are still decoded to check them; longer ones are only reported as too big."""

UI_MIME_TYPES: Final = (RESOURCE_MIME_TYPE, OPENAI_WIDGET_MIME_TYPE, LEGACY_RESOURCE_MIME_TYPE)
"""MIME types that make a listed resource a UI template whatever its URI."""

_HASH: Final = regex(r"\Asha256:[0-9a-f]{64}\Z")
_OPENAI_RESOURCE_KEYS: Final = (OPENAI_WIDGET_CSP, OPENAI_WIDGET_DOMAIN, OPENAI_WIDGET_PREFERS_BORDER)
_CSP_LISTS: Final = (
    ("connectDomains", "connect_domains"),
    ("resourceDomains", "resource_domains"),
    ("frameDomains", "frame_domains"),
    ("baseUriDomains", "base_uri_domains"),
)


@dataclass(frozen=True)
class ResourceUse:
    """Who renders a UI resource: the tools naming it, and whether only OpenAI templates do."""

    tools: tuple[str, ...] = ()
    openai_only: bool = False


def is_ui_listing(entry: WireJSON) -> bool:
    """True when a resources/list entry is a UI template: a `ui://` URI or a UI MIME type."""
    uri, mime = entry.get("uri"), entry.get("mimeType")
    return (isinstance(uri, str) and uri.startswith(UI_URI_PREFIX)) or mime in UI_MIME_TYPES


def read_item(uri: str, record: object) -> tuple[WireJSON | None, str | None]:
    """The content item of a captured read that carries `uri`, or why there is none.

    A record is a read result `{contents: [...]}`, an error `{error: ...}` or a captured exception.
    """
    if isinstance(record, BaseException):
        return None, f"the read raised {type(record).__name__}: {preview_value(str(record))}"
    if not isinstance(record, Mapping):
        return None, f"the recorded read is {preview_value(record)}, neither a read result nor an error"
    if "error" in record and "contents" not in record:
        error = record["error"]
        message = error.get("message") if isinstance(error, Mapping) else error
        return None, f"the read failed: {preview_value(message)}"
    contents = record.get("contents")
    if not isinstance(contents, list) or not contents:
        return None, "the read returned no contents"
    matching = [item for item in contents if isinstance(item, Mapping) and item.get("uri") == uri]
    if len(matching) != 1:
        count = "no content item carries" if not matching else f"{len(matching)} content items carry"
        return None, f"{count} the requested URI (of {len(contents)} items)"
    return matching[0], None


def check_ui_resource(
    uri: str, listing: WireJSON | None, read: object, *, was_read: bool, use: ResourceUse
) -> list[Finding]:
    """Every resource hygiene finding for one UI resource: its URI, listing entry and captured read."""
    check = _Check(uri, use)
    check.uri_rules()
    listing_ui = None if listing is None else check.holder_rules(listing, f"resource:{uri}", required_mime=False)
    if was_read:
        item, problem = read_item(uri, read)
        if item is None:
            check.add("RES-READ-001", f"{problem}.", _FIX_READ, Evidence(f"resource-read:{uri}", detail=problem))
        else:
            check.content_rules(item, listing_ui)
    return check.findings


class _Check:
    """Collects the findings on one resource, each naming the resource and the tools that render it."""

    def __init__(self, uri: str, use: ResourceUse) -> None:
        self.uri = uri
        self.use = use
        self.findings: list[Finding] = []
        self.text_size: int | None = None
        """The UTF-8 size of the text `html_of` last returned (None for a decoded blob): measuring it encodes the
        text, which is what finds a lone surrogate, so the document rules need not encode it again."""

    def add(self, rule_id: str, detail: str, remediation: str, *evidence: Evidence) -> None:
        self.findings.append(
            finding_for(
                rule_id,
                detail=f"Resource {preview_value(self.uri)}: {detail}",
                remediation=remediation,
                tools=self.use.tools,
                resources=(self.uri,),
                evidence=evidence,
            )
        )

    def uri_rules(self) -> None:
        where = Evidence(f"resource:{self.uri}", detail="uri", snippet=self.uri)
        if not self.uri.startswith(UI_URI_PREFIX):
            self.add("RES-URI-001", f"the URI does not start with {UI_URI_PREFIX!r}.", _FIX_URI, where)
            return
        try:
            validate_ui_uri(self.uri)
        except HostCompatError as error:
            self.add("RES-URI-002", f"{error.message}.", _FIX_URI, where)

    def holder_rules(self, holder: WireJSON, source: str, *, required_mime: bool) -> ResourceUI | None:
        """MIME, `_meta.ui` and `openai/*` rules of a listing entry or content item; its parsed `_meta.ui`."""
        self.mime_rule(holder.get("mimeType"), source, required=required_mime)
        meta = holder.get("_meta")
        if meta is None:
            return None
        if not isinstance(meta, Mapping):
            self.add("RES-META-001", f"_meta is {preview_value(meta)}, not an object.", _FIX_META, Evidence(source))
            return None
        self.openai_rules(meta, source)
        raw_ui = meta.get(META_UI_KEY)
        if raw_ui is None:
            return None
        try:
            ui = ResourceUI.from_wire(raw_ui)
        except HostCompatError as error:
            evidence = Evidence(source, detail="_meta.ui", snippet=preview_value(raw_ui))
            self.add("RES-META-001", f"{error.message}.", _FIX_META, evidence)
            return None
        self.ui_rules(ui, source)
        return ui

    def mime_rule(self, mime: object, source: str, *, required: bool) -> None:
        if mime == RESOURCE_MIME_TYPE or (mime is None and not required):
            return
        where = Evidence(source, detail="mimeType", snippet=preview_value(mime))
        if mime == LEGACY_RESOURCE_MIME_TYPE:
            self.add("RES-MIME-003", f"mimeType is the obsolete {mime!r}.", _FIX_MIME, where)
        elif mime == OPENAI_WIDGET_MIME_TYPE:
            if not self.use.openai_only:
                self.add("RES-MIME-002", f"mimeType is {mime!r}; MCP Apps hosts do not render it.", _FIX_MIME, where)
        else:
            shown = "missing" if mime is None else preview_value(mime)
            self.add("RES-MIME-001", f"mimeType is {shown}, not {RESOURCE_MIME_TYPE!r}.", _FIX_MIME, where)

    def ui_rules(self, ui: ResourceUI, source: str) -> None:
        if ui.legacy_csp is not None:
            evidence = Evidence(source, detail="_meta.ui.csp", snippet=ui.legacy_csp)
            self.add("RES-CSP-002", "_meta.ui.csp is a raw CSP string, not the domains object.", _FIX_CSP, evidence)
        if ui.csp is not None:
            bad = [
                f"{key}: {preview_value(origin)}"
                for key, field_name in _CSP_LISTS
                for origin in getattr(ui.csp, field_name)
                if not csp_source_is_valid(origin)
            ]
            if bad:
                evidence = Evidence(source, detail="_meta.ui.csp", snippet="; ".join(bad))
                self.add("RES-CSP-001", f"malformed CSP origins: {'; '.join(bad[:5])}.", _FIX_CSP, evidence)
        if ui.content_hash is not None and not _HASH.match(ui.content_hash):
            evidence = Evidence(source, detail="_meta.ui.contentHash", snippet=ui.content_hash)
            self.add("RES-HASH-002", "contentHash is not 'sha256:' + 64 lowercase hex digits.", _FIX_HASH, evidence)

    def openai_rules(self, meta: WireJSON, source: str) -> None:
        if not any(key in meta for key in _OPENAI_RESOURCE_KEYS) or "_meta" in meta:
            return
        try:
            conflicts = openai_conflicts(meta)
        except InvalidOpenAIMeta as error:
            self.add("RES-OPENAI-002", f"{error.message}.", _FIX_OPENAI, Evidence(source, detail="_meta"))
            return
        except HostCompatError:  # a malformed _meta.ui: RES-META-001 reports it
            return
        for conflict in conflicts:
            if conflict.openai_key.startswith(_OPENAI_RESOURCE_KEYS):
                evidence = Evidence(source, detail=conflict.openai_key, snippet=preview_value(conflict.openai_value))
                self.add("RES-OPENAI-001", f"{cut_snippet(conflict.message)}.", _FIX_OPENAI, evidence)

    def content_rules(self, item: WireJSON, listing_ui: ResourceUI | None) -> None:
        source = f"resource-read:{self.uri}"
        content_ui = self.holder_rules(item, source, required_mime=True)
        html = self.html_of(item, source)
        if listing_ui is not None and content_ui is not None and listing_ui.to_wire() != content_ui.to_wire():
            both = (
                Evidence(f"resource:{self.uri}", detail="_meta.ui", snippet=preview_value(listing_ui.to_wire())),
                Evidence(source, detail="_meta.ui", snippet=preview_value(content_ui.to_wire())),
            )
            self.add("RES-META-002", "the listing's _meta.ui differs from the content item's.", _FIX_META, *both)
        if html is None:
            return
        self.document_rules(html, self.text_size)
        actual: str | None = None  # hashed only for a declared hash to compare (a 10 MB widget takes milliseconds)
        for ui, where in ((content_ui, source), (listing_ui, f"resource:{self.uri}")):
            declared = None if ui is None else ui.content_hash
            if declared is None or not _HASH.match(declared):
                continue
            actual = content_hash(html) if actual is None else actual
            if declared != actual:
                evidence = Evidence(where, detail="_meta.ui.contentHash", snippet=declared)
                detail = f"contentHash {declared} does not match the HTML ({actual})."
                self.add("RES-HASH-001", detail, _FIX_HASH, evidence)

    def html_of(self, item: WireJSON, source: str) -> str | None:
        """The item's HTML (from `text` or a decoded `blob`), or None after a finding saying why not."""
        self.text_size = None
        text, blob = item.get("text"), item.get("blob")
        if (text is None) == (blob is None):
            which = "both text and blob" if text is not None else "neither text nor blob"
            self.add("RES-CONTENT-001", f"the content item has {which}.", _FIX_CONTENT, Evidence(source))
            return None
        if text is not None:
            if not isinstance(text, str):
                detail = f"text is {preview_value(text)}, not a string."
                self.add("RES-CONTENT-001", detail, _FIX_CONTENT, Evidence(source, detail="text"))
                return None
            try:
                self.text_size = html_byte_size(text)  # one pass: measuring encodes, which fails on a lone surrogate
            except NotUTF8:
                self.add("RES-CONTENT-002", "text is not valid UTF-8.", _FIX_CONTENT, Evidence(source, detail="text"))
                return None
            return text
        return self.decoded_blob(blob, source)

    def decoded_blob(self, blob: object, source: str) -> str | None:
        try:
            return decode_html_blob(blob)
        except EmptyResource:
            return ""
        except ResourceTooLarge:
            if not isinstance(blob, str) or len(blob) > MAX_CHECKED_BLOB_CHARS:
                detail = "the blob is too large to check."
                self.add("RES-SIZE-001", detail, _FIX_SIZE, Evidence(source, detail="blob"))
                return None
            return self.oversized_blob(blob, source)
        except HostCompatError as error:
            self.add("RES-CONTENT-002", f"{error.message}.", _FIX_CONTENT, Evidence(source, detail="blob"))
            return None

    def oversized_blob(self, blob: str, source: str) -> str | None:
        try:
            compact = blob.replace("\r", "").replace("\n", "").encode("ascii")
            return base64.b64decode(compact, validate=True).decode("utf-8")
        except (UnicodeError, binascii.Error) as error:
            detail = f"the blob does not decode to UTF-8 HTML ({type(error).__name__})."
            self.add("RES-CONTENT-002", detail, _FIX_CONTENT, Evidence(source, detail="blob"))
            return None

    def document_rules(self, html: str, size: int | None = None) -> None:
        """The rules on the HTML document itself; `size` is its UTF-8 size when already measured."""
        source = f"widget:{self.uri}"
        if size is None:  # in pieces: encoded whole, a big widget cost a transient copy of 4x its size
            size = html_byte_size(html)
        if size > MAX_HTML_BYTES:
            detail = f"the HTML is {size} bytes, over the {MAX_HTML_BYTES}-byte budget."
            self.add("RES-SIZE-001", detail, _FIX_SIZE, Evidence(source, detail=f"{size} bytes"))
        if not html or html.isspace():  # as `not html.strip()`, without copying the page
            self.add("RES-HTML-001", "the HTML is empty.", _FIX_HTML, Evidence(source, offset=0, line=1, snippet=""))
        elif not _looks_like_document(html[:HTML_SNIFF_CHARS]):
            detail = f"no <!DOCTYPE html> or <html> element in its first {HTML_SNIFF_CHARS} characters."
            evidence = Evidence(source, offset=0, line=1, snippet=html[:80])
            self.add("RES-HTML-001", detail, _FIX_HTML, evidence)
        self.bridge_method_rules(html, source)

    def bridge_method_rules(self, html: str, source: str) -> None:
        """RES-BRIDGE-001: the widget sends a `ui/…` method no spec defines (or an early-draft name): no host
        answers it, so whatever the widget waits for never comes.
        """
        seen: set[str] = set()
        for match in sent_ui_methods(html):
            group = 1 if match.group(1) is not None else 2
            method = match.group(group)
            if method in KNOWN_UI_METHODS or method in seen or len(seen) >= _MAX_BRIDGE_NAMES:
                continue
            seen.add(method)
            renamed = LEGACY_METHOD_RENAMES.get(method)
            if renamed is not None:
                detail = f"the widget sends {method!r}, an early-draft name hosts no longer answer (now {renamed!r})."
                fix = f"Send {renamed!r}, or use the MCP Apps SDK's App methods, which use the spec's names."
            else:
                close = difflib.get_close_matches(method, sorted(KNOWN_UI_METHODS), n=1, cutoff=0.5)
                detail = f"the widget sends {method!r}, which no MCP Apps spec defines: no host will answer it."
                hint = f"Did you mean {close[0]!r}? " if close else ""
                fix = f"{hint}Use the spec's method names, or the MCP Apps SDK's App methods."
            line = html.count("\n", 0, match.start()) + 1
            snippet = html[match.start() : match.end()][:80]
            self.add(
                "RES-BRIDGE-001", detail, fix, Evidence(source, offset=match.start(group), line=line, snippet=snippet)
            )


KNOWN_UI_METHODS: Final = frozenset(spec.name for spec in METHODS)
"""Every method the MCP Apps bridge defines (both directions)."""
_MAX_BRIDGE_NAMES: Final = 20


_HTML5_DOCTYPE: Final = regex(r"[ \t\r\n]*<!doctype[ \t\r\n]+html[ \t\r\n]*>", re.IGNORECASE)
"""The usual opening of a page, which the sniffer would read as a document: checked first, without the parser."""


@functools.cache
def _sniffer_class() -> type[Any]:
    """The HTML sniffer class, built on first use (html.parser is not worth importing for servers without UI)."""
    from html.parser import HTMLParser

    class DocumentSniffer(HTMLParser):
        """Notes whether a `<!DOCTYPE html>` declaration or an `<html>` start tag is parsed."""

        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.is_document = False

        def handle_decl(self, decl: str) -> None:
            if decl.lower().split()[:2] == ["doctype", "html"]:
                self.is_document = True

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "html":
                self.is_document = True

    return DocumentSniffer


def _looks_like_document(prefix: str) -> bool:
    if _HTML5_DOCTYPE.match(prefix):
        return True  # what the parser says of a page opening with <!DOCTYPE html>, without importing html.parser
    sniffer = _sniffer_class()()
    try:
        sniffer.feed(prefix)
    except (AssertionError, ValueError):  # older html.parser versions assert on some malformed markup
        return bool(sniffer.is_document)
    return bool(sniffer.is_document)


def check_resource_list(resources: Sequence[WireValue] | None) -> dict[str, WireJSON]:
    """The UI entries of a resources/list capture by URI (the first entry of a URI wins); None gives `{}`.

    Raises:
        InvalidInput: `resources` is not a list.
    """
    if resources is None:
        return {}
    if not isinstance(resources, (list, tuple)):
        raise InvalidInput(
            f"resources must be a list of resource objects, got {type(resources).__name__}", value=resources
        )
    listed: dict[str, WireJSON] = {}
    for entry in resources:
        if isinstance(entry, Mapping) and isinstance(entry.get("uri"), str) and is_ui_listing(entry):
            listed.setdefault(entry["uri"], entry)
    return listed


_FIX_URI: Final = "Serve UI templates under a valid ui:// URI (e.g. ui://my-server/widget.html) and reference that URI."
_FIX_MIME: Final = f"Serve the UI resource (listing and content) with mimeType {RESOURCE_MIME_TYPE!r}."
_FIX_READ: Final = "Make resources/read of the URI return one content item with that exact URI and the HTML."
_FIX_CONTENT: Final = "Return the HTML as a UTF-8 'text' string (or a strict base64 'blob'), exactly one of the two."
_FIX_HTML: Final = "Serve a complete HTML5 document starting with <!DOCTYPE html>."
_FIX_SIZE: Final = "Keep the HTML under 1 MiB: load large scripts from a CSP-declared origin instead of inlining them."
_FIX_HASH: Final = (
    "Recompute contentHash as 'sha256:' + the lowercase hex SHA-256 of the HTML's UTF-8 bytes, or drop it."
)
_FIX_META: Final = "Declare _meta.ui as documented (csp object, permissions object, string fields), the same on both."
_FIX_CSP: Final = (
    "List origins as scheme://host[:port] in the _meta.ui.csp object (connectDomains, resourceDomains, …)."
)
_FIX_OPENAI: Final = (
    "Make the openai/* resource keys well-typed and equal to their _meta.ui counterparts, or drop them."
)

__all__ = [
    "HTML_SNIFF_CHARS",
    "MAX_CHECKED_BLOB_CHARS",
    "UI_MIME_TYPES",
    "ResourceUse",
    "check_resource_list",
    "check_ui_resource",
    "is_ui_listing",
    "read_item",
]
