"""`hostcompat._regex.regex` makes the very patterns `re.compile` makes, from the generated table where it can."""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hostcompat import _regex
from hostcompat._generated import loads_from_byte_code

GENERATED = Path(_regex.__file__).parent / "_regex_codes" / f"py{sys.version_info[0]}{sys.version_info[1]}.py"
needs_table = pytest.mark.skipif(not GENERATED.is_file(), reason=f"no generated patterns for Python {sys.version}")


def table() -> ModuleType:
    return importlib.import_module(_regex.table_module_name())


@pytest.fixture(autouse=True)
def fresh_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table read again for each test, whether or not this run may write byte code."""
    monkeypatch.setattr(_regex, "_TABLE", [])
    monkeypatch.setattr(_regex, "loads_from_byte_code", lambda name: True)


@needs_table
def test_every_recorded_pattern_is_the_pattern_re_compile_makes() -> None:
    programs = table().PROGRAMS
    assert len(programs) > 100  # the package's patterns are there: a failed recording would leave a few
    for pattern, flags in programs:
        ours, theirs = _regex.regex(pattern, flags), re.compile(pattern, flags)
        assert ours is not theirs  # not from re's cache: made from the table
        assert ours == theirs  # same pattern text, flags and program
        assert (ours.groups, ours.groupindex, ours.flags) == (theirs.groups, theirs.groupindex, theirs.flags)


@needs_table
def test_the_package_patterns_match_as_before() -> None:
    from hostcompat.engine.catalog.schema import HOST_ID, HOST_VERSION
    from hostcompat.engine.scan.js.urls import _CONFIG_KEY, _PLAIN_URL_KEY  # a group; a flag

    assert HOST_ID.fullmatch("claude-desktop") and not HOST_ID.fullmatch("Claude")
    assert HOST_VERSION.fullmatch("0.150.0-alpha.8")
    assert _PLAIN_URL_KEY.match("URL") and not _PLAIN_URL_KEY.match("URLs")
    found = _CONFIG_KEY.search('{"apiUrl": ')
    assert found is not None and found.group(1) == "apiUrl"
    assert _CONFIG_KEY.pattern in {pattern for pattern, _ in table().PROGRAMS}


def test_a_pattern_not_in_the_table_is_compiled_by_re() -> None:
    pattern = r"(?P<unrecorded>z{3,})\Z"
    made = _regex.regex(pattern)
    assert made is re.compile(pattern)  # re's own cached object: compiled as usual
    assert made.groupindex == {"unrecorded": 1}


@needs_table
def test_a_table_written_by_another_regex_engine_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table(), "MAGIC", table().MAGIC + 1)
    pattern, flags = next(iter(table().PROGRAMS))
    assert _regex.regex(pattern, flags) is re.compile(pattern, flags)


@needs_table
def test_without_byte_code_to_load_it_the_table_is_not_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    byte_code = tmp_path / "py.cpython.pyc"
    real_find_spec = importlib.util.find_spec

    def find_spec(name: str) -> Any:
        spec = real_find_spec(name)
        assert spec is not None
        spec.cached = str(byte_code)
        return spec

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setattr(_regex, "loads_from_byte_code", loads_from_byte_code)
    assert _regex._programs() == {}
    byte_code.write_bytes(b"")
    monkeypatch.setattr(_regex, "_TABLE", [])
    assert _regex._programs() is table().PROGRAMS


def test_a_python_with_no_table_compiles_as_usual(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_regex, "table_module_name", lambda: "hostcompat._regex_codes.py0")
    assert _regex._programs() == {}
    assert _regex.regex(r"\A[a-z]+\Z") is re.compile(r"\A[a-z]+\Z")
