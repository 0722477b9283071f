"""Hostile: a huge catalog (`--count`, default 100,000 tools), all on one page unless `--page-size` is given.

With a small `--count` it is a well-behaved fixture; `--delay` makes every answer wait (a slow, idle server).
"""

import argparse
import json
import time

from tests.probe.servers._jsonrpc import Message, cursor_of, initialize_result, serve, tool, write_raw


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--page-size", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0.0)
    options = parser.parse_args()
    page_size = options.page_size or options.count

    def initialize(request: Message) -> Message | None:
        time.sleep(options.delay)
        return initialize_result({"tools": {}}, "many-tools")

    def list_tools(request: Message) -> Message | None:
        time.sleep(options.delay)
        start = int(cursor_of(request) or "0")
        end = min(start + page_size, options.count)
        result: Message = {"tools": [tool(f"tool_{index:06d}") for index in range(start, end)]}
        if end < options.count:
            result["nextCursor"] = str(end)
        write_raw(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}).encode() + b"\n")
        return None

    serve({"initialize": initialize, "tools/list": list_tools}, name="many-tools")


if __name__ == "__main__":
    main()
