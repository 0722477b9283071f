"""The import rules of `src/hostcompat`, read from the source (every import statement, at any depth).

The layer table below is the rule: each top-level module or package of `hostcompat` may import the utilities, itself
and the layers its row names, and nothing else of `hostcompat`; some layers also may not import some third-party
packages. Function-level imports and `if TYPE_CHECKING:` imports count like any other: a layer that must not depend
on another must not name it at all.

The engine also loads without the `mcp` SDK or pydantic: following every import an engine module makes, and every
import of each module that reaches (`TYPE_CHECKING` blocks aside, as they never run), no SDK module is reached. That
keeps the offline check fast, whatever `apps` module the engine borrows a constant from.

A new top-level module or package fails here until it has a row.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "hostcompat"

# ---------------------------------------------------------------------------------------------------------------------
# The layer table, bottom to top. A row: the layers (besides itself and the utilities) that a layer may import.

UTILITIES = frozenset(
    {"errors", "wire_json", "_lazy", "_version", "terminal", "redaction", "output_files", "json_schema_parts"}
)
"""Importable by every layer; they import only each other, and nothing but the standard library."""

ROOT = "hostcompat"
"""The root face (`hostcompat/__init__.py`): every import of any `hostcompat` module runs it, so it stays small."""

PIPELINES = frozenset({"pipeline", "widget_analysis", "widget_scans", "with_proxy"})
"""The check pipeline sits between the layers and the faces: its stages, and its widget stage."""

LAYERS: dict[str, frozenset[str]] = {
    ROOT: frozenset(),
    "apps": frozenset(),  # the MCP Apps model: no other layer
    "engine": frozenset({"apps"}),  # pure verdicts: never probe, clients, observe, report, the faces
    "probe": frozenset({"apps"}),  # talks to a live server, writes snapshots
    "clients": frozenset({"apps"}),  # client rules, rewrites, middleware, the proxy
    "observe": frozenset({"apps", "engine", "probe"}),  # runs widgets in a browser
    "report": frozenset(),  # renders the versioned report document: no layer below or above it
    **dict.fromkeys(PIPELINES, frozenset({"apps", "engine", "probe", "clients", "observe", "report", *PIPELINES})),
    "examples": frozenset({"apps"}),  # the demo server
    "probekit": frozenset({"apps", "engine", "clients"}),  # the host probe kit: a server writing catalog facts
    "web": frozenset({"apps", "engine", "probe", "clients", "observe", "report", "examples", *PIPELINES}),
    "testing": frozenset({"apps", "engine", "probe", "clients", "observe", "report", *PIPELINES}),  # pytest plugin
    "cli": frozenset(
        {"apps", "engine", "probe", "clients", "observe", "report", "examples", "probekit", "web", *PIPELINES}
    ),
    "__main__": frozenset({"cli"}),
}

SDK = frozenset({"mcp", "mcp_types", "pydantic", "pydantic_core"})
"""The `mcp` SDK and pydantic: slow to import, so kept out of the offline check."""

FORBIDDEN_THIRD_PARTY: dict[str, frozenset[str]] = {"engine": SDK, "report": SDK}
"""Third-party packages a layer must not import (the utilities and the root import none at all)."""

SDK_FREE_CLOSURE = frozenset({"engine"})
"""Layers whose modules, followed import by import through `hostcompat`, never reach the SDK."""

# ---------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Import:
    """One import statement (or one name of `import a, b`): the modules it loads, the most specific last."""

    line: int
    type_checking: bool
    modules: tuple[str, ...]


def module_name(relative: Path) -> str:
    """`engine/scan/widget.py` → `hostcompat.engine.scan.widget`; a package's `__init__.py` is the package."""
    parts = [PACKAGE, *relative.with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str:
    """The row of the table a `hostcompat` module belongs to."""
    parts = module.split(".")
    return ROOT if len(parts) == 1 else parts[1]


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(module: str, is_package: bool, source: str, known: frozenset[str]) -> Iterator[Import]:
    """Every import statement of `source` (at any depth), relative imports made absolute.

    `from package import name` loads the module `package.name` too when that is one of the `known` modules.
    """
    package = module if is_package else module.rpartition(".")[0]

    def visit(node: ast.AST, type_checking: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield Import(child.lineno, type_checking, (alias.name,))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    parts = package.split(".")
                    base = parts[: len(parts) - child.level + 1]
                    target = ".".join([*base, child.module] if child.module else base)
                else:
                    target = child.module or ""
                names = [f"{target}.{alias.name}" for alias in child.names if f"{target}.{alias.name}" in known]
                yield Import(child.lineno, type_checking, (target, *names))
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                yield from visit(ast.Module(body=child.body, type_ignores=[]), True)
                yield from visit(ast.Module(body=child.orelse, type_ignores=[]), type_checking)
            else:
                yield from visit(child, type_checking)

    yield from visit(ast.parse(source), False)


def layering_violations(relative: str, source: str, known: frozenset[str]) -> list[str]:
    """The import rules one file breaks, each as `file:line: what`; `known` are the names of the real modules."""
    path = Path(relative)
    module = module_name(path)
    layer = layer_of(module)
    shown = f"src/{PACKAGE}/{relative}"
    allowed = UTILITIES if layer in UTILITIES else LAYERS.get(layer)
    if allowed is None:
        return [f"{shown}:1: `{layer}` has no row in the layer table of tests/test_import_rules.py"]
    found = []
    for statement in imports_of(module, path.name == "__init__.py", source, known):
        first = statement.modules[0]
        top = first.split(".")[0]
        if top == PACKAGE:
            bad = [name for name in statement.modules if layer_of(name) not in {ROOT, layer, *UTILITIES, *allowed}]
            for name in bad:
                if not any(other.startswith(f"{name}.") for other in bad):
                    rule = f"may import only {', '.join(sorted(allowed))}" if allowed else "imports no other layer"
                    found.append(f"{shown}:{statement.line}: {layer} imports {name} ({layer} {rule})")
        elif layer in UTILITIES or layer == ROOT:
            if top not in sys.stdlib_module_names and top != "__future__":
                found.append(f"{shown}:{statement.line}: {layer} imports {first} (the standard library only)")
        elif top in FORBIDDEN_THIRD_PARTY.get(layer, frozenset()):
            found.append(f"{shown}:{statement.line}: {layer} imports {first} ({layer} never imports {top})")
    return found


def source_files() -> dict[str, str]:
    """Every module of the package: its path under `src/hostcompat` → its source."""
    root = SRC / PACKAGE
    return {path.relative_to(root).as_posix(): path.read_text(encoding="utf-8") for path in sorted(root.rglob("*.py"))}


def sdk_paths(files: dict[str, str]) -> list[str]:
    """For every module of an SDK-free layer that reaches the SDK: the chain of imports that gets there."""
    known = frozenset(module_name(Path(relative)) for relative in files)
    graph: dict[str, list[tuple[str, str]]] = {}
    for relative, source in files.items():
        module = module_name(Path(relative))
        edges = graph.setdefault(module, [])
        for statement in imports_of(module, relative.endswith("__init__.py"), source, known):
            if not statement.type_checking:
                edges.extend((name, f"src/{PACKAGE}/{relative}:{statement.line}") for name in statement.modules)
    found = []
    for start in sorted(graph):
        if layer_of(start) not in SDK_FREE_CLOSURE:
            continue
        seen = {start}
        queue: list[tuple[str, list[str]]] = [(start, [])]
        while queue:
            module, chain = queue.pop(0)
            for target, where in graph.get(module, []):
                steps = [*chain, f"{where} imports {target}"]
                if target.split(".")[0] in SDK:
                    found.append(f"{start} reaches the SDK: " + " → ".join(steps))
                    queue.clear()
                    break
                # running `hostcompat.a.b` runs `hostcompat.a` first: follow every package on the way
                parts = target.split(".")
                for end in range(2, len(parts) + 1):
                    step = ".".join(parts[:end])
                    if step in graph and step not in seen:
                        seen.add(step)
                        queue.append((step, steps))
    return found


def test_every_import_follows_the_layer_table() -> None:
    files = source_files()
    known = frozenset(module_name(Path(relative)) for relative in files)
    found = [line for relative, source in files.items() for line in layering_violations(relative, source, known)]
    found += sdk_paths(files)
    assert not found, "import rules broken:\n" + "\n".join(found)


def test_the_checker_catches_a_bad_import() -> None:
    known = frozenset({"hostcompat.probe", "hostcompat.probe.live", "hostcompat.apps", "hostcompat.apps.constants"})
    source = (
        "from typing import TYPE_CHECKING\n"
        "from hostcompat.apps.constants import META_UI_KEY\n"
        "if TYPE_CHECKING:\n"
        "    from hostcompat.probe.live import capture\n"
        "def load() -> None:\n"
        "    from ...probe import live\n"
        "    import mcp.types\n"
    )
    assert layering_violations("engine/scan/bad.py", source, known) == [
        "src/hostcompat/engine/scan/bad.py:4: engine imports hostcompat.probe.live (engine may import only apps)",
        "src/hostcompat/engine/scan/bad.py:6: engine imports hostcompat.probe.live (engine may import only apps)",
        "src/hostcompat/engine/scan/bad.py:7: engine imports mcp.types (engine never imports mcp)",
    ]
    assert layering_violations("gui/app.py", "", known) == [
        "src/hostcompat/gui/app.py:1: `gui` has no row in the layer table of tests/test_import_rules.py"
    ]
    files = {
        "engine/__init__.py": "",
        "engine/a.py": "def f():\n    from hostcompat.apps import server\n",
        "apps/__init__.py": "",
        "apps/server.py": "import mcp\n",
    }
    assert sdk_paths(files) == [
        "hostcompat.engine.a reaches the SDK: src/hostcompat/engine/a.py:2 imports hostcompat.apps.server"
        " → src/hostcompat/apps/server.py:1 imports mcp"
    ]
