"""`ui://` HTML resources: the content hash, the 1 MiB budget, strict blob decoding and the wire builders.

Builders return plain wire dicts (camelCase keys, `_meta`), validate the URI first and enforce the budget,
so whatever they produce is something a strict host accepts.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from hostcompat._regex import regex
from hostcompat.apps.constants import MAX_HTML_BLOB_CHARS, MAX_HTML_BYTES, RESOURCE_MIME_TYPE
from hostcompat.apps.meta.access import ResourceUI, set_embedded_resource_ui, set_resource_ui
from hostcompat.apps.uri import validate_ui_uri
from hostcompat.errors import EmptyResource, InvalidBlob, InvalidInput, NotUTF8, ResourceTooLarge
from hostcompat.wire_json import WireJSON, WireObject

CONTENT_HASH_PREFIX: Final = "sha256:"
"""The prefix of a `_meta.ui.contentHash` value."""

_MAX_COPY_DEPTH: Final = 32
_BASE64: Final = regex(r"[A-Za-z0-9+/]*={0,2}")


def _utf8(text: str, what: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise NotUTF8(f"{what} is not encodable as UTF-8 (holds a lone surrogate)", value=text) from exc


_UTF8_PIECE: Final = 1 << 20
"""Characters encoded at a time by `_utf8_pieces`."""


def _utf8_pieces(text: str, what: str) -> Iterator[bytes]:
    """The UTF-8 bytes of `text` a megabyte of characters at a time: the encoder reserves 4 bytes per character of
    text holding one wide character, so a 50 MB widget encoded whole cost a transient 200 MB.
    """
    try:
        for at in range(0, len(text), _UTF8_PIECE):
            yield text[at : at + _UTF8_PIECE].encode("utf-8")
    except UnicodeEncodeError as exc:
        raise NotUTF8(f"{what} is not encodable as UTF-8 (holds a lone surrogate)", value=text) from exc


def _require_str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, got {type(value).__name__}", value=value)
    return value


def content_hash(html: str) -> str:
    """`sha256:` + the lowercase hex SHA-256 of the HTML's UTF-8 bytes, with no normalization (viant's `contentHash`).

    Raises `InvalidInput` for a non-string and `NotUTF8` for text holding a lone surrogate.
    """
    text = _require_str(html, "html")
    import hashlib  # loads OpenSSL: only callers that hash pay for it

    digest = hashlib.sha256()
    for piece in _utf8_pieces(text, "html"):
        digest.update(piece)
    return CONTENT_HASH_PREFIX + digest.hexdigest()


def html_byte_size(html: str) -> int:
    """The size of the HTML in UTF-8 bytes, the unit of the budget.

    Raises `InvalidInput` for a non-string and `NotUTF8` for text holding a lone surrogate.
    """
    text = _require_str(html, "html")
    return len(text) if text.isascii() else sum(map(len, _utf8_pieces(text, "html")))


def check_html_budget(html: str) -> int:
    """Check that the HTML is non-empty and at most `MAX_HTML_BYTES` UTF-8 bytes; return its size in bytes.

    Raises `EmptyResource` for `""`, `ResourceTooLarge` over the budget (exactly 1,048,576 bytes is accepted),
    `InvalidInput` for a non-string and `NotUTF8` for a lone surrogate.
    """
    text = _require_str(html, "html")
    if text == "":
        raise EmptyResource("ui html: html text is required", value=text)
    # Each character is at least one byte: a string longer than the budget needs no encoding to be rejected.
    if len(text) > MAX_HTML_BYTES:
        raise ResourceTooLarge(
            f"ui html exceeds max size: at least {len(text)} bytes > {MAX_HTML_BYTES} bytes", value=text
        )
    size = html_byte_size(text)
    if size > MAX_HTML_BYTES:
        raise ResourceTooLarge(f"ui html exceeds max size: {size} bytes > {MAX_HTML_BYTES} bytes", value=text)
    return size


def decode_html_blob(blob: object) -> str:
    """Decode a `blob` (base64 of UTF-8 HTML) strictly, bounding the work before decoding.

    In order: a text or bytes value is required (else `InvalidBlob`); more than `MAX_HTML_BLOB_CHARS`
    characters, counted as given, is `ResourceTooLarge` before any decoding; `\\r` and `\\n` are removed (as
    Go's decoder skips them); what is left must be standard, padded base64 with no other characters
    (`InvalidBlob`); the bytes must be UTF-8 (`NotUTF8`); the HTML must then be non-empty (`EmptyResource`) and within
    `MAX_HTML_BYTES` (`ResourceTooLarge`). Every error carries the blob as given.
    """
    if not isinstance(blob, (str, bytes, bytearray)):
        raise InvalidBlob(f"ui html blob: must be base64 text, got {type(blob).__name__}", value=blob)
    if len(blob) > MAX_HTML_BLOB_CHARS:
        raise ResourceTooLarge(
            f"ui html blob: {len(blob)} characters > {MAX_HTML_BLOB_CHARS}, the base64 length of the budget",
            value=blob,
        )
    if isinstance(blob, str):
        if not blob.isascii():
            raise InvalidBlob("ui html blob: not base64 (holds a non-ASCII character)", value=blob)
        encoded = blob.encode("ascii")
    else:
        encoded = bytes(blob)
    compact = encoded.replace(b"\r", b"").replace(b"\n", b"")
    if len(compact) % 4 != 0 or _BASE64.fullmatch(compact.decode("ascii", "replace")) is None:
        raise InvalidBlob("ui html blob: not strict, padded standard base64", value=blob)
    try:
        data = base64.b64decode(compact, validate=True)
    except binascii.Error as exc:
        raise InvalidBlob(f"ui html blob: not strict, padded standard base64 ({exc})", value=blob) from exc
    try:
        html = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotUTF8(
            f"ui html blob: decoded bytes are not UTF-8 ({exc.reason} at byte {exc.start})", value=blob
        ) from exc
    if not data:
        raise EmptyResource("ui html blob: decodes to empty html", value=blob)
    if len(data) > MAX_HTML_BYTES:
        raise ResourceTooLarge(f"ui html blob: decodes to {len(data)} bytes > {MAX_HTML_BYTES} bytes", value=blob)
    return html


def encode_html_blob(html: str) -> str:
    """The standard, padded base64 of the HTML's UTF-8 bytes, after `check_html_budget`.

    `decode_html_blob(encode_html_blob(html)) == html` for every HTML the budget accepts.
    """
    check_html_budget(html)
    return base64.b64encode(_utf8(html, "html")).decode("ascii")


def html_resource(
    uri: str,
    name: str,
    *,
    title: str | None = None,
    description: str | None = None,
    annotations: WireJSON | None = None,
    ui: ResourceUI | None = None,
    icons: Sequence[WireJSON] | None = None,
    size: int | None = None,
) -> WireObject:
    """A `resources/list` entry for a `ui://` HTML resource (it carries no HTML).

    Validates the URI (`InvalidUIURI`), requires a non-empty `name` (`EmptyResource`), sets `mimeType` to the
    MCP App MIME type and writes `_meta.ui` when `ui` is given. Optional fields are written only when given;
    `annotations` and `icons` are copied. A declared `size` (bytes) must be a non-negative int within the
    HTML budget (`ResourceTooLarge`). Wrong types raise `InvalidInput`.
    """
    validate_ui_uri(uri)
    if _require_str(name, "name") == "":
        raise EmptyResource("ui resource: name is required", value=name)
    entry: dict[str, Any] = {"uri": uri, "name": name, "mimeType": RESOURCE_MIME_TYPE}
    if title is not None:
        entry["title"] = _require_str(title, "title")
    if description is not None:
        entry["description"] = _require_str(description, "description")
    if annotations is not None:
        entry["annotations"] = _copy_object(annotations, "annotations")
    if icons is not None:
        entry["icons"] = _copy_icons(icons)
    if size is not None:
        entry["size"] = _check_size(size)
    return _with_ui(entry, ui)


def html_contents(uri: str, html: str, *, ui: ResourceUI | None = None, as_blob: bool = False) -> WireObject:
    """One `resources/read` content item for the HTML: `{uri, mimeType, text}` (or `blob`), plus `_meta.ui`.

    Validates the URI (`InvalidUIURI`) and the budget (`EmptyResource`, `ResourceTooLarge`). With `as_blob`
    the HTML is sent as base64 in `blob` instead of `text`.
    """
    validate_ui_uri(uri)
    check_html_budget(html)
    item: dict[str, Any] = {"uri": uri, "mimeType": RESOURCE_MIME_TYPE}
    if as_blob:
        item["blob"] = encode_html_blob(html)
    else:
        item["text"] = html
    return _with_ui(item, ui)


def read_result(uri: str, html: str, *, ui: ResourceUI | None = None, as_blob: bool = False) -> WireObject:
    """A whole `resources/read` result, `{"contents": [item]}`, with the single item of `html_contents`."""
    return {"contents": [html_contents(uri, html, ui=ui, as_blob=as_blob)]}


def embedded_html_resource(
    uri: str,
    html: str,
    *,
    annotations: WireJSON | None = None,
    ui: ResourceUI | None = None,
) -> WireObject:
    """An embedded resource content block, `{type: "resource", resource: {uri, mimeType, text}}`.

    `_meta.ui` (when `ui` is given) is written both on the block and on `resource._meta`, so readers of
    either place find it. Validates the URI and the budget like `html_contents`; `annotations` are copied.
    """
    validate_ui_uri(uri)
    check_html_budget(html)
    block: dict[str, Any] = {
        "type": "resource",
        "resource": {"uri": uri, "mimeType": RESOURCE_MIME_TYPE, "text": html},
    }
    if annotations is not None:
        block["annotations"] = _copy_object(annotations, "annotations")
    return block if ui is None else set_embedded_resource_ui(block, ui)


def _with_ui(holder: dict[str, Any], ui: ResourceUI | None) -> dict[str, Any]:
    return holder if ui is None else set_resource_ui(holder, ui)


def _check_size(size: object) -> int:
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise InvalidInput("size must be a non-negative number of bytes", value=size)
    if size > MAX_HTML_BYTES:
        raise ResourceTooLarge(f"ui resource: declared size {size} bytes > {MAX_HTML_BYTES} bytes", value=size)
    return size


def _copy_icons(icons: object) -> list[dict[str, Any]]:
    if isinstance(icons, (str, bytes)) or not isinstance(icons, Sequence):
        raise InvalidInput(f"icons must be a list of objects, got {type(icons).__name__}", value=icons)
    return [_copy_object(icon, "icons item") for icon in icons]


def _copy_object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{what} must be an object, got {type(value).__name__}", value=value)
    return _copy_mapping(value, what, 0)


def _copy_mapping(value: Mapping[Any, Any], what: str, depth: int) -> dict[str, Any]:
    if depth > _MAX_COPY_DEPTH:
        raise InvalidInput(f"{what} is nested deeper than {_MAX_COPY_DEPTH} levels", value=value)
    copied: dict[str, Any] = {}
    for key, item in value.items():
        if not isinstance(key, str):
            raise InvalidInput(f"{what} has a non-string key {key!r}", value=value)
        copied[key] = _copy_json(item, what, depth + 1)
    return copied


def _copy_json(value: object, what: str, depth: int) -> object:
    if isinstance(value, Mapping):
        return _copy_mapping(value, what, depth)
    if isinstance(value, (list, tuple)):
        if depth > _MAX_COPY_DEPTH:
            raise InvalidInput(f"{what} is nested deeper than {_MAX_COPY_DEPTH} levels", value=value)
        return [_copy_json(item, what, depth + 1) for item in value]
    return value


__all__ = [
    "CONTENT_HASH_PREFIX",
    "check_html_budget",
    "content_hash",
    "decode_html_blob",
    "embedded_html_resource",
    "encode_html_blob",
    "html_byte_size",
    "html_contents",
    "html_resource",
    "read_result",
]
