"""`ui://` resource URIs: the generic rule of MCP Apps and the legacy scoped naming, checked explicitly.

The rules mirror what a Go host built on `url.Parse` accepts (the reference implementation), written out by
hand because `urllib.parse` accepts bad `%` escapes and only notices a bad port when `.port` is read.
"""

from __future__ import annotations

import ipaddress
import unicodedata
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.apps.constants import MAX_UI_URI_BYTES, UI_URI_PREFIX
from hostcompat.errors import InvalidUIURI

SCOPED_KINDS: Final = ("demo", "view", "feed", "widget")
"""The `<kind>` segments of the legacy scoped naming `ui://<scope>/<kind>/<id>` (a product convention, not spec)."""

_HEX: Final = frozenset("0123456789abcdefABCDEF")
_UNRESERVED: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
# ASCII a registered host name may hold as written: unreserved, sub-delims, and the three characters Go's
# url.Parse also lets through in a host (`<`, `>`, `"`). Everything else ASCII (`` ` ``, `{`, `|`, `}`, `^`,
# `\`, `[`, `]`, `@`, a second `:`) is rejected; `%` starts an escape and is checked on its own.
_HOST_ASCII: Final = _UNRESERVED | frozenset("!$&'()*+,;=<>\"")
_DIGITS: Final = regex(r"[0-9]*")
_ZONE_ESCAPE: Final = "%25"


@dataclass(frozen=True, slots=True)
class UIURI:
    """A validated `ui://` URI.

    `raw` is the input exactly as given. `server_scope` is the authority as written: the host plus any
    `:port`, not percent-decoded. `kind` and `resource_id` are set only when the URI also follows the
    legacy scoped naming `ui://<scope>/<kind>/<id>`; otherwise both are None.
    """

    raw: str
    server_scope: str
    kind: str | None = None
    resource_id: str | None = None


def validate_ui_uri(raw: object) -> UIURI:
    """Check `raw` against the generic `ui://` rule and return it parsed.

    Rejected (each with its own message), in this order: a non-string; an empty string; more than
    `MAX_UI_URI_BYTES` UTF-8 bytes; text that is not encodable as UTF-8 (a lone surrogate); any whitespace
    (`str.isspace`) or control (category Cc) character; a missing case-sensitive `ui://` prefix; any `@` in
    the authority (userinfo); an empty host; a port that is not digits; a forbidden character or a bad `%`
    escape in the host; a `%` not followed by two hex digits in the path, query or fragment.

    Paths, queries and fragments are accepted, as is any path shape. Where this is stricter than Go's
    `url.Parse`: a bad `%` escape in the query is rejected (Go leaves the query unchecked; the fragment it
    does check), `ui://:80` has an empty host (Go counts `:80` as the host), a host with two colons outside
    brackets is rejected (older Go splits at the last one), `[`/`]` are allowed only around an IPv6
    literal that `ipaddress` accepts (with an optional RFC 6874 zone). As in Go, a host may percent-escape
    only non-ASCII bytes (or `%25`), an empty port (`ui://h:`) is accepted, and `<`, `>`, `"` are allowed.
    """
    text = _require_text(raw)
    authority, path, query, fragment = _split(text)
    if "@" in authority:
        raise InvalidUIURI("ui uri: userinfo ('@') is not allowed in the authority", value=raw)
    _check_authority(authority, text)
    for component, part in (("path", path), ("query", query), ("fragment", fragment)):
        _check_escapes(part, component, text)
    scoped = _scoped_parts_or_none(text)
    if scoped is None:
        return UIURI(raw=text, server_scope=authority)
    _, kind, resource_id = scoped
    return UIURI(raw=text, server_scope=authority, kind=kind, resource_id=resource_id)


def validate_scoped_ui_uri(raw: object) -> UIURI:
    """Check `raw` against the legacy product naming `ui://<scope>/<kind>/<id>` and return it parsed.

    Checks run in the reference order: non-empty, the `ui://` prefix, no `?` or `#`, exactly three
    `/`-separated parts after the prefix, a non-empty scope, a non-empty id, a kind in `SCOPED_KINDS`.
    The input's size is bounded before it is scanned. A URI passing those must then pass every generic
    rule of `validate_ui_uri` too (so `ui://u@x/demo/y` or `ui://x/demo/a%zz` is still rejected).
    """
    if not isinstance(raw, str):
        raise InvalidUIURI(f"ui uri: must be a string, not {type(raw).__name__}", value=raw)
    if raw == "":
        raise InvalidUIURI("ui uri: empty", value=raw)
    _check_size(raw)
    _scoped_parts(raw)
    return validate_ui_uri(raw)


def is_valid_ui_uri(raw: object) -> bool:
    """True when `raw` passes `validate_ui_uri`; never raises."""
    try:
        validate_ui_uri(raw)
    except InvalidUIURI:
        return False
    return True


def _require_text(raw: object) -> str:
    if not isinstance(raw, str):
        raise InvalidUIURI(f"ui uri: must be a string, not {type(raw).__name__}", value=raw)
    if raw == "":
        raise InvalidUIURI("ui uri: empty", value=raw)
    _check_size(raw)
    for index, char in enumerate(raw):
        if char.isspace() or unicodedata.category(char) == "Cc":
            raise InvalidUIURI(
                f"ui uri: whitespace or control character {char!r} at index {index}",
                value=raw,
            )
    if not raw.startswith(UI_URI_PREFIX):
        raise InvalidUIURI(f"ui uri: scheme must be the exact, case-sensitive prefix {UI_URI_PREFIX!r}", value=raw)
    return raw


def _check_size(raw: str) -> None:
    # A string longer in characters than the byte limit is over it in bytes too: no need to encode it.
    if len(raw) > MAX_UI_URI_BYTES:
        raise InvalidUIURI(f"ui uri: oversized, over {MAX_UI_URI_BYTES} UTF-8 bytes", value=raw)
    try:
        size = len(raw.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise InvalidUIURI("ui uri: not valid UTF-8 (holds a lone surrogate)", value=raw) from exc
    if size > MAX_UI_URI_BYTES:
        raise InvalidUIURI(f"ui uri: oversized, {size} UTF-8 bytes > {MAX_UI_URI_BYTES}", value=raw)


def _split(text: str) -> tuple[str, str, str, str]:
    """Cut `ui://…` the way Go does: fragment first, then query, then authority up to the first `/`."""
    rest, _, fragment = text[len(UI_URI_PREFIX) :].partition("#")
    rest, _, query = rest.partition("?")
    slash = rest.find("/")
    if slash < 0:
        return rest, "", query, fragment
    return rest[:slash], rest[slash:], query, fragment


def _check_authority(authority: str, raw: str) -> None:
    if authority.startswith("["):
        _check_ip_literal(authority, raw)
        return
    host, colon, port = authority.partition(":")
    if host == "":
        raise InvalidUIURI("ui uri: empty host", value=raw)
    if colon and not _DIGITS.fullmatch(port):
        raise InvalidUIURI(f"ui uri: port {port!r} is not a number", value=raw)
    _check_host_name(host, raw)


def _check_host_name(host: str, raw: str) -> None:
    index = 0
    while index < len(host):
        char = host[index]
        if char == "%":
            escape = _escape_at(host, index, "host", raw)
            # As in Go: a host may escape only non-ASCII bytes, plus `%25` (a literal percent sign).
            if escape != _ZONE_ESCAPE and int(escape[1:], 16) < 0x80:
                raise InvalidUIURI(
                    f"ui uri: escape {escape!r} in host encodes an ASCII byte; write it as is",
                    value=raw,
                )
            index += 3
            continue
        if char.isascii() and char not in _HOST_ASCII:
            raise InvalidUIURI(f"ui uri: forbidden character {char!r} in host", value=raw)
        index += 1


def _check_ip_literal(authority: str, raw: str) -> None:
    close = authority.find("]")
    if close < 0:
        raise InvalidUIURI("ui uri: host has '[' without a closing ']'", value=raw)
    literal, after = authority[1:close], authority[close + 1 :]
    if after and not (after.startswith(":") and _DIGITS.fullmatch(after[1:])):
        raise InvalidUIURI(f"ui uri: port {after!r} after the IPv6 host is not ':' and a number", value=raw)
    address, zone_mark, zone = literal.partition(_ZONE_ESCAPE)
    if "%" in address or not _is_ipv6(address):
        raise InvalidUIURI(f"ui uri: host [{literal}] is not an IPv6 address", value=raw)
    if zone_mark:
        if zone == "":
            raise InvalidUIURI("ui uri: empty IPv6 zone in host", value=raw)
        _check_escapes(zone, "host", raw)
        if any(char not in _UNRESERVED and char != "%" for char in zone):
            raise InvalidUIURI(f"ui uri: forbidden character in IPv6 zone {zone!r}", value=raw)


def _is_ipv6(address: str) -> bool:
    try:
        ipaddress.IPv6Address(address)
    except ValueError:
        return False
    return True


def _check_escapes(part: str, component: str, raw: str) -> None:
    index = part.find("%")
    while index >= 0:
        _escape_at(part, index, component, raw)
        index = part.find("%", index + 3)


def _escape_at(part: str, index: int, component: str, raw: str) -> str:
    escape = part[index : index + 3]
    if len(escape) < 3 or escape[1] not in _HEX or escape[2] not in _HEX:
        raise InvalidUIURI(
            f"ui uri: invalid percent-escape {escape!r} in {component}; '%' must be followed by two hex digits",
            value=raw,
        )
    return escape


def _scoped_parts(raw: str) -> tuple[str, str, str]:
    if not raw.startswith(UI_URI_PREFIX):
        raise InvalidUIURI(f"ui uri: scheme must be the exact, case-sensitive prefix {UI_URI_PREFIX!r}", value=raw)
    if "?" in raw or "#" in raw:
        raise InvalidUIURI("ui uri: scoped shape ui://<scope>/<kind>/<id> allows no query or fragment", value=raw)
    parts = raw[len(UI_URI_PREFIX) :].split("/")
    if len(parts) != 3:
        raise InvalidUIURI(
            f"ui uri: scoped shape must be ui://<scope>/<kind>/<id>, got {len(parts)} part(s)",
            value=raw,
        )
    scope, kind, resource_id = parts
    if scope == "":
        raise InvalidUIURI("ui uri: scoped shape ui://<scope>/<kind>/<id> needs a scope", value=raw)
    if resource_id == "":
        raise InvalidUIURI("ui uri: scoped shape ui://<scope>/<kind>/<id> needs an id", value=raw)
    if kind not in SCOPED_KINDS:
        raise InvalidUIURI(f"ui uri: kind {kind!r} is not one of {', '.join(SCOPED_KINDS)}", value=raw)
    return scope, kind, resource_id


def _scoped_parts_or_none(raw: str) -> tuple[str, str, str] | None:
    try:
        return _scoped_parts(raw)
    except InvalidUIURI:
        return None


__all__ = [
    "SCOPED_KINDS",
    "UIURI",
    "is_valid_ui_uri",
    "validate_scoped_ui_uri",
    "validate_ui_uri",
]
