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


def imported_by_check(snapshot: Path, fmt: str, *, without: tuple[str, ...] = ()) -> set[str]:
    """The modules a check of `snapshot` imports, with the packages `without` unavailable to it."""
    code = (
        f"import sys\nsys.modules.update(dict.fromkeys({without!r}))\nfrom hostcompat.cli import main\n"
        f"main(['check', {str(snapshot)!r}, '--format', {fmt!r}, '--fail-on', 'never'])\n"
        "print('\\n' + ' '.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.rstrip().rsplit("\n", 1)[-1].split())


def test_an_offline_json_check_loads_neither_jsonschema_nor_other_renderers(
    board_snapshot: Path,
) -> None:
    """hostcompat's own modules, that is: orjson (the `fast` extra, which reads the snapshot) imports `datetime`."""
    modules = imported_by_check(board_snapshot, "json", without=("orjson",))
    unwanted = {
        "mcp",
        "pydantic",
        "rich",
        "jsonschema",
        "hostcompat.report.text",
        "hostcompat.report.markdown",
        "hostcompat.report.sarif",
        "shutil",
        "datetime",
        "importlib.resources",
    }
    assert modules & unwanted == set()


def test_a_live_stdio_check_loads_neither_the_sdk_nor_pydantic() -> None:
    """The probe's own stdio session checks results with the SDK's stored validators (`probe._sdk_schemas`)."""
    server = [sys.executable, "-m", "hostcompat.examples.board"]
    code = (
        "import sys\nfrom hostcompat.cli import main\n"
        f"code = main(['check', '--format', 'json', '--fail-on', 'never', '--', *{server!r}])\n"
        "print('\\n' + str(code) + ' ' + ' '.join(sorted(sys.modules)))\n"
    )
    environment = {key: value for key, value in os.environ.items() if key != "HOSTCOMPAT_STDIO_CLIENT"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=environment)
    report, last = run.stdout.rstrip().rsplit("\n", 1)
    code_and_modules = last.split()
    assert code_and_modules[0] == "0"
    assert set(code_and_modules[1:]) & {"mcp", "mcp_types", "pydantic", "httpx2"} == set()
    (server,) = json.loads(report)["servers"]
    assert server["error"] is None and server["server"]["protocolVersion"] == "2026-07-28"  # the board is modern


@pytest.mark.parametrize(
    ("fmt", "renderer"), [("text", "text"), ("markdown", "markdown"), ("sarif", "sarif"), ("html", "html")]
)
def test_each_format_loads_its_own_renderer_only(board_snapshot: Path, fmt: str, renderer: str) -> None:
    renderers = {name for name in imported_by_check(board_snapshot, fmt) if name.startswith("hostcompat.report.")}
    others = {"text", "markdown", "sarif", "html"} - {renderer}
    assert f"hostcompat.report.{renderer}" in renderers
    assert renderers.isdisjoint(f"hostcompat.report.{other}" for other in others)


# ---- the bundled catalog goes through the one validator -----------------------------------------------------------


def full_validation(text: str) -> object:
    return validate_catalog(parse_catalog_text(text, source_name=BUNDLED_SOURCE_NAME), source_name=BUNDLED_SOURCE_NAME)


def test_the_bundled_catalog_is_the_validators_catalog() -> None:
    text = BUNDLED.read_text(encoding="utf-8")
    loaded = load_catalog()
    assert loaded == full_validation(text)
    assert repr(loaded) == repr(full_validation(text))
    assert loaded.sources == (BUNDLED_SOURCE_NAME,)


def damaged(change: str) -> str:
    data = json.loads(BUNDLED.read_text(encoding="utf-8"))
    host = data["hosts"][0]
    if change == "level":
        host["ui"]["formats"]["mcp-apps"]["value"] = "sometimes"
    elif change == "key":
        host["colour"] = "blue"
    elif change == "type":
        host["displayName"] = 7
    elif change == "date":
        host["vendor"]["date"] = "2025-02-30"
    elif change == "duplicate-id":
        data["hosts"][1]["id"] = host["id"]
    elif change == "null-note":
        host["vendor"]["note"] = None
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("level", "ui.formats.mcp-apps: value 'sometimes' is not one of"),
        ("key", "unknown key 'colour'"),
        ("type", "displayName must be a string, not int"),
        ("date", "vendor: date '2025-02-30' is not a calendar date (day is out of range for month)"),
        ("duplicate-id", "duplicate host id 'mcpjam'"),
        ("null-note", "vendor: note must be a string, not NoneType"),
    ],
)
def test_a_damaged_bundled_file_fails_naming_the_host_and_field(change: str, message: str) -> None:
    with pytest.raises(CatalogError) as caught:
        full_validation(damaged(change))
    assert caught.value.message.startswith(BUNDLED_SOURCE_NAME)
    assert message in caught.value.message


def test_text_that_is_not_json_names_the_line() -> None:
    with pytest.raises(CatalogError, match=r"not JSON: .* at line 1, column 2"):
        full_validation("{")


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


# ---- `python -m hostcompat` leaves without the interpreter's teardown (`cli.run`), losing nothing ------------------


def test_the_module_entry_point_writes_the_whole_report_and_keeps_the_exit_code(
    board_snapshot: Path, tmp_path: Path
) -> None:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        in_process = main(["check", str(board_snapshot), "--format", "json", "--fail-on", "never"])
    command = [sys.executable, "-m", "hostcompat", "check", str(board_snapshot), "--format", "json"]
    piped = subprocess.run([*command, "--fail-on", "never"], capture_output=True, text=True)
    assert (piped.returncode, piped.stdout) == (in_process, out.getvalue())
    written = tmp_path / "report.json"
    to_file = subprocess.run([*command, "--fail-on", "never", "-o", str(written)], capture_output=True, text=True)
    assert to_file.returncode == 0
    assert written.read_text(encoding="utf-8") == out.getvalue()
    usage = subprocess.run([*command, "--host", "no-such-host"], capture_output=True, text=True)
    assert usage.returncode == 2
    assert "no-such-host" in usage.stderr
