"""Secrets in what hostcompat is given (a server's command line, URL, headers, environment), kept out of everything it
writes: snapshots, reports, logs, and the errors the proxy sends its clients.

Pure, standard library only, and outside the layers, so the probe and the proxy (which must not import each other)
share one implementation. Two tools: structural redaction, which replaces a value where its place says it is a secret
(`--api-key X`, `-H 'Authorization: …'`, `user:pw@` in a URL, `?token=`), and a `Redactor`, which knows the secret
values of one target and removes them from any text or JSON wherever they show up (a server echoing its key on
stderr, say).
"""

from __future__ import annotations

import json as json_text
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import field
from typing import Any, Final
from urllib.parse import unquote

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.wire_json import WireJSON, WireObject

REDACTED: Final = "<redacted>"
"""What replaces a secret."""

MIN_SECRET_CHARS: Final = 6
"""The shortest known secret a `Redactor` searches for in free text.

Shorter values (`1`, `true`, `3000`, `dev`) would blank out ordinary words and numbers everywhere, and are too short
to be keys anyway; they are still redacted in their own place (the env entry, the header, the argument).
"""

_WORDS: Final = regex(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])")
# fmt: off
_SECRET_WORDS: Final = frozenset({
    "apikey", "auth", "authentication", "authorization", "bearer", "cookie", "cookies", "credential", "credentials",
    "creds", "jwt", "key", "keys", "oauth", "otp", "pass", "passphrase", "passwd", "password", "pat", "pw", "pwd",
    "secret", "secrets", "session", "sig", "signature", "token"
})
# fmt: on
_SECRET_PARTS: Final = ("token", "secret", "passw", "apikey", "credential", "bearer", "signature")
"""Found inside a longer word too: `accesstoken`, `clientsecret`, `dbpassword`."""
_COUNTS: Final = frozenset({"tokens", "tokenizer", "tokenize", "tokenization"})
"""Words about language-model tokens, not credentials (`--tokens 100`)."""
# fmt: off
_NOT_A_SECRET_SUFFIX: Final = frozenset({
    "alg", "algorithm", "audience", "cache", "cmd", "command", "count", "dir", "directory", "endpoint", "env",
    "expires", "expiry", "file", "files", "format", "header", "helper", "id", "issuer", "kind", "len", "length",
    "limit", "location", "method", "mode", "name", "path", "prefix", "provider", "scope", "scopes", "size",
    "source", "stdin", "timeout", "ttl", "type", "uri", "url", "var", "variable"
})
# fmt: on
"""A name ending in one of these names something about a secret, not the secret: `--token-file`, `token_type`."""
_NOT_A_SECRET_PREFIX: Final = frozenset({"disable", "ignore", "max", "min", "no", "num", "skip", "without"})
"""A name starting with one of these is a switch or a count, not a secret: `--no-auth`, `--max-tokens 100`."""

_HEADER_FLAGS: Final = frozenset({"-H", "--header", "--headers", "-header", "-headers", "--http-header"})
_ASSIGNMENT: Final = regex(r"([A-Za-z_][A-Za-z0-9_.\-]*)=(.*)", re.DOTALL)
_URL_USERINFO: Final = regex(r"(?i)\b([a-z][a-z0-9+.\-]{0,31}://)([^\s/?#\"'<>]*)@")
"""A URL's `scheme://userinfo@` (the scheme bounded, so a scan of untrusted text stays linear)."""
_URL_PARAM: Final = regex(r"([?&#])([A-Za-z0-9_.\-\[\]%]+)=([^&#\s\"'<>]+)")
_TRAILING_PUNCTUATION: Final = ".,;:)]"
"""Ends a sentence around a URL (`see https://h/?token=t.`), not the value."""
_AUTH_SCHEME: Final = regex(r"([A-Za-z][A-Za-z0-9_\-]*)\s+(\S.*)", re.DOTALL)


def is_secret_name(name: str) -> bool:
    """Whether a flag, variable, header or query parameter of this name holds a secret.

    `--api-key`, `GITHUB_TOKEN`, `clientSecret`, `access_token`, `X-Amz-Signature`, `--pat` do; `--token-file`,
    `token_type`, `--no-auth`, `--max-tokens`, `--port`, `--keyboard` do not (the name is split into words,
    camelCase included).
    """
    words = [word.lower() for word in _WORDS.split(name) if word]
    if not words or words[-1] in _NOT_A_SECRET_SUFFIX or words[0] in _NOT_A_SECRET_PREFIX:
        return False
    return any(
        word in _SECRET_WORDS or (word not in _COUNTS and any(part in word for part in _SECRET_PARTS)) for word in words
    )


# --- URLs ----------------------------------------------------------------------------------------------------------


def _url_secrets(text: str, found: list[str]) -> str:
    def userinfo(match: re.Match[str]) -> str:
        _user, colon, password = match.group(2).partition(":")
        if colon and password:
            found.extend((password, unquote(password)))
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
    return _url_secrets(text, [])


def url_secrets(url: str) -> list[str]:
    """The secret values in `url` (its password, its secret-looking parameter values), for a `Redactor`."""
    found: list[str] = []
    _url_secrets(url, found)
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


# --- headers -------------------------------------------------------------------------------------------------------


def header_secrets(value: str) -> list[str]:
    """The secret parts of a header value: the whole value, and the credential after an auth scheme (`Bearer X`)."""
    found = [value]
    scheme = _AUTH_SCHEME.fullmatch(value.strip())
    if scheme is not None:
        found.append(scheme.group(2).strip())
    return found


def _redact_header_text(text: str, found: list[str]) -> str:
    """`Name: value` with the value replaced (any header given on a command line may carry a credential)."""
    name, colon, value = text.partition(":")
    if not colon or not name.strip() or " " in name.strip():
        found.extend(header_secrets(text))
        return REDACTED
    if not value.strip():
        return text
    found.extend(header_secrets(value.strip()))
    spacing = value[: len(value) - len(value.lstrip())]
    return f"{name}:{spacing}{REDACTED}"


# --- command lines -------------------------------------------------------------------------------------------------


def _looks_like_flag(arg: str) -> bool:
    return arg.startswith("--") or (arg.startswith("-") and len(arg) <= 2 and arg != "-")


def _redact_item(arg: str, found: list[str]) -> str:
    """One argument that is not after a flag: `NAME=value` with a secret name, or any text with URLs in it."""
    assignment = _ASSIGNMENT.fullmatch(arg)
    if assignment is not None and is_secret_name(assignment.group(1)):
        if assignment.group(2):
            found.append(assignment.group(2))
            return f"{assignment.group(1)}={REDACTED}"
        return arg
    return _url_secrets(arg, found)


def _scan_args(args: Iterable[str]) -> tuple[list[str], list[str]]:
    redacted: list[str] = []
    found: list[str] = []
    expecting: str | None = None  # "header" or "value": what the previous flag says this argument is
    for arg in args:
        if expecting == "header":
            expecting = None
            redacted.append(_redact_header_text(arg, found))
            continue
        if expecting == "value":
            expecting = None
            if not _looks_like_flag(arg):
                found.append(arg)
                redacted.append(REDACTED)
                continue
        if not arg.startswith("-") or arg == "-":
            redacted.append(_redact_item(arg, found))
            continue
        flag, equals, value = arg.partition("=")
        if flag in _HEADER_FLAGS:
            if equals:
                redacted.append(f"{flag}={_redact_header_text(value, found)}")
            else:
                redacted.append(arg)
                expecting = "header"
        elif flag.startswith("-H") and not flag.startswith("--") and ":" in arg:  # -H'Authorization: …', curl style
            redacted.append(f"-H{_redact_header_text(arg[2:], found)}")
        elif is_secret_name(flag.lstrip("-")):
            if equals:
                if value:
                    found.append(value)
                redacted.append(f"{flag}={REDACTED}" if value else arg)
            else:
                redacted.append(arg)
                expecting = "value"
        elif equals:
            redacted.append(f"{flag}={_redact_item(value, found)}")
        else:
            redacted.append(_url_secrets(arg, found))
    return redacted, found


def redact_args(args: Iterable[str]) -> list[str]:
    """Command-line arguments with their secrets replaced by `REDACTED`, everything else as given.

    Caught: a secret-named flag's value (`--api-key X`, `--api-key=X`, `--token X`, `--bearer X`, `--pat X`,
    `--password X`, `--client-secret X`, `-token X`); a header's value (`-H 'Authorization: Bearer X'`,
    `--header 'X-Api-Key: X'`, `--header=Authorization: X`); a secret-named assignment (`API_KEY=X`, also after a
    flag: `--env=API_KEY=X`); and URL credentials in any argument (`postgresql://user:pw@…`, `?token=`,
    `#access_token=`). A secret-named flag followed by another flag (`--no-auth --port 1`) hides nothing.
    """
    return _scan_args(args)[0]


def args_secrets(args: Iterable[str]) -> list[str]:
    """The secret values `redact_args` replaces, for a `Redactor`."""
    return _scan_args(args)[1]


_PLAIN_VARIABLES: Final = frozenset({"PWD", "OLDPWD"})
"""Variables whose names look secret but are not (the shell's working directories)."""


def environment_secrets(environ: Mapping[str, str]) -> list[str]:
    """The values of the secret-named variables of an environment (`GITHUB_TOKEN`, `OPENAI_API_KEY`, …)."""
    return [value for name, value in environ.items() if name not in _PLAIN_VARIABLES and is_secret_name(name)]


def redact_description(described: WireJSON) -> WireObject:
    """A target as a snapshot describes it (`args`, `url`, `env`, `headers`), redacted by its structure: arguments
    and URL as `redact_args` and `redact_url` do, every env and header value replaced. Idempotent, so the target of
    a snapshot written by an older version, before some rule existed, is cleaned when read again.
    """
    redacted = dict(described)
    args = redacted.get("args")
    if isinstance(args, list | tuple) and all(isinstance(arg, str) for arg in args):
        redacted["args"] = redact_args(args)
    url = redacted.get("url")
    if isinstance(url, str):
        redacted["url"] = redact_url(url)
    for key in ("env", "headers"):
        values = redacted.get(key)
        if isinstance(values, Mapping):
            redacted[key] = dict.fromkeys(values, REDACTED)
    return redacted


# --- known values --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Redactor:
    """The secret values of one target (env and header values, URL passwords and tokens, secret arguments), removed
    from any text or JSON wherever they appear.

    Values shorter than `MIN_SECRET_CHARS` are left out (see there). `text` also redacts URL credentials and
    secret-looking URL parameters it finds; `known` removes only the known values (for data kept as a server sent
    it, such as tool listings, where a URL is the server's own business).
    """

    values: tuple[str, ...] = ()
    _pattern: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    _in_json: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)
    """The values as they appear in JSON text too (a quote or backslash escaped), to skip data that holds none."""

    def __post_init__(self) -> None:
        kept = sorted(
            {value for value in self.values if isinstance(value, str) and len(value.strip()) >= MIN_SECRET_CHARS},
            key=lambda value: (-len(value), value),
        )
        object.__setattr__(self, "values", tuple(kept))
        if kept:
            object.__setattr__(self, "_pattern", re.compile("|".join(map(re.escape, kept))))
            escaped = {json_text.dumps(value, ensure_ascii=False)[1:-1] for value in kept}
            object.__setattr__(self, "_in_json", re.compile("|".join(map(re.escape, sorted({*kept, *escaped})))))

    @classmethod
    def of(cls, *groups: Iterable[str]) -> Redactor:
        """A redactor for the values in all `groups`."""
        return cls(tuple(value for group in groups for value in group))

    def __or__(self, other: Redactor) -> Redactor:
        return Redactor((*self.values, *other.values))

    def __bool__(self) -> bool:
        return bool(self.values)

    def known(self, text: str) -> str:
        """`text` with every known secret value replaced by `REDACTED`."""
        if self._pattern is None or not text:
            return text
        return self._pattern.sub(REDACTED, text)

    def text(self, text: str) -> str:
        """`text` with every known secret value, every URL's credentials and every secret URL parameter redacted."""
        return redact_url(self.known(text))

    def tail(self, text: str) -> str:
        """`text` redacted as `text` does, for the end of a longer output whose start was cut off: it may begin with
        the last part of a known secret, which is redacted too (when at least `MIN_SECRET_CHARS` long).
        """
        redacted = self.text(text)
        for value in self.values:
            for size in range(len(value) - 1, MIN_SECRET_CHARS - 1, -1):
                if redacted.startswith(value[-size:]):
                    return REDACTED + redacted[size:]
        return redacted

    def head(self, text: str) -> str:
        """`text` redacted as `text` does, for the start of a longer text whose end was cut off: it may end with the
        first part of a known secret, which is redacted too (when at least `MIN_SECRET_CHARS` long).
        """
        redacted = self.text(text)
        for value in self.values:
            for size in range(len(value) - 1, MIN_SECRET_CHARS - 1, -1):
                if redacted.endswith(value[:size]):
                    return redacted[:-size] + REDACTED
        return redacted

    def json(self, value: Any, *, urls: bool = True) -> Any:
        """`value` (plain JSON data) with its strings, keys included, redacted (`urls`: as `text` does, else as
        `known` does). Copy-on-write: what holds no secret is returned as the same object. Any depth.

        With `urls` false (the listings of a snapshot: megabytes), each item of a top-level list is first serialised
        and searched at C speed, and only the rare item holding a known value is walked string by string.
        """
        if urls:
            return _walk(value, self.text)
        if self._pattern is None:
            return value
        if not isinstance(value, list | tuple):
            return self._known_item(value)
        items = list(value)
        for start in range(0, len(items), _CHUNK):
            if self._holds_known(items[start : start + _CHUNK]):
                items[start : start + _CHUNK] = map(self._known_item, items[start : start + _CHUNK])
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return tuple(items) if isinstance(value, tuple) else items

    def _holds_known(self, value: Any) -> bool:
        """Whether `value` may hold a known value (True when it cannot be serialised to tell)."""
        assert self._in_json is not None
        try:
            return self._in_json.search(_ENCODER.encode(value)) is not None
        except (TypeError, ValueError, RecursionError):  # not plain JSON data, or too deep for the encoder
            return True

    def _known_item(self, value: Any) -> Any:
        return _walk(value, self.known) if self._holds_known(value) else value


_ENCODER: Final = json_text.JSONEncoder(ensure_ascii=False)
_CHUNK: Final = 256
"""Items of a listing serialised together to look for known values: few calls, and bounded memory."""


class _Frame:
    """One container being rebuilt by `_walk`: its items so far, and whether any of them changed."""

    def __init__(self, container: Any, slot: Any) -> None:
        self.container = container
        self.slot = slot
        self.items: Iterator[tuple[Any, Any]] = iter(
            container.items() if isinstance(container, Mapping) else enumerate(container)
        )
        self.built: list[tuple[Any, Any]] = []
        self.changed = False

    def put(self, key: Any, old: Any, new: Any) -> None:
        self.built.append((key, new))
        if new is not old and (not isinstance(new, str) or new != old):
            self.changed = True

    def result(self) -> Any:
        if not self.changed:
            return self.container
        if isinstance(self.container, Mapping):
            return dict(self.built)
        values = [value for _key, value in self.built]
        return tuple(values) if isinstance(self.container, tuple) else values


def _walk(root: Any, redact: Any) -> Any:
    """`root` with `redact` applied to every string in it (keys of mappings too), rebuilt only where it changed."""
    if isinstance(root, str):
        return redact(root)
    if not isinstance(root, Mapping | list | tuple):
        return root
    stack = [_Frame(root, None)]
    while True:
        frame = stack[-1]
        entry = next(frame.items, None)
        if entry is None:
            stack.pop()
            done = frame.result()
            if not stack:
                return done
            parent = stack[-1]
            key, old = frame.slot
            parent.put(key, old, done)
            continue
        key, child = entry
        if isinstance(frame.container, Mapping) and isinstance(key, str):
            new_key = redact(key)
            if new_key != key:
                frame.changed = True
                key = new_key
        if isinstance(child, Mapping | list | tuple):
            stack.append(_Frame(child, (key, child)))
        elif isinstance(child, str):
            frame.put(key, child, redact(child))
        else:
            frame.put(key, child, child)


__all__ = [
    "MIN_SECRET_CHARS",
    "REDACTED",
    "Redactor",
    "args_secrets",
    "environment_secrets",
    "header_secrets",
    "is_secret_name",
    "redact_args",
    "redact_description",
    "redact_url",
    "strip_url_credentials",
    "url_credentials_note",
    "url_has_credentials",
    "url_secrets",
]
