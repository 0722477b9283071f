import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client.streamable_http import streamable_http_client

from hostcompat.cli.proxy import COMMAND, add_arguments, build_config, main
from hostcompat.clients.proxy.config import HttpUpstream, StdioUpstream
from hostcompat.clients.proxy.event_loop import uvloop_available
from hostcompat.errors import CatalogError, InvalidInput
from tests.clients.proxy._support import FAKE_SERVER, NOBODY, RawPeer

FAKE = [sys.executable, str(FAKE_SERVER)]
LOOPS = [
    "asyncio",
    pytest.param(
        "uvloop",
        marks=pytest.mark.skipif(
            not uvloop_available() and os.environ.get("CI") != "true", reason="uvloop is not installed (the fast extra)"
        ),
    ),
]


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(argv)


def loaded_modules(code: str) -> set[str]:
    script = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    output = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return set(json.loads(output))


def test_the_command_is_named_proxy_and_explains_itself() -> None:
    assert COMMAND.name == "proxy"
    assert "MCP server" in COMMAND.help


def test_the_cli_module_and_the_proxy_package_load_without_the_sdk() -> None:
    modules = loaded_modules("import hostcompat.cli.proxy, hostcompat.clients.proxy")
    assert not {name for name in modules if name == "mcp" or name.startswith("mcp.")}


def test_the_clients_package_does_not_load_the_proxy() -> None:
    assert "hostcompat.clients.proxy" not in loaded_modules("import hostcompat.clients")


def test_the_proxy_package_loads_its_sdk_parts_on_first_use() -> None:
    modules = loaded_modules("import hostcompat.clients.proxy as p\np.http_proxy")
    assert "hostcompat.clients.proxy.serve" in modules


@pytest.mark.parametrize("loop", LOOPS)
def test_a_stdio_proxy_in_front_of_a_command_relays_without_loading_the_sdk(loop: str) -> None:
    """The pipe relay works on raw lines: a host that starts the proxy does not wait for the SDK to import."""
    script = (
        "import sys\nfrom hostcompat.cli.proxy import main\n"
        f"code = main(['--loop', {loop!r}, '--', *{FAKE!r}])\n"
        "sys.stderr.write('modules: ' + ' '.join(sorted(sys.modules)) + '\\n')\nsys.exit(code)\n"
    )
    ping = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}) + "\n"
    done = subprocess.run([sys.executable, "-c", script], input=ping, capture_output=True, text=True, timeout=60)
    assert [json.loads(line) for line in done.stdout.splitlines()] == [{"jsonrpc": "2.0", "id": 1, "result": {}}]
    modules = set(done.stderr.rsplit("modules: ", 1)[1].split())
    assert "hostcompat.clients.proxy.pipe.relay" in modules
    assert not {name for name in modules if name.split(".")[0] in {"mcp", "mcp_types", "pydantic", "uvicorn"}}
    assert done.returncode == 0


def test_the_command_plugs_into_the_hostcompat_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    import hostcompat.cli.command_line as cli

    if "proxy" not in cli.COMMAND_MODULES:
        monkeypatch.setattr(cli, "COMMAND_MODULES", (*cli.COMMAND_MODULES, "proxy"))
    args = cli.build_parser().parse_args(["proxy", "--disable", "codex.resource-link-to-text", "--", "node", "-v"])
    assert args.run is COMMAND.run
    assert build_config(args).upstream == StdioUpstream("node", ("-v",))


def test_a_command_after_the_dashes_is_a_stdio_upstream() -> None:
    config = build_config(parse("--timeout", "9", "--", "node", "server.js", "--port", "1"))
    assert config.upstream == StdioUpstream("node", ("server.js", "--port", "1"))
    assert config.request_timeout == 9


def test_an_upstream_url_takes_headers() -> None:
    config = build_config(parse("--upstream", "http://127.0.0.1:9/mcp", "--header", "Authorization: Bearer t"))
    assert config.upstream == HttpUpstream("http://127.0.0.1:9/mcp", {"Authorization": "Bearer t"})


@pytest.mark.parametrize(
    "argv",
    [(), ("--upstream", "http://h/mcp", "--", "node"), ("--header", "A: b", "--", "node"), ("--upstream", "h")],
)
def test_a_proxy_needs_exactly_one_upstream_and_headers_only_with_a_url(argv: tuple[str, ...]) -> None:
    with pytest.raises(InvalidInput):
        build_config(parse(*argv))


def test_a_rule_file_that_does_not_exist_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "rules.json"
    with pytest.raises(CatalogError) as caught:
        build_config(parse("--rules", str(missing), "--", "node"))
    assert str(missing) in caught.value.message


def test_usage_errors_exit_2_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--disable", "no.such-rule", "--", "node"]) == 2
    assert "no.such-rule" in capsys.readouterr().err
    assert main(["--listen", "nowhere", "--", "node"]) == 2
    assert "HOST:PORT" in capsys.readouterr().err
    assert main(["--listen", "127.0.0.1:0", "--era-front", "modern", "--", "node"]) == 2
    assert "--era-front modern goes with stdio" in capsys.readouterr().err


def test_uvloop_asked_for_where_it_is_missing_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("hostcompat.cli.proxy.uvloop_available", lambda: False)
    assert main(["--loop", "uvloop", "--", "node"]) == 2
    assert "uvloop is not installed" in capsys.readouterr().err


@pytest.mark.parametrize("loop", LOOPS)
def test_the_stdio_proxy_reports_an_upstream_crash_to_the_client_and_exits_1(loop: str) -> None:
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": NOBODY},
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "crash", "arguments": {"code": 7}}},
    ]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    done = subprocess.run(
        [sys.executable, "-m", "hostcompat.cli.proxy", "--loop", loop, "--", *FAKE],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [reply["id"] for reply in replies] == [1, 2]
    assert replies[0]["result"]["serverInfo"] == {"name": "fake", "version": "1.0"}
    assert "exited with code 7" in replies[1]["error"]["message"]
    assert done.returncode == 1
    assert "exited with code 7" in done.stderr


def test_a_line_that_is_not_json_gets_a_parse_error_and_the_session_goes_on() -> None:
    lines = ["this is not json", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})]
    done = subprocess.run(
        [sys.executable, "-m", "hostcompat.cli.proxy", "--", *FAKE],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[0]["id"] is None and replies[0]["error"]["code"] == -32700
    assert replies[1] == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert done.returncode == 0


@pytest.mark.anyio
@pytest.mark.timeout(60)
@pytest.mark.parametrize("loop", LOOPS)
async def test_the_http_proxy_serves_on_the_port_it_prints_and_stops_on_sigterm(loop: str) -> None:
    command = [sys.executable, "-m", "hostcompat.cli.proxy", "--loop", loop, "--listen", "127.0.0.1:0", "--", *FAKE]
    async with await anyio.open_process(command) as process:
        assert process.stderr is not None
        banner = b""
        async for chunk in process.stderr:
            banner += chunk
            if b"\n" in banner:
                break
        url = banner.decode().split("serving ", 1)[1].split()[0]
        async with streamable_http_client(url) as (read, write):
            peer = RawPeer(read, write)
            await peer.initialize(NOBODY)
            listing = await peer.call("tools/list")
            upstream_pid = int((await peer.call("tools/call", {"name": "pid"}))["result"]["content"][0]["text"])
            process.terminate()  # while the session is still open
            assert await process.wait() == 0
    assert [tool["name"] for tool in listing["result"]["tools"]] == ["echo", "get.weather"]
    with pytest.raises(ProcessLookupError):
        os.kill(upstream_pid, 0)  # the proxy stopped its upstream before exiting


def test_a_client_line_over_the_size_limit_is_refused_and_the_session_goes_on() -> None:
    big = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": "x" * 3000}})
    ping = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"})
    done = subprocess.run(
        [sys.executable, "-m", "hostcompat.cli.proxy", "--max-message-bytes", "1000", "--", *FAKE],
        input=f"{big}\n{ping}\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert replies[0]["id"] is None
    assert "over 1000 bytes" in replies[0]["error"]["message"]
    assert replies[1] == {"jsonrpc": "2.0", "id": 2, "result": {}}
