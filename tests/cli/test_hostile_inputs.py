"""Inputs a user or a server controls that once ended a command with a traceback or reached the terminal raw."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from hostcompat.cli import command_line
from tests.cli._support import run


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    path = tmp_path_factory.mktemp("demo") / "demo.json"
    code, _, err = run("snapshot", "--demo", "-o", str(path))
    assert code == 0, err
    loaded: dict[str, object] = json.loads(path.read_text())
    return loaded


@pytest.mark.parametrize("kind", [{}, [], 3, None, True])
def test_a_result_whose_content_type_is_not_a_string_is_judged_not_a_crash(
    demo: dict[str, object], kind: object, tmp_path: Path
) -> None:
    snapshot = json.loads(json.dumps(demo))
    calls = [call for call in snapshot["calls"] if isinstance(call.get("result"), dict)]
    assert calls, "the demo snapshot captures call results"
    calls[0]["result"]["content"] = [{"type": kind, "text": "x"}]
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(snapshot))
    code, out, err = run("check", str(path), "--format", "json")
    assert code in (0, 1), err
    assert json.loads(out)["servers"][0]["hosts"]


def test_a_catalog_display_name_reaches_the_terminal_cleaned(tmp_path: Path) -> None:
    catalog = tmp_path / "evil.json"
    name = "Evil\u001b]0;PWNED\u0007\u001b[2J\rFAKE"
    catalog.write_text(json.dumps({"hosts": [{"id": "evilhost", "displayName": name, "kind": "chat"}]}))
    _, _, err = run("check", "--demo", "--catalog", str(catalog), "--as-host", "evilhost", "-o", str(tmp_path / "r"))
    assert "Evil" in err, err
    assert not any(char in err for char in "\x1b\x07\r"), repr(err)


def test_an_internal_error_is_one_line_that_says_it_is_a_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(_args: object) -> object:
        raise TypeError("unhashable type: 'dict'")

    from hostcompat.cli import check

    monkeypatch.setattr(check, "plan_targets", broken)
    monkeypatch.delenv(command_line.DEBUG_VARIABLE, raising=False)
    code, _, err = run("check", "--demo")
    assert code == command_line.EXIT_INTERNAL
    assert err.count("\n") == 1 and "internal error (TypeError: unhashable type: 'dict')" in err
    assert "this is a bug in hostcompat" in err
    monkeypatch.setenv(command_line.DEBUG_VARIABLE, "1")
    with pytest.raises(TypeError):
        run("check", "--demo")


def test_a_snapshot_number_too_large_for_a_float_is_a_usage_error(demo: dict[str, object], tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    huge = '"durationSeconds": 1' + "0" * 400
    text = json.dumps({**demo, "durationSeconds": 0}).replace('"durationSeconds": 0', huge)
    path.write_text(text)
    code, _, err = run("check", str(path))
    assert code == 2 and "durationSeconds" in err and "internal error" not in err, err


FLOODING_SERVER = """
import json, sys
def send(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize":
        info = {"name": "f", "version": "1"}
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": info}
        send({"jsonrpc": "2.0", "id": message["id"], "result": result})
    elif message.get("method") == "server/discover":  # a handshake-era server
        send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}})
    elif message.get("method") == "notifications/initialized":
        for n in range(5000):  # requests to the client, never reading its answers
            send({"jsonrpc": "2.0", "id": f"s{n}", "method": "ping"})
        sys.stdout.close()
        import time; time.sleep(30)
"""


def test_a_server_flooding_the_client_with_requests_is_said_and_answered_only_so_far(tmp_path: Path) -> None:
    path = tmp_path / "flood.json"
    code, _, err = run("snapshot", "--timeout", "10", "-o", str(path), "--", sys.executable, "-c", FLOODING_SERVER)
    assert code == 0, err
    codes = [event["code"] for event in json.loads(path.read_text())["events"]]
    assert "PROBE-REQUEST-FLOOD" in codes


EXITS_LEAVING_A_CHILD = """
import json, os, subprocess, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "server/discover":
        error = {"code": -32601, "message": "no"}
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": error}), flush=True)
    elif message.get("method") == "initialize":
        info = {"name": "g", "version": "1"}
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": info}
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # holds the server's stdout open
        os._exit(0)
"""


def test_a_server_that_exits_while_its_child_holds_its_output_is_said_to_exit_not_to_time_out(tmp_path: Path) -> None:
    path = tmp_path / "exited.json"
    started = time.monotonic()
    code, _, err = run(
        "snapshot", "--timeout", "30", "-o", str(path), "--", sys.executable, "-c", EXITS_LEAVING_A_CHILD
    )
    assert code == 0, err
    assert time.monotonic() - started < 15  # before: the whole --timeout
    codes = [event["code"] for event in json.loads(path.read_text())["events"]]
    assert "PROBE-SERVER-EXITED" in codes and "PROBE-TIMEOUT-TOTAL" not in codes, codes
