"""The probe imports the SDK's client side only (`hostcompat.probe._sdk`), and the rest of the SDK still works after.

Each test runs a fresh interpreter: in this one, `mcp` is imported whole already.
"""

import subprocess
import sys

SERVER_SIDE = ("mcp.server", "mcp.client._memory", "mcp.client.streamable_http", "starlette", "uvicorn", "httpx2")


def run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_importing_the_probe_loads_no_server_side() -> None:
    out = run("import sys\nimport hostcompat.probe._sdk_session\nprint(' '.join(sorted(sys.modules)))\n")
    loaded = out.split()
    assert "mcp.client.session" in loaded
    assert [name for name in loaded if name.startswith(SERVER_SIDE)] == []


def test_the_whole_sdk_still_imports_and_serves_in_process_after_the_probe() -> None:
    code = """
import anyio
import hostcompat.probe._sdk_session
import mcp
from mcp.server.mcpserver import MCPServer

assert mcp.Client is mcp.client.Client and mcp.ClientSession is mcp.client.ClientSession
server = MCPServer("in-process")

@server.tool()
def hello() -> str:
    return "hello"

async def main() -> None:
    for mode in ("legacy", "auto"):
        async with mcp.Client(server, mode=mode) as client:
            result = await client.call_tool("hello", {})
            print(mode, result.content[0].text)

anyio.run(main)
"""
    assert run(code).split() == ["legacy", "hello", "auto", "hello"]


def test_a_stand_in_class_matches_only_instances_of_the_real_class() -> None:
    code = """
import hostcompat.probe._sdk_session
from mcp.client.client import MCPServer as StandIn
assert not isinstance(object(), StandIn)
from mcp.server.mcpserver import MCPServer
assert isinstance(MCPServer("x"), StandIn) and not isinstance(1, StandIn)
print("ok")
"""
    assert run(code).strip() == "ok"
