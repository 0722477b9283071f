"""The optional C lexer's build: it compiles where a compiler is, and is skipped quietly where none is."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import shutil
import sysconfig
from array import array
from pathlib import Path
from types import ModuleType

import pytest

from hostcompat.engine.scan.js import lexer

ROOT = Path(__file__).resolve().parents[1]


def _build_native() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_native", ROOT / "scripts" / "build_native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_a_compiler_the_build_is_skipped_quietly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build_native = _build_native()
    real = sysconfig.get_config_var
    monkeypatch.setattr(
        sysconfig,
        "get_config_var",
        lambda name: "no-such-compiler-hostcompat -shared" if name == "LDSHARED" else real(name),
    )
    assert build_native.build_extension(tmp_path) is None
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(build_native, "ROOT", tmp_path)
    assert build_native.main([]) == 0
    assert "pure-Python lexer" in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler here")
def test_the_built_extension_loads_and_lexes_like_the_python_lexer(tmp_path: Path) -> None:
    built = _build_native().build_extension(tmp_path)
    assert built is not None and built.name.startswith("_clexer")
    loader = importlib.machinery.ExtensionFileLoader("_clexer", str(built))
    spec = importlib.util.spec_from_loader("_clexer", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    source = 'let a = "x" + `t${ {b: 1} }` / 2; /re[/]/g.test(a) // c\n{ }'
    starts, ends, kinds = module.lex(source, 0, len(source), False, None)
    real = lexer._native
    try:
        lexer._native = None
        reference = lexer.lex_js(source)
    finally:
        lexer._native = real
    assert list(array("i", starts)) == list(reference.starts)
    assert list(array("i", ends)) == list(reference.ends)
    assert list(array("b", kinds)) == list(reference.kinds)
