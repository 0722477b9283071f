"""A tiny MCP server on stdio, standard library only, whose tools misbehave on purpose (crash, hang, flood...).

Run as `python fake_server.py`; each tools/call name picks a behaviour. Results carry unknown fields and `_meta`
so a test can see that the proxy passes them on.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

TOOLS: dict[str, Any] = {
    "tools": [
        {
            "name": "echo",
            "title": "Echo",
            "description": "Says the text back.",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "x-schema-extra": 1},
            "x-unknown-tool-field": {"kept": True},
            "_meta": {"x.vendor/tool": "meta"},
        },
        {"name": "get.weather", "inputSchema": {"type": "object", "properties": {"city": {}}}},
    ],
    "x-unknown-result-field": [1, 2, 3],
    "_meta": {"x.vendor/list": "meta"},
}

PAGE_2: dict[str, Any] = {
    "tools": [{"name": "second.page", "inputSchema": {"type": "object"}}],
    "nextCursor": "page-3",
    "_meta": {"x.vendor/page": 2},
}

cancelled: list[Any] = []
waiting_for_sample: dict[str, Any] = {}


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def result(request_id: Any, value: dict[str, Any]) -> None:
    send({"jsonrpc": "2.0", "id": request_id, "result": value})


def text(value: str, priority: float = 0.5) -> dict[str, Any]:
    return {
        "content": [{"type": "text", "text": value, "annotations": {"priority": priority}, "_meta": {"x.c/m": 1}}],
        "x-unknown-call-field": "kept",
    }


def call_tool(request_id: Any, params: dict[str, Any]) -> None:
    name = params.get("name")
    arguments = params.get("arguments") or {}
    token = (params.get("_meta") or {}).get("progressToken")
    if name in ("echo", "get.weather"):
        result(request_id, text(f"{name}: {arguments.get('text', arguments.get('city', ''))}"))
    elif name == "crash":
        sys.stderr.write("fake server: about to fail\nfatal: the disk is on fire\n")
        sys.stderr.flush()
        sys.exit(int(arguments.get("code", 3)))
    elif name == "hang":
        pass  # never answers
    elif name == "big":
        result(request_id, text("x" * int(arguments["bytes"])))
    elif name == "garbage":
        sys.stdout.write("this is not json\n")
        result(request_id, text("after garbage"))
    elif name == "progress":
        for step in range(int(arguments.get("steps", 3))):
            time.sleep(float(arguments.get("interval", 0.0)))
            send(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/progress",
                    "params": {"progressToken": token, "progress": step + 1, "total": 3},
                }
            )
        result(request_id, text("done"))
    elif name == "notify":
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hello"}})
        result(request_id, text("notified"))
    elif name == "sample":
        waiting_for_sample["s1"] = request_id
        params_out = {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5}
        send({"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage", "params": params_out})
    elif name == "pid":
        result(request_id, {"content": [{"type": "text", "text": str(os.getpid())}]})
    elif name == "cancelled":
        result(request_id, {"content": [{"type": "text", "text": json.dumps(cancelled)}]})
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": f"unknown tool {name}"}})


def handle(message: dict[str, Any]) -> None:
    method = message.get("method")
    request_id = message.get("id")
    params = message.get("params") or {}
    if method is None:  # a response to our own request
        tool_call = waiting_for_sample.pop(str(request_id), None)
        if tool_call is not None:
            result(tool_call, {"content": [{"type": "text", "text": json.dumps(message.get("result"))}]})
        return
    if request_id is None:
        if method == "notifications/cancelled":
            cancelled.append(params)
        return
    if method == "initialize":
        version = params.get("protocolVersion", "2025-11-25")
        result(
            request_id,
            {
                "protocolVersion": version,
                "capabilities": {"tools": {"listChanged": True}, "x-unknown-capability": {}},
                "serverInfo": {"name": "fake", "version": "1.0"},
                "x-unknown-init-field": "kept",
            },
        )
    elif method == "tools/list":
        result(request_id, PAGE_2 if params.get("cursor") == "page-2" else TOOLS)
    elif method == "tools/call":
        call_tool(request_id, params)
    elif method == "ping":
        result(request_id, {})
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": f"no method {method}"}})


def main() -> None:
    for line in sys.stdin:
        if line.strip():
            handle(json.loads(line))


if __name__ == "__main__":
    main()
