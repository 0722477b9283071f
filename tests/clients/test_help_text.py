"""`help()` on the install functions shows their signature, never the process environment (a secret's home)."""

from __future__ import annotations

import inspect
import os
import pydoc

import pytest

import hostcompat.clients


@pytest.mark.parametrize("name", ["install", "install_fastmcp"])
def test_help_does_not_print_the_environment(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOSTCOMPAT_TEST_SECRET", "s3cr3t-value-in-env")
    function = getattr(hostcompat.clients, name)
    text = pydoc.render_doc(function, renderer=pydoc.plaintext)  # type: ignore[attr-defined]
    assert "s3cr3t-value-in-env" not in text
    assert "environ" in text
    for parameter in inspect.signature(function).parameters.values():
        assert parameter.default is not os.environ
