"""`check_server` on each kind of server it takes, and `CompatReport`'s answers and errors."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from fastmcp import FastMCP

from hostcompat.errors import CatalogError, HostCompatError, InvalidInput
from hostcompat.examples.board import build_server
from hostcompat.testing import CompatAssertionError, CompatReport, check_server
from tests.cli._support import run


def test_an_sdk_server_object_in_process() -> None:
    report = check_server(build_server(), hosts=["claude", "goose"])
    assert report.error is None and report.host_ids == ["claude", "goose"]
    assert report.server["target"]["display"] == "in-process: task-board"
    assert report.verdict("Claude") == "works"  # a label works as well as an id
    assert [finding["ruleId"] for finding in report.findings("goose")] == ["APPS-CAP-001"]
    report.assert_verdict("goose", "degraded")
    with pytest.raises(CompatAssertionError, match=r"expected works or better on goose, got:\nGoose \(goose\)"):
        report.assert_verdict("goose")
    with pytest.raises(CompatAssertionError, match="host 'cursor' was not judged; the report has claude, goose"):
        report.verdict("cursor")


def test_a_fastmcp_server_object_in_process() -> None:
    server: FastMCP[Any] = FastMCP("plain-fast")

    @server.tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    report = check_server(server, hosts=["claude", "codex"])
    assert report.error is None and report.server["server"] is not None
    assert report.server["server"]["name"] == "plain-fast"
    assert report.server["requirements"] is not None
    report.assert_works()


def test_a_snapshot_file_and_a_name(tmp_path: Path) -> None:
    path = tmp_path / "board.json"
    code, _, err = run("snapshot", "--demo", "-o", str(path))
    assert code == 0, err
    report = check_server(path, hosts=["goose"], name="my board")
    assert report.server["target"]["display"] == "my board" and report.verdict("goose") == "degraded"
    assert check_server(str(path), hosts=["goose"]).server["target"]["display"] == str(path)


def test_a_server_that_cannot_be_checked_says_why_in_every_answer() -> None:
    report = check_server([sys.executable, "-c", "import sys; sys.exit(3)"], timeout=10)
    assert report.error is not None
    with pytest.raises(CompatAssertionError, match="the server could not be checked: "):
        report.verdict("claude")
    assert "not checked" in repr(report)


def test_bad_arguments_are_errors_before_any_probe() -> None:
    with pytest.raises(InvalidInput, match="MCPServer or Server, or FastMCP"):
        check_server(object())
    with pytest.raises(CatalogError):
        check_server(build_server(), hosts=["no-such-host"])
    with pytest.raises(InvalidInput, match="timeout"):
        check_server(build_server(), timeout=0)
    with pytest.raises(HostCompatError):
        CompatReport({"schema": "hostcompat.report/1", "servers": []})  # type: ignore[typeddict-item]
