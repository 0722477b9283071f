"""`dataclass` for hostcompat's own classes: the standard decorator, with the methods it writes taken ready-compiled.

`dataclasses.dataclass` writes each class's `__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__` and
`__delattr__` as source text and compiles it, one `exec` per method, on every start: about a third of a millisecond
per class, some 40 ms of an offline `check` (issue 18). `scripts/gen_dataclass_code.py` writes those texts, for
every dataclass of the package, into modules of plain functions (`hostcompat._dataclass_methods`, one per layer and
Python version), which Python compiles once and caches as byte code like any module. While this decorator runs, the
`exec` that `dataclasses` calls looks the text up there first: an exact match yields the same function compiled from
the same text, bound to the same globals; anything else (another Python, a class added since the modules were
written) is compiled as usual.
The lookup is in place only while one of hostcompat's classes is being made, never for other code's dataclasses.

Type checkers see `dataclasses.dataclass` itself.
"""

from __future__ import annotations

import _thread
import builtins
import dataclasses
import importlib
import sys
from collections.abc import Callable, Mapping
from functools import partial
from types import CodeType, FunctionType
from typing import TYPE_CHECKING, Any

from hostcompat._generated import loads_from_byte_code

__all__ = ["dataclass", "generated_module_name", "layer_of", "method_factories"]

_TABLES: dict[str, Mapping[str, FunctionType]] = {}


def layer_of(module: str) -> str | None:
    """The part of the package a module belongs to (`hostcompat.engine.scan.model` → `engine`); None outside it."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "hostcompat" else None


def generated_module_name(layer: str) -> str:
    """The module holding the ready-compiled methods of `layer`'s classes for this Python
    (`hostcompat._dataclass_methods.py311_engine`, ...).
    """
    return f"hostcompat._dataclass_methods.py{sys.version_info[0]}{sys.version_info[1]}_{layer}"


def method_factories(layer: str | None) -> Mapping[str, FunctionType]:
    """Source text → the function that text defines, for the classes of `layer` on this Python; empty when there
    is no module for them. Each layer's module loads with its first class, so a command that makes a few classes
    loads a few texts.
    """
    if layer is None:
        return {}
    table = _TABLES.get(layer)
    if table is None:
        name = generated_module_name(layer)
        try:
            table = importlib.import_module(name).FACTORIES if loads_from_byte_code(name) else {}
        except ImportError:
            table = {}
        _TABLES[layer] = table
    return table


def _exec(
    table: Mapping[str, FunctionType],
    source: str | CodeType,
    globals: dict[str, Any] | None = None,
    locals: dict[str, Any] | None = None,
) -> None:
    """`exec`, for the one kind of text `dataclasses` runs: a module defining a single function. A text found in
    `table` defines that function in `locals` without compiling; any other call is `exec` itself.
    """
    factory = table.get(source) if isinstance(source, str) else None
    if factory is None or globals is None or locals is None or "__builtins__" not in globals:
        builtins.exec(source, globals, locals)
        return
    locals[factory.__name__] = FunctionType(factory.__code__, globals, factory.__name__)


def _made(cls: type[Any], options: dict[str, Any]) -> type[Any]:
    """`cls` made a dataclass with the lookup in place (one class at a time, so it is always put back)."""
    table = method_factories(layer_of(cls.__module__))
    with _MAKING:
        previous = dataclasses.__dict__.get("exec", _ABSENT)
        dataclasses.exec = partial(_exec, table)  # type: ignore[attr-defined]  # a module global shadows the builtin
        try:
            made: type[Any] = dataclasses.dataclass(**options)(cls)
        finally:
            if previous is _ABSENT:
                del dataclasses.exec  # type: ignore[attr-defined]
            else:
                dataclasses.exec = previous  # type: ignore[attr-defined]
    return made


_ABSENT = object()
_MAKING = _thread.RLock()

if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:

    def dataclass(cls: type[Any] | None = None, /, **options: Any) -> type[Any] | Callable[[type[Any]], type[Any]]:
        """`dataclasses.dataclass(cls, **options)`, its generated methods taken ready-compiled where they can be."""
        if cls is None:
            return lambda cls: _made(cls, options)
        return _made(cls, options)
