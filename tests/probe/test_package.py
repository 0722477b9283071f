"""The probe package: a sorted public surface, and no SDK import until a server is probed."""

from __future__ import annotations

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


def test_importing_the_probe_does_not_import_the_sdk_but_capture_does() -> None:
    script = (
        "import sys\n"
        "import hostcompat.probe as probe\n"
        "print('mcp' in sys.modules)\n"
        "probe.capture\n"
        "print('mcp' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "True"]


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
