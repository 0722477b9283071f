"""A 2026-07-28-only MCP server built on the official SDK: it refuses the `initialize` handshake the way the SDK's own
modern-locked connection does (-32022 naming the versions it serves), and asks for sampling and elicitation through
`input_required` results, never through server-to-client requests.

Run as a script, it serves on stdio.
"""

from __future__ import annotations

from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import (
    CreateMessageRequest,
    CreateMessageRequestParams,
    ElicitRequest,
    ElicitRequestFormParams,
    InputRequiredResult,
    SamplingMessage,
    TextContent,
    UnsupportedProtocolVersionErrorData,
)
from mcp_types.jsonrpc import UNSUPPORTED_PROTOCOL_VERSION
from mcp_types.version import MODERN_PROTOCOL_VERSIONS


async def modern_only(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Refuse the handshake era: `initialize` gets the SDK's -32022 with the supported versions."""
    if ctx.method == "initialize":
        requested = (ctx.params or {}).get("protocolVersion")
        data = UnsupportedProtocolVersionErrorData(supported=list(MODERN_PROTOCOL_VERSIONS), requested=str(requested))
        raise MCPError(
            code=UNSUPPORTED_PROTOCOL_VERSION,
            message="this server speaks 2026-07-28 only",
            data=data.model_dump(mode="json"),
        )
    return await call_next(ctx)


server = MCPServer("modern-only", instructions="a 2026-07-28-only test server", middleware=[modern_only])


@server.tool()
def echo(text: str) -> str:
    """Say the text back."""
    return f"echo: {text}"


@server.tool()
def whoami(ctx: Context) -> str:
    """The client name, version and capabilities this request's envelope carried."""
    params = ctx.session.client_params
    if params is None:
        return "nobody"
    capabilities = sorted(params.capabilities.model_dump(exclude_none=True))
    return f"{params.client_info.name} {params.client_info.version} {','.join(capabilities)}"


@server.tool()
def ask_model(prompt: str, ctx: Context) -> str | InputRequiredResult:
    """Ask the client's model, through an input_required round trip."""
    answers = ctx.input_responses
    if answers and "sample" in answers:
        reply: Any = answers["sample"]
        content = reply.content
        return f"model said: {content.text if isinstance(content, TextContent) else content}"
    message = SamplingMessage(role="user", content=TextContent(type="text", text=prompt))
    request = CreateMessageRequest(params=CreateMessageRequestParams(messages=[message], max_tokens=50))
    return InputRequiredResult(input_requests={"sample": request}, request_state="asked-model")


@server.tool()
def ask_user(ctx: Context) -> str | InputRequiredResult:
    """Ask the user for a name, through an input_required round trip."""
    answers = ctx.input_responses
    if answers and "name" in answers:
        reply: Any = answers["name"]
        return f"user said: {reply.action} {reply.content}"
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    request = ElicitRequest(params=ElicitRequestFormParams(message="Your name?", requested_schema=schema))
    return InputRequiredResult(input_requests={"name": request}, request_state="asked-user")


@server.resource("test://hello")
def hello() -> str:
    """A static text resource."""
    return "hello from a modern server"


@server.prompt()
def greet(name: str) -> str:
    """A greeting prompt."""
    return f"Say hello to {name}."


if __name__ == "__main__":
    server.run()
