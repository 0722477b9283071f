"""The report package's face: its `TYPE_CHECKING` imports, its lazy table and `__all__` name the same objects."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import hostcompat.report as face


def type_checking_imports() -> dict[str, tuple[str, str]]:
    tree = ast.parse(Path(face.__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    return {
        alias.asname or alias.name: (str(node.module), alias.name)
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_the_type_checking_imports_the_lazy_table_and_all_agree() -> None:
    table = face.__getattr__.lazy_table  # type: ignore[attr-defined]
    assert type_checking_imports() == table
    assert sorted(table) == face.__all__
    for name, (module, attribute) in table.items():
        assert getattr(importlib.import_module(module), attribute) is getattr(face, name), name


def test_importing_the_face_imports_no_renderer() -> None:
    code = "import sys, hostcompat.report\nprint(sorted(m for m in sys.modules if m.startswith('hostcompat.report.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
