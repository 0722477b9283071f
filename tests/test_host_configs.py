import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.errors import HostCompatError, InvalidHostConfig
from hostcompat.probe.host_configs import ServerConfig, parse_host_config, read_host_config


def test_claude_desktop_config_lists_stdio_servers() -> None:
    text = json.dumps(
        {
            "mcpServers": {
                "board": {"command": "python", "args": ["-m", "hostcompat.examples.board"], "env": {"A": "1"}},
                "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer t"}},
            },
            "globalShortcut": "",
        }
    )
    servers = parse_host_config(text, "/home/u/claude_desktop_config.json")
    assert servers[0] == ServerConfig(
        name="board",
        transport="stdio",
        command="python",
        args=("-m", "hostcompat.examples.board"),
        env={"A": "1"},
        source="/home/u/claude_desktop_config.json",
    )
    assert servers[1].transport == "http" and servers[1].headers == {"Authorization": "Bearer t"}


def test_vscode_mcp_json_with_comments_variables_and_types(tmp_path: Path) -> None:
    folder = tmp_path / ".vscode"
    folder.mkdir()
    config = folder / "mcp.json"
    config.write_text(
        """{
  // servers for this workspace
  "inputs": [],
  "servers": {
    "local": {"type": "stdio", "command": "node", "args": ["${workspaceFolder}/server.js"],
              "env": {"K": "${env:HOME_X}"}},
    "events": {"type": "sse", "url": "http://127.0.0.1:9000/sse",},  /* trailing comma */
  },
}""",
        "utf-8",
    )
    local, events = read_host_config(config, environ={"HOME_X": "42"})
    assert local.format == "vscode"
    assert local.args == (f"{tmp_path.resolve()}/server.js",)
    assert local.env == {"K": "42"}
    assert events.transport == "sse" and events.url == "http://127.0.0.1:9000/sse"


def test_zed_context_servers_both_shapes() -> None:
    text = json.dumps(
        {
            "context_servers": {
                "old": {"command": {"path": "npx", "args": ["-y", "pkg"], "env": {}}},
                "new": {"command": "uvx", "args": ["srv"]},
            }
        }
    )
    old, new = parse_host_config(text, "settings.json")
    assert (old.command, old.args, old.format) == ("npx", ("-y", "pkg"), "zed")
    assert (new.command, new.args) == ("uvx", ("srv",))


def test_windsurf_server_url_and_disabled_flag() -> None:
    text = json.dumps({"mcpServers": {"w": {"serverUrl": "https://x.example/mcp", "disabled": True}}})
    (server,) = parse_host_config(text, "mcp_config.json")
    assert server.url == "https://x.example/mcp" and server.disabled


def test_codex_config_toml() -> None:
    text = '[mcp_servers.board]\ncommand = "python"\nargs = ["-m", "board"]\n\n[mcp_servers.web]\nurl = "https://x.example/mcp"\n'
    board, web = parse_host_config(text, "/home/u/.codex/config.toml")
    assert (board.name, board.command, board.format) == ("board", "python", "codex")
    assert web.transport == "http"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON at line 1"),
        ("[]", "top level must be a JSON object"),
        ('{"other": {}}', "no server list found"),
        ('{"mcpServers": []}', "'mcpServers' must be an object"),
        ('{"mcpServers": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
        ('{"mcpServers": {"a": ' + "[" * 100_000 + "]" * 100_000 + "}}", "nested too deeply"),
    ],
)
def test_a_file_that_is_not_a_server_list_is_an_error_naming_it(text: str, message: str) -> None:
    with pytest.raises(InvalidHostConfig, match=r"cfg\.json") as caught:
        parse_host_config(text, "cfg.json")
    assert message in str(caught.value)


@pytest.mark.parametrize("depth", [900, 5_000, 100_000])
@pytest.mark.parametrize("key", ["args", "env"])
def test_deeply_nested_toml_is_an_error_naming_the_file(depth: int, key: str) -> None:
    value = "[" * depth + "]" * depth if key == "args" else "{a=" * depth + "1" + "}" * depth
    try:
        (server,) = parse_host_config(f'[mcp_servers.a]\ncommand = "x"\n{key} = {value}\n', "config.toml")
    except InvalidHostConfig as error:
        assert "config.toml: nested too deeply" in str(error)
    else:
        assert server.error is not None and f"mcp_servers.a.{key}" in server.error


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"args": []}, "mcpServers.bad.url must be an http(s) URL"),
        ({"command": ""}, "mcpServers.bad.command must be a non-empty string"),
        ({"command": "x", "args": "y"}, "mcpServers.bad.args must be a list of strings"),
        ({"type": "ws", "url": "https://x"}, "mcpServers.bad.type must be stdio, http or sse"),
        ("not an object", "mcpServers.bad must be an object"),
        ({"command": "x", "args": ["${input:token}"]}, "give it with --input token=VALUE"),
        ({"command": "x", "env": {"K": "${NOT_SET_ANYWHERE}"}}, "NOT_SET_ANYWHERE is not set in the environment"),
        ({"command": "x", "args": ["${config:python.path}"]}, "a variable hostcompat cannot resolve"),
    ],
)
def test_one_unusable_entry_is_that_servers_error_and_the_others_stay(entry: object, message: str) -> None:
    text = json.dumps({"mcpServers": {"good": {"command": "python"}, "bad": entry, "later": {"url": "https://x/mcp"}}})
    good, bad, later = parse_host_config(text, "cfg.json", environ={})
    assert (good.error, good.command, later.error, later.url) == (None, "python", None, "https://x/mcp")
    assert bad.name == "bad" and bad.error is not None
    assert message in bad.error and "cfg.json" in bad.error


def test_inputs_resolve_vscode_input_variables(tmp_path: Path) -> None:
    text = json.dumps(
        {
            "inputs": [{"id": "token", "type": "promptString", "password": True}],
            "servers": {
                "api": {
                    "type": "http",
                    "url": "https://x.example/mcp",
                    "headers": {"Authorization": "Bearer ${input:token}"},
                },
                "local": {"command": "node", "args": ["${input:path}"]},
            },
        }
    )
    api, local = parse_host_config(text, ".vscode/mcp.json", inputs={"token": "s3cret"})
    assert api.error is None and api.headers == {"Authorization": "Bearer s3cret"}
    assert local.error is not None and "--input path=VALUE" in local.error


def test_claude_code_environment_variables_and_defaults() -> None:
    text = json.dumps({"mcpServers": {"a": {"command": "${TOOL_BIN:-npx}", "args": ["--key", "${API_KEY}"]}}})
    (server,) = parse_host_config(text, ".mcp.json", environ={"API_KEY": "k"})
    assert (server.command, server.args, server.error) == ("npx", ("--key", "k"), None)


def test_codex_values_are_taken_as_written() -> None:
    (server,) = parse_host_config('[mcp_servers.a]\ncommand = "x"\nargs = ["${HOME}"]\n', "config.toml")
    assert server.error is None and server.args == ("${HOME}",)


def test_unreadable_and_non_utf8_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidHostConfig, match="cannot read it"):
        read_host_config(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"mcpServers": {"\xff": {}}}')
    with pytest.raises(InvalidHostConfig, match="not UTF-8"):
        read_host_config(bad)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=25,
)


@given(
    servers=st.dictionaries(st.text(max_size=8), json_values, max_size=4),
    key=st.sampled_from(["mcpServers", "servers", "context_servers"]),
)
def test_any_json_gives_servers_or_a_clear_error(servers: dict[str, object], key: str) -> None:
    try:
        parsed = parse_host_config(json.dumps({key: servers}), "cfg.json")
    except HostCompatError:
        return
    assert all(isinstance(server, ServerConfig) for server in parsed)
