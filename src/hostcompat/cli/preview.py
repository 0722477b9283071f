"""`hostcompat preview`: open a server's widget in your browser as a chosen host renders it, the bridge messages
beside it, and a switch to another host or widget.

The page is the test host of observed runs, served on 127.0.0.1 with a token in its address; the widget runs in a
sandboxed frame without allow-same-origin, under the CSP its `_meta.ui.csp` builds. The view's tools/call and
resources/read are answered from the snapshot, or by the live server with `--live`, where the host forwards them.

Exit codes: 0 stopped (Ctrl-C or --serve-seconds); 1 the server could not be reached; 2 bad arguments.
"""

from __future__ import annotations

import argparse
import sys
import time

from hostcompat.cli._command import Command
from hostcompat.cli._probing import add_probe_arguments, as_host_profile, probe_all, probe_options
from hostcompat.cli._targets import add_target_arguments, plan_targets
from hostcompat.errors import InvalidInput


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser, allow_snapshot=True)
    add_probe_arguments(parser)
    parser.add_argument("--host", default="claude", metavar="ID", help="the host to open with (default: claude)")
    parser.add_argument("--port", type=int, default=0, help="the port on 127.0.0.1 (default 0: any free port)")
    parser.add_argument("--no-open", action="store_true", help="print the address only; do not open a browser")
    parser.add_argument(
        "--live", action="store_true", help="forward the view's tools/call and resources/read to the live server"
    )
    parser.add_argument(
        "--serve-seconds", type=float, default=None, metavar="S", help="stop after S seconds (default: until Ctrl-C)"
    )
    parser.add_argument("--catalog", action="append", default=[], metavar="FILE", help="a user file of host overrides")


def _run(args: argparse.Namespace) -> int:
    from hostcompat.engine.catalog.load import load_catalog
    from hostcompat.probe.snapshot import read_snapshot
    from hostcompat.redaction import Redactor
    from hostcompat.web.preview import PreviewServer, PreviewSite

    planned = plan_targets(args)
    if len(planned) != 1:
        raise InvalidInput("preview takes one server (a snapshot, a URL or a command after --)", value=len(planned))
    catalog = load_catalog(overrides=args.catalog)
    item = planned[0]
    if item.snapshot is not None:
        snapshot = read_snapshot(item.snapshot).redacted(Redactor())
    else:
        snapshot = probe_all([item], probe_options(args, as_host_profile(args, catalog)), None)[0]
        if snapshot.initialize is None:
            sys.stderr.write("hostcompat preview: the server could not be reached\n")
            return 1
    site = PreviewSite.of(snapshot, catalog, args.host)
    live = item.target if args.live else None
    server = PreviewServer(site, port=args.port, live=live)
    url = server.start()
    try:
        print(f"hostcompat preview: {url}&host={site.host_id}", flush=True)
        for note in server.notes:
            print(f"note: {''.join(ch if ch.isprintable() else '?' for ch in note)}", flush=True)
        if not args.no_open:
            import webbrowser

            webbrowser.open(f"{url}&host={site.host_id}")
        deadline = None if args.serve_seconds is None else time.monotonic() + max(0.0, args.serve_seconds)
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0


COMMAND = Command(
    name="preview",
    help="open a server's widget in your browser under an emulated host, with the message log and a host switch",
    description=__doc__,
    add_arguments=_add_arguments,
    run=_run,
    command_line=True,
)

__all__ = ["COMMAND"]
