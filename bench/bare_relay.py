"""The floor for a stdio proxy: a relay that copies bytes both ways between its stdio and a child and does nothing else.

`bench/bench_proxy.py` runs it beside the real proxy: what the bare relay costs over a direct connection is the price
of the extra process and its two pipe hops; what the proxy costs beyond the bare relay is its own work (reading each
message, the session's rules, the timeouts).

Run: `python bench/bare_relay.py -- <server command …>`.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import sys


def relay(command: list[str]) -> int:
    """Copy stdin to the child's stdin and the child's stdout to stdout until either side ends."""
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert child.stdin is not None and child.stdout is not None
    routes = {0: child.stdin.fileno(), child.stdout.fileno(): 1}
    selector = selectors.DefaultSelector()
    for source in routes:
        selector.register(source, selectors.EVENT_READ)
    try:
        while True:
            for key, _ in selector.select():
                data = os.read(key.fd, 65_536)
                if not data:
                    return 0
                target = routes[key.fd]
                while data:
                    data = data[os.write(target, data) :]
    finally:
        child.stdin.close()
        child.terminate()
        child.wait()


if __name__ == "__main__":
    arguments = sys.argv[1:]
    sys.exit(relay(arguments[1:] if arguments[:1] == ["--"] else arguments))
