"""The probe package: a sorted public surface, and no SDK import until a server is probed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import hostcompat.probe as probe


def test_the_public_names_are_sorted_and_all_resolve() -> None:
    assert probe.__all__ == sorted(probe.__all__)
    assert all(getattr(probe, name) is not None for name in probe.__all__)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        _ = probe.not_a_name


def test_a_stdio_capture_does_not_import_the_sdk_but_the_sdks_own_client_does() -> None:
    script = (
        "import sys, anyio\n"
        "import hostcompat.probe as probe\n"
        "target = probe.StdioTarget(sys.executable, ['-m', 'hostcompat.examples.board'])\n"
        "snapshot = anyio.run(probe.capture, target)\n"
        "print(len(snapshot.tools) > 0, 'mcp' in sys.modules, 'mcp_types' in sys.modules, 'pydantic' in sys.modules)\n"
    )

    def run(env: dict[str, str]) -> list[str]:
        return subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env
        ).stdout.split()

    environment = {key: value for key, value in os.environ.items() if key != "HOSTCOMPAT_STDIO_CLIENT"}
    assert run(environment) == ["True", "False", "False", "False"]
    assert run({**environment, "HOSTCOMPAT_STDIO_CLIENT": "sdk"}) == ["True", "True", "True", "True"]


def test_the_type_checking_imports_the_lazy_table_and_all_agree() -> None:
    import ast
    from pathlib import Path

    tree = ast.parse(Path(probe.__file__).read_text("utf-8"))
    (block,) = [node for node in tree.body if isinstance(node, ast.If)]  # `if TYPE_CHECKING:`
    typed = {
        alias.asname or alias.name: (node.module, alias.name)
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert typed == probe.__getattr__.lazy_table  # type: ignore[attr-defined]
    assert sorted(typed) == probe.__all__


def test_the_handshake_version_the_probe_names_is_the_one_its_client_asks_for() -> None:
    from mcp_types.version import LATEST_HANDSHAKE_VERSION

    assert probe.PROBE_HANDSHAKE_VERSION == LATEST_HANDSHAKE_VERSION
