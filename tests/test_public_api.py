"""Every package declares its public API in a sorted `__all__` whose names all resolve."""

import ast
import importlib
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGES = [
    "hostcompat",
    "hostcompat.apps",
    "hostcompat.apps.bridge",
    "hostcompat.cli",
    "hostcompat.clients",
    "hostcompat.clients.proxy",
    "hostcompat.clients.proxy.era",
    "hostcompat.engine",
    "hostcompat.errors",
    "hostcompat.observe",
    "hostcompat.probe",
    "hostcompat.probekit",
    "hostcompat.report",
    "hostcompat.testing",
]


@pytest.mark.parametrize("name", PACKAGES)
def test_all_is_sorted_unique_and_resolves(name: str) -> None:
    module = importlib.import_module(name)
    exported = list(module.__all__)
    assert exported == sorted(exported)
    assert len(set(exported)) == len(exported)
    for public in exported:
        assert getattr(module, public) is not None, public
        assert not public.startswith("_") or public == "__version__"


def test_unknown_attributes_raise_attribute_error() -> None:
    apps = importlib.import_module("hostcompat.apps")
    with pytest.raises(AttributeError):
        apps.NoSuchThing  # noqa: B018 - the attribute access is the test


def test_the_pure_layers_import_neither_the_sdk_nor_pydantic() -> None:
    code = (
        "import sys, hostcompat.apps, hostcompat.apps.bridge\n"
        "print(sorted(m for m in ('mcp', 'mcp_types', 'pydantic') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_server_helpers_load_on_first_use() -> None:
    code = (
        "import sys, hostcompat.apps as a\n"
        "before = 'mcp' in sys.modules\n"
        "a.CompatApps\n"
        "print(before, 'mcp' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def test_the_bridge_face_names_what_view_and_host_authors_use_and_its_modules_keep_the_rest() -> None:
    bridge = importlib.import_module("hostcompat.apps.bridge")
    methods = importlib.import_module("hostcompat.apps.bridge.methods")
    codes = importlib.import_module("hostcompat.apps.bridge.codes")
    assert {"parse_message", "serialize", "error_reply", "BridgeRequest", "OpenLinkParams"} <= set(bridge.__all__)
    assert "InvalidBridgeMessage" in bridge.__all__
    assert not hasattr(bridge, "UI_OPEN_LINK") and methods.UI_OPEN_LINK == "ui/open-link"
    assert not hasattr(bridge, "BRIDGE_BAD_FIELD") and codes.BRIDGE_BAD_FIELD == "BRIDGE-BAD-FIELD"


def test_importing_the_command_line_face_loads_no_command() -> None:
    code = "import sys, hostcompat.cli\nprint(sorted(m for m in sys.modules if m.startswith('hostcompat.cli.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


UNTYPED_JSON = re.compile(r"\b(?:dict|Mapping)\[str, *Any\]")
"""Raw JSON in a public signature is named with `hostcompat.wire_json`; anything else is typed."""


def public_annotations(tree: ast.Module) -> Iterator[tuple[str, ast.expr]]:
    """(owner, annotation) of every public function, method and class field of a module (nested ones aside)."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            yield from signature(node.name, node)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for member in node.body:
                if isinstance(member, ast.AnnAssign):
                    yield node.name, member.annotation
                elif isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                    not member.name.startswith("_") or member.name == "__init__"
                ):
                    yield from signature(f"{node.name}.{member.name}", member)


def signature(owner: str, function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[str, ast.expr]]:
    arguments = function.args
    for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg):
        if argument is not None and argument.annotation is not None:
            yield owner, argument.annotation
    if function.returns is not None:
        yield owner, function.returns


@pytest.mark.parametrize("package", ["apps", "clients", "observe"])
def test_public_signatures_name_raw_json_or_type_it(package: str) -> None:
    root = Path(importlib.import_module("hostcompat").__file__ or "").parent / package
    found = [
        f"{path.relative_to(root.parent)}: {owner}: {ast.unparse(annotation)}"
        for path in sorted(root.rglob("*.py"))
        if not path.name.startswith("_") or path.name == "__init__.py"
        for owner, annotation in public_annotations(ast.parse(path.read_text("utf-8")))
        if UNTYPED_JSON.search(ast.unparse(annotation))
    ]
    assert found == []
