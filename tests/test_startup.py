"""Start-up of `hostcompat check <snapshot>`: what it must not import, and the fast paths staying exact.

No timings here (they belong to `bench/bench_startup.py`): these tests pin the things that keep start-up short.
"""

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

import hostcompat
from hostcompat.cli import main
from hostcompat.engine.catalog.bundled import bundled_catalog
from hostcompat.engine.catalog.load import BUNDLED_SOURCE_NAME, load_catalog, parse_catalog_text, validate_catalog
from hostcompat.errors import CatalogError

BUNDLED = Path(hostcompat.__file__).parent / "data" / "hosts.json"


@pytest.fixture(scope="module")
def board_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("snap") / "board.json"
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["snapshot", "--demo", "-o", str(path)])
    assert code == 0, err.getvalue()
    return path


def imported_by_check(snapshot: Path, fmt: str) -> set[str]:
    code = (
        "import sys\nfrom hostcompat.cli import main\n"
        f"main(['check', {str(snapshot)!r}, '--format', {fmt!r}, '--fail-on', 'never'])\n"
        "print('\\n' + ' '.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.rstrip().rsplit("\n", 1)[-1].split())


def test_an_offline_json_check_loads_neither_the_full_catalog_validation_nor_other_renderers(
    board_snapshot: Path,
) -> None:
    modules = imported_by_check(board_snapshot, "json")
    unwanted = {
        "mcp",
        "pydantic",
        "rich",
        "hostcompat.engine.catalog.validate",
        "hostcompat.report.text",
        "hostcompat.report.markdown",
        "hostcompat.report.sarif",
        "shutil",
        "datetime",
        "importlib.resources",
    }
    assert modules & unwanted == set()


@pytest.mark.parametrize(
    ("fmt", "renderer"), [("text", "text"), ("markdown", "markdown"), ("sarif", "sarif"), ("html", "html")]
)
def test_each_format_loads_its_own_renderer_only(board_snapshot: Path, fmt: str, renderer: str) -> None:
    renderers = {name for name in imported_by_check(board_snapshot, fmt) if name.startswith("hostcompat.report.")}
    others = {"text", "markdown", "sarif", "html"} - {renderer}
    assert f"hostcompat.report.{renderer}" in renderers
    assert renderers.isdisjoint(f"hostcompat.report.{other}" for other in others)


# ---- the bundled catalog's structural build ----------------------------------------------------------------------


def full_validation(text: str) -> object:
    return validate_catalog(parse_catalog_text(text, source_name=BUNDLED_SOURCE_NAME), source_name=BUNDLED_SOURCE_NAME)


def test_the_bundled_catalog_passes_the_full_validation_and_builds_the_same_catalog() -> None:
    text = BUNDLED.read_text(encoding="utf-8")
    fast = bundled_catalog(text, source_name=BUNDLED_SOURCE_NAME)
    assert fast == full_validation(text)
    assert repr(fast) == repr(full_validation(text))
    assert fast.sources == (BUNDLED_SOURCE_NAME,)
    assert load_catalog() == fast


def damaged(change: str) -> str:
    data = json.loads(BUNDLED.read_text(encoding="utf-8"))
    host = data["hosts"][0]
    if change == "level":
        host["ui"]["formats"]["mcp-apps"]["value"] = "sometimes"
    elif change == "key":
        host["colour"] = "blue"
    elif change == "type":
        host["displayName"] = 7
    elif change == "date":  # only the full validation checks dates: the structural build accepts it
        host["vendor"]["date"] = "2025-02-30"
    elif change == "duplicate-id":
        data["hosts"][1]["id"] = host["id"]
    return json.dumps(data)


@pytest.mark.parametrize("change", ["level", "key", "type", "duplicate-id"])
def test_a_damaged_bundled_file_fails_with_the_full_validations_error(change: str) -> None:
    text = damaged(change)
    with pytest.raises(CatalogError) as full:
        full_validation(text)
    with pytest.raises(CatalogError) as fast:
        bundled_catalog(text, source_name=BUNDLED_SOURCE_NAME)
    assert fast.value.message == full.value.message


def test_content_rules_are_left_to_the_test_suite() -> None:
    text = damaged("date")
    with pytest.raises(CatalogError):
        full_validation(text)
    assert bundled_catalog(text, source_name=BUNDLED_SOURCE_NAME).get("mcpjam").id == "mcpjam"


def test_text_that_is_not_json_gets_the_full_validations_error() -> None:
    with pytest.raises(CatalogError, match="not JSON"):
        bundled_catalog("{", source_name=BUNDLED_SOURCE_NAME)


# ---- argparse without shutil ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("columns", ["", "60", "200", "junk"])
def test_help_is_as_wide_as_argparse_would_make_it(columns: str) -> None:
    code = (
        "import argparse, sys\nfrom hostcompat.cli import build_parser\n"
        "ours = build_parser().format_help()\n"
        "from hostcompat import cli\n"
        "cli.HelpFormatter = argparse.HelpFormatter\n"
        "theirs = cli.build_parser().format_help()\n"
        "print(ours == theirs)\n"
    )
    env = {**os.environ, "COLUMNS": columns}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.strip() == "True"
