"""What a proxy runs: the upstream server (a command or a URL), the client rules, and the limits.

Plain frozen values, validated once when built (from the command line or from code), so the I/O edge never has to
second-guess them.
"""

from __future__ import annotations

import functools
import ipaddress
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import Literal, TypeAlias

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.clients.rules import Rule, RuleFile, load_rules, merge_rules
from hostcompat.errors import InvalidInput
from hostcompat.redaction import (
    Redactor,
    args_secrets,
    environment_secrets,
    header_secrets,
    redact_args,
    redact_url,
    strip_url_credentials,
    url_credentials_note,
    url_secrets,
)

DEFAULT_REQUEST_TIMEOUT = 300.0
"""Seconds an upstream may stay silent on a request (no answer, no progress) before the client gets an error."""

DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024
"""The largest single JSON-RPC message relayed in either direction."""

DEFAULT_MAX_SESSIONS = 64
"""The most front sessions served at once by the HTTP front (each one has its own upstream)."""

DEFAULT_SESSION_IDLE_TIMEOUT = 5 * 60.0
"""Seconds an HTTP front session may go without any request in flight before it is closed (an open GET stream is a
request in flight: a client that listens for notifications keeps its session)."""

DEFAULT_HANDSHAKE_TIMEOUT = 30.0
"""Seconds an HTTP front session may wait for its client's next request after `initialize` (a client sends
`notifications/initialized` at once) before it is closed as abandoned; never longer than the idle timeout."""

DEFAULT_UPSTREAM_MEMORY = 4 * 1024 * 1024 * 1024
"""Bytes of data segment (heap and private memory) each server process the proxy starts may use (Linux)."""

DEFAULT_MAX_PENDING = 10_000
"""The most client requests one session may have in flight at once."""

DEFAULT_DRAIN_TIMEOUT = 5.0
"""Seconds the stdio proxy still waits for answers in flight once its client has closed stdin. A host closes stdin
to stop its server and signals it a few seconds later; what is unanswered by then gets an error, and the server
is stopped."""

EXIT_GRACE = 2.0
"""Seconds a server gets to exit after its stdin closes (and to be reaped after its stdout closes)."""

STARTUP_FAILURE_WAIT = 5.0
"""Seconds a session whose upstream could not even start waits for the client's first request, to answer it."""

FLUSH_TIMEOUT = 2.0
"""Seconds the stdio front keeps writing what is already on its way to the client when the session ends."""

MCP_PATH = "/mcp"
"""The path the HTTP front serves."""

MAX_HEADERS = 64
_MAX_ARGUMENT = 32_768
_HEADER_NAME = regex(r"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}")
_URL = regex(r"https?://[^\s]{1,2000}")


@dataclass(frozen=True)
class StdioUpstream:
    """An upstream MCP server started as a subprocess and spoken to over its stdin and stdout."""

    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    cwd: str | None = None

    def describe(self) -> str:
        """The command line, for messages, with its secrets redacted (`--api-key <redacted>`, URL passwords)."""
        return " ".join((self.command, *redact_args(self.args)))

    def redactor(self) -> Redactor:
        """What hides this server's secrets in text it or its transport produce (its stderr, error messages): the
        secret arguments, every `env` value, and the secret-named variables it inherits from this process's
        environment (`GITHUB_TOKEN`, `OPENAI_API_KEY`, …), which it may print as well.
        """
        return Redactor.of(args_secrets(self.args), self.env.values(), environment_secrets(os.environ))


@dataclass(frozen=True)
class HttpUpstream:
    """An upstream MCP server reached over streamable HTTP at `url`, with extra request headers."""

    url: str
    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def describe(self) -> str:
        """The URL, for messages, with its credentials redacted (headers may hold secrets and are never shown)."""
        return redact_url(self.url)

    def redactor(self) -> Redactor:
        """What hides this upstream's secrets in text (error messages quoting the URL, say): the URL's password and
        secret parameters, and every header value.
        """
        headers = [part for value in self.headers.values() for part in header_secrets(value)]
        return Redactor.of(url_secrets(self.url), headers)

    def connect_url(self) -> str:
        """The URL to connect to: without its `user:password` when an `Authorization` header is given (see
        `credentials_note`).
        """
        return self.url if self.credentials_note() is None else strip_url_credentials(self.url)

    def credentials_note(self) -> str | None:
        """When the URL has `user:password` and an `Authorization` header is given too, the sentence saying the header
        is sent, not the URL's credentials (an HTTP client would otherwise replace the header with them, silently).
        """
        return url_credentials_note(self.url, self.headers)


Upstream: TypeAlias = StdioUpstream | HttpUpstream
"""Where the upstream server is."""

EraChoice: TypeAlias = Literal["auto", "legacy", "modern"]
"""A protocol era as configured: `legacy` (the `initialize` handshake, up to 2025-11-25), `modern` (2026-07-28,
stateless), or `auto` (detected from the peer)."""

ERA_CHOICES: tuple[EraChoice, ...] = ("auto", "legacy", "modern")


@dataclass(frozen=True)
class ProxyConfig:
    """Everything a proxy session needs: where the upstream is, which rules apply, and the limits."""

    upstream: Upstream
    rules: tuple[Rule, ...] = ()
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    max_pending: int = DEFAULT_MAX_PENDING
    max_sessions: int = DEFAULT_MAX_SESSIONS
    session_idle_timeout: float | None = DEFAULT_SESSION_IDLE_TIMEOUT
    drain_timeout: float = DEFAULT_DRAIN_TIMEOUT
    handshake_timeout: float = DEFAULT_HANDSHAKE_TIMEOUT
    upstream_memory: int | None = DEFAULT_UPSTREAM_MEMORY
    """The data-segment limit of each server process started (None: no limit)."""
    allowed_origins: tuple[str, ...] = ()
    """Web origins (`https://app.example.com`, `http://host:*`) allowed to reach the HTTP front, besides its own."""
    allowed_hosts: tuple[str, ...] = ()
    """`Host` header values the HTTP front accepts besides loopback, its address and the allowed origins' hosts."""
    era_front: EraChoice = "auto"
    """The protocol era of the client in front; `auto`: from its first request (the HTTP front serves the handshake
    era only)."""
    era_back: EraChoice = "auto"
    """The protocol era of the server behind; `auto`: asked once, on the client's first request (on the HTTP front:
    once per session)."""

    def __post_init__(self) -> None:
        for name in ("request_timeout", "session_idle_timeout", "drain_timeout", "handshake_timeout"):
            value = getattr(self, name)
            if value is None and name == "session_idle_timeout":
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise InvalidInput(f"{name} must be a number of seconds", value=value)
            if value < 0 or (value == 0 and name != "drain_timeout"):
                least = "0 or more" if name == "drain_timeout" else "a positive number of"
                raise InvalidInput(f"{name} must be {least} seconds", value=value)
        for name in ("max_message_bytes", "max_pending", "max_sessions", "upstream_memory"):
            value = getattr(self, name)
            if value is None and name == "upstream_memory":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise InvalidInput(f"{name} must be a positive integer", value=value)
        for name in ("allowed_origins", "allowed_hosts"):
            value = getattr(self, name)
            if not isinstance(value, tuple) or not all(isinstance(item, str) for item in value):
                raise InvalidInput(f"{name} must be a tuple of strings", value=value)
        for name in ("era_front", "era_back"):
            if getattr(self, name) not in ERA_CHOICES:
                raise InvalidInput(f"{name} must be one of {', '.join(ERA_CHOICES)}", value=getattr(self, name))
        if not isinstance(self.upstream, (StdioUpstream, HttpUpstream)):
            raise InvalidInput("upstream must be a StdioUpstream or an HttpUpstream", value=self.upstream)

    def redacted(self, text: object) -> str:
        """`text` (what the upstream wrote, quoted in a log line) with the upstream's secrets redacted."""
        return self._redactor.text(str(text))

    @functools.cached_property
    def _redactor(self) -> Redactor:
        """The upstream's redactor, made once (a server writing line after line of garbage is logged each time)."""
        return self.upstream.redactor()


def stdio_upstream(
    argv: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: str | None = None
) -> StdioUpstream:
    """The upstream for a command line such as `["node", "server.js", "stdio"]`.

    Raises:
        InvalidInput: an empty command line, a non-string or over-long argument, or a NUL byte.
    """
    if isinstance(argv, str) or not isinstance(argv, Sequence) or not argv:
        raise InvalidInput("the upstream command line must be a non-empty list of arguments", value=argv)
    for argument in argv:
        if not isinstance(argument, str) or "\x00" in argument or len(argument) > _MAX_ARGUMENT:
            raise InvalidInput("each command-line argument must be a string without NUL bytes", value=argument)
    if not argv[0].strip():
        raise InvalidInput("the upstream command is empty", value=argv[0])
    extra = dict(env or {})
    for key, value in extra.items():
        if not isinstance(key, str) or not isinstance(value, str) or "\x00" in key + value or "=" in key or not key:
            raise InvalidInput("environment entries must be NAME=VALUE strings", value=key)
    return StdioUpstream(command=argv[0], args=tuple(argv[1:]), env=MappingProxyType(extra), cwd=cwd)


def parse_header(text: str) -> tuple[str, str]:
    """A `Name: value` (or `Name:value`) command-line header as a pair.

    Raises:
        InvalidInput: no colon, an invalid header name, or a line break in the value.
    """
    if not isinstance(text, str) or ":" not in text:
        raise InvalidInput("a header must look like Name:value", value=text)
    name, _, value = text.partition(":")
    name, value = name.strip(), value.strip()
    if not _HEADER_NAME.fullmatch(name):
        raise InvalidInput("invalid header name", value=name)
    if any(ch in value for ch in "\r\n\x00") or len(value) > 8192:
        raise InvalidInput("a header value must be one line of at most 8192 characters", value=value)
    return name, value


def http_upstream(url: str, headers: Iterable[str] | Mapping[str, str] = ()) -> HttpUpstream:
    """The upstream at an `http://` or `https://` URL, with headers given as `Name:value` strings or a mapping.

    Raises:
        InvalidInput: not an http(s) URL, or a malformed or repeated header.
    """
    if not isinstance(url, str) or not _URL.fullmatch(url):
        raise InvalidInput("the upstream URL must start with http:// or https://", value=url)
    pairs = list(headers.items()) if isinstance(headers, Mapping) else [parse_header(text) for text in headers]
    if len(pairs) > MAX_HEADERS:
        raise InvalidInput(f"at most {MAX_HEADERS} headers", value=len(pairs))
    out: dict[str, str] = {}
    for name, value in pairs:
        checked_name, checked_value = parse_header(f"{name}:{value}")
        if checked_name.lower() in (key.lower() for key in out):
            raise InvalidInput("a header is given twice", value=checked_name)
        out[checked_name] = checked_value
    return HttpUpstream(url=url, headers=MappingProxyType(out))


def parse_listen(text: str) -> tuple[str, int]:
    """`HOST:PORT` (IPv6 hosts in brackets, `[::1]:8000`) as a pair; port 0 asks for any free port.

    Raises:
        InvalidInput: no port, a port outside 0-65535, or an empty host.
    """
    if not isinstance(text, str) or ":" not in text or len(text) > 300:
        raise InvalidInput("--listen needs HOST:PORT, for example 127.0.0.1:8000", value=text)
    host, _, port_text = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host or not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise InvalidInput("--listen needs HOST:PORT with a port from 0 to 65535", value=text)
    return host, int(port_text)


def is_loopback(host: str) -> bool:
    """Whether `host` names this machine only (`localhost`, 127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def build_rules(rule_files: Sequence[str] = (), disabled: Sequence[str] = ()) -> tuple[Rule, ...]:
    """The bundled rules merged with `rule_files`, then with the rule ids in `disabled` switched off.

    Raises:
        CatalogError: a rule file is unreadable or invalid, or a disabled id names no rule.
    """
    overlay = RuleFile(origin="--disable", rules=(), disabled=tuple(disabled))
    return merge_rules(load_rules(*rule_files), overlay)


__all__ = [
    "DEFAULT_DRAIN_TIMEOUT",
    "DEFAULT_HANDSHAKE_TIMEOUT",
    "DEFAULT_MAX_MESSAGE_BYTES",
    "DEFAULT_MAX_PENDING",
    "DEFAULT_MAX_SESSIONS",
    "DEFAULT_REQUEST_TIMEOUT",
    "DEFAULT_SESSION_IDLE_TIMEOUT",
    "DEFAULT_UPSTREAM_MEMORY",
    "ERA_CHOICES",
    "EXIT_GRACE",
    "EraChoice",
    "FLUSH_TIMEOUT",
    "HttpUpstream",
    "MAX_HEADERS",
    "MCP_PATH",
    "ProxyConfig",
    "STARTUP_FAILURE_WAIT",
    "StdioUpstream",
    "Upstream",
    "build_rules",
    "http_upstream",
    "is_loopback",
    "parse_header",
    "parse_listen",
    "stdio_upstream",
]
