"""What to probe: a stdio command, a streamable HTTP URL, a legacy SSE URL, or any transport (a seam for tests).

Targets are checked when built, so a typo fails before anything is started. `describe_target` is what a snapshot
records: secrets are redacted (every env and header value, URL passwords, secret-looking query values and
arguments; see `hostcompat.redaction`), so a snapshot can be attached to a bug report.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import field
from types import MappingProxyType
from typing import Any, Final, Literal, TypeAlias
from urllib.parse import SplitResult, urlsplit

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.errors import InvalidInput
from hostcompat.redaction import (
    REDACTED,
    Redactor,
    args_secrets,
    header_secrets,
    redact_args,
    redact_url,
    strip_url_credentials,
    url_credentials_note,
    url_secrets,
)
from hostcompat.wire_json import WireObject

TransportKind = Literal["auto", "stdio", "http", "sse"]

_MAX_TEXT: Final = 65_536
_MAX_ITEMS: Final = 4096
_HEADER_NAME: Final = regex(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_ENV_NAME: Final = regex(r"[^=\x00]+")
_EMPTY: Final[Mapping[str, str]] = MappingProxyType({})


def _text(value: object, what: str, *, allow_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, got {type(value).__name__}", value=value)
    if not value and not allow_empty:
        raise InvalidInput(f"{what} must not be empty", value=value)
    if "\x00" in value:
        raise InvalidInput(f"{what} must not contain NUL characters", value=value)
    if len(value) > _MAX_TEXT:
        raise InvalidInput(f"{what} is longer than {_MAX_TEXT} characters", value=value)
    return value


def _string_map(value: object, what: str, check_key: Callable[[str], bool]) -> Mapping[str, str]:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{what} must be a mapping of strings, got {type(value).__name__}", value=value)
    if len(value) > _MAX_ITEMS:
        raise InvalidInput(f"{what} has more than {_MAX_ITEMS} entries", value=value)
    copied: dict[str, str] = {}
    for key, item in value.items():
        name = _text(key, f"{what} name")
        if not check_key(name):
            raise InvalidInput(f"{what} name {name!r} is not allowed", value=name)
        copied[name] = _text(item, f"{what} {name!r} value", allow_empty=True)
    return MappingProxyType(copied)


def _split_url(url: str) -> SplitResult:
    """`urlsplit(url)`, with `InvalidInput` instead of its `ValueError` (an unclosed `[` of an IPv6 host, say)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - reading it validates the port (a ValueError when it is not a number in range)
    except ValueError as error:
        raise InvalidInput(f"not a usable URL: {error}", value=url) from error
    return parts


def _check_url(value: object) -> str:
    url = _text(value, "URL")
    if any(ch.isspace() or ord(ch) < 32 for ch in url):
        raise InvalidInput("URL must not contain whitespace or control characters", value=url)
    parts = _split_url(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidInput("URL must be an absolute http:// or https:// URL with a host", value=url)
    return url


@dataclass(frozen=True)
class StdioTarget:
    """A server started as a child process, spoken to over its stdin and stdout."""

    command: str
    args: Sequence[str] = ()
    env: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    """Extra environment variables, merged over the SDK's small safe default environment."""
    cwd: str | None = None

    def __post_init__(self) -> None:
        _text(self.command, "command")
        if isinstance(self.args, str) or not isinstance(self.args, Sequence):
            raise InvalidInput("args must be a sequence of strings (not one string)", value=self.args)
        if len(self.args) > _MAX_ITEMS:
            raise InvalidInput(f"args has more than {_MAX_ITEMS} items", value=self.args)
        object.__setattr__(self, "args", tuple(_text(arg, "argument", allow_empty=True) for arg in self.args))
        object.__setattr__(self, "env", _string_map(self.env, "env", lambda key: bool(_ENV_NAME.fullmatch(key))))
        if self.cwd is not None:
            cwd = os.fspath(self.cwd) if isinstance(self.cwd, os.PathLike) else self.cwd
            object.__setattr__(self, "cwd", _text(cwd, "cwd"))


@dataclass(frozen=True)
class HttpTarget:
    """A server at a streamable HTTP endpoint (for example `http://127.0.0.1:3001/mcp`)."""

    url: str
    headers: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    """Sent with every request, e.g. `{"Authorization": "Bearer …"}`."""

    def __post_init__(self) -> None:
        _check_url(self.url)
        object.__setattr__(self, "headers", _headers(self.headers))


@dataclass(frozen=True)
class SseTarget:
    """A server at a legacy HTTP+SSE endpoint (for example `http://127.0.0.1:3001/sse`)."""

    url: str
    headers: Mapping[str, str] = field(default_factory=lambda: _EMPTY)

    def __post_init__(self) -> None:
        _check_url(self.url)
        object.__setattr__(self, "headers", _headers(self.headers))


@dataclass(frozen=True)
class TransportTarget:
    """Any transport the official client accepts, opened by `open()` (an in-memory server in tests, say).

    `open` returns an async context manager yielding the `(read_stream, write_stream)` pair of the SDK's
    transport contract; `label` names the target in the snapshot.
    """

    open: Callable[[], AbstractAsyncContextManager[Any]]
    label: str = "transport"

    def __post_init__(self) -> None:
        if not callable(self.open):
            raise InvalidInput("TransportTarget.open must be callable", value=self.open)
        _text(self.label, "label")


Target: TypeAlias = StdioTarget | HttpTarget | SseTarget | TransportTarget


def _headers(value: object) -> Mapping[str, str]:
    headers = _string_map(value, "header", lambda key: bool(_HEADER_NAME.fullmatch(key)))
    for name, item in headers.items():
        if "\r" in item or "\n" in item:
            raise InvalidInput(f"header {name!r} must not contain CR or LF", value=name)
    return headers


def parse_header(text: str) -> tuple[str, str]:
    """`"Name: value"` as `(name, value)`; the value is stripped of surrounding spaces.

    Raises:
        InvalidInput: no colon, or an empty or invalid name.
    """
    name, sep, value = _text(text, "header").partition(":")
    name = name.strip()
    if not sep or not _HEADER_NAME.fullmatch(name):
        raise InvalidInput("a header must look like 'Name: value'", value=text)
    return name, value.strip()


def parse_env_assignment(text: str) -> tuple[str, str]:
    """`"NAME=value"` as `(name, value)`.

    Raises:
        InvalidInput: no `=`, or an empty name.
    """
    name, sep, value = _text(text, "environment assignment").partition("=")
    if not sep or not name:
        raise InvalidInput("an environment assignment must look like 'NAME=value'", value=text)
    return name, value


def _pairs(items: Mapping[str, str] | Sequence[str], parse: Callable[[str], tuple[str, str]]) -> dict[str, str]:
    if isinstance(items, Mapping):
        return dict(items)
    if isinstance(items, str):
        raise InvalidInput("give a list of entries, not one string", value=items)
    return dict(parse(item) for item in items)


def parse_target(
    spec: str | Sequence[str],
    *,
    transport: TransportKind = "auto",
    headers: Mapping[str, str] | Sequence[str] = (),
    env: Mapping[str, str] | Sequence[str] = (),
    cwd: str | None = None,
) -> Target:
    """A target from command-line style input.

    `spec` is a URL or a command line (a string split like a POSIX shell, or an argv list). With `transport="auto"`
    an `http(s)://` URL whose path ends in `/sse` is a legacy SSE target, any other URL streamable HTTP, and
    anything else a stdio command. `headers` are `"Name: value"` strings (or a mapping), `env` `"NAME=value"`.

    Raises:
        InvalidInput: an empty spec, an unparsable command line, a bad URL, header or assignment, or options that
            do not fit the transport (headers for stdio, env or cwd for a URL).
    """
    if isinstance(spec, str):
        text = _text(spec.strip(), "target")
        is_url = _split_url(text).scheme in ("http", "https")
        argv: list[str] = []
        if not is_url:
            try:
                argv = shlex.split(text)
            except ValueError as error:
                raise InvalidInput(f"cannot split the command line: {error}", value=spec) from error
    else:
        argv = [_text(part, "argument", allow_empty=True) for part in spec]
        if not argv:
            raise InvalidInput("the command must not be empty", value=spec)
        text = argv[0]
        is_url = len(argv) == 1 and _split_url(text).scheme in ("http", "https")
    kind = transport
    if kind == "auto":
        kind = ("sse" if _split_url(text).path.rstrip("/").endswith("/sse") else "http") if is_url else "stdio"
    header_map = _pairs(headers, parse_header)
    env_map = _pairs(env, parse_env_assignment)
    if kind == "stdio":
        if header_map:
            raise InvalidInput("headers only apply to HTTP targets", value=header_map)
        if is_url and not argv:
            raise InvalidInput("a URL cannot be run as a stdio command", value=spec)
        return StdioTarget(argv[0], argv[1:], env_map, cwd)
    if kind not in ("http", "sse"):
        raise InvalidInput("transport must be 'auto', 'stdio', 'http' or 'sse'", value=transport)
    if env_map or cwd is not None:
        raise InvalidInput("env and cwd only apply to stdio targets", value=spec)
    if not is_url:
        raise InvalidInput(f"a {kind} target needs an http:// or https:// URL", value=spec)
    return HttpTarget(text, header_map) if kind == "http" else SseTarget(text, header_map)


def target_redactor(target: Target) -> Redactor:
    """What hides `target`'s secrets wherever they show up: every env and header value, the URL's password and
    secret parameters, and the secret arguments (see `hostcompat.redaction`).
    """
    if isinstance(target, StdioTarget):
        return Redactor.of(args_secrets(target.args), target.env.values())
    if isinstance(target, HttpTarget | SseTarget):
        headers = [part for value in target.headers.values() for part in header_secrets(value)]
        return Redactor.of(url_secrets(target.url), headers)
    return Redactor()


def connect_url(target: HttpTarget | SseTarget) -> tuple[str, str | None]:
    """The URL to connect to, and a note when the URL's `user:password` yields to an explicit `Authorization`
    header (the header is sent, the URL's credentials are not: an HTTP client would otherwise replace the header
    with Basic credentials from the URL, silently).
    """
    note = url_credentials_note(target.url, target.headers)
    return (target.url if note is None else strip_url_credentials(target.url)), note


def describe_target(target: Target) -> WireObject:
    """The target as the plain JSON a snapshot records, with every secret redacted."""
    if isinstance(target, StdioTarget):
        return {
            "kind": "stdio",
            "command": target.command,
            "args": redact_args(target.args),
            "env": dict.fromkeys(sorted(target.env), REDACTED),
            "cwd": target.cwd,
        }
    if isinstance(target, HttpTarget | SseTarget):
        return {
            "kind": "http" if isinstance(target, HttpTarget) else "sse",
            "url": redact_url(target.url),
            "headers": dict.fromkeys(sorted(target.headers), REDACTED),
        }
    return {"kind": "transport", "label": target.label}


def display_target(target: Target) -> str:
    """A one-line name for a target, with every secret redacted (it goes into reports, progress and logs)."""
    described = describe_target(target)
    if described.get("kind") == "stdio":
        args = described.get("args")
        return " ".join([str(described.get("command", "")), *map(str, args if isinstance(args, list) else [])])
    return str(described.get("url") or described.get("label") or described.get("kind"))


__all__ = [
    "HttpTarget",
    "REDACTED",
    "SseTarget",
    "StdioTarget",
    "Target",
    "TransportKind",
    "TransportTarget",
    "connect_url",
    "describe_target",
    "display_target",
    "parse_env_assignment",
    "parse_header",
    "parse_target",
    "redact_args",
    "redact_url",
    "target_redactor",
]
