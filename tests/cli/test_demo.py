import io
import subprocess
import sys

import pytest

from hostcompat.apps.modes import Mode
from hostcompat.cli.demo import DemoRow, collect_rows, render


@pytest.mark.anyio
async def test_every_client_gets_the_predicted_mode_for_every_tool() -> None:
    rows = await collect_rows()
    assert rows and all(row.agrees for row in rows)
    modes = {(row.tool, row.client): row.predicted for row in rows}
    assert modes[("show_board", "MCP Apps host")] is Mode.CAPABILITY
    assert modes[("show_board", "text-only host")] is Mode.EMBEDDED_FALLBACK
    assert modes[("show_board", "near miss (MIME with a space)")] is Mode.EMBEDDED_FALLBACK
    assert modes[("board_summary", "text-only host")] is Mode.NONE
    assert modes[("count_tasks", "MCP Apps host")] is Mode.NONE


def test_a_disagreement_is_printed_as_a_mismatch() -> None:
    out = io.StringIO()
    render([DemoRow("t", "c", Mode.CAPABILITY, Mode.NONE)], out)
    assert "MISMATCH: the call returned none" in out.getvalue()


def test_the_demo_command_exits_zero_and_prints_the_table() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hostcompat", "demo"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "show_board     text-only host" in done.stdout
    assert "embedded-fallback" in done.stdout
    assert "MISMATCH" not in done.stdout
