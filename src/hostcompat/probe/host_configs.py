"""Read the MCP server lists that hosts keep in their config files, so `hostcompat check --config` checks them all.

Formats (detected from the file's shape, and its name when the shape is ambiguous):

- Claude Desktop `claude_desktop_config.json`, Cursor `.cursor/mcp.json`, Claude Code `.mcp.json`, Windsurf
  `mcp_config.json`, and most other hosts: `{"mcpServers": {name: {command, args, env, cwd} | {url, headers, type}}}`
  (Windsurf spells the URL `serverUrl`);
- VS Code `.vscode/mcp.json`: `{"servers": {name: {type: stdio|http|sse, command, args, env, cwd | url, headers}}}`,
  JSON with comments, `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}`,
  `${env:NAME}` and `${input:NAME}` variables (inputs are given by the caller: only the host can prompt for them);
- Zed `settings.json`: `{"context_servers": {name: {command, args, env} | {command: {path, args, env}} | {url}}}`;
- Codex `config.toml`: `[mcp_servers.<name>]` tables with `command`, `args`, `env`, `cwd` or `url` (no variables).

The `mcpServers` shape also takes Claude Code's `${NAME}` and `${NAME:-default}` environment variables. A file that
cannot be read as a server list is an `InvalidHostConfig`; one server entry that cannot be used as written (a
variable that cannot be resolved, a field of the wrong type) is that entry's `error`, and the others stay usable.

Pure: parsing takes the file's text and path; only `read_host_config` touches the file system, and
`config_target` (which looks a command up on the `PATH`, as the process would, to refuse one that is not there).

Below both faces: `hostcompat check --config` and `POST /api/check` (a config file uploaded to `hostcompat serve`)
read config files the same way.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.errors import InvalidHostConfig, InvalidInput

if TYPE_CHECKING:
    from hostcompat.probe.target import Target

ConfigFormat = Literal["mcpServers", "vscode", "zed", "codex"]
TransportKind = Literal["stdio", "http", "sse"]
MAX_CONFIG_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class ServerConfig:
    """One configured server: how to reach it, and where it was configured."""

    name: str
    transport: TransportKind
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    source: str = ""
    format: ConfigFormat = "mcpServers"
    disabled: bool = False
    error: str | None = None
    """Why this entry cannot be used as written (naming the file, the server and the field); None when it can."""


def read_host_config(
    path: str | os.PathLike[str],
    *,
    environ: Mapping[str, str] | None = None,
    inputs: Mapping[str, str] | None = None,
) -> list[ServerConfig]:
    """Read and parse a host config file; `InvalidHostConfig` names the file and the problem.

    `inputs` are the values of VS Code's `${input:NAME}` variables (see `parse_host_config`).
    """
    file = Path(path)
    try:
        with file.open("rb") as stream:  # read at most one byte past the limit: `stat` says nothing of /dev/zero
            data = stream.read(MAX_CONFIG_BYTES + 1)
        if len(data) > MAX_CONFIG_BYTES:
            raise InvalidHostConfig(
                f"{file}: larger than {MAX_CONFIG_BYTES} bytes, too large for a config file", value=str(file)
            )
        text = data.decode("utf-8-sig")
    except OSError as exc:
        raise InvalidHostConfig(f"{file}: cannot read it ({exc.strerror or exc})", value=str(file)) from exc
    except UnicodeDecodeError as exc:
        raise InvalidHostConfig(f"{file}: not UTF-8 text ({exc.reason} at byte {exc.start})", value=str(file)) from exc
    return parse_host_config(text, str(file), environ=os.environ if environ is None else environ, inputs=inputs)


def parse_host_config(
    text: str,
    source: str,
    *,
    environ: Mapping[str, str] | None = None,
    inputs: Mapping[str, str] | None = None,
) -> list[ServerConfig]:
    """Parse a host config file's text (`source` is its path, used for errors, the format and `${workspaceFolder}`).

    `environ` resolves `${env:NAME}` (and `${NAME}` in the `mcpServers` shape), `inputs` resolves `${input:NAME}`.

    Raises:
        InvalidHostConfig: the text is not JSON (or TOML), is nested too deeply, or holds no server list. A server
            entry that cannot be used is returned with its `error` set instead.
    """
    env = {} if environ is None else environ
    if source.endswith(".toml"):
        return _parse_codex(text, source)
    data = _load_jsonc(text, source)
    if not isinstance(data, Mapping):
        raise InvalidHostConfig(f"{source}: the top level must be a JSON object", value=type(data).__name__)
    variables = _variables(source, env, inputs or {})
    if "servers" in data and "mcpServers" not in data:
        return _servers(data["servers"], source, "servers", "vscode", variables)
    if "context_servers" in data:
        return _servers(data["context_servers"], source, "context_servers", "zed", variables)
    if "mcpServers" in data:
        return _servers(data["mcpServers"], source, "mcpServers", "mcpServers", variables)
    raise InvalidHostConfig(
        f"{source}: no server list found (expected 'mcpServers', 'servers' or 'context_servers')",
        value=sorted(map(str, data))[:20],
    )


def _servers(raw: object, source: str, key: str, fmt: ConfigFormat, variables: Mapping[str, str]) -> list[ServerConfig]:
    if not isinstance(raw, Mapping):
        raise InvalidHostConfig(f"{source}: '{key}' must be an object of named servers", value=raw)
    return [_entry(str(name), entry, source, f"{key}.{name}", fmt, variables) for name, entry in raw.items()]


def _entry(
    name: str, raw: object, source: str, where: str, fmt: ConfigFormat, variables: Mapping[str, str]
) -> ServerConfig:
    """One entry as a `ServerConfig`; one that cannot be used as written carries its `error` instead of raising."""
    try:
        return _server(name, raw, source, where, fmt, variables)
    except InvalidHostConfig as error:
        message = error.message
    entry = raw if isinstance(raw, Mapping) else {}
    return ServerConfig(
        name=name,
        transport="stdio" if "command" in entry else "http",
        source=source,
        format=fmt,
        disabled=entry.get("disabled") is True or entry.get("enabled") is False,
        error=message,
    )


def _server(
    name: str, raw: object, source: str, where: str, fmt: ConfigFormat, variables: Mapping[str, str]
) -> ServerConfig:
    if not isinstance(raw, Mapping):
        raise InvalidHostConfig(f"{source}: {where} must be an object", value=raw)
    command: object = raw.get("command")
    args: object = raw.get("args", [])
    env: object = raw.get("env", {})
    if fmt == "zed" and isinstance(command, Mapping):  # older Zed: {"command": {"path", "args", "env"}}
        args, env, command = command.get("args", []), command.get("env", {}), command.get("path")
    url = raw.get("url", raw.get("serverUrl", raw.get("httpUrl")))
    declared = raw.get("type", raw.get("transport"))
    transport = _transport(declared, command, url, source, where)
    disabled = raw.get("disabled") is True or raw.get("enabled") is False
    expand = _expander(variables, source, where, fmt)
    if transport == "stdio":
        if not isinstance(command, str) or not command:
            raise InvalidHostConfig(f"{source}: {where}.command must be a non-empty string", value=command)
        return ServerConfig(
            name=name,
            transport="stdio",
            command=expand(command),
            args=tuple(expand(a) for a in _strings(args, source, f"{where}.args")),
            env={k: expand(v) for k, v in _string_map(env, source, f"{where}.env").items()},
            cwd=expand(raw["cwd"]) if isinstance(raw.get("cwd"), str) else None,
            source=source,
            format=fmt,
            disabled=disabled,
        )
    if not isinstance(url, str) or not re.match(r"^https?://", url):
        raise InvalidHostConfig(f"{source}: {where}.url must be an http(s) URL", value=url)
    return ServerConfig(
        name=name,
        transport=transport,
        url=expand(url),
        headers={k: expand(v) for k, v in _string_map(raw.get("headers", {}), source, f"{where}.headers").items()},
        source=source,
        format=fmt,
        disabled=disabled,
    )


def _transport(declared: object, command: object, url: object, source: str, where: str) -> TransportKind:
    if declared is None:
        return "stdio" if command is not None else "http"
    kinds: dict[str, TransportKind] = {
        "stdio": "stdio",
        "http": "http",
        "streamable-http": "http",
        "streamableHttp": "http",
        "sse": "sse",
    }
    if not isinstance(declared, str) or declared not in kinds:
        raise InvalidHostConfig(f"{source}: {where}.type must be stdio, http or sse", value=declared)
    return kinds[declared]


def _strings(raw: object, source: str, where: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise InvalidHostConfig(f"{source}: {where} must be a list of strings", value=raw)
    return list(raw)


def _string_map(raw: object, source: str, where: str) -> dict[str, str]:
    if not isinstance(raw, Mapping) or not all(isinstance(v, str | int | float | bool) for v in raw.values()):
        raise InvalidHostConfig(f"{source}: {where} must be an object of strings", value=raw)
    return {str(k): v if isinstance(v, str) else json.dumps(v) for k, v in raw.items()}


def _variables(source: str, environ: Mapping[str, str], inputs: Mapping[str, str]) -> dict[str, str]:
    path = Path(source).resolve()
    folder = path.parent.parent if path.parent.name in (".vscode", ".cursor") else path.parent
    variables = {
        "workspaceFolder": str(folder),
        "workspaceFolderBasename": folder.name,
        "userHome": str(Path.home()),
        "pathSeparator": os.sep,
        "/": os.sep,
    }
    variables.update({f"env:{key}": value for key, value in environ.items()})
    variables.update({f"input:{key}": value for key, value in inputs.items()})
    return variables


_BARE_ENV = regex(r"([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?", re.DOTALL)
"""Claude Code's `${NAME}` and `${NAME:-default}` (the `mcpServers` shape only)."""


def _expander(variables: Mapping[str, str], source: str, where: str, fmt: ConfigFormat) -> Any:
    if fmt == "codex":  # Codex passes its values as they are written
        return lambda value: value

    def expand(value: str) -> str:
        def one(match: re.Match[str]) -> str:
            name = match.group(1)
            if name in variables:
                return variables[name]
            if name.startswith("env:"):
                return ""  # VS Code and Cursor expand an unset variable to nothing
            if name.startswith("input:"):
                raise InvalidHostConfig(
                    f"{source}: {where} uses ${{{name}}}, which only the host can resolve by asking the user: "
                    f"give it with --input {name[len('input:') :]}=VALUE",
                    value=name,
                )
            bare = _BARE_ENV.fullmatch(name) if fmt == "mcpServers" else None
            if bare is not None:
                found = variables.get(f"env:{bare.group(1)}", bare.group(2))
                if found is not None:
                    return found
                raise InvalidHostConfig(
                    f"{source}: {where} uses ${{{name}}}, and {bare.group(1)} is not set in the environment", value=name
                )
            raise InvalidHostConfig(
                f"{source}: {where} uses ${{{name}}}, a variable hostcompat cannot resolve", value=name
            )

        return re.sub(r"\$\{([^}]+)\}", one, value)

    return expand


def _load_jsonc(text: str, source: str) -> Any:
    """JSON, also with `//` and `/* */` comments and trailing commas (VS Code and Zed write those)."""
    try:
        return json.loads(text)
    except ValueError:  # JSONDecodeError, or a number too long to convert: try again without comments
        pass
    except RecursionError as exc:
        raise InvalidHostConfig(f"{source}: nested too deeply to be a config file", value=source) from exc
    try:
        return json.loads(_strip_jsonc(text))
    except json.JSONDecodeError as exc:
        raise InvalidHostConfig(
            f"{source}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", value=source
        ) from exc
    except ValueError as exc:  # an integer of thousands of digits
        raise InvalidHostConfig(f"{source}: not usable JSON: {str(exc)[:200]}", value=source) from exc
    except RecursionError as exc:
        raise InvalidHostConfig(f"{source}: nested too deeply to be a config file", value=source) from exc


def _strip_jsonc(text: str) -> str:
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end  # keep the newline so line numbers stay right
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            comment = text[i : n if end < 0 else end + 2]
            out.append("\n" * comment.count("\n"))
            i = n if end < 0 else end + 2
        else:
            out.append(ch)
            i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def _parse_codex(text: str, source: str) -> list[ServerConfig]:
    import importlib

    try:  # `tomllib` from Python 3.11, or the same API as `tomli` on 3.10
        tomllib: Any = importlib.import_module("tomllib")
    except ImportError:  # pragma: no cover - Python 3.10
        try:
            tomllib = importlib.import_module("tomli")
        except ImportError as exc:
            raise InvalidHostConfig(f"{source}: reading TOML needs Python 3.11 or the 'tomli' package") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidHostConfig(f"{source}: not valid TOML: {exc}", value=source) from exc
    except RecursionError as exc:
        raise InvalidHostConfig(f"{source}: nested too deeply to be a config file", value=source) from exc
    servers = data.get("mcp_servers")
    if servers is None:
        raise InvalidHostConfig(f"{source}: no [mcp_servers.<name>] tables found", value=sorted(data)[:20])
    return _servers(servers, source, "mcp_servers", "codex", {})


def config_target(server: ServerConfig) -> Target:
    """A usable config entry as the target to probe.

    Raises:
        InvalidHostConfig: the entry cannot be used as written (its `error`), its command is not found or not
            executable, or the target refuses a value (a NUL byte, a bad header name, a URL with no host); the
            message names the file and the server.
    """
    from hostcompat.probe.target import HttpTarget, SseTarget, StdioTarget

    if server.error is not None:
        raise InvalidHostConfig(server.error, value=server.name)
    try:
        if server.transport == "stdio":
            assert server.command is not None  # a stdio ServerConfig without an error always has one
            missing = missing_command(server.command, server.env, server.cwd)
            if missing is not None:
                raise InvalidHostConfig(f"{server.source}: {server.name}: {missing}", value=server.command)
            return StdioTarget(server.command, server.args, server.env, server.cwd)
        assert server.url is not None  # an http/sse ServerConfig without an error always has one
        return (HttpTarget if server.transport == "http" else SseTarget)(server.url, server.headers)
    except InvalidHostConfig:
        raise
    except InvalidInput as error:
        raise InvalidHostConfig(f"{server.source}: {server.name}: {error.message}", value=server.name) from error


def missing_command(command: str, env: Mapping[str, str], cwd: str | None) -> str | None:
    """Why `command` cannot be started (not found, not executable), or None; found as the process would find it."""
    if os.sep in command or (os.altsep is not None and os.altsep in command):
        path = Path(cwd or ".", command) if not os.path.isabs(command) else Path(command)
        if not path.is_file():
            return f"command {command!r} not found"
        return None if os.access(path, os.X_OK) else f"command {command!r} is not executable"
    search = env.get("PATH", os.environ.get("PATH", os.defpath))
    for directory in search.split(os.pathsep):
        candidate = Path(directory or ".", command)
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return None
    return f"command {command!r} not found on PATH"


__all__ = [
    "ConfigFormat",
    "InvalidHostConfig",
    "MAX_CONFIG_BYTES",
    "ServerConfig",
    "TransportKind",
    "config_target",
    "missing_command",
    "parse_host_config",
    "read_host_config",
]
