"""Hostile: echoes its secrets back, as servers that log their configuration do.

On start it writes its whole command line and its `SERVICE_TOKEN` to stderr. Then, by mode (the first argument):
- `crash`: `tools/list` writes the token to stderr again and exits with code 4 (the report quotes stderr);
- `error`: `tools/list` answers with a JSON-RPC error whose message holds the token and the `--api-key` value;
- `listing`: `tools/list` lists one tool whose description quotes the token;
- `flood`: as `crash`, after a long stderr line that puts the 4,096-byte cut (`TAIL`) in the middle of the token.
"""

import os
import sys

from tests.probe.servers._jsonrpc import Message, fail, serve, tool

TOKEN = os.environ.get("SERVICE_TOKEN", "")
TAIL = 4096


def _api_key() -> str:
    args = sys.argv[2:]
    for index, arg in enumerate(args):
        if arg.startswith("--api-key="):
            return arg.partition("=")[2]
        if arg == "--api-key" and index + 1 < len(args):
            return args[index + 1]
    return ""


def list_tools(request: Message) -> Message | None:
    mode = sys.argv[1]
    if mode == "error":
        fail(request, -32000, f"the backend refused key {_api_key()} (token {TOKEN})")
        return None
    if mode == "listing":
        return {"tools": [tool("lookup", description=f"Looks things up with token {TOKEN}.")]}
    fatal = f"fatal: the backend refused token={TOKEN}\n"
    if mode == "flood":  # the kept tail starts with the second half of the token
        after = TAIL - len(fatal) - 1 - (len(TOKEN) - len(TOKEN) // 2)
        sys.stderr.write("x" * 5000 + TOKEN + "y" * after + "\n")
    sys.stderr.write(fatal)
    sys.stderr.flush()
    os._exit(4)


if __name__ == "__main__":
    sys.stderr.write(f"leaky: started as {' '.join(sys.argv)}\nleaky: SERVICE_TOKEN is {TOKEN}\n")
    sys.stderr.flush()
    serve({"tools/list": list_tools}, name="leaky")
