"""`hostcompat proxy`: put the client-compatibility rules in front of any MCP server, without touching its code.

`hostcompat proxy -- <server command …>` serves one client on stdio; `--upstream URL` reaches a streamable HTTP
server instead; `--listen HOST:PORT` serves clients over streamable HTTP (each session gets its own upstream).
What it prints, and the errors it sends clients, show the upstream's command line and URL with secrets redacted.
"""

from __future__ import annotations

import argparse
import functools
import logging
import sys
from collections.abc import Sequence

from hostcompat.cli._command import Command
from hostcompat.clients.proxy.config import (
    DEFAULT_DRAIN_TIMEOUT,
    DEFAULT_HANDSHAKE_TIMEOUT,
    DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_MAX_SESSIONS,
    DEFAULT_REQUEST_TIMEOUT,
    DEFAULT_SESSION_IDLE_TIMEOUT,
    DEFAULT_UPSTREAM_MEMORY,
    ERA_CHOICES,
    HttpUpstream,
    ProxyConfig,
    build_rules,
    http_upstream,
    parse_listen,
    stdio_upstream,
)
from hostcompat.clients.proxy.event_loop import LOOP_CHOICES, loop_options, uvloop_available
from hostcompat.clients.proxy.session.front_guard import front_guard
from hostcompat.errors import HostCompatError, InvalidInput
from hostcompat.redaction import Redactor
from hostcompat.terminal import clean_line

MIB = 1024 * 1024

EXAMPLES = """examples:
  hostcompat proxy -- npx -y @modelcontextprotocol/server-everything stdio
  hostcompat proxy --listen 127.0.0.1:8000 -- python my_server.py
  hostcompat proxy --listen 0.0.0.0:8000 --allow-origin https://app.example.com -- python my_server.py
  hostcompat proxy --upstream https://example.com/mcp --header "Authorization: Bearer TOKEN"
  hostcompat proxy --disable codex.round-annotation-priority --rules my-rules.json -- ./server
  hostcompat proxy --era-back modern -- python modern_only_server.py
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The proxy's options."""
    parser.epilog = EXAMPLES
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--upstream", metavar="URL", help="reach the server over streamable HTTP at URL")
    parser.add_argument(
        "--header", action="append", default=[], metavar="NAME:VALUE", help="an HTTP header for --upstream (repeat)"
    )
    parser.add_argument("--listen", metavar="HOST:PORT", help="serve clients over streamable HTTP (path /mcp)")
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a web origin (https://app.example.com, http://host:*) allowed to use the HTTP front (repeat); "
        "required to listen beyond loopback",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="HOST",
        help="a Host header the HTTP front accepts besides loopback, its address and the allowed origins' hosts",
    )
    parser.add_argument("--rules", action="append", default=[], metavar="FILE", help="a user rule file (repeat)")
    parser.add_argument("--disable", action="append", default=[], metavar="RULE_ID", help="switch a rule off (repeat)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_REQUEST_TIMEOUT,
        metavar="SECONDS",
        help=f"fail a request after this long with no answer or progress (default {DEFAULT_REQUEST_TIMEOUT:g})",
    )
    parser.add_argument(
        "--drain-timeout",
        type=float,
        default=DEFAULT_DRAIN_TIMEOUT,
        metavar="SECONDS",
        help="once the client closes stdin, wait this long for answers in flight before stopping the server "
        f"(default {DEFAULT_DRAIN_TIMEOUT:g})",
    )
    parser.add_argument(
        "--max-message-bytes", type=int, default=DEFAULT_MAX_MESSAGE_BYTES, metavar="N", help=argparse.SUPPRESS
    )
    parser.add_argument(
        "--max-sessions",
        type=int,
        default=DEFAULT_MAX_SESSIONS,
        metavar="N",
        help=f"HTTP front: the most sessions at once, each with its own server (default {DEFAULT_MAX_SESSIONS})",
    )
    parser.add_argument(
        "--session-idle",
        type=float,
        default=DEFAULT_SESSION_IDLE_TIMEOUT,
        metavar="SECONDS",
        help="HTTP front: close a session (and stop its server) after this long with no request in flight "
        f"(default {DEFAULT_SESSION_IDLE_TIMEOUT:g}; a client that sends nothing after initialize: "
        f"{DEFAULT_HANDSHAKE_TIMEOUT:g})",
    )
    parser.add_argument(
        "--session-memory",
        type=int,
        default=DEFAULT_UPSTREAM_MEMORY // MIB,
        metavar="MIB",
        help="the data-segment limit of each server process the proxy starts, in MiB, on Linux "
        f"(default {DEFAULT_UPSTREAM_MEMORY // MIB}; 0: no limit)",
    )
    parser.add_argument(
        "--loop",
        choices=LOOP_CHOICES,
        default="auto",
        help="the event loop: uvloop when installed (auto, the default), or the standard asyncio loop",
    )
    parser.add_argument(
        "--era-front",
        choices=ERA_CHOICES,
        default="auto",
        help="the client's protocol era: legacy (initialize, up to 2025-11-25), modern (2026-07-28, stateless), "
        "or auto (from its first request, the default); the HTTP front (--listen) serves legacy clients only",
    )
    parser.add_argument(
        "--era-back",
        choices=ERA_CHOICES,
        default="auto",
        help="the server's protocol era (auto, the default: asked once); when the eras differ the proxy translates "
        "between them; the same era given on both sides keeps the plain byte relay",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log every rewrite and dropped message")
    parser.add_argument("server_command", nargs="*", metavar="-- COMMAND", help="the server command line, after --")


def build_config(args: argparse.Namespace) -> ProxyConfig:
    """The proxy configuration the options describe.

    Raises:
        HostCompatError: no upstream or two, a bad URL, header or rule file, or a rule id no rule has.
    """
    command = list(args.server_command)
    if command[:1] == ["--"]:  # kept by some Python versions
        command = command[1:]
    if bool(command) == bool(args.upstream):
        raise InvalidInput("give the server either as a command after -- or as --upstream URL", value=command)
    if args.header and not args.upstream:
        raise InvalidInput("--header goes with --upstream", value=args.header)
    if args.listen and args.era_front == "modern":
        raise InvalidInput("the HTTP front (--listen) serves handshake-era clients: --era-front modern goes with stdio")
    if (args.allow_origin or args.allow_host) and not args.listen:
        given = args.allow_origin or args.allow_host
        raise InvalidInput("--allow-origin and --allow-host go with --listen", value=given)
    upstream = http_upstream(args.upstream, args.header) if args.upstream else stdio_upstream(command)
    return ProxyConfig(
        upstream=upstream,
        rules=build_rules(args.rules, args.disable),
        request_timeout=args.timeout,
        max_message_bytes=args.max_message_bytes,
        max_sessions=args.max_sessions,
        session_idle_timeout=args.session_idle,
        upstream_memory=args.session_memory * MIB if args.session_memory else None,
        drain_timeout=args.drain_timeout,
        allowed_origins=tuple(args.allow_origin),
        allowed_hosts=tuple(args.allow_host),
        era_front=args.era_front,
        era_back=args.era_back,
    )


async def _serve_http(config: ProxyConfig, host: str, port: int) -> int:
    from hostcompat.clients.proxy.serve import HttpProxyServer, bind

    server = HttpProxyServer(config, bind(host, port), stderr=getattr(sys.stderr, "buffer", None))
    if server.warning is not None:
        sys.stderr.write(f"hostcompat proxy: {clean_line(server.warning)}\n")
    sys.stderr.write(f"hostcompat proxy: serving {server.url} (upstream: {config.upstream.describe()})\n")
    sys.stderr.flush()
    await server.serve(handle_signals=True)
    return 0


class _RedactingFilter(logging.Filter):
    """Every log line with the upstream's secrets and any URL credentials redacted, whichever library wrote it."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self._redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = clean_line(self._redactor.text(record.getMessage())), None
        if record.exc_info:  # a traceback (with -v) quotes what the exception says: redacted line by line too
            text = logging.Formatter().formatException(record.exc_info)
            record.exc_text = "\n".join(clean_line(self._redactor.text(line)) for line in text.splitlines())
            record.exc_info = None
        return True


def run_proxy(args: argparse.Namespace) -> int:
    """Run the proxy until the client (stdio) or a signal (HTTP) ends it; 2 on a usage error."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="hostcompat proxy: %(message)s")
    if args.verbose:  # hostcompat's own debug lines, not every library's (the SDK's quote what they are given)
        logging.getLogger("hostcompat").setLevel(logging.DEBUG)
    try:
        config = build_config(args)
        listen = parse_listen(args.listen) if args.listen else None
        if listen is not None:  # an HTTP front beyond loopback without allowed origins is refused before it binds
            front_guard(*listen, config.allowed_origins, config.allowed_hosts)
        backend_options = loop_options(args.loop, uvloop_installed=uvloop_available())
    except HostCompatError as error:
        sys.stderr.write(f"hostcompat proxy: error: {clean_line(error.message)}\n")
        return 2
    for handler in logging.getLogger().handlers:
        handler.addFilter(_RedactingFilter(config.upstream.redactor()))
    note = config.upstream.credentials_note() if isinstance(config.upstream, HttpUpstream) else None
    if note is not None:
        sys.stderr.write(f"hostcompat proxy: warning: {note}\n")
    import anyio

    from hostcompat.clients.proxy.serve import run_stdio_proxy

    try:
        if listen is not None:
            return anyio.run(_serve_http, config, *listen, backend_options=dict(backend_options))
        stdio = functools.partial(run_stdio_proxy, config, handle_signals=True)
        return anyio.run(stdio, backend_options=dict(backend_options))
    except HostCompatError as error:
        sys.stderr.write(f"hostcompat proxy: error: {clean_line(error.message)}\n")
        return 2
    except KeyboardInterrupt:
        return 130


COMMAND = Command(
    name="proxy",
    help="run any MCP server behind the client-compatibility rules (stdio or streamable HTTP, either side)",
    add_arguments=add_arguments,
    run=run_proxy,
    description=__doc__,
)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m hostcompat.cli.proxy …`: the proxy command on its own."""
    parser = argparse.ArgumentParser(prog="hostcompat proxy", description=COMMAND.description)
    add_arguments(parser)
    return run_proxy(parser.parse_args(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["COMMAND", "EXAMPLES", "add_arguments", "build_config", "main", "run_proxy"]
