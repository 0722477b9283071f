"""`check --registry server.json` and `--registry-list`: entries of the official MCP Registry format, started as they
describe (npx, a cached virtualenv or uvx, docker, the remote URL), their environment kept out of every report.

The two live tests install the pinned reference servers (interop/package.json, interop/python-servers.txt) from npm
and PyPI; without npx they skip, except under `CI=true`, where they fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from hostcompat.cli._registry_launch import planned_from_registry
from hostcompat.cli.registry_json import read_registry
from tests.cli._support import REPO, run

SECRET = "registry-secret-4f9a"


def pinned_npm(name: str) -> str:
    return str(json.loads((REPO / "interop/package.json").read_text("utf-8"))["dependencies"][name])


def pinned_pypi(name: str) -> str:
    lines = (REPO / "interop/python-servers.txt").read_text("utf-8").splitlines()
    return next(line.split("==")[1].strip() for line in lines if line.startswith(f"{name}=="))


def server_json(name: str, *packages: dict[str, Any], remotes: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": f"io.github.example/{name}", "description": name, "version": "1.0.0"}
    if packages:
        entry["packages"] = list(packages)
    if remotes:
        entry["remotes"] = list(remotes)
    return entry


def memory_package() -> dict[str, Any]:
    return {
        "registryType": "npm",
        "identifier": "@modelcontextprotocol/server-memory",
        "version": pinned_npm("@modelcontextprotocol/server-memory"),
        "transport": {"type": "stdio"},
        "environmentVariables": [
            {"name": "MEMORY_FILE_PATH", "value": "{dir}/memory.jsonl", "variables": {"dir": {"isRequired": True}}},
            {"name": "MEMORY_TOKEN", "isSecret": True, "isRequired": True},
        ],
    }


def write(path: Path, value: object) -> str:
    path.write_text(json.dumps(value), "utf-8")
    return str(path)


def need_npx() -> None:
    if shutil.which("npx") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("npx is missing in CI: --registry with an npm package cannot be tested")
        pytest.skip("npx (Node.js) is not installed: the npm registry entry cannot be started")


def test_an_entry_becomes_the_command_its_registry_kind_runs(tmp_path: Path) -> None:
    package = {
        "registryType": "npm",
        "identifier": "@example/server",
        "version": "2.1.0",
        "transport": {"type": "stdio"},
        "runtimeArguments": [
            {"type": "named", "name": "--quiet", "value": ""},
            {"type": "named", "name": "--prefer-offline", "value": ""},
        ],
        "packageArguments": [
            {"type": "positional", "valueHint": "root", "default": "/srv"},
            {"type": "named", "name": "--mode", "value": "{mode}", "variables": {"mode": {"default": "fast"}}},
            {"type": "named", "name": "--token", "isSecret": True, "isRequired": True},
            {"type": "named", "name": "--optional"},
        ],
        "environmentVariables": [{"name": "LOG", "default": "info"}],
    }
    path = write(tmp_path / "server.json", server_json("demo", package))
    (entry,) = read_registry(path, inputs={"--token": SECRET}, many=False)
    assert entry.launch is not None and entry.label == "io.github.example/demo@1.0.0 (server.json)"
    assert entry.launch.package_args == ("/srv", "--mode", "fast", "--token", SECRET)
    assert entry.launch.runtime_args == (
        "--quiet",
        "--prefer-offline",
    )  # a flag with no value: given bare; --optional: left out
    assert dict(entry.launch.env) == {"LOG": "info"} and SECRET in entry.launch.secrets
    planned = planned_from_registry(entry)
    if shutil.which("npx") is not None:
        assert planned.target is not None
        assert list(planned.target.args) == [  # type: ignore[union-attr]
            "--quiet", "--prefer-offline", "-y", "@example/server@2.1.0", "/srv", "--mode", "fast", "--token", SECRET,
        ]  # fmt: skip


def test_a_required_input_with_no_value_is_that_entrys_error_naming_the_option(tmp_path: Path) -> None:
    path = write(tmp_path / "list.json", {"servers": [{"server": server_json("memory", memory_package())}]})
    code, out, _ = run("check", "--registry-list", path, "--format", "json")
    assert code == 1
    (server,) = json.loads(out)["servers"]
    assert server["target"]["display"] == "io.github.example/memory@1.0.0 (list.json)"
    assert "variable dir is required and has no value: give it with --input dir=VALUE" in server["error"]


def test_remotes_oci_without_docker_and_unsupported_kinds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    headers = [{"name": "X-Api-Key", "isSecret": True, "isRequired": True}, {"name": "X-Region", "default": "eu"}]
    remote = {"type": "sse", "url": "https://mcp.example.com/{region}/sse", "headers": headers}
    oci = {"registryType": "oci", "identifier": "example/server", "version": "1.0", "transport": {"type": "stdio"}}
    nuget = {"registryType": "nuget", "identifier": "Example.Server", "version": "1", "transport": {"type": "stdio"}}
    entries = [server_json("remote", remotes=(remote,)), server_json("image", oci), server_json("dotnet", nuget)]
    path = write(tmp_path / "list.json", entries)
    monkeypatch.setenv("PATH", str(tmp_path))  # no docker, npx or uvx here
    first, image, dotnet = (
        planned_from_registry(entry)
        for entry in read_registry(path, inputs={"X-Api-Key": SECRET, "region": "eu-1"}, many=True)
    )
    assert first.target is not None and first.target.url == "https://mcp.example.com/eu-1/sse"  # type: ignore[union-attr]
    assert dict(first.target.headers) == {"X-Api-Key": SECRET, "X-Region": "eu"}  # type: ignore[union-attr]
    assert (
        image.error
        == "io.github.example/image@1.0.0 (list.json): the OCI image needs docker, and docker is not on PATH"
    )
    assert dotnet.error is not None and "only packages of kind nuget" in dotnet.error


@pytest.mark.parametrize(
    ("content", "problem"),
    [("{", "not JSON"), ("[1, 2]", "not a list of server.json entries"), ('{"a": 1}', "a registry list is")],
)
def test_a_file_that_is_not_a_registry_list_is_a_usage_error(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "list.json"
    path.write_text(content, "utf-8")
    code, _, err = run("check", "--registry-list", str(path))
    assert code == 2 and problem in err and str(path) in err


def test_a_shard_installs_only_its_own_packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOSTCOMPAT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv(
        "PATH", os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if not Path(p, "uvx").exists())
    )
    pypi = {"registryType": "pypi", "identifier": "mcp-server-time", "version": "1", "transport": {"type": "stdio"}}
    broken = {"registryType": "npm", "identifier": "x", "version": "1", "transport": {"type": "streamable-http"}}
    path = write(tmp_path / "list.json", [server_json("broken", broken), server_json("time", pypi)])
    code, out, _ = run("check", "--registry-list", path, "--shard", "1/2", "--format", "json")
    assert code == 1 and "transport 'streamable-http'" in json.loads(out)["servers"][0]["error"]
    assert not (tmp_path / "cache").exists()  # shard 2's PyPI package was never installed


@pytest.mark.interop
def test_an_npm_entry_installed_by_npx_and_a_list_in_two_shards(tmp_path: Path) -> None:
    need_npx()
    inputs = ["--input", f"dir={tmp_path}", "--input", f"MEMORY_TOKEN={SECRET}"]
    single = write(tmp_path / "server.json", server_json("memory", memory_package()))
    code, out, err = run("check", "--registry", single, *inputs, "--host", "claude", "--format", "json")
    assert code == 0, err
    (server,) = json.loads(out)["servers"]
    assert server["error"] is None and server["server"]["name"] == "memory-server"
    assert server["target"]["args"] == [
        "-y",
        f"@modelcontextprotocol/server-memory@{pinned_npm('@modelcontextprotocol/server-memory')}",
    ]
    assert SECRET not in out and str(tmp_path) not in json.dumps(server["target"])
    listed = [server_json(f"memory-{n}", memory_package()) for n in range(3)] + [server_json("nothing")]
    many = write(tmp_path / "list.json", listed)
    common = ["check", "--registry-list", many, *inputs, "--host", "claude", "--host", "codex", "--format", "json"]
    run(*common, "-o", str(tmp_path / "whole.json"))
    for index in (1, 2):
        run(*common, "--shard", f"{index}/2", "-o", str(tmp_path / f"shard-{index}.json"))
    code, _, err = run(
        "merge", str(tmp_path / "shard-1.json"), str(tmp_path / "shard-2.json"), "-o", str(tmp_path / "merged.json")
    )
    assert code == 0, err

    def verdicts(name: str) -> list[tuple[str, object, list[tuple[str, str]]]]:
        document = json.loads((tmp_path / name).read_text("utf-8"))
        return [
            (s["target"]["display"], s["error"], [(h["hostId"], h["verdict"]) for h in s["hosts"]])
            for s in document["servers"]
        ]

    assert verdicts("merged.json") == verdicts("whole.json")
    assert [row[0] for row in verdicts("whole.json")][-1] == "io.github.example/nothing@1.0.0 (list.json)"
    for name in ("whole.json", "merged.json"):
        assert SECRET not in (tmp_path / name).read_text("utf-8")


@pytest.mark.interop
def test_a_pypi_entry_installed_in_a_cached_virtualenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOSTCOMPAT_CACHE", str(tmp_path / "cache"))
    version = pinned_pypi("mcp-server-time")
    package = {
        "registryType": "pypi",
        "identifier": "mcp-server-time",
        "version": version,
        "runtimeHint": "uvx",
        "transport": {"type": "stdio"},
        "packageArguments": [{"type": "named", "name": "--local-timezone", "value": "UTC"}],
        "environmentVariables": [{"name": "TIME_TOKEN", "isSecret": True, "isRequired": True}],
    }
    path = write(tmp_path / "time.json", server_json("time", package))
    code, out, err = run(
        "check", "--registry", path, "--input", f"TIME_TOKEN={SECRET}", "--host", "claude", "--format", "json"
    )
    assert code == 0, err
    (server,) = json.loads(out)["servers"]
    assert server["error"] is None and server["server"]["name"] == "mcp-time"
    assert server["target"]["env"] == {"TIME_TOKEN": "<redacted>"} and SECRET not in out
    if shutil.which("uvx") is None:
        assert re.search(
            rf"mcp-server-time-{re.escape(version)}-py3\d+/bin/mcp-server-time$", server["target"]["command"]
        )
        assert (tmp_path / "cache" / "pypi").is_dir()
