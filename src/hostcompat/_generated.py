"""What the package's generated modules (ready-compiled dataclass methods and regular expressions) share: whether
loading one is cheaper than doing its work again.
"""

from __future__ import annotations

import importlib.util
import os
import sys

__all__ = ["loads_from_byte_code"]


def loads_from_byte_code(name: str) -> bool:
    """Whether the module `name` loads from byte code, now or from its next import on. When Python may not write
    byte code (`PYTHONDONTWRITEBYTECODE`) and none was written at install, every import would compile the whole
    generated module, which costs more than the work it saves: then that work is done as usual.
    """
    if not sys.dont_write_bytecode:
        return True
    spec = importlib.util.find_spec(name)
    cached = None if spec is None else spec.cached
    return cached is not None and os.path.isfile(cached)
