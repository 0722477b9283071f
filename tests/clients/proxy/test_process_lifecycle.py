"""The stdio proxy as a process: SIGTERM stops the upstream's whole group, and closing stdin ends it soon.

Each test runs `hostcompat proxy` as a subprocess in front of `hostile_server.py` (a server that ignores SIGTERM,
leaves a child behind, or never answers) and looks at the real processes afterwards.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.clients.proxy._support import NOBODY
from tests.clients.proxy.test_cli import LOOPS

HOSTILE = Path(__file__).with_name("hostile_server.py")
PROXY = [sys.executable, "-m", "hostcompat.cli.proxy"]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": NOBODY},
}


def lines(*messages: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(message).encode() + b"\n" for message in messages)


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie waiting for its parent to reap it has stopped running)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return not any(alive(pid) for pid in pids)


def read_pids(path: Path, seconds: float = 30) -> list[int]:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, "the server never started"
        time.sleep(0.05)
    return [int(pid) for pid in path.read_text().split()]


def kill_all(pids: list[int]) -> None:
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_the_stdio_proxy_stops_a_server_that_ignores_sigterm_and_its_child(
    loop: str, signum: int, tmp_path: Path
) -> None:
    pids_file = tmp_path / "pids"
    server = [sys.executable, str(HOSTILE), "--ignore-term", "--grandchild", "--pids", str(pids_file)]
    command = [*PROXY, "--loop", loop, "--", *server]
    pipe = subprocess.PIPE
    with subprocess.Popen(command, stdin=pipe, stdout=pipe, stderr=subprocess.DEVNULL) as proxy:
        pids = read_pids(pids_file)
        try:
            assert proxy.stdin is not None and proxy.stdout is not None
            proxy.stdin.write(lines(INITIALIZE))
            proxy.stdin.flush()
            assert json.loads(proxy.stdout.readline())["id"] == 1  # the session is up; the host keeps stdin open
            proxy.send_signal(signum)
            time.sleep(0.3)
            proxy.send_signal(signum)  # an impatient host signals twice: the second must not cut the cleanup short
            assert proxy.wait(timeout=60) == 128 + signum
            assert gone_within(pids, 10), [pid for pid in pids if alive(pid)]
        finally:
            proxy.kill()
            kill_all(pids)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("stdin_kind", ["pipe", "file"])
@pytest.mark.parametrize("session", ["group", "own"])
def test_a_child_the_server_leaves_behind_does_not_outlive_the_proxy(
    loop: str, stdin_kind: str, session: str, tmp_path: Path
) -> None:
    """The server exits when stdin closes, but its child is still running, in its process group or (`own`) in a
    session of its own, where the group signal misses it: the proxy stops it too.

    With stdin from a file the proxy relays through the message-level session instead of the pipe relay.
    """
    pids_file = tmp_path / "pids"
    requests = lines(INITIALIZE, {"jsonrpc": "2.0", "id": 2, "method": "ping"})
    server = [sys.executable, str(HOSTILE), "--grandchild", "--pids", str(pids_file)]
    command = [*PROXY, "--loop", loop, "--", *server, *(["--detached"] if session == "own" else [])]
    try:
        if stdin_kind == "file":
            (tmp_path / "in").write_bytes(requests)
            with (tmp_path / "in").open("rb") as stdin:
                done = subprocess.run(command, stdin=stdin, capture_output=True, timeout=60)
        else:
            done = subprocess.run(command, input=requests, capture_output=True, timeout=60)
        assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == [1, 2]
        assert done.returncode == 0
        pids = read_pids(pids_file)
        assert not alive(pids[0])
        assert gone_within(pids[1:], 10), "the server's child outlived the proxy"
    finally:
        if pids_file.exists():
            kill_all(read_pids(pids_file))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("stdin_kind", ["pipe", "file"])
def test_after_the_client_closes_stdin_a_call_in_flight_gets_an_error_soon_not_after_the_timeout(
    stdin_kind: str, tmp_path: Path
) -> None:
    hang = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "hang", "arguments": {}}}
    requests = lines(INITIALIZE, hang)
    command = [*PROXY, "--timeout", "300", "--drain-timeout", "1", "--", sys.executable, str(HOSTILE)]
    if stdin_kind == "file":
        (tmp_path / "in").write_bytes(requests)
        with (tmp_path / "in").open("rb") as stdin:
            done = subprocess.run(command, stdin=stdin, capture_output=True, timeout=60)
    else:
        done = subprocess.run(command, input=requests, capture_output=True, timeout=60)
    replies = {reply["id"]: reply for reply in map(json.loads, done.stdout.splitlines())}
    assert replies[2]["error"]["code"] == -32001
    assert replies[2]["error"]["data"] == {"reason": "closing", "seconds": 1}
    assert done.returncode == 0


@pytest.mark.timeout(120)
def test_the_default_drain_is_short(tmp_path: Path) -> None:
    """Without --drain-timeout the proxy still ends well before the 300 s request timeout."""
    hang = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "hang", "arguments": {}}}
    done = subprocess.run(
        [*PROXY, "--timeout", "300", "--", sys.executable, str(HOSTILE)],
        input=lines(INITIALIZE, hang),
        capture_output=True,
        timeout=60,
    )
    replies = {reply["id"]: reply for reply in map(json.loads, done.stdout.splitlines())}
    assert replies[2]["error"]["data"]["reason"] == "closing"
