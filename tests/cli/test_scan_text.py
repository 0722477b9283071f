"""`hostcompat scan` prints text a person reads (no Python dict, no JSON), wrapped to the terminal; JSON with
`--format json`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli._support import run

WIDGET = (
    '<html><head><script src="https://cdn.example.com/app.js"></script></head><body><script>\n'
    'window.openai.callTool("x", {});\n'
    'fetch("https://api.example.com/x");\n'
    "</script></body></html>"
)


@pytest.fixture
def widget(tmp_path: Path) -> Path:
    path = tmp_path / "w.html"
    path.write_text(WIDGET, "utf-8")
    return path


def test_scan_text_has_no_python_or_json_objects(widget: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run("scan", str(widget))
    assert code == 0
    assert "{'" not in out and '{"' not in out
    assert "script-src https://cdn.example.com/app.js (line 1)" in out
    assert "external script(s) or module(s) were not read" in out
    assert all(len(line) <= 80 for line in out.splitlines()), out


def test_scan_json_is_the_scan(widget: Path) -> None:
    code, out, _ = run("scan", str(widget), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["external_code"][0]["url"] == "https://cdn.example.com/app.js"
