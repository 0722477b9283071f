"""The conformance suite's fixture server, on the official Python SDK, in both protocol eras.

`@modelcontextprotocol/conformance` calls the tools, resources and prompts of its own fixture server (its
`examples/servers/typescript/everything-server.ts` at v0.1.16: `test_simple_text`, `test://static-text`, ...). This
is the same surface on `MCPServer`, so that one server code is judged by the suite directly (serving both eras over
streamable HTTP: `--http PORT`) and through the era gateway, on stdio: `--era modern` refuses `initialize` the way
the SDK's modern-locked connection does, `--era legacy` answers `server/discover` with -32601 before the SDK sees
it, as a handshake-era server does (stdio only). The tools that ask the client something (sampling, elicitation) ask
with server-to-client requests in the handshake era and with `input_required` results in 2026-07-28.

Run as a script: `conformance_server.py [--era both|modern|legacy] [--http PORT]`.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import anyio
from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import (
    AudioContent,
    CallToolResult,
    CompleteRequestParams,
    CompleteResult,
    Completion,
    CreateMessageRequest,
    CreateMessageRequestParams,
    ElicitRequest,
    ElicitRequestFormParams,
    EmbeddedResource,
    ImageContent,
    InputRequiredResult,
    SamplingMessage,
    SetLevelRequestParams,
    SubscribeRequestParams,
    TextContent,
    TextResourceContents,
    UnsubscribeRequestParams,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

try:
    from tests.clients.proxy.era.legacy_server import _refuse_discover as refuse_discover
    from tests.clients.proxy.era.modern_server import modern_only
except ImportError:  # run as a script: its folder is on the path
    from legacy_server import _refuse_discover as refuse_discover  # type: ignore[no-redef,import-not-found]
    from modern_server import modern_only  # type: ignore[no-redef,import-not-found]

IMAGE = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
AUDIO = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"response": {"type": "string", "description": "User's response"}},
    "required": ["response"],
}
DEFAULTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "User name", "default": "John Doe"},
        "age": {"type": "integer", "description": "User age", "default": 30},
        "score": {"type": "number", "description": "User score", "default": 95.5},
        "status": {
            "type": "string",
            "description": "User status",
            "enum": ["active", "inactive", "pending"],
            "default": "active",
        },
        "verified": {"type": "boolean", "description": "Verification status", "default": True},
    },
    "required": [],
}
_TITLED = [{"const": f"value{i}", "title": title} for i, title in ((1, "First"), (2, "Second"), (3, "Third"))]
ENUMS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "untitledSingle": {
            "type": "string",
            "description": "Select one option",
            "enum": ["option1", "option2", "option3"],
        },
        "titledSingle": {
            "type": "string",
            "description": "Select one option with titles",
            "oneOf": [{**one, "title": f"{one['title']} Option"} for one in _TITLED],
        },
        "legacyEnum": {
            "type": "string",
            "description": "Select one option (legacy)",
            "enum": ["opt1", "opt2", "opt3"],
            "enumNames": ["Option One", "Option Two", "Option Three"],
        },
        "untitledMulti": {
            "type": "array",
            "description": "Select multiple options",
            "minItems": 1,
            "maxItems": 3,
            "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
        },
        "titledMulti": {
            "type": "array",
            "description": "Select multiple options with titles",
            "minItems": 1,
            "maxItems": 3,
            "items": {"anyOf": [{**one, "title": f"{one['title']} Choice"} for one in _TITLED]},
        },
    },
    "required": [],
}


def build(era: str) -> MCPServer:
    """The fixture server: both eras, or `modern` only (refusing the handshake)."""
    server = MCPServer(
        "mcp-conformance-test-server", middleware=[modern_only] if era == "modern" else [], version="1.0.0"
    )

    def modern(ctx: Context) -> bool:
        return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS

    @server.tool(description="Tests simple text content response")
    def test_simple_text() -> str:
        return "This is a simple text response for testing."

    @server.tool(description="Tests image content response")
    def test_image_content() -> CallToolResult:
        return CallToolResult(content=[ImageContent(type="image", data=IMAGE, mime_type="image/png")])

    @server.tool(description="Tests audio content response")
    def test_audio_content() -> CallToolResult:
        return CallToolResult(content=[AudioContent(type="audio", data=AUDIO, mime_type="audio/wav")])

    def embedded(uri: str, text: str, mime: str = "text/plain") -> EmbeddedResource:
        return EmbeddedResource(type="resource", resource=TextResourceContents(uri=uri, mime_type=mime, text=text))

    @server.tool(description="Tests embedded resource content response")
    def test_embedded_resource() -> CallToolResult:
        return CallToolResult(content=[embedded("test://embedded-resource", "This is an embedded resource content.")])

    @server.tool(description="Tests response with multiple content types (text, image, resource)")
    def test_multiple_content_types() -> CallToolResult:
        data = json.dumps({"test": "data", "value": 123})
        return CallToolResult(
            content=[
                TextContent(type="text", text="Multiple content types test:"),
                ImageContent(type="image", data=IMAGE, mime_type="image/png"),
                embedded("test://mixed-content-resource", data, "application/json"),
            ]
        )

    @server.tool(description="Tests tool that emits log messages during execution")
    async def test_tool_with_logging(ctx: Context) -> str:
        for step in ("Tool execution started", "Tool processing data", "Tool execution completed"):
            await ctx.info(step)
            await anyio.sleep(0.05)
        return "Tool with logging executed successfully"

    @server.tool(description="Tests tool that reports progress notifications")
    async def test_tool_with_progress(ctx: Context) -> str:
        for done in (0, 50, 100):
            await ctx.report_progress(done, 100, f"Completed step {done} of 100")
            await anyio.sleep(0.05)
        meta = ctx.request_context.meta
        return str(meta.get("progressToken", 0) if isinstance(meta, dict) else getattr(meta, "progress_token", 0))

    @server.tool(description="Tests error response handling")
    def test_error_handling() -> str:
        raise RuntimeError("This tool intentionally returns an error for testing")

    @server.tool(description="Tests server-initiated sampling (LLM completion request)")
    async def test_sampling(prompt: str, ctx: Context) -> str | InputRequiredResult:
        message = SamplingMessage(role="user", content=TextContent(type="text", text=prompt))
        params = CreateMessageRequestParams(messages=[message], max_tokens=100)
        if modern(ctx):
            answers = ctx.input_responses
            if not answers or "sample" not in answers:
                return InputRequiredResult(input_requests={"sample": CreateMessageRequest(params=params)})
            reply: Any = answers["sample"]
        else:
            reply = await ctx.session.create_message(messages=params.messages, max_tokens=100)
        content = reply.content
        return f"LLM response: {content.text if isinstance(content, TextContent) else 'No response'}"

    async def elicit(ctx: Context, message: str, schema: dict[str, Any], prefix: str) -> str | InputRequiredResult:
        params = ElicitRequestFormParams(message=message, requested_schema=schema)
        if modern(ctx):
            answers = ctx.input_responses
            if not answers or "ask" not in answers:
                return InputRequiredResult(input_requests={"ask": ElicitRequest(params=params)})
            reply: Any = answers["ask"]
        else:
            reply = await ctx.session.elicit_form(message, schema, related_request_id=ctx.request_id)
        return f"{prefix}: action={reply.action}, content={json.dumps(reply.content or {}, separators=(',', ':'))}"

    @server.tool(description="Tests server-initiated elicitation (user input request)")
    async def test_elicitation(message: str, ctx: Context) -> str | InputRequiredResult:
        return await elicit(ctx, message, ANSWER_SCHEMA, "User response")

    @server.tool(description="Tests elicitation with default values per SEP-1034")
    async def test_elicitation_sep1034_defaults(ctx: Context) -> str | InputRequiredResult:
        message = "Please review and update the form fields with defaults"
        return await elicit(ctx, message, DEFAULTS_SCHEMA, "Elicitation completed")

    @server.tool(description="Tests elicitation with enum schema improvements per SEP-1330")
    async def test_elicitation_sep1330_enums(ctx: Context) -> str | InputRequiredResult:
        return await elicit(ctx, "Please select options from the enum fields", ENUMS_SCHEMA, "Elicitation completed")

    @server.resource("test://static-text", name="static-text", mime_type="text/plain")
    def static_text() -> str:
        """A static text resource for testing."""
        return "This is the content of the static text resource."

    @server.resource("test://static-binary", name="static-binary", mime_type="image/png")
    def static_binary() -> bytes:
        """A static binary resource (image) for testing."""
        import base64

        return base64.b64decode(IMAGE)

    @server.resource("test://template/{id}/data", name="template", mime_type="application/json")
    def template(id: str) -> str:
        """A resource template with parameter substitution."""
        return json.dumps({"id": id, "templateTest": True, "data": f"Data for ID: {id}"})

    @server.resource("test://watched-resource", name="watched-resource", mime_type="text/plain")
    def watched() -> str:
        """A resource that may change."""
        return "Watched resource content"

    @server.prompt(description="A simple prompt without arguments")
    def test_simple_prompt() -> str:
        return "This is a simple prompt for testing."

    @server.prompt(description="A prompt with required arguments")
    def test_prompt_with_arguments(arg1: str, arg2: str) -> str:
        return f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"

    @server.prompt(description="A prompt that includes an embedded resource")
    def test_prompt_with_embedded_resource(resourceUri: str) -> list[dict[str, Any]]:
        resource = {"uri": resourceUri, "mimeType": "text/plain", "text": "Embedded resource content for testing."}
        return [
            {"role": "user", "content": {"type": "resource", "resource": resource}},
            {"role": "user", "content": {"type": "text", "text": "Please process the embedded resource above."}},
        ]

    @server.prompt(description="A prompt that includes image content")
    def test_prompt_with_image() -> list[dict[str, Any]]:
        return [
            {"role": "user", "content": {"type": "image", "data": IMAGE, "mimeType": "image/png"}},
            {"role": "user", "content": {"type": "text", "text": "Please analyze the image above."}},
        ]

    async def complete(ctx: ServerRequestContext[Any], params: CompleteRequestParams) -> CompleteResult:
        return CompleteResult(completion=Completion(values=[], total=0, has_more=False))

    async def empty(ctx: ServerRequestContext[Any], params: Any) -> dict[str, Any]:
        return {}

    low = server._lowlevel_server  # the handlers MCPServer has no decorator for
    low.add_request_handler("completion/complete", CompleteRequestParams, complete)
    low.add_request_handler("logging/setLevel", SetLevelRequestParams, empty)
    low.add_request_handler("resources/subscribe", SubscribeRequestParams, empty)
    low.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, empty)
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--era", choices=["both", "modern", "legacy"], default="both", help="the eras served")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT")
    args = parser.parse_args()
    server = build(args.era)
    if args.http is None:
        if args.era == "legacy":
            refuse_discover(exit_on_it=False)
        server.run()
    else:
        server.run("streamable-http", port=args.http)


if __name__ == "__main__":
    main()
