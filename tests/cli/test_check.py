"""`hostcompat check`, `snapshot`, `hosts` and `scan` end to end, on the built-in example server (a real process)."""

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from hostcompat.cli import main
from hostcompat.engine.catalog.load import load_catalog

BOARD = [sys.executable, "-m", "hostcompat.examples.board"]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def board_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("snap") / "board.json"
    code, _, err = run("snapshot", "--demo", "-o", str(path))
    assert code == 0, err
    assert "4 tools" in err
    return path


def test_check_of_the_demo_reports_every_catalog_host(board_snapshot: Path) -> None:
    code, out, _ = run("check", str(board_snapshot), "--format", "json", "--fail-on", "never")
    assert code == 0
    (server,) = json.loads(out)["servers"]
    verdicts = {host["hostId"]: host["verdict"] for host in server["hosts"]}
    assert len(verdicts) == len(load_catalog().hosts)
    assert verdicts["claude"] == "works" and verdicts["chatgpt"] == "works"
    assert verdicts["claude-code"] == "degraded"  # no widgets there: the board falls back to text
    assert server["server"]["name"] == "task-board"
    rules = {f["ruleId"] for f in next(h for h in server["hosts"] if h["hostId"] == "claude-code")["findings"]}
    assert "APPS-RENDER-002" in rules


def test_fail_on_sets_the_exit_code(board_snapshot: Path) -> None:
    assert run("check", str(board_snapshot), "--host", "claude", "--fail-on", "degraded")[0] == 0
    assert run("check", str(board_snapshot), "--host", "claude-code", "--fail-on", "degraded")[0] == 1
    assert run("check", str(board_snapshot), "--host", "claude-code", "--fail-on", "blocked")[0] == 0


def test_an_offline_check_never_imports_the_sdk(board_snapshot: Path) -> None:
    code = (
        "import sys\nfrom hostcompat.cli import main\n"
        f"main(['check', {str(board_snapshot)!r}, '--format', 'json', '--fail-on', 'never'])\n"
        "print('SDK' if 'mcp' in sys.modules else 'NO-SDK')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.rstrip().endswith("NO-SDK")


def test_a_live_check_of_a_command_after_the_double_dash() -> None:
    code, out, _ = run("check", "--host", "claude", "--format", "markdown", "--", *BOARD)
    assert code == 0
    assert "| Claude | ✅ works |" in out


def test_every_server_of_a_host_config_file_is_checked(tmp_path: Path) -> None:
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"board": {"command": BOARD[0], "args": BOARD[1:]}}}), "utf-8")
    code, out, _ = run("check", "--config", str(config), "--host", "claude-code", "--format", "sarif")
    assert code == 0
    results = json.loads(out)["runs"][0]["results"]
    assert results and {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {
        str(config)
    }


def test_an_unreachable_server_fails_the_run_and_says_why() -> None:
    code, out, _ = run("check", "--format", "json", "--timeout", "20", "--", sys.executable, "-c", "pass")
    assert code == 1
    (server,) = json.loads(out)["servers"]
    assert server["server"] is None
    assert server["events"], "the report must say what happened"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--demo", "--host", "no-such-host"], "no-such-host"),
        (["check"], "nothing to check"),
        (["check", "--config", "/nonexistent/mcp.json"], "cannot read it"),
        (["check", "missing.json"], "missing.json"),
        (["snapshot", "--demo"], "snapshot needs -o FILE"),
        (["snapshot", "--", "node", "server.js", "-o", "out.json"], "put -o FILE before `--`"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(argv: list[str], message: str) -> None:
    code, _, err = run(*argv)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_hosts_lists_the_catalog_with_its_sources() -> None:
    code, out, _ = run("hosts")
    assert code == 0
    assert f"{len(load_catalog().hosts)} hosts" in out
    code, out, _ = run("hosts", "claude", "--format", "json")
    (claude,) = json.loads(out)["hosts"]
    assert claude["id"] == "claude"


def test_scan_prints_the_needs_with_evidence() -> None:
    widget = Path(__file__).resolve().parents[2] / "src/hostcompat/examples/board.html"
    code, out, _ = run("scan", str(widget))
    assert code == 0
    assert "2 needs: serverTools, openLinks" in out
    assert "line " in out


def test_host_context_judges_claude_desktop_on_windows_and_names_it_by_default(board_snapshot: Path) -> None:
    code, out, _ = run("check", str(board_snapshot), "--host", "claude", "--format", "json")
    (host,) = json.loads(out)["servers"][0]["hosts"]
    assert code == 0 and host["verdict"] == "works"
    assert any(f["ruleId"] == "APPS-CONTEXT-001" and "os=windows" in f["detail"] for f in host["findings"])
    code, out, _ = run("check", str(board_snapshot), "--host", "claude", "--host-context", "claude:os=windows")
    assert "degraded" in out and "APPS-RENDER-002" in out
    code, _, err = run("check", str(board_snapshot), "--host-context", "os=beos")
    assert code == 2 and "os 'beos' is not one of" in err
