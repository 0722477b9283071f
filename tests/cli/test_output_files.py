"""`-o PATH` of `snapshot` and `check`: regular files atomically, devices and FIFOs written through, links refused,
and a path that cannot be written is an exit-2 error before anything is probed."""

from __future__ import annotations

import json
import os
import pty
import stat
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.cli._support import run

BOARD = ["--", sys.executable, "-m", "hostcompat.examples.board"]


@pytest.fixture(scope="module")
def board_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("board") / "board.json"
    code, _, err = run("snapshot", "-o", str(path), *BOARD)
    assert code == 0, err
    return path


def marker_server(marker: Path) -> list[str]:
    """A server command that leaves `marker` behind if it is ever started."""
    return ["--", sys.executable, "-c", f"open({str(marker)!r}, 'w').close()"]


@pytest.mark.parametrize("command", ["snapshot", "check"])
@pytest.mark.parametrize(
    ("where", "message"),
    [(".", "is a directory"), ("missing/out.json", "does not exist"), ("file.txt/out.json", "not a directory")],
)
def test_an_unwritable_output_is_an_error_before_the_probe(
    tmp_path: Path, command: str, where: str, message: str
) -> None:
    (tmp_path / "file.txt").write_text("x", "utf-8")
    marker = tmp_path / "started"
    output = tmp_path / where
    code, _, err = run(command, "-o", str(output), *marker_server(marker))
    assert code == 2, err
    assert message in err and "Traceback" not in err
    assert not marker.exists(), "the server was started although the output could not be written"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write to any directory")
def test_a_read_only_directory_is_an_error_before_the_probe(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    marker = tmp_path / "started"
    code, _, err = run("snapshot", "-o", str(folder / "out.json"), *marker_server(marker))
    assert code == 2 and "cannot create files in" in err
    assert not marker.exists()


def test_a_symlink_is_neither_replaced_nor_followed(tmp_path: Path, board_snapshot: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", "utf-8")
    link = tmp_path / "report.json"
    link.symlink_to(victim)
    code, _, err = run("check", str(board_snapshot), "--format", "json", "-o", str(link))
    assert code == 2
    assert "symbolic link" in err
    assert link.is_symlink() and victim.read_text("utf-8") == "keep me"


def test_a_dangling_symlink_is_refused(tmp_path: Path, board_snapshot: Path) -> None:
    link = tmp_path / "report.json"
    link.symlink_to(tmp_path / "nowhere")
    code, _, err = run("check", str(board_snapshot), "-o", str(link))
    assert code == 2 and "symbolic link" in err
    assert link.is_symlink() and not (tmp_path / "nowhere").exists()


@pytest.fixture
def null_device(tmp_path: Path) -> Path:
    """A `/dev/null` of our own (the same device numbers, in the test's folder): were it ever replaced by a file,
    the system's `/dev/null` would not be."""
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root (the FIFO tests cover the rule without it)")
    path = tmp_path / "null"
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    try:
        path.write_bytes(b"")
    except OSError:
        pytest.skip("this file system does not open device nodes")
    return path


def read_fifo_in_the_background(fifo: Path) -> tuple[threading.Thread, list[bytes]]:
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    return reader, received


def test_check_writes_a_fifo_through_and_it_stays_a_fifo(tmp_path: Path, board_snapshot: Path) -> None:
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    reader, received = read_fifo_in_the_background(fifo)
    code, _, err = run("check", str(board_snapshot), "--format", "json", "-o", str(fifo))
    reader.join(timeout=30)
    assert code == 0, err
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert json.loads(received[0])["schema"] == "hostcompat.report/1"


def test_snapshot_writes_a_fifo_through_and_it_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "snapshot.fifo"
    os.mkfifo(fifo)
    reader, received = read_fifo_in_the_background(fifo)
    code, _, err = run("snapshot", "-o", str(fifo), *BOARD)
    reader.join(timeout=30)
    assert code == 0, err
    assert stat.S_ISFIFO(fifo.lstat().st_mode), "the FIFO was replaced by a file"
    assert json.loads(received[0])["target"]["kind"] == "stdio"


def test_a_fifo_that_no_process_reads_is_an_error_not_a_wait(tmp_path: Path, board_snapshot: Path) -> None:
    fifo = tmp_path / "nobody.fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    code, _, err = run("check", str(board_snapshot), "--format", "json", "-o", str(fifo))
    assert code == 2 and "a pipe that no process is reading" in err, err
    assert time.monotonic() - started < 20
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.mark.parametrize("command", ["snapshot", "check"])
def test_a_null_device_is_written_through_and_stays_a_device(
    null_device: Path, board_snapshot: Path, command: str
) -> None:
    before = null_device.stat()
    if command == "snapshot":
        argv = ["snapshot", "-o", str(null_device), *BOARD]
    else:
        argv = ["check", str(board_snapshot), "-o", str(null_device)]
    code, _, err = run(*argv)
    assert code == 0, err
    after = null_device.lstat()
    assert stat.S_ISCHR(after.st_mode), "the device was replaced by a file"
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


def test_a_regular_file_is_replaced_atomically_and_keeps_its_mode(tmp_path: Path, board_snapshot: Path) -> None:
    report = tmp_path / "report.sarif"
    report.write_text("old", "utf-8")
    report.chmod(0o640)
    code, _, err = run("check", str(board_snapshot), "--format", "sarif", "-o", str(report))
    assert code == 0, err
    assert json.loads(report.read_text("utf-8"))["version"] == "2.1.0"
    assert stat.S_IMODE(report.stat().st_mode) == 0o640
    assert sorted(path.name for path in tmp_path.iterdir()) == ["report.sarif"]  # no temporary file left


def test_a_new_file_gets_the_mode_the_umask_gives(tmp_path: Path, board_snapshot: Path) -> None:
    old = os.umask(0o022)
    try:
        code, _, err = run("check", str(board_snapshot), "-o", str(tmp_path / "report.txt"))
    finally:
        os.umask(old)
    assert code == 0, err
    assert stat.S_IMODE((tmp_path / "report.txt").stat().st_mode) == 0o644


def test_a_link_to_a_terminal_is_written_through_but_not_a_link_to_another_device(
    tmp_path: Path, board_snapshot: Path
) -> None:
    master, slave = pty.openpty()
    try:
        to_terminal = tmp_path / "tty-link"
        to_terminal.symlink_to(os.ttyname(slave))
        code, _, err = run("check", str(board_snapshot), "--host", "claude", "-o", str(to_terminal))
        assert code == 0, err
        assert b"Claude" in os.read(master, 65536)
    finally:
        os.close(slave)
        os.close(master)
    to_device = tmp_path / "zero-link"
    to_device.symlink_to("/dev/zero")
    code, _, err = run("check", str(board_snapshot), "-o", str(to_device))
    assert code == 2 and "symbolic link" in err
