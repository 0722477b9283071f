"""Hostile: answers `tools/list` one byte at a time, a byte every 20 ms (a 4 KB reply takes over a minute)."""

import json
import time

from tests.probe.servers._jsonrpc import Message, serve, tool, write_raw

DRIP_SECONDS = 0.02


def list_tools(request: Message) -> Message | None:
    result = {"tools": [tool(f"drip-{index}") for index in range(40)]}
    data = json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}).encode() + b"\n"
    for index in range(len(data)):
        write_raw(data[index : index + 1])
        time.sleep(DRIP_SECONDS)
    return None


if __name__ == "__main__":
    serve({"tools/list": list_tools}, name="slow-drip")
