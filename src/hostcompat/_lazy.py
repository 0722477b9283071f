"""Lazy package faces (PEP 562): a package names its public objects once, and each is imported on first use.

Every package face (`hostcompat.apps`, `.engine`, `.clients`, …) uses this one helper, so importing a part of a
package never pays for the rest of it (the offline check never imports the `mcp` SDK, for one).

Usage, in a package's ``__init__``::

    if TYPE_CHECKING:
        from hostcompat.engine.catalog.load import load_catalog as load_catalog

    __getattr__, __dir__ = lazy_exports(__name__, {"hostcompat.engine.catalog.load": ["load_catalog"]})
    __all__ = ["load_catalog"]

A name exported under another name than its module's is written ``"public=attribute"``. The test of the public API
checks that the ``TYPE_CHECKING`` imports, this table and ``__all__`` agree.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence

__all__ = ["LazyTable", "lazy_exports", "lazy_table"]

LazyTable = dict[str, tuple[str, str]]
"""Public name → (module, attribute in that module)."""


def lazy_table(exports: Mapping[str, Sequence[str]]) -> LazyTable:
    """Flatten ``{module: ["name", "public=attribute", …]}`` into public name → (module, attribute)."""
    table: LazyTable = {}
    for module, names in exports.items():
        for entry in names:
            public, _, attribute = entry.partition("=")
            if public in table:
                raise ValueError(f"{public!r} is exported twice (from {table[public][0]} and {module})")
            table[public] = (module, attribute or public)
    return table


def lazy_exports(
    package: str, exports: Mapping[str, Sequence[str]]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """Return the ``__getattr__`` and ``__dir__`` of a package face that imports each public name on first use.

    The value is cached in the package's namespace, so the second access is a plain attribute read.
    """
    table = lazy_table(exports)

    def __getattr__(name: str) -> object:
        try:
            module, attribute = table[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(module), attribute)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *table})

    __getattr__.lazy_table = table  # type: ignore[attr-defined]
    return __getattr__, __dir__
