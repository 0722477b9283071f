from pathlib import Path

import pytest

from tests.clients.proxy._interop import EXTRA_NODE_MODULES, package


def test_a_missing_npm_package_skips_the_test_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception) as caught:
        package("@hostcompat-test/no-such-package")
    assert "@hostcompat-test/no-such-package is missing" in str(caught.value)
    assert EXTRA_NODE_MODULES in str(caught.value)


def test_a_missing_npm_package_fails_the_test_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception) as caught:
        package("@hostcompat-test/no-such-package")
    assert "CI must have it" in str(caught.value)


def test_extra_folders_are_searched_too(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    folder = tmp_path / "node_modules" / "@hostcompat-test" / "here"
    folder.mkdir(parents=True)
    (folder / "package.json").write_text("{}")
    monkeypatch.setenv(EXTRA_NODE_MODULES, str(tmp_path / "node_modules"))
    assert package("@hostcompat-test/here") == folder
