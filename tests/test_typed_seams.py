"""Typed seams: no public signature or dataclass field of `src/hostcompat` is a bare string-keyed JSON-ish mapping.

`dict[str, Any]`, `Mapping[str, Any]`, `dict[str, object]` and `Mapping[str, object]` say nothing about what they
hold. Where a value is raw JSON off the wire or out of a file, it is named as such with `hostcompat.wire_json`
(`WireJSON`, `WireObject`, `WireValue`); anything else is a typed value (a frozen dataclass or a TypedDict).

Public means: a function or method (dunders such as `__init__` included) or a dataclass field whose own name, class
and module path have no leading underscore. Each annotation is searched whole, so `list[dict[str, Any]] | None`
counts too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "hostcompat"

MAPPINGS = frozenset({"dict", "Dict", "Mapping", "MutableMapping"})
LOOSE_VALUES = frozenset({"Any", "object"})

PENDING: frozenset[str] = frozenset()
"""Top-level packages (or root modules) of `hostcompat` that still have such seams, being converted to typed values
or wire names. It must shrink to empty: a package that is clean must leave it (the test fails until it does), and
nothing may join it."""


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):  # typing.Mapping, collections.abc.Mapping
        return node.attr
    return ""


def is_loose(annotation: ast.expr) -> bool:
    """Whether the annotation, anywhere inside it, is a `str`-keyed mapping of `Any` or `object`."""
    for node in ast.walk(annotation):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a quoted annotation
            try:
                quoted = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                continue
            if is_loose(quoted):
                return True
        elif (
            isinstance(node, ast.Subscript)
            and _name(node.value) in MAPPINGS
            and isinstance(node.slice, ast.Tuple)
            and len(node.slice.elts) == 2
            and _name(node.slice.elts[0]) == "str"
            and _name(node.slice.elts[1]) in LOOSE_VALUES
        ):
            return True
    return False


def _is_dataclass(node: ast.ClassDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if _name(target) == "dataclass":
            return True
    return False


def _signature(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.expr]:
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    yield from (argument.annotation for argument in every if argument is not None and argument.annotation)
    if function.returns is not None:
        yield function.returns


def loose_seams(relative: str, source: str) -> Iterator[str]:
    """`file:line: annotation` for each public signature or dataclass field of one module with a loose mapping."""
    if any(_private(part) for part in Path(relative).with_suffix("").parts):
        return
    shown = f"src/hostcompat/{relative}"

    def visit(body: list[ast.stmt], in_dataclass: bool) -> Iterator[str]:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _private(node.name):
                for annotation in _signature(node):
                    if is_loose(annotation):
                        yield f"{shown}:{annotation.lineno}: {node.name}: {ast.unparse(annotation)}"
            elif isinstance(node, ast.ClassDef) and not _private(node.name):
                yield from visit(node.body, _is_dataclass(node))
            elif (
                in_dataclass
                and isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and not _private(node.target.id)
                and is_loose(node.annotation)
            ):
                yield f"{shown}:{node.lineno}: {node.target.id}: {ast.unparse(node.annotation)}"
            elif isinstance(node, (ast.If, ast.Try)):  # definitions under `if sys.version_info …` or `try:`
                yield from visit([*node.body, *node.orelse], in_dataclass)

    yield from visit(ast.parse(source).body, False)


def top_level(relative: str) -> str:
    """`engine/scan/widget.py` → `engine`; `redaction.py` → `redaction`."""
    return Path(relative).with_suffix("").parts[0]


def test_public_seams_name_raw_json_or_use_typed_values() -> None:
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        for line in loose_seams(relative, path.read_text(encoding="utf-8")):
            found.setdefault(top_level(relative), []).append(line)
    for package in sorted(found):
        print(f"{package}{' (PENDING)' if package in PENDING else ''}:", *found[package], sep="\n  ")
    new = {package: lines for package, lines in found.items() if package not in PENDING}
    assert not new, "loose `str`-keyed mappings in public seams (use hostcompat.wire_json or a typed value):\n" + (
        "\n".join(line for lines in new.values() for line in lines)
    )
    clean = sorted(PENDING - set(found))
    assert not clean, f"clean now, take them out of PENDING in tests/test_typed_seams.py: {clean}"


def test_the_checker_sees_every_kind_of_seam() -> None:
    source = (
        "from dataclasses import dataclass\n"
        "import typing\n"
        "def load(data: typing.Mapping[str, Any], *rest: dict[str, object]) -> list[dict[str, Any]] | None: ...\n"
        "def _inner(data: dict[str, Any]) -> None: ...\n"
        "def fine(data: WireJSON, counts: dict[str, int]) -> Mapping[str, str]: ...\n"
        "@dataclass(frozen=True)\n"
        "class Record:\n"
        "    meta: 'Mapping[str, object]'\n"
        "    _cache: dict[str, Any]\n"
        "    def __init__(self, raw: dict[str, Any]) -> None: ...\n"
        "class Plain:\n"
        "    attribute: dict[str, Any]\n"
    )
    assert list(loose_seams("engine/x.py", source)) == [
        "src/hostcompat/engine/x.py:3: load: typing.Mapping[str, Any]",
        "src/hostcompat/engine/x.py:3: load: dict[str, object]",
        "src/hostcompat/engine/x.py:3: load: list[dict[str, Any]] | None",
        "src/hostcompat/engine/x.py:8: meta: 'Mapping[str, object]'",
        "src/hostcompat/engine/x.py:10: __init__: dict[str, Any]",
    ]
    assert list(loose_seams("probe/_stdio.py", source)) == []
