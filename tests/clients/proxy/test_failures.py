import signal

import pytest

from hostcompat.clients.proxy.config import HttpUpstream, StdioUpstream
from hostcompat.clients.proxy.failures import (
    CONNECTION_CLOSED,
    MAX_STDERR_TAIL,
    REQUEST_TIMEOUT,
    cancel_params,
    connection_ended,
    describe_exit,
    ended_error,
    process_ended,
    timeout_error,
)


def test_an_exit_is_described_by_its_code_or_signal() -> None:
    assert describe_exit(3) == "exited with code 3"
    assert describe_exit(-signal.SIGKILL) == "was killed by SIGKILL"
    assert describe_exit(None) == "closed its output but is still running"


def test_a_crash_error_names_the_command_the_exit_code_the_method_and_the_last_stderr_line() -> None:
    end = process_ended(StdioUpstream("node", ("server.js",)), 3, "warming up\nError: out of memory\n")
    error = ended_error("tools/call", end)
    assert error["code"] == CONNECTION_CLOSED
    assert error["message"] == (
        "hostcompat proxy: the upstream server (node server.js) exited with code 3 before answering tools/call"
        " (last stderr line: Error: out of memory)"
    )
    assert error["data"] == {
        "reason": "the upstream server (node server.js) exited with code 3",
        "exitCode": 3,
        "stderr": "warming up\nError: out of memory",
    }


def test_only_the_tail_of_a_long_stderr_is_kept() -> None:
    end = process_ended(StdioUpstream("srv"), 1, "x" * (3 * MAX_STDERR_TAIL) + "the end")
    assert len(end.stderr_tail) == MAX_STDERR_TAIL
    assert end.stderr_tail.endswith("the end")


def test_a_lost_connection_names_the_url_and_the_problem() -> None:
    error = ended_error("initialize", connection_ended(HttpUpstream("http://127.0.0.1:9/mcp"), "ConnectError: refused"))
    assert "http://127.0.0.1:9/mcp" in error["message"]
    assert "ConnectError: refused" in error["message"]
    assert "exitCode" not in error["data"]


def test_a_timeout_error_names_the_method_and_the_seconds() -> None:
    error = timeout_error("resources/read", 2.5)
    assert error["code"] == REQUEST_TIMEOUT
    assert "did not answer resources/read within 2.5 s" in error["message"]
    assert error["data"] == {"reason": "timeout", "seconds": 2.5}


def test_the_upstream_cancellation_says_why() -> None:
    assert cancel_params(4, "no answer within 1 s") == {
        "requestId": 4,
        "reason": "hostcompat proxy: no answer within 1 s",
    }


def test_an_end_names_the_upstream_without_its_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UPSTREAM_API_TOKEN", "inherited-123456")
    upstream = StdioUpstream("srv", ("--token", "arg-123456", "--port", "3"), {"DB": "env-123456"})
    stderr = "ited-123456 boot\nusing arg-123456 and env-123456 and inherited-123456\n"
    end = process_ended(upstream, 1, stderr)
    assert end.summary == "the upstream server (srv --token <redacted> --port 3) exited with code 1"
    assert end.stderr_tail == "<redacted> boot\nusing <redacted> and <redacted> and <redacted>"
    http = HttpUpstream("http://u:pw-123456@h/mcp?key=k-123456", {"X-Api-Key": "hdr-123456"})
    lost = connection_ended(http, "401 for url 'http://u:pw-123456@h/mcp?key=k-123456' with hdr-123456")
    assert "123456" not in lost.summary and "http://<redacted>@h/mcp?key=<redacted>" in lost.summary
