"""Every lazy package face agrees with itself: its `TYPE_CHECKING` imports, its lazy table and `__all__`.

The faces are found by walking `hostcompat` with pkgutil and reading each package's `__init__`, so a package that
moves onto `hostcompat._lazy.lazy_exports` is checked without editing this file.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import sys
import textwrap
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import hostcompat


def init_source(package: str) -> str:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.origin is not None, package
    return Path(spec.origin).read_text("utf-8")


def calls_lazy_exports(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            name = function.id if isinstance(function, ast.Name) else getattr(function, "attr", None)
            if name == "lazy_exports":
                return True
    return False


def lazy_faces() -> list[str]:
    packages = ["hostcompat"] + [
        info.name for info in pkgutil.walk_packages(hostcompat.__path__, "hostcompat.") if info.ispkg
    ]
    return sorted(name for name in packages if calls_lazy_exports(ast.parse(init_source(name))))


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def type_checking_imports(tree: ast.Module) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """Public name → (module, attribute) of the `if TYPE_CHECKING:` imports, and what is wrong with them."""
    imports: dict[str, tuple[str, str]] = {}
    problems: list[str] = []
    for statement in tree.body:
        if not (isinstance(statement, ast.If) and is_type_checking(statement.test)):
            continue
        for node in statement.body:
            if not isinstance(node, ast.ImportFrom) or node.level or node.module is None:
                problems.append(f"line {node.lineno}: not an absolute `from … import …` under TYPE_CHECKING")
                continue
            for alias in node.names:
                public = alias.asname or alias.name
                if public in imports:
                    problems.append(f"{public}: imported twice under TYPE_CHECKING")
                imports[public] = (node.module, alias.name)
    return imports, problems


def face_problems(package: types.ModuleType, source: str) -> list[str]:
    """What makes a lazy face disagree with itself; empty when its three lists and the objects agree."""
    typed, problems = type_checking_imports(ast.parse(source))
    table: dict[str, tuple[str, str]] | None = getattr(getattr(package, "__getattr__", None), "lazy_table", None)
    if table is None:
        return [*problems, "no lazy table: `__getattr__` does not come from lazy_exports"]
    exported = list(getattr(package, "__all__", []))
    if len(set(exported)) != len(exported):
        problems.append("__all__ lists a name twice")
    for name in sorted(set(table) - set(typed)):
        problems.append(f"{name}: in the lazy table, not imported under TYPE_CHECKING")
    for name in sorted(set(typed) - set(table)):
        problems.append(f"{name}: imported under TYPE_CHECKING, not in the lazy table")
    for name in sorted(set(table) - set(exported)):
        problems.append(f"{name}: in the lazy table, not in __all__")
    for name in sorted(set(exported) - set(table)):
        problems.append(f"{name}: in __all__, not in the lazy table")
    for name in sorted(set(typed) & set(table)):
        if typed[name] != table[name]:
            problems.append(f"{name}: TYPE_CHECKING imports it from {typed[name]}, the lazy table from {table[name]}")
    listed = set(dir(package))
    submodules = {info.name for info in pkgutil.iter_modules(getattr(package, "__path__", []))}
    for name, (module, attribute) in sorted(table.items()):
        if name not in listed:
            problems.append(f"{name}: missing from dir()")
        if name in submodules:
            problems.append(f"{name}: also a submodule, whose import would replace the exported object")
        try:
            expected = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as error:
            problems.append(f"{name}: {module}.{attribute} does not resolve ({error})")
            continue
        if getattr(package, name) is not expected:
            problems.append(f"{name}: is not the object {module}.{attribute}")
    return problems


FACES = lazy_faces()


def test_the_walk_finds_the_converted_faces() -> None:
    assert {"hostcompat.apps", "hostcompat.apps.bridge", "hostcompat.clients", "hostcompat.engine"} <= set(FACES)


@pytest.mark.parametrize("name", FACES)
def test_each_lazy_face_agrees_with_itself(name: str) -> None:
    assert face_problems(importlib.import_module(name), init_source(name)) == []


# ---- the checker itself, on synthetic packages --------------------------------------------------------------------


PART = """
class Thing:
    pass


class Other:
    pass


def helper() -> None:
    pass
"""

GOOD_FACE = """
from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from {package}.part import Thing as Thing
    from {package}.part import helper as helper

__getattr__, __dir__ = lazy_exports(__name__, {{"{package}.part": {table}}})
__all__ = {exported}
"""


MakeFace = Callable[..., list[str]]
"""Write a synthetic package (a face over `part.py`), import it, and return the face's problems."""


@pytest.fixture
def make_face(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeFace]:
    monkeypatch.syspath_prepend(str(tmp_path))
    made: list[str] = []

    def make(
        table: str = '["Thing", "helper"]',
        exported: str = '["Thing", "helper"]',
        face: str = GOOD_FACE,
        submodule: str | None = None,
    ) -> list[str]:
        package = f"synthetic_face_{len(made)}"
        made.append(package)
        (tmp_path / package).mkdir()
        (tmp_path / package / "part.py").write_text(PART, "utf-8")
        if submodule is not None:
            (tmp_path / package / f"{submodule}.py").write_text("", "utf-8")
        source = textwrap.dedent(face).format(package=package, table=table, exported=exported)
        (tmp_path / package / "__init__.py").write_text(source, "utf-8")
        return face_problems(importlib.import_module(package), source)

    yield make
    for package in made:
        for module in [name for name in sys.modules if name == package or name.startswith(package + ".")]:
            del sys.modules[module]


def test_an_agreeing_synthetic_face_passes(make_face: MakeFace) -> None:
    assert make_face() == []


def test_a_name_missing_from_all_fails(make_face: MakeFace) -> None:
    assert make_face(exported='["Thing"]') == ["helper: in the lazy table, not in __all__"]


def test_a_name_only_in_all_fails(make_face: MakeFace) -> None:
    problems = make_face(exported='["Other", "Thing", "helper"]')
    assert problems == ["Other: in __all__, not in the lazy table"]


def test_a_name_missing_from_the_type_checking_imports_fails(make_face: MakeFace) -> None:
    problems = make_face(table='["Other", "Thing", "helper"]', exported='["Other", "Thing", "helper"]')
    assert problems == ["Other: in the lazy table, not imported under TYPE_CHECKING"]


def test_a_name_bound_to_another_object_fails(make_face: MakeFace) -> None:
    (problem,) = make_face(table='["Thing=Other", "helper"]')
    assert problem.startswith("Thing: TYPE_CHECKING imports it from")


def test_a_name_shadowed_in_the_face_fails(make_face: MakeFace) -> None:
    problems = make_face(face=GOOD_FACE + "\nhelper = print\n")
    assert len(problems) == 1 and problems[0].startswith("helper: is not the object")


def test_a_name_that_is_also_a_submodule_fails(make_face: MakeFace) -> None:
    problems = make_face(submodule="helper")
    assert problems == ["helper: also a submodule, whose import would replace the exported object"]


def test_a_table_naming_a_missing_attribute_fails(make_face: MakeFace) -> None:
    face = GOOD_FACE.replace("import Thing as Thing", "import Missing as Thing")
    problems = make_face(table='["Thing=Missing", "helper"]', face=face)
    assert len(problems) == 1 and problems[0].startswith("Thing: ") and "does not resolve" in problems[0]


def test_a_hand_written_getattr_fails(make_face: MakeFace) -> None:
    face = GOOD_FACE.replace("__getattr__, __dir__ = lazy_exports", "_unused = lazy_exports")
    assert make_face(face=face) == ["no lazy table: `__getattr__` does not come from lazy_exports"]
