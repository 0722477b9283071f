"""Hostile over streamable HTTP (JSON responses): `http_hostile.py <mode> <port>`.

- `huge`: the widget read answers with a 50 MB JSON body;
- `hang`: `tools/list` never answers;
- `html`: every POST is answered `200 text/html` (a proxy's error page), so nothing is JSON-RPC;
- `calls`: three read-only tools without arguments: `hang` never answers, `huge` answers with a 50 MB JSON body,
  `fine` answers at once.
"""

import json
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tests.probe.servers._jsonrpc import UI_MIME, initialize_result, tool

URI = "ui://huge/widget.html"
MEGABYTES = 50
READ_ONLY = {"readOnlyHint": True}


def reply(request_id: Any, result: dict[str, Any]) -> JSONResponse:
    return JSONResponse({"jsonrpc": "2.0", "id": request_id, "result": result})


async def huge_body(request_id: Any) -> AsyncIterator[bytes]:
    head = json.dumps({"jsonrpc": "2.0", "id": request_id, "result": {"contents": [{"uri": URI, "mimeType": UI_MIME}]}})
    yield (head[: -len("}]}}")] + ', "text": "').encode()
    chunk = b"y" * (1024 * 1024)
    for _ in range(MEGABYTES):
        yield chunk
    yield b'"}]}}'


async def huge_result(request_id: Any) -> AsyncIterator[bytes]:
    head = json.dumps({"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text"}]}})
    yield (head[: -len("}]}}")] + ', "text": "').encode()
    chunk = b"y" * (1024 * 1024)
    for _ in range(MEGABYTES):
        yield chunk
    yield b'"}]}}'


async def call_tool(request_id: Any, name: Any) -> Response:
    if name == "hang":
        await anyio.sleep_forever()
    if name == "huge":
        return StreamingResponse(huge_result(request_id), media_type="application/json")
    return reply(request_id, {"content": [{"type": "text", "text": f"{name} ok"}]})


def handler(mode: str) -> Any:
    async def mcp(request: Request) -> Response:
        if mode == "html":
            return HTMLResponse("<html><body>502 Bad Gateway</body></html>")
        message = await request.json()
        if "id" not in message:
            return Response(status_code=202)
        method, request_id = message["method"], message["id"]
        if method == "initialize":
            return reply(request_id, initialize_result({"tools": {}, "resources": {}}, f"http-{mode}"))
        if method == "tools/list":
            if mode == "hang":
                await anyio.sleep_forever()
            if mode == "calls":
                return reply(
                    request_id, {"tools": [tool(name, annotations=READ_ONLY) for name in ("hang", "huge", "fine")]}
                )
            return reply(request_id, {"tools": [tool("show", URI)]})
        if method == "tools/call":
            return await call_tool(request_id, message["params"]["name"])
        if method == "resources/list":
            return reply(request_id, {"resources": []})
        if method == "resources/templates/list":
            return reply(request_id, {"resourceTemplates": []})
        if method == "resources/read":
            return StreamingResponse(huge_body(request_id), media_type="application/json")
        error = {"code": -32601, "message": f"Method not found: {method}"}
        return JSONResponse({"jsonrpc": "2.0", "id": request_id, "error": error})

    return mcp


def main() -> None:
    mode, port = sys.argv[1], int(sys.argv[2])
    app = Starlette(routes=[Route("/mcp", handler(mode), methods=["POST", "GET", "DELETE"])])
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    anyio.run(uvicorn.Server(config).serve)


if __name__ == "__main__":
    main()
