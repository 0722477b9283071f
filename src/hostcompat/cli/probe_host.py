"""`hostcompat probe-host`: run the host probe kit, an MCP App server that tests the host it is added to.

Over stdio by default (a host's config file starts it), or over streamable HTTP on 127.0.0.1 (`--http`), for hosts
that reach servers by URL, through a tunnel for cloud hosts (`--allow-host` names the tunnel's host name). The file
it writes is a catalog override; `hostcompat hosts --merge FILE --catalog MINE` folds it into your own.
"""

from __future__ import annotations

import argparse
import sys

from hostcompat.cli._command import Command

_REGISTRATIONS = ("config-file", "connector", "plugin", "project-config", "extension")


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o", "--out", default="hostcompat-probe.json", metavar="FILE", help="the catalog override file it writes"
    )
    parser.add_argument("--host", metavar="ID", help="the catalog host it runs in (default: from the client's name)")
    parser.add_argument(
        "--registration", choices=_REGISTRATIONS, help="how you added the server to the host (limits the facts to it)"
    )
    parser.add_argument(
        "--common", action="store_true", help="write plain facts, not facts limited to the OS and registration seen"
    )
    parser.add_argument("--catalog", action="append", default=[], metavar="FILE", help="a user file of host overrides")
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP on 127.0.0.1 instead of stdio")
    parser.add_argument("--port", type=int, default=8765, help="the HTTP port")
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a Host header to accept besides localhost (a tunnel's host name)",
    )


def _run(args: argparse.Namespace) -> int:
    from hostcompat.engine.catalog.load import load_catalog
    from hostcompat.errors import InvalidInput
    from hostcompat.output_files import check_output_path
    from hostcompat.probekit.server import build_probe_server, probe_options

    if not 0 < args.port < 65536:
        raise InvalidInput(f"--port {args.port} is not a TCP port")
    check_output_path(args.out)
    catalog = load_catalog(overrides=args.catalog)
    if args.host:
        catalog.get(args.host)  # an unknown id is an error now, not after the host ran the widget
    options = probe_options(
        args.out,
        host_id=args.host,
        registration=args.registration,
        common=args.common,
        transport="streamable-http" if args.http else "stdio",
    )
    server, _ = build_probe_server(options, catalog)
    if not args.http:
        server.run("stdio")
        return 0
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*", *args.allow_host]
    origins = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*", *(f"https://{h}" for h in args.allow_host)]
    security = TransportSecuritySettings(allowed_hosts=hosts, allowed_origins=origins)
    sys.stderr.write(f"hostcompat probe-host: serving http://127.0.0.1:{args.port}/mcp, writing {args.out}\n")
    server.run("streamable-http", host="127.0.0.1", port=args.port, transport_security=security)
    return 0


COMMAND = Command(
    name="probe-host",
    help="run the probe kit: an MCP App server that tests the host it is added to and writes a catalog override",
    add_arguments=_add_arguments,
    run=_run,
)

__all__ = ["COMMAND"]
