"""Hostile: starts a child in a session of its own (as `setsid` or Node's `detached` do) and exits on EOF, leaving the
child behind. The child writes its pid to the file given as the first argument once it is ready; with `--stubborn`
it ignores SIGTERM.
"""

import subprocess
import sys
import time
from pathlib import Path

from tests.probe.servers._jsonrpc import serve, tool

_CHILD = """import pathlib, signal, sys, time
if sys.argv[2] == '1':
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
pathlib.Path(sys.argv[1] + '.tmp').write_text(str(__import__('os').getpid()))
pathlib.Path(sys.argv[1] + '.tmp').rename(sys.argv[1])
time.sleep(3600)
"""

if __name__ == "__main__":
    pid_file = Path(sys.argv[1])
    stubborn = "--stubborn" in sys.argv[2:]
    subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(pid_file), "1" if stubborn else "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 10
    while not pid_file.exists() and time.monotonic() < deadline:  # the child is ready: its SIGTERM handler is set
        time.sleep(0.01)
    serve({"tools/list": lambda _request: {"tools": [tool("leaves-a-child")]}}, name="detached-child")
