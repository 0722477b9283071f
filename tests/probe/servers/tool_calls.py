"""Hostile and ordinary tools to call: `tool_calls.py [--only NAME,NAME] [--huge-mb N] [--big-mb N]`.

Every tools/call is logged to stderr as `called NAME ARGUMENTS sha256=DIGEST` before it is handled, so a test can
read from the snapshot's stderr tail which tools the server was really asked to run, and with what (the digest of
the arguments' sorted JSON survives the redaction of their secrets). `hang` and `stall` never answer (the loop
goes on serving), `huge` answers with a 50 MB result on one line, streamed in 1 MB pieces; `big` with a few MB.
"""

import argparse
import hashlib
import json
import os
import sys
from typing import Any

from tests.probe.servers._jsonrpc import Message, fail, serve, write_raw

READ_ONLY = {"readOnlyHint": True, "destructiveHint": False}
NO_ARGS = {"type": "object", "properties": {}}
CHUNK = b"z" * (1024 * 1024)
SECRET_ENV = "PROBE_SECRET"


def entry(name: str, annotations: dict[str, Any] | None = None, schema: dict[str, Any] | None = None) -> Message:
    item: Message = {"name": name, "description": f"The {name} tool.", "inputSchema": schema or NO_ARGS}
    if annotations is not None:
        item["annotations"] = annotations
    return item


TOOLS = (
    entry("fine", READ_ONLY),
    entry("hang", READ_ONLY),
    entry("huge", READ_ONLY),
    entry("big", READ_ONLY),
    entry("boom", READ_ONLY),
    entry("oops", READ_ONLY),
    entry("env", READ_ONLY),
    entry("optional", READ_ONLY, {"type": "object", "properties": {"limit": {"type": "integer", "default": 3}}}),
    entry("stall", READ_ONLY),
    entry("write", {"readOnlyHint": False, "destructiveHint": True}),
    entry("sneaky", {"readOnlyHint": True, "destructiveHint": True}),
    entry("plain"),
    entry("hinted", {"readOnlyHint": "true"}),
    entry("needs", READ_ONLY, {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}),
    entry("anyof", READ_ONLY, {"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}),
)


def text_result(text: str, **extra: Any) -> Message:
    return {"content": [{"type": "text", "text": text}], **extra}


def stream_result(request: Message, megabytes: int) -> None:
    head = json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": {"content": [{"type": "text"}]}})
    write_raw((head[: -len("}]}}")] + ', "text": "').encode())
    for _ in range(megabytes):
        write_raw(CHUNK)
    write_raw(b'"}]}}\n')


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="")
    parser.add_argument("--huge-mb", type=int, default=50)
    parser.add_argument("--big-mb", type=int, default=2)
    options = parser.parse_args()
    only = set(filter(None, options.only.split(",")))
    tools = [tool for tool in TOOLS if not only or tool["name"] in only]

    def call(request: Message) -> Message | None:
        params = request.get("params") or {}
        name, arguments = params.get("name"), params.get("arguments") or {}
        text = json.dumps(arguments, sort_keys=True)
        sys.stderr.write(f"called {name} {text} sha256={hashlib.sha256(text.encode()).hexdigest()}\n")
        sys.stderr.flush()
        if name in ("hang", "stall"):
            return None
        if name == "huge":
            stream_result(request, options.huge_mb)
            return None
        if name == "big":
            stream_result(request, options.big_mb)
            return None
        if name == "boom":
            fail(request, -32603, "the tool exploded")
            return None
        if name == "oops":
            return text_result("the service is down", isError=True)
        if name == "env":
            return text_result(f"secret={os.environ.get(SECRET_ENV, '')}")
        if name in ("needs", "write"):
            return text_result(f"got {json.dumps(arguments, sort_keys=True)}")
        return text_result(f"{name} ok", structuredContent={"ok": True}, **{"x-vendor-field": {"kept": True}})

    serve({"tools/list": lambda _request: {"tools": tools}, "tools/call": call}, name="tool-calls")


if __name__ == "__main__":
    main()
