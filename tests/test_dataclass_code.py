"""`hostcompat._dataclass`: hostcompat's dataclasses take their generated methods ready-compiled, and are the same
classes `dataclasses.dataclass` makes; the generated module is current; nothing of it outlives a class's making.
"""

from __future__ import annotations

import builtins
import dataclasses
import importlib.util
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import CodeType, FunctionType
from typing import Any, ClassVar

import pytest

from hostcompat import _dataclass
from hostcompat._dataclass import dataclass

ROOT = Path(__file__).resolve().parents[1]
METHODS = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__lt__")


def _shape(code: CodeType) -> tuple[object, ...]:
    """What a code object does, without where it was compiled (file, lines)."""
    consts = tuple(_shape(c) if isinstance(c, CodeType) else c for c in code.co_consts)
    return (code.co_name, code.co_code, consts, code.co_names, code.co_varnames, code.co_freevars, code.co_flags)


def _compiled(text: str, file: str) -> CodeType:
    """`text` compiled as `dataclasses` compiles it: without this module's `from __future__ import annotations`."""
    return compile(text, file, "exec", dont_inherit=True)


def _texts_of(make: Callable[[], type[Any]]) -> list[str]:
    """The texts `dataclasses` compiles while `make` makes its class."""
    texts: list[str] = []

    class Recording(dict[str, FunctionType]):
        def get(self, text: str, default: Any = None) -> Any:
            texts.append(text)
            return default

    previous = _dataclass.method_factories
    _dataclass.method_factories = lambda layer: Recording()
    try:
        make()
    finally:
        _dataclass.method_factories = previous
    return texts


def _factories(texts: list[str]) -> dict[str, FunctionType]:
    """Each text → the function it defines, compiled as part of one module, as the generated module holds them."""
    namespace: dict[str, Any] = {}
    table: dict[str, FunctionType] = {}
    for text in texts:
        exec(_compiled(text, "generated.py"), namespace)
        table[text] = namespace["__create_fn__"]
    return table


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, FunctionType]]:
    """An empty method table in place of the generated ones, for a test to fill."""
    made: dict[str, FunctionType] = {}
    monkeypatch.setattr(_dataclass, "method_factories", lambda layer: made)
    yield made


def _make(decorate: Callable[[type[Any]], type[Any]]) -> type[Any]:
    """One class of each feature the generated methods touch: defaults, factories, kw-only, ClassVar, post-init."""

    class Point:
        """A point."""

        limit: ClassVar[int] = 3
        x: int
        y: int = 2
        tags: list[str] = dataclasses.field(default_factory=list)
        name: str = dataclasses.field(default="p", kw_only=True)

        def __post_init__(self) -> None:
            if self.x > 100:
                raise ValueError("x too big")

    return decorate(Point)


def test_a_class_made_from_the_table_behaves_as_the_standard_decorator_makes_it(
    table: dict[str, FunctionType], monkeypatch: pytest.MonkeyPatch
) -> None:
    standard = _make(dataclasses.dataclass(frozen=True, order=True))
    table.update(_factories(_texts_of(lambda: _make(dataclass(frozen=True, order=True)))))
    compiled: list[object] = []
    monkeypatch.setattr(builtins, "exec", lambda *args: compiled.append(args))  # a miss would show here
    ours = _make(dataclass(frozen=True, order=True))
    monkeypatch.undo()
    assert compiled == []  # every method came from the table
    for name in METHODS:
        mine, theirs = getattr(ours, name), getattr(standard, name)
        assert mine.__qualname__ == f"{ours.__qualname__}.{name}" and mine.__module__ == theirs.__module__
        assert _shape(mine.__code__) == _shape(theirs.__code__), name
        assert mine.__globals__ is theirs.__globals__, name
    assert ours.__init__.__annotations__ == standard.__init__.__annotations__
    assert [f.name for f in dataclasses.fields(ours)] == ["x", "y", "tags", "name"]
    one, same, other = ours(1), ours(1), ours(5, 1, ["a"], name="q")
    assert repr(one) == repr(standard(1)).replace(standard.__qualname__, ours.__qualname__)
    assert repr(one).endswith("Point(x=1, y=2, tags=[], name='p')")
    assert one == same and one != other and one < other and one.tags is not same.tags
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.x = 3
    with pytest.raises(ValueError, match="x too big"):
        ours(101)
    with pytest.raises(TypeError):
        ours(1, 2, [], "positional name")  # kw_only holds
    with pytest.raises(TypeError):
        hash(ours(1))  # the list field makes the hash fail, as the standard class's does
    assert hash(ours(1, 2, ())) == hash(standard(1, 2, ()))


def test_a_text_missing_from_the_table_is_compiled_as_usual(table: dict[str, FunctionType]) -> None:
    assert table == {}
    made = _make(dataclass(frozen=True))
    assert made(1) == made(1) and repr(made(1)).endswith("Point(x=1, y=2, tags=[], name='p')")


def test_the_lookup_is_in_place_only_while_a_class_is_made() -> None:
    assert "exec" not in vars(dataclasses)
    _make(dataclass(frozen=True))
    assert "exec" not in vars(dataclasses)

    class Broken:
        x: int = 1
        y: int  # a field without a default after one with: dataclasses refuses the class

    with pytest.raises(TypeError):
        dataclass(Broken)
    assert "exec" not in vars(dataclasses)


def test_a_prior_exec_in_dataclasses_is_put_back(monkeypatch: pytest.MonkeyPatch) -> None:
    def theirs(*args: Any) -> None:
        exec(*args)

    monkeypatch.setattr(dataclasses, "exec", theirs, raising=False)
    _make(dataclass(frozen=True))
    assert vars(dataclasses)["exec"] is theirs


def test_the_package_classes_come_from_the_generated_modules() -> None:
    """Every dataclass hostcompat defines finds its methods in the modules for this Python (when there are some)."""
    version = f"py{sys.version_info[0]}{sys.version_info[1]}"
    if not list((ROOT / "src" / "hostcompat" / "_dataclass_methods").glob(f"{version}_*.py")):
        pytest.skip(f"no generated methods for Python {sys.version_info[0]}.{sys.version_info[1]}")
    check = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_dataclass_code.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stderr


def _generated(layer: str) -> Any:
    """The generated module of `layer` for this Python (the test skips without one)."""
    try:
        return importlib.import_module(_dataclass.generated_module_name(layer))
    except ImportError:
        pytest.skip(f"no generated methods for Python {sys.version_info[0]}.{sys.version_info[1]}")


def test_the_generated_functions_are_those_their_texts_define() -> None:
    factories = _generated("engine").FACTORIES
    for text, factory in list(factories.items())[::20]:
        namespace: dict[str, Any] = {}
        exec(_compiled(text, "<string>"), namespace)
        assert _shape(namespace[factory.__name__].__code__) == _shape(factory.__code__)


def test_each_layer_has_its_own_methods_and_other_code_has_none() -> None:
    assert _dataclass.layer_of("hostcompat.engine.scan.model") == "engine"
    assert _dataclass.layer_of("hostcompat.pipeline") == "pipeline"
    assert _dataclass.layer_of("hostcompat") is None and _dataclass.layer_of("tests.test_x") is None
    assert _dataclass.method_factories(None) == {}
    assert _dataclass.method_factories("no_such_layer") == {}
    from hostcompat.engine.findings.model import Finding

    if _dataclass.method_factories("engine"):  # generated for this Python and loadable: __init__ came from there
        assert Finding.__init__.__code__.co_filename.endswith(f"py{sys.version_info[0]}{sys.version_info[1]}_engine.py")


def test_without_byte_code_to_load_them_the_methods_compile_as_usual(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With byte code writing off and no byte code written, importing a generated module would compile all of it."""
    byte_code = tmp_path / "py311_engine.cpython-311.pyc"
    real_find_spec = importlib.util.find_spec

    def find_spec(name: str) -> Any:
        spec = real_find_spec(name)
        assert spec is not None
        spec.cached = str(byte_code)
        return spec

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setattr(_dataclass, "_TABLES", {})
    assert _dataclass.method_factories("engine") == {}
    byte_code.write_bytes(b"")  # there is byte code to load: the generated methods are used
    monkeypatch.setattr(_dataclass, "_TABLES", {})
    assert _dataclass.method_factories("engine") == _generated("engine").FACTORIES
