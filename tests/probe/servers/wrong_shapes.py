"""Hostile: valid JSON-RPC with wrong MCP shapes, one per listing and read (see the handlers).

- `tools/list`: one good tool (with a field no MCP version defines), a tool without `inputSchema` (the official
  client rejects it), a string item; then a second page whose cursor repeats the first one;
- `resources/list`: `resources` is not a list;
- `prompts/list`: a JSON-RPC error;
- `resources/read`: an error for the widget a tool names, a non-object `contents` for another;
- one tool has a malformed `_meta.ui`, another an `openai/outputTemplate` that is not a `ui://` URI.
"""

from tests.probe.servers._jsonrpc import Message, cursor_of, fail, serve, tool

MISSING = "ui://shapes/missing.html"
ODD = "ui://shapes/odd.html"


def list_tools(request: Message) -> Message | None:
    if cursor_of(request) is None:
        return {
            "tools": [
                tool("good", MISSING, **{"x-vendor-field": {"kept": True}}),
                {"name": "no-schema", "_meta": {"ui": {"resourceUri": ODD}}},
                "not an object",
                tool("bad-meta", _meta={"ui": "should be an object"}),
                tool("bad-template", _meta={"openai/outputTemplate": "https://example.com/widget"}),
            ],
            "nextCursor": "again",
        }
    return {"tools": [tool("second-page")], "nextCursor": "again"}


def read_resource(request: Message) -> Message | None:
    if request["params"]["uri"] == MISSING:
        fail(request, -32002, "Resource not found")
        return None
    return {"contents": "not a list"}


if __name__ == "__main__":
    serve(
        {
            "tools/list": list_tools,
            "resources/list": lambda _request: {"resources": {"uri": "ui://x"}},
            "resources/templates/list": lambda _request: {"resourceTemplates": []},
            "prompts/list": lambda request: fail(request, -32603, "prompts are broken"),
            "resources/read": read_resource,
        },
        name="wrong-shapes",
        capabilities={"tools": {}, "resources": {}, "prompts": {}},
    )
