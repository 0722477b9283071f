"""An upstream answer that cannot be read (not UTF-8, nested too deeply) answers its request with an error at once.

The proxy runs as a subprocess in front of `hostile_server.py` with a 300 s request timeout and a 300 s drain, so it
ends within the test's 60 s only if no reply was dropped in silence.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hostcompat.clients.proxy.unreadable import unreadable_reply
from tests.clients.proxy._support import NOBODY, initialize_params
from tests.clients.proxy.test_cli import LOOPS

HOSTILE = Path(__file__).with_name("hostile_server.py")
PROXY = [sys.executable, "-m", "hostcompat.cli.proxy", "--timeout", "300", "--drain-timeout", "300"]


def call(request_id: int, name: str, **arguments: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


def exchange(command: list[str], requests: list[dict[str, Any]], *, stdin_file: Path | None = None) -> dict[Any, Any]:
    """Send `requests` and close stdin; the answers by id.

    With a 300 s timeout and drain, the proxy ends within the 60 s allowed only if every request got its answer.
    """
    wire = b"".join(json.dumps(request).encode() + b"\n" for request in requests)
    if stdin_file is None:
        done = subprocess.run(command, input=wire, capture_output=True, timeout=60)
    else:  # a regular file: the proxy relays through the message-level session
        stdin_file.write_bytes(wire)
        with stdin_file.open("rb") as stdin:
            done = subprocess.run(command, stdin=stdin, capture_output=True, timeout=60)
    return {reply["id"]: reply for reply in map(json.loads, done.stdout.splitlines()) if "id" in reply}


REQUESTS = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize_params(NOBODY)},
    call(2, "bad-utf8"),
    call(3, "deep", depth=5000),
    call(4, "deep", depth=5000, notify=True),
    {"jsonrpc": "2.0", "id": 5, "method": "ping"},
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("loop", LOOPS)
def test_the_pipe_relay_answers_an_unreadable_reply_with_an_error_at_once(loop: str) -> None:
    replies = exchange([*PROXY, "--loop", loop, "--", sys.executable, str(HOSTILE)], REQUESTS)
    assert replies[2]["error"]["code"] == -32603
    assert replies[2]["error"]["data"] == {"reason": "unreadable", "problem": "is not valid UTF-8"}
    for request_id in (3, 4):
        assert replies[request_id]["error"]["data"]["problem"] == "is nested too deeply to read"
        assert "tools/call" in replies[request_id]["error"]["message"]
    assert replies[5]["result"] == {}


@pytest.mark.timeout(120)
def test_the_message_relay_answers_an_unreadable_reply_with_an_error_at_once(tmp_path: Path) -> None:
    """With stdin from a file the proxy relays through `ProxySession`, whose parser stops at a lower depth."""
    requests = [*REQUESTS, call(6, "deep", depth=300)]
    replies = exchange([*PROXY, "--", sys.executable, str(HOSTILE)], requests, stdin_file=tmp_path / "in")
    assert replies[2]["error"]["data"]["problem"] == "is not valid UTF-8"
    for request_id in (3, 4, 6):
        assert replies[request_id]["error"]["data"]["problem"] == "is nested too deeply to read"
    assert replies[5]["result"] == {}


DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b'{"jsonrpc":"2.0","id":7,"result":{"x":' + DEEP + b"}}", (7, "is nested too deeply to read")),
        (
            b'{"jsonrpc":"2.0","result":{"id":1,"x":' + DEEP + b'},"id":"late"}',
            ("late", "is nested too deeply to read"),
        ),
        (b'  {"id": -3, "result": {"text": "caf\xe9"}}', (-3, "is not valid UTF-8")),
        (b'{"id": "a\\"b", "error": {"code": 1, "message": "\xff"}}', ('a"b', "is not valid UTF-8")),
    ],
)
def test_the_id_of_an_unreadable_reply_is_found_whatever_its_nesting_or_encoding(
    line: bytes, expected: tuple[Any, str]
) -> None:
    reply = unreadable_reply(line, "RecursionError")
    assert reply is not None and (reply.id, reply.problem) == expected


@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0","method":"notifications/message","params":' + DEEP + b"}",  # a notification
        b'{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"x":"\xff"}}',  # a server request
        b'{"jsonrpc":"2.0","result":{"id":1}}',  # the only id is not the reply's
        b'{"jsonrpc":"2.0","id":1.5,"result":{}}',  # not an id
        b'{"jsonrpc":"2.0","id":null,"error":{}}',
        b"garbage \xff",
        b"",
    ],
)
def test_a_line_that_answers_no_request_names_none(line: bytes) -> None:
    assert unreadable_reply(line, "JSONDecodeError") is None
