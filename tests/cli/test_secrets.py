"""No secret of a server's command line, URL or environment reaches a report (text, JSON, Markdown, SARIF), a
snapshot file or the terminal, even when the server echoes it. A real server process each time."""

from __future__ import annotations

import io
import json
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from hostcompat.cli import main
from hostcompat.redaction import REDACTED
from hostcompat.report import REPORT_FORMATS, ReportDocument, ReportFormat, render_report
from tests.probe._support import REPO

SERVICE_TOKEN = "svc-7f3a9c2e41b8d6055e"
API_KEY = "key-0a1b2c3d4e5f6a7b8c"
BEARER = "bearer-93e1c4f7a2"
PASSWORD = "pw-5d8e2f1a9b"
QUERY_TOKEN = "qt-6c2a7e9d1f"
FRAGMENT_TOKEN = "ft-4b7d2e8a3c"
PAT = "ghp_1a2b3c4d5e6f"
SECRETS = (SERVICE_TOKEN, API_KEY, BEARER, PASSWORD, QUERY_TOKEN, FRAGMENT_TOKEN, PAT)
ARGS = [
    "--api-key",
    API_KEY,
    "-H",
    f"Authorization: Bearer {BEARER}",
    "--header=Authorization: Bearer " + BEARER,
    "--verbose",
    f"postgresql://app:{PASSWORD}@db:5432/app",
    f"--url=https://h/mcp?token={QUERY_TOKEN}",
    f"https://h/callback#access_token={FRAGMENT_TOKEN}",
    "--pat",
    PAT,
]
COMMAND = [sys.executable, "-m", "tests.probe.servers.leaky"]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def assert_no_secret(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text


@pytest.fixture(scope="module")
def document() -> ReportDocument:
    code, out, err = run(
        "check",
        "--env",
        f"SERVICE_TOKEN={SERVICE_TOKEN}",
        "--cwd",
        str(REPO),
        "--timeout",
        "20",
        "--format",
        "json",
        "--fail-on",
        "never",
        "--",
        *COMMAND,
        "crash",
        *ARGS,
    )
    assert code == 1, err  # it crashes during tools/list: not checked, whatever --fail-on says
    assert_no_secret(out + err)
    parsed: ReportDocument = json.loads(out)
    return parsed


@pytest.mark.parametrize("fmt", REPORT_FORMATS)
def test_no_report_format_holds_a_secret_of_the_arguments_or_the_environment(
    document: ReportDocument, fmt: ReportFormat
) -> None:
    text = render_report(document, fmt)
    assert_no_secret(text)
    assert "--verbose" in text or fmt == "sarif"  # plain arguments stay readable (SARIF names no command line)


def test_the_report_target_and_events_are_redacted_and_readable(document: ReportDocument) -> None:
    (server,) = document["servers"]
    target = server["target"]
    args = target["args"]  # as the probe recorded it
    assert isinstance(args, list)
    assert args[3:] == [
        "--api-key",
        REDACTED,
        "-H",
        f"Authorization: {REDACTED}",
        f"--header=Authorization: {REDACTED}",
        "--verbose",
        f"postgresql://{REDACTED}@db:5432/app",
        f"--url=https://h/mcp?token={REDACTED}",
        f"https://h/callback#access_token={REDACTED}",
        "--pat",
        REDACTED,
    ]
    assert target["display"].endswith(" ".join(args))
    exited = next(event for event in server["events"] if event["code"] == "PROBE-SERVER-EXITED")
    assert f"refused token={REDACTED}" in exited["message"]


def test_a_snapshot_file_and_the_events_printed_hold_no_secret(tmp_path: Path) -> None:
    path = tmp_path / "leaky.json"
    code, out, err = run(
        "snapshot",
        "--env",
        f"SERVICE_TOKEN={SERVICE_TOKEN}",
        "--cwd",
        str(REPO),
        "--timeout",
        "20",
        "-o",
        str(path),
        "--",
        *COMMAND,
        "error",
        *ARGS,
    )
    assert code == 0, err
    assert "PROBE-ERROR-RESPONSE" in err and f"refused key {REDACTED}" in err
    assert_no_secret(out + err + path.read_text(encoding="utf-8"))


def test_a_snapshot_written_before_these_rules_is_redacted_when_checked(tmp_path: Path) -> None:
    """A snapshot from an older version (or edited by hand) still holds secrets: the report does not."""
    code, _, err = run("snapshot", "--demo", "-o", str(tmp_path / "demo.json"))
    assert code == 0, err
    data = json.loads((tmp_path / "demo.json").read_text(encoding="utf-8"))
    data["target"]["args"] = [*data["target"]["args"], *ARGS]
    data["events"].append(
        {
            "code": "PROBE-CONNECTION-CLOSED",
            "severity": "error",
            "step": "shutdown",
            "message": f"the transport failed: 401 for url 'https://u:{PASSWORD}@h/mcp?token={QUERY_TOKEN}'",
            "detail": {},
        }
    )
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    for fmt in REPORT_FORMATS:
        code, out, err = run("check", str(old), "--format", fmt, "--fail-on", "never")
        assert code == 0, err
        assert_no_secret(out + err)
        assert "--verbose" in out or fmt != "json"  # the other formats name the snapshot file


def test_a_config_file_server_is_reported_without_its_env_and_argument_secrets(tmp_path: Path) -> None:
    config = tmp_path / ".mcp.json"
    server = {"command": COMMAND[0], "args": [*COMMAND[1:], "error", *ARGS], "env": {"SERVICE_TOKEN": SERVICE_TOKEN}}
    config.write_text(json.dumps({"mcpServers": {"leaky": {**server, "cwd": str(REPO)}}}), encoding="utf-8")
    code, out, err = run("check", "--config", str(config), "--format", "markdown", "--fail-on", "never")
    assert code == 1, err  # tools/list answers with an error: not checked, whatever --fail-on says
    assert_no_secret(out + err)
    assert "refused key \\<redacted\\> \\(token \\<redacted\\>\\)" in out  # Markdown-escaped
