"""Credentials in URLs: the `user:password@` part (or a token as the user), and secret-looking query and fragment
parameters (`?token=`, `#access_token=`), found in any text, replaced, and collected for a `Redactor`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final
from urllib.parse import unquote

from hostcompat._regex import regex
from hostcompat.redaction.names import REDACTED, is_secret_name

_URL_USERINFO: Final = regex(r"(?i)\b([a-z][a-z0-9+.\-]{0,31}://)([^\s/?#\"'<>]*)@")
"""A URL's `scheme://userinfo@` (the scheme bounded, so a scan of untrusted text stays linear)."""
_URL_PARAM: Final = regex(r"([?&#])([A-Za-z0-9_.\-\[\]%]+)=([^&#\s\"'<>]+)")
_TRAILING_PUNCTUATION: Final = ".,;:)]"
"""Ends a sentence around a URL (`see https://h/?token=t.`), not the value."""


def _looks_like_token(user: str) -> bool:
    """Whether a URL's user part without a password is a credential (`https://ghp_x1y2…@github.com`), rather than
    a user name (`postgres@`, `x-access-token@`, whose free-text search would blank the word everywhere).
    """
    letters, digits = any(c.isalpha() for c in user), any(c.isdigit() for c in user)
    return len(user) >= 24 or (len(user) >= 12 and letters and digits)


def _basic_credentials(user: str, password: str) -> str:
    """The `Authorization: Basic` value an HTTP client makes of a URL's `user:password@` (a server may echo it)."""
    import base64  # only for a URL with credentials

    return base64.b64encode(f"{unquote(user)}:{unquote(password)}".encode()).decode("ascii")


def redact_url_collecting(text: str, found: list[str]) -> str:
    """`redact_url(text)`, adding each secret it replaces to `found` (for a `Redactor`)."""

    def userinfo(match: re.Match[str]) -> str:
        user, colon, password = match.group(2).partition(":")
        if colon and password:
            found.extend((password, unquote(password), _basic_credentials(user, password)))
        elif user and _looks_like_token(unquote(user)):
            found.extend((user, unquote(user), _basic_credentials(user, "")))
        return f"{match.group(1)}{REDACTED}@"

    def param(match: re.Match[str]) -> str:
        if not is_secret_name(unquote(match.group(2))):
            return match.group(0)
        value = match.group(3).rstrip(_TRAILING_PUNCTUATION)
        if not value:
            return match.group(0)
        found.extend((value, unquote(value.replace("+", " "))))
        return f"{match.group(1)}{match.group(2)}={REDACTED}{match.group(3)[len(value) :]}"

    return _URL_PARAM.sub(param, _URL_USERINFO.sub(userinfo, text))


def redact_url(text: str) -> str:
    """`text` with the credentials of every URL in it replaced by `REDACTED`: the `user:password@` part, and the
    values of secret-looking query and fragment parameters (`?token=`, `&api_key=`, `#access_token=`, `sig=`).

    Everything else is kept as written: `postgresql://<redacted>@db:5432/app?sslmode=require`.
    """
    return redact_url_collecting(text, [])


def url_secrets(url: str) -> list[str]:
    """The secret values in `url` (its password, its secret-looking parameter values), for a `Redactor`."""
    found: list[str] = []
    redact_url_collecting(url, found)
    return found


def strip_url_credentials(url: str) -> str:
    """`url` without its `user:password@` part."""
    return _URL_USERINFO.sub(r"\1", url, count=1)


def url_has_credentials(url: str) -> bool:
    """Whether `url` carries a `user:password@` (or a lone `user@`) part in its authority."""
    match = _URL_USERINFO.match(url)
    return match is not None and bool(match.group(2))


def url_credentials_note(url: str, headers: Mapping[str, str]) -> str | None:
    """When `url` has a `user:password@` part and `headers` an explicit `Authorization`: the sentence saying which
    one is sent (the header; the URL's credentials are dropped). None when there is no such conflict.
    """
    if not url_has_credentials(url) or not any(name.lower() == "authorization" for name in headers):
        return None
    return (
        "the URL has user:password credentials and an Authorization header is given too: the Authorization header "
        "is sent, and the URL's credentials are not (remove one of them to silence this)"
    )


__all__ = [
    "redact_url",
    "redact_url_collecting",
    "strip_url_credentials",
    "url_credentials_note",
    "url_has_credentials",
    "url_secrets",
]
