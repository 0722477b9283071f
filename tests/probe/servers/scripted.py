"""A server that writes down every line it reads, and plays one scenario: `scripted.py SCENARIO RECORD_FILE`.

For holding the probe's own stdio session to the official client's (`test_raw_session.py`): the same scenario is
played to both, and what each sent (the recorded lines) and what each made of the answers (the snapshots) must
match. The scenarios are the ways a server can meet a client's handshake and requests:

- `handshake`: a 2025 server (`server/discover` is "method not found"), with a widget, a read-only tool and a prompt;
- `modern`: a 2026-07-28 server (`server/discover` answers), its results as 2026-07-28 has them, but for a
  negative `ttlMs` on the tool listing (the client floors it);
- `modern-loose`: the same, its results without the fields 2026-07-28 requires;
- `unsupported`: `server/discover` refused with -32022 naming a modern version, then answered;
- `legacy-versions`: `server/discover` answers, naming only handshake versions;
- `bad-discover`: `server/discover` answers with a result no client accepts;
- `bad-initialize`: `initialize` answers with a result no client accepts;
- `odd-version`: `initialize` answers with a version no client speaks;
- `asks`: the server asks the client things (ping, sampling, elicitation, roots, an unknown method, invalid params)
  and notifies it, before answering `tools/list`;
- `string-ids`: answers carry the request id as a string;
- `slow-call`: the read-only tool never answers (the client gives up and says so).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from tests.probe.servers._jsonrpc import Message, fail, send, tool

UI = "ui://scripted/widget.html"
HTML = "<!doctype html><script>window.openai.callTool('clock', {})</script>"
CAPABILITIES = {"tools": {"listChanged": True}, "resources": {}, "prompts": {}}
INFO = {"name": "scripted", "version": "1.0.0"}


def discover_result(versions: list[str]) -> Message:
    base = {"resultType": "complete", "ttlMs": 0, "cacheScope": "public"}
    return {**base, "supportedVersions": versions, "capabilities": CAPABILITIES, "_meta": {"serverInfo": INFO}}


def initialize_result(version: object = "2025-11-25") -> Message:
    return {"protocolVersion": version, "capabilities": CAPABILITIES, "serverInfo": INFO}


def modern_fields(scenario: str, method: str) -> Message:
    """What a 2026-07-28 result carries besides its content (nothing for the other scenarios)."""
    if scenario != "modern":
        return {}
    if method == "tools/call":
        return {"resultType": "complete"}
    return {"resultType": "complete", "ttlMs": -5 if method == "tools/list" else 0, "cacheScope": "private"}


def listing(method: str, scenario: str) -> Message:
    if method == "tools/list":
        clock = tool("clock", UI, annotations={"readOnlyHint": True}, inputSchema={"type": "object"})
        return {"tools": [clock, tool("other")]}
    if method == "resources/list":
        return {"resources": [{"uri": UI, "name": "widget", "mimeType": "text/html;profile=mcp-app"}]}
    if method == "resources/templates/list":
        return {"resourceTemplates": []}
    return {"prompts": [{"name": "greet", "arguments": [{"name": "who", "required": True}]}]}


ASKS: list[Message] = [
    {"jsonrpc": "2.0", "id": "p1", "method": "ping"},
    {"jsonrpc": "2.0", "id": 2, "method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}},
    {"jsonrpc": "2.0", "id": 3, "method": "elicitation/create", "params": {"message": "m", "requestedSchema": {}}},
    {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "elicitation/create",
        "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {}}},
    },
    {"jsonrpc": "2.0", "id": 4, "method": "roots/list"},
    {"jsonrpc": "2.0", "id": 5, "method": "x/unknown", "params": {}},
    {"jsonrpc": "2.0", "id": 6, "method": "ping", "params": {"_meta": 5}},
    {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hello"}},
    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
    {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}},
]


def answer(request: Message, scenario: str) -> None:
    method, rid = request["method"], request["id"]
    reply_id: Any = str(rid) if scenario == "string-ids" and method != "server/discover" else rid
    result: Message | None = None
    if method == "server/discover":
        if scenario in ("modern", "modern-loose", "unsupported") and not (
            scenario == "unsupported" and _first_discover()
        ):
            result = discover_result(["2026-07-28"])
        elif scenario == "unsupported":
            data = {"supported": ["2026-07-28"], "requested": "2026-07-28"}
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32022, "message": "unsupported", "data": data}})
            return
        elif scenario == "legacy-versions":
            result = discover_result(["2025-06-18"])
        elif scenario == "bad-discover":
            result = {"supportedVersions": "2026-07-28", "capabilities": []}
        else:
            fail(request, -32601, "Method not found")
            return
    elif method == "initialize":
        version: object = {"bad-initialize": 20251125, "odd-version": "1999-01-01"}.get(scenario, "2025-11-25")
        result = initialize_result(version)
        if scenario == "bad-initialize":
            result["serverInfo"] = {"name": 3}
    elif method in ("tools/list", "resources/list", "resources/templates/list", "prompts/list"):
        if scenario == "asks" and method == "tools/list":
            for message in ASKS:
                send(message)
            time.sleep(0.3)  # the client's answers arrive before the listing
        result = listing(method, scenario)
    elif method == "resources/read":
        result = {"contents": [{"uri": UI, "mimeType": "text/html;profile=mcp-app", "text": HTML}]}
    elif method == "tools/call":
        if scenario == "slow-call":
            return
        result = {"content": [{"type": "text", "text": "12:00"}], "structuredContent": {"time": "12:00"}}
    else:
        fail(request, -32601, f"Method not found: {method}")
        return
    send({"jsonrpc": "2.0", "id": reply_id, "result": {**result, **modern_fields(scenario, method)}})


_DISCOVERS = [0]


def _first_discover() -> bool:
    _DISCOVERS[0] += 1
    return _DISCOVERS[0] == 1


def main() -> None:
    scenario, record = sys.argv[1], sys.argv[2]
    with open(record, "wb") as out:
        for line in sys.stdin.buffer:
            out.write(line)
            out.flush()
            if not line.strip():
                continue
            message = json.loads(line)
            if isinstance(message, dict) and "method" in message and "id" in message:
                answer(message, scenario)


if __name__ == "__main__":
    main()
