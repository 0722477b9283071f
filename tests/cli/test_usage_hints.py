"""Usage errors that say what to type instead: a host config given as a snapshot, options after `--`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.cli._support import run


def test_a_host_config_given_as_a_snapshot_suggests_config(tmp_path: Path) -> None:
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"x": {"command": "python", "args": ["s.py"]}}}), "utf-8")
    code, out, err = run("check", str(config))
    assert code == 2
    assert out == ""
    assert f"--config {config}" in err
    assert "host config" in err


def test_a_file_that_is_neither_keeps_the_snapshot_error(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("[1]", "utf-8")
    code, _, err = run("check", str(path))
    assert code == 2
    assert "--config" not in err


HTTP_ONLY = (
    "import sys, time\n"
    "print('Server listening on http://127.0.0.1:3001/mcp', flush=True)\n"
    "print('ready; token abc', file=sys.stderr, flush=True)\n"
    "time.sleep(60)\n"
)


def test_an_http_only_server_run_over_stdio_shows_what_it_printed_and_the_url_to_use() -> None:
    code, out, err = run(
        "check", "--timeout", "3", "--host", "claude", "--format", "json", "--", sys.executable, "-c", HTTP_ONLY
    )
    assert code == 1, err
    (server,) = json.loads(out)["servers"]
    error = server["error"]
    assert error.startswith("could not connect: the probe ran out of its 3 s")
    assert "on stdout it printed 'Server listening on http://127.0.0.1:3001/mcp' (not JSON-RPC)" in error
    assert "stderr ends with: ready; token abc" in error
    assert "check its URL (http://127.0.0.1:3001/mcp) instead of running it as a command" in error


def test_a_silent_server_that_logs_its_url_on_stderr_gets_the_hint_too() -> None:
    script = (
        "import sys, time\n"
        "print('MCP HTTP server on https://localhost:8443/mcp.', file=sys.stderr, flush=True)\n"
        "time.sleep(60)\n"
    )
    code, out, _ = run(
        "check", "--timeout", "3", "--host", "claude", "--format", "json", "--", sys.executable, "-c", script
    )
    (server,) = json.loads(out)["servers"]
    assert code == 1 and "on stdout" not in server["error"]
    assert "check its URL (https://localhost:8443/mcp) instead" in server["error"]
