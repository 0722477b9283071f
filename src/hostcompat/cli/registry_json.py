"""MCP Registry `server.json` entries (the official registry's format) as launch plans: what to run, or which URL.

A `server.json` names `packages` (npm, PyPI, OCI, … each with `identifier`, a pinned `version`, a `transport`,
`runtimeArguments`, `packageArguments` and `environmentVariables`) and `remotes` (streamable HTTP or SSE URLs with
`headers`). `check --registry FILE` reads one; `check --registry-list FILE` reads many (a JSON array of them, or the
registry API's `{"servers": [{"server": {…}}, …]}`).

Parsing only (pure, no process started): each entry becomes a `Launch` (the first package of a kind hostcompat can
start, npm, PyPI or OCI; else the first remote), or an error naming the file, the server and the field. Input values
are the entry's fixed `value` (its `{variables}` filled in), else `--input NAME=VALUE` (an environment variable's or
header's name, an argument's `name` or `valueHint`), else the entry's `default`; a required one with no value is that
entry's error, naming the `--input` that fixes it. Environment and header values, and inputs marked `isSecret`, are
secrets: they are listed in `Launch.secrets` so that no report shows them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import Final, Literal

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.errors import InvalidHostConfig
from hostcompat.wire_json import WireJSON

MAX_REGISTRY_BYTES: Final = 16 * 1024 * 1024
MAX_ENTRIES: Final = 100_000
PACKAGE_KINDS: Final = ("npm", "pypi", "oci")
_VARIABLE = regex(r"\{([A-Za-z0-9_.-]+)\}")

LaunchKind = Literal["npm", "pypi", "oci", "remote"]


@dataclass(frozen=True)
class Launch:
    """How to start one registry entry: a package to run (`identifier`@`version`) or a remote `url`."""

    kind: LaunchKind
    identifier: str
    version: str = ""
    runtime_args: tuple[str, ...] = ()
    package_args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    transport: Literal["stdio", "http", "sse"] = "stdio"
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    secrets: tuple[str, ...] = ()


@dataclass(frozen=True)
class RegistryEntry:
    """One `server.json` of a file: its label for reports, and its `Launch` or why it cannot be started."""

    label: str
    source: str
    launch: Launch | None = None
    error: str | None = None


def read_registry(path: str | Path, *, inputs: Mapping[str, str], many: bool) -> list[RegistryEntry]:
    """The entries of a `server.json` (`many=False`) or of a list of them; `InvalidHostConfig` for a file that is
    not one (unreadable, too large, not JSON, no server in it).
    """
    file = Path(path)
    try:
        with file.open("rb") as stream:
            data = stream.read(MAX_REGISTRY_BYTES + 1)
    except OSError as error:
        raise InvalidHostConfig(f"{file}: cannot read it: {error.strerror or error}", value=str(file)) from error
    if len(data) > MAX_REGISTRY_BYTES:
        raise InvalidHostConfig(f"{file}: larger than {MAX_REGISTRY_BYTES} bytes", value=str(file))
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError) as error:
        raise InvalidHostConfig(f"{file}: not JSON ({error})", value=str(file)) from error
    servers = _server_list(raw, file) if many else [_unwrap(raw)]
    if not servers or not all(isinstance(server, dict) for server in servers):
        what = "a list of server.json entries" if many else "a server.json object"
        raise InvalidHostConfig(f"{file}: not {what}", value=str(file))
    if len(servers) > MAX_ENTRIES:
        raise InvalidHostConfig(f"{file}: more than {MAX_ENTRIES} servers", value=str(file))
    return [_entry(server, str(file), inputs) for server in servers if isinstance(server, dict)]


def _unwrap(item: object) -> object:
    """A registry API item (`{"server": {…}, "_meta": …}`) as its server.json; anything else as it is."""
    if isinstance(item, dict) and isinstance(item.get("server"), dict) and "name" not in item:
        return item["server"]
    return item


def _server_list(raw: object, file: Path) -> list[object]:
    if isinstance(raw, dict) and isinstance(raw.get("servers"), list):
        raw = raw["servers"]
    if not isinstance(raw, list):
        raise InvalidHostConfig(f'{file}: a registry list is a JSON array or {{"servers": […]}}', value=str(file))
    return [_unwrap(item) for item in raw]


class _Missing(Exception):
    """A required input with no value (the entry's error names the `--input` that gives it)."""


def _entry(server: WireJSON, source: str, inputs: Mapping[str, str]) -> RegistryEntry:
    name = _text(server.get("name")) or "server"
    version = _text(server.get("version"))
    label = f"{name}@{version} ({Path(source).name})" if version else f"{name} ({Path(source).name})"
    where = f"{source}: {name}"
    packages = [item for item in _objects(server.get("packages")) if _kind(item) in PACKAGE_KINDS]
    remotes = list(_objects(server.get("remotes")))
    try:
        if packages:
            return RegistryEntry(label, source, launch=_package(packages[0], inputs, where))
        if remotes:
            return RegistryEntry(label, source, launch=_remote(remotes[0], inputs, where))
    except _Missing as missing:
        return RegistryEntry(label, source, error=f"{where}: {missing}")
    except ValueError as error:
        return RegistryEntry(label, source, error=f"{where}: {error}")
    kinds = sorted({_kind(item) for item in _objects(server.get("packages"))} - {""})
    found = f"only packages of kind {', '.join(kinds)}" if kinds else "no packages and no remotes"
    return RegistryEntry(label, source, error=f"{where}: {found}; hostcompat starts npm, pypi and oci packages")


def _package(package: WireJSON, inputs: Mapping[str, str], where: str) -> Launch:
    kind = _kind(package)
    identifier = _text(package.get("identifier"))
    if not identifier:
        raise ValueError(f"packages[].identifier is missing ({kind})")
    transport = package.get("transport")
    declared = _text(transport.get("type")) if isinstance(transport, dict) else "stdio"
    if declared not in ("", "stdio"):
        raise ValueError(f"package {identifier}: transport {declared!r} (a package serving HTTP is not started)")
    secrets: list[str] = []
    runtime = _arguments(package.get("runtimeArguments"), inputs, secrets)
    arguments = _arguments(package.get("packageArguments"), inputs, secrets)
    env = _pairs(package.get("environmentVariables"), inputs, secrets, "environment variable")
    return Launch(
        kind=kind,  # type: ignore[arg-type]  # one of PACKAGE_KINDS
        identifier=identifier,
        version=_text(package.get("version")),
        runtime_args=tuple(runtime),
        package_args=tuple(arguments),
        env=env,
        secrets=(*secrets, *env.values()),
    )


def _remote(remote: WireJSON, inputs: Mapping[str, str], where: str) -> Launch:
    declared = _text(remote.get("type") or remote.get("transport_type"))
    if declared not in ("streamable-http", "sse"):
        raise ValueError(f"remotes[].type {declared!r}: expected streamable-http or sse")
    url = _substitute(_text(remote.get("url")), {}, inputs)
    if not url:
        raise ValueError("remotes[].url is missing")
    secrets: list[str] = []
    headers = _pairs(remote.get("headers"), inputs, secrets, "header")
    return Launch(
        kind="remote",
        identifier=url,
        transport="http" if declared == "streamable-http" else "sse",
        url=url,
        headers=headers,
        secrets=(*secrets, *headers.values()),
    )


def _arguments(raw: object, inputs: Mapping[str, str], secrets: list[str]) -> list[str]:
    argv: list[str] = []
    for argument in _objects(raw):
        kind = _text(argument.get("type"))
        name = _text(argument.get("name"))
        key = name if kind == "named" else _text(argument.get("valueHint"))
        value = _value(argument, key, inputs, f"argument {key or name or '?'}")
        if value is not None and argument.get("isSecret") is True:
            secrets.append(value)
        if kind == "named" and name:
            if value is not None or argument.get("isRequired") is True:
                argv += [name] if value is None or value == "" else [name, value]
        elif kind == "positional" and value is not None:
            argv.append(value)
    return argv


def _pairs(raw: object, inputs: Mapping[str, str], secrets: list[str], what: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for item in _objects(raw):
        name = _text(item.get("name"))
        if not name:
            raise ValueError(f"a {what} without a name")
        value = _value(item, name, inputs, f"{what} {name}")
        if value is not None:
            pairs[name] = value
            if item.get("isSecret") is True:
                secrets.append(value)
    return pairs


def _value(item: WireJSON, key: str, inputs: Mapping[str, str], what: str) -> str | None:
    """An input's value: `--input KEY=…`, else its `value` (templated), else its `default`; None when optional."""
    variables = item.get("variables")
    if isinstance(item.get("value"), str):  # a fixed value is not the user's to change; its {variables} are
        return _substitute(item["value"], variables if isinstance(variables, dict) else {}, inputs)
    if key and key in inputs:
        return inputs[key]
    if isinstance(item.get("default"), str):
        return str(item["default"])
    if item.get("isRequired") is True:
        raise _Missing(f"{what} is required and has no value: give it with --input {key or 'NAME'}=VALUE")
    return None


def _substitute(template: str, variables: Mapping[str, object], inputs: Mapping[str, str]) -> str:
    """`{name}` replaced by `--input name=…`, else the variable's value or default; an unknown one stays as it is."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in inputs:
            return inputs[name]
        variable = variables.get(name)
        if isinstance(variable, dict):
            found = _value(variable, name, inputs, f"variable {name}")
            return match.group(0) if found is None else found
        return match.group(0)

    return _VARIABLE.sub(one, template)


def _kind(package: WireJSON) -> str:
    return _text(package.get("registryType") or package.get("registry_type")).lower()


def _objects(raw: object) -> list[WireJSON]:
    return [item for item in raw if isinstance(item, dict)] if isinstance(raw, list) else []


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


__all__ = ["Launch", "LaunchKind", "MAX_REGISTRY_BYTES", "PACKAGE_KINDS", "RegistryEntry", "read_registry"]
