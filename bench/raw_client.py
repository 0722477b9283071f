"""The floor for a live stdio `check`: a client with no SDK that makes the probe's exchange and nothing else.

It starts the server, writes JSON-RPC as plain JSON lines on the child's stdin, and reads one answer per request:
`server/discover` (the probe asks first; a handshake-era server refuses it), `initialize`,
`notifications/initialized`, one page of each listing the server declares (`tools/list`, `resources/list`,
`resources/templates/list`, `prompts/list`), `resources/read` of each `ui://` resource the tools and resources name,
then it closes stdin and waits for the server to exit, as the probe does. No models, no validation, no report:
`bench/bench_startup.py --live` times `hostcompat check -- <server>` against it.

Run: `python bench/raw_client.py -- <server command …>` (prints what it read, in bytes, on stderr).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import IO, Any

CLIENT_INFO = {"name": "raw-client", "version": "0"}
UI_EXTENSION = {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}


class Peer:
    """One JSON-lines conversation with the child: send a request, read lines until its answer arrives."""

    def __init__(self, stdin: IO[bytes], stdout: IO[bytes]) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.next_id = 0
        self.received = 0

    def notify(self, method: str) -> None:
        """Send a notification (no answer awaited)."""
        self.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")
        self.stdin.flush()

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send a request and return its answer (result or error), skipping anything else the server writes."""
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.stdin.write(json.dumps(message).encode() + b"\n")
        self.stdin.flush()
        while True:
            line = self.stdout.readline()
            if not line:
                raise EOFError(f"the server closed stdout before answering {method}")
            self.received += len(line)
            answer = json.loads(line)
            if isinstance(answer, dict) and answer.get("id") == self.next_id:
                return answer


def _ui_uris(tools: list[Any], resources: list[Any]) -> list[str]:
    """The `ui://` resources named by the tools (`_meta.ui.resourceUri`) and listed as resources, first seen first."""
    uris: list[str] = []
    for tool in tools:
        meta = tool.get("_meta") if isinstance(tool, dict) else None
        ui = meta.get("ui") if isinstance(meta, dict) else None
        uri = ui.get("resourceUri") if isinstance(ui, dict) else None
        if isinstance(uri, str) and uri.startswith("ui://") and uri not in uris:
            uris.append(uri)
    for resource in resources:
        uri = resource.get("uri") if isinstance(resource, dict) else None
        if isinstance(uri, str) and uri.startswith("ui://") and uri not in uris:
            uris.append(uri)
    return uris


def exchange(command: list[str]) -> int:
    """Make the probe's exchange with `command`; return the bytes read from its stdout."""
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdin is not None and child.stdout is not None
    peer = Peer(child.stdin, child.stdout)
    try:
        discover_meta = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
            "io.modelcontextprotocol/clientCapabilities": {"extensions": UI_EXTENSION},
        }
        peer.request("server/discover", {"_meta": discover_meta})
        params = {"protocolVersion": "2025-11-25", "capabilities": {"extensions": UI_EXTENSION}}
        initialize = peer.request("initialize", {**params, "clientInfo": CLIENT_INFO})
        peer.notify("notifications/initialized")
        declared = initialize.get("result", {}).get("capabilities", {})
        listings = {"tools": "tools", "resources": "resources", "resourceTemplates": "resources", "prompts": "prompts"}
        methods = {
            "tools": "tools/list",
            "resources": "resources/list",
            "resourceTemplates": "resources/templates/list",
            "prompts": "prompts/list",
        }
        found: dict[str, list[Any]] = {}
        for key, capability in listings.items():
            if capability in declared:
                found[key] = peer.request(methods[key]).get("result", {}).get(key, [])
        for uri in _ui_uris(found.get("tools", []), found.get("resources", [])):
            peer.request("resources/read", {"uri": uri})
    finally:
        child.stdin.close()
        child.stdout.read()
        child.wait()
    return peer.received


if __name__ == "__main__":
    arguments = sys.argv[1:]
    received = exchange(arguments[1:] if arguments[:1] == ["--"] else arguments)
    print(f"{received} bytes received", file=sys.stderr)
