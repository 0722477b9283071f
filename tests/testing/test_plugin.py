"""The pytest plugin, as a server author uses it: `pytester` sessions of their own, checking the example server in
this process and over stdio, with a passing and a failing assertion each, and a baseline."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points

import pytest

from tests.cli._support import REPO

PLUGIN = "hostcompat.testing.plugin"
BOARD = [sys.executable, "-m", "hostcompat.examples.board"]


def plugin_args() -> list[str]:
    """`-p` the plugin unless the installed package registers it already (its `pytest11` entry point)."""
    registered = {entry.value for entry in entry_points(group="pytest11")}
    return [] if PLUGIN in registered else ["-p", PLUGIN]


def run_session(pytester: pytest.Pytester, source: str) -> pytest.RunResult:
    pytester.makepyfile(test_server=source)
    pytester.syspathinsert(str(REPO / "src"))
    return pytester.runpytest_subprocess(*plugin_args(), "-p", "no:cacheprovider", "-q", timeout=240)


IN_PROCESS = """
from hostcompat.examples.board import build_server

def test_works_on_claude(hostcompat_check):
    report = hostcompat_check(build_server(), hosts=["claude", "goose"])
    assert report.verdict("claude") == "works"
    report.assert_works("claude")

def test_works_everywhere(hostcompat_check):
    hostcompat_check(build_server(), hosts=["claude", "goose"]).assert_works()
"""


def test_in_process_a_passing_and_a_failing_assertion_naming_the_findings(pytester: pytest.Pytester) -> None:
    result = run_session(pytester, IN_PROCESS)
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "test_works_everywhere" in out and "CompatAssertionError: not working on every host asked" in out
    assert "Goose (goose): degraded" in out
    assert "APPS-CAP-001 [degraded]" in out and "tools: show_board" in out and "fix: Check" in out
    assert "Claude (claude)" not in out  # only the hosts that fail are explained


STDIO = f"""
import json, sys
import pytest

BOARD = {BOARD!r}

def test_verdict_over_stdio(hostcompat_check):
    report = hostcompat_check(BOARD, hosts=["goose"])
    assert report.verdict("goose") == "works"

def test_no_worse_than_itself(hostcompat_check, tmp_path):
    first = hostcompat_check(BOARD, hosts=["claude", "goose"])
    first.save(tmp_path / "baseline.json")
    hostcompat_check(BOARD, hosts=["claude", "goose"]).assert_no_worse_than(tmp_path / "baseline.json")

def test_worse_than_a_baseline_where_goose_worked(hostcompat_check, tmp_path):
    report = hostcompat_check(BOARD, hosts=["claude", "goose"])
    baseline = json.loads(json.dumps(report.document))
    for host in baseline["servers"][0]["hosts"]:
        host["verdict"], host["findings"] = "works", []
    baseline["servers"][0]["target"]["display"] = "python my_server.py on another machine"
    report.assert_no_worse_than(baseline)

@pytest.mark.anyio
async def test_async_tests_use_acheck(hostcompat_check):
    report = await hostcompat_check.acheck(BOARD, hosts=["claude"])
    assert report.verdict("claude") == "works" and report.error is None
"""


def test_over_stdio_verdicts_and_baselines(pytester: pytest.Pytester) -> None:
    result = run_session(pytester, STDIO)
    result.assert_outcomes(passed=2, failed=2)
    out = result.stdout.str()
    assert "AssertionError: assert 'degraded' == 'works'" in out  # pytest's own rewriting of a plain assert
    assert "FAILED test_server.py::test_verdict_over_stdio" in out
    assert "FAILED test_server.py::test_worse_than_a_baseline_where_goose_worked" in out
    assert "CompatAssertionError: worse than the baseline:" in out
    assert "hostcompat.examples.board · goose: works → degraded" in out  # the baseline's other name is this server
    assert "goose: new finding APPS-CAP-001" in out


def test_the_plugin_module_imports_neither_the_sdk_nor_the_check() -> None:
    heavy = ("mcp", "pydantic", "hostcompat.pipeline")
    code = f"import sys, {PLUGIN}\nprint(sorted(m for m in {heavy!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
