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
