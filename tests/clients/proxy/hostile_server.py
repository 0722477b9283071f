"""An MCP server on stdio, standard library only, that is hostile as a process and on the wire.

Run as `python hostile_server.py [options]`:
  --ignore-term      ignore SIGTERM (it and its child)
  --grandchild       start a child in the same process group that sleeps for an hour (with its stdio closed)
  --detached         start that child in a session of its own instead (as `setsid` or Node's `detached` do)
  --pids FILE        write "<own pid> <child pid>" to FILE once ready
  --starts FILE      append a line to FILE on every start (to count how often a proxy started it)

tools/call names: `pids` answers both pids; `hang` never answers; `hog` allocates `arguments.mib` MiB (and dies of
a MemoryError past a memory limit); `bad-utf8` answers with bytes that are not UTF-8;
`deep` answers with a result nested `arguments.depth` levels deep (a notification first when `notify` is set).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

SLEEPER = (
    "import signal, sys, time\nif sys.argv[1] == '1': signal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(3600)"
)


def send_bytes(data: bytes) -> None:
    sys.stdout.buffer.write(data + b"\n")
    sys.stdout.buffer.flush()


def send(message: dict[str, Any]) -> None:
    send_bytes(json.dumps(message).encode())


def answer(request_id: Any, result: dict[str, Any]) -> None:
    send({"jsonrpc": "2.0", "id": request_id, "result": result})


def call_tool(request_id: Any, name: str, arguments: dict[str, Any], pids: str) -> None:
    if name == "pids":
        answer(request_id, {"content": [{"type": "text", "text": pids}]})
    elif name == "hang":
        pass
    elif name == "hog":
        held = bytearray(int(arguments.get("mib", 512)) * 1024 * 1024)  # MemoryError past a memory limit
        answer(request_id, {"content": [{"type": "text", "text": f"holding {len(held)} bytes"}]})
    elif name == "bad-utf8":
        head = b'{"jsonrpc": "2.0", "id": ' + json.dumps(request_id).encode()
        send_bytes(head + b', "result": {"content": [{"type": "text", "text": "caf\xe9 \xff\xfe"}]}}')
    elif name == "deep":
        depth = int(arguments.get("depth", 5000))
        if arguments.get("notify"):
            send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}})
        nested = b"[" * depth + b"]" * depth
        head = b'{"jsonrpc": "2.0", "id": ' + json.dumps(request_id).encode()
        send_bytes(head + b', "result": {"content": [], "structuredContent": {"deep": ' + nested + b"}}}")
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": f"unknown tool {name}"}})


def handle(message: dict[str, Any], pids: str) -> None:
    method, request_id = message.get("method"), message.get("id")
    params = message.get("params") or {}
    if method is None or request_id is None:
        return
    if method == "initialize":
        answer(
            request_id,
            {
                "protocolVersion": params.get("protocolVersion", "2025-11-25"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "hostile", "version": "1.0"},
            },
        )
    elif method == "tools/call":
        call_tool(request_id, str(params.get("name")), params.get("arguments") or {}, pids)
    elif method == "ping":
        answer(request_id, {})
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": f"no method {method}"}})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ignore-term", action="store_true")
    parser.add_argument("--grandchild", action="store_true")
    parser.add_argument("--detached", action="store_true")
    parser.add_argument("--pids")
    parser.add_argument("--starts")
    options = parser.parse_args()
    if options.starts:
        with open(options.starts, "a", encoding="utf-8") as starts:
            starts.write(f"{os.getpid()}\n")
    if options.ignore_term:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    child_pid = 0
    if options.grandchild:
        flag = "1" if options.ignore_term else "0"
        quiet = subprocess.DEVNULL
        child = subprocess.Popen(
            [sys.executable, "-c", SLEEPER, flag],
            stdin=quiet,
            stdout=quiet,
            stderr=quiet,
            start_new_session=options.detached,
        )
        child_pid = child.pid
    pids = f"{os.getpid()} {child_pid}"
    if options.pids:
        Path(options.pids + ".tmp").write_text(pids, encoding="utf-8")
        os.replace(options.pids + ".tmp", options.pids)
    for line in sys.stdin:
        if line.strip():
            handle(json.loads(line), pids)


if __name__ == "__main__":
    main()
