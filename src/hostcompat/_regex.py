"""`regex`: `re.compile` for the package's own patterns, their compiled form taken from a generated table.

Compiling a regular expression parses it and writes its program in Python, on every start: the 195 patterns an
offline `check` compiles cost about 9 ms of it (issue 18). `scripts/gen_regex_codes.py` records every pattern the
package's modules compile at import, with the program `re` makes of it, in a generated module per Python version
(`hostcompat._regex_codes.py311`), which Python caches as byte code. `regex` hands a recorded program to the regex
engine directly, which makes the very pattern object `re.compile` would (same program, flags and groups). A pattern
not recorded, or a Python whose regex engine differs from the one that wrote the table, is compiled by `re` as usual.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Mapping
from typing import Any, Final

from hostcompat._generated import loads_from_byte_code

__all__ = ["Program", "regex", "table_module_name"]

Program = tuple[int, tuple[int, ...], int, dict[str, int], tuple[str | None, ...]]
"""What the regex engine makes a pattern from: its flags (with those the pattern sets inline), its program, the
number of groups, and the group names both ways."""

_ENGINE: Final[Any] = importlib.import_module("_sre")  # no type stubs: the engine behind `re`
_TABLE: list[Mapping[tuple[str, int], Program]] = []


def table_module_name() -> str:
    """The generated module of this Python's compiled patterns (`hostcompat._regex_codes.py311`)."""
    return f"hostcompat._regex_codes.py{sys.version_info[0]}{sys.version_info[1]}"


def _programs() -> Mapping[tuple[str, int], Program]:
    """(pattern, flags) → its program, when the table was written by this regex engine; else empty."""
    if not _TABLE:
        name = table_module_name()
        try:
            module = importlib.import_module(name) if loads_from_byte_code(name) else None
        except ImportError:
            module = None
        same_engine = module is not None and (module.MAGIC, module.CODESIZE) == (_ENGINE.MAGIC, _ENGINE.CODESIZE)
        _TABLE.append(module.PROGRAMS if same_engine and module is not None else {})
    return _TABLE[0]


def regex(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, without compiling when the pattern's program is in the generated table."""
    program = _programs().get((pattern, int(flags)))
    if program is None:
        return re.compile(pattern, flags)
    all_flags, code, groups, index, names = program
    compiled: re.Pattern[str] = _ENGINE.compile(pattern, all_flags, list(code), groups, index, names)
    return compiled
