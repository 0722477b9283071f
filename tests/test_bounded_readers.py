"""Every file reader reads at most one byte past its limit, whatever `stat` says (issue 12, finding 6).

`/dev/zero` has a size of 0 and no end: a reader that trusts `stat` (or reads to the end) never returns. Each test
gives a reader a name that leads there (a symlink keeps the file name a reader keys its format on) and expects the
reader's own error, naming the limit, at once. The CLI tests run the real command in a child process with a hard
time limit, so a reader that does not stop fails the test instead of hanging it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hostcompat.clients.rules import MAX_RULE_FILE_BYTES, load_rule_file
from hostcompat.engine.catalog.load import MAX_CATALOG_BYTES, load_catalog
from hostcompat.errors import CatalogError, InvalidHostConfig, InvalidInput, InvalidSnapshot
from hostcompat.probe.host_configs import MAX_CONFIG_BYTES, read_host_config
from hostcompat.probe.snapshot import read_snapshot
from hostcompat.report.reader import MAX_REPORT_BYTES, read_report

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")

ENDLESS = "/dev/zero"


def endless(tmp_path: Path, name: str) -> Path:
    """A path named `name` that reads as an endless stream of NUL bytes."""
    link = tmp_path / name
    link.symlink_to(ENDLESS)
    return link


def big(tmp_path: Path, name: str, size: int) -> Path:
    """A regular file of `size` spaces (valid JSON whitespace, so only the size is wrong)."""
    path = tmp_path / name
    path.write_bytes(b" " * size)
    return path


def test_a_config_file_is_read_up_to_its_limit_not_what_stat_says(tmp_path: Path) -> None:
    with pytest.raises(InvalidHostConfig, match=f"larger than {MAX_CONFIG_BYTES} bytes"):
        read_host_config(endless(tmp_path, "mcp.json"))
    with pytest.raises(InvalidHostConfig, match="larger than"):
        read_host_config(big(tmp_path, "claude_desktop_config.json", MAX_CONFIG_BYTES + 1))


def test_a_rule_file_is_read_up_to_its_limit(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match=f"over {MAX_RULE_FILE_BYTES} bytes"):
        load_rule_file(endless(tmp_path, "rules.json"))


def test_a_catalog_file_is_read_up_to_its_limit(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match=f"larger than {MAX_CATALOG_BYTES} bytes"):
        load_catalog(overrides=[endless(tmp_path, "hosts.json")])


def test_a_snapshot_file_is_read_up_to_its_limit(tmp_path: Path) -> None:
    with pytest.raises(InvalidSnapshot, match="not a JSON snapshot"):  # NUL bytes: refused at the first piece
        read_snapshot(endless(tmp_path, "snapshot.json"))
    with pytest.raises(InvalidSnapshot, match="larger than 1000 bytes"):
        read_snapshot(big(tmp_path, "snapshot.json", 5000), max_bytes=1000)


def test_a_report_file_is_read_up_to_its_limit(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match=f"larger than {MAX_REPORT_BYTES} bytes"):
        read_report(endless(tmp_path, "report.json"))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--config", "{zero}/mcp.json"], "too large for a config file"),
        (["check", "--demo", "--catalog", "{zero}/hosts.json"], "larger than"),
        (["clients", "--rules", "{zero}/rules.json"], "over"),
    ],
)
def test_the_cli_refuses_an_endless_file_at_once(tmp_path: Path, argv: list[str], message: str) -> None:
    for name in ("mcp.json", "hosts.json", "rules.json"):
        endless(tmp_path, name)
    command = [sys.executable, "-m", "hostcompat", *(arg.format(zero=tmp_path) for arg in argv)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
