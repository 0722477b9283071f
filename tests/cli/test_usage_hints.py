"""Usage errors that say what to type instead: a host config given as a snapshot, options after `--`."""

from __future__ import annotations

import json
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
