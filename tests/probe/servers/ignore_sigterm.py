"""Hostile: answers normally, but ignores SIGTERM and keeps running after its stdin closes."""

import signal
import threading

from tests.probe.servers._jsonrpc import serve, tool


def linger() -> None:
    threading.Event().wait()


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    serve({"tools/list": lambda _request: {"tools": [tool("stubborn")]}}, name="ignore-sigterm", on_eof=linger)
