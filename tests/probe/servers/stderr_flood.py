"""Hostile: writes megabytes to stderr (`argv[1]` MB, default 8) before and while it serves."""

import sys

from tests.probe.servers._jsonrpc import serve, tool

LINE = b"warning: something noisy happened\n" * 1024


def flood(megabytes: int) -> None:
    for _ in range(megabytes * 1024 * 1024 // len(LINE)):
        sys.stderr.buffer.write(LINE)
    sys.stderr.buffer.write(b"last words: ready\n")
    sys.stderr.buffer.flush()


if __name__ == "__main__":
    flood(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
    serve({"tools/list": lambda _request: {"tools": [tool("noisy")]}}, name="stderr-flood")
