"""What `hostcompat proxy` logs keeps the upstream's secrets out: its URL's, its command line's and what it prints."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.timeout(60)

PROXY = [sys.executable, "-m", "hostcompat.cli.proxy", "-v"]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
LEAKY_SERVER = """
import json, sys
line = sys.stdin.readline()
token = sys.argv[1]
print("config: api_key=" + token, flush=True)
reply = {"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}
print(json.dumps({"jsonrpc": "2.0", "id": json.loads(line)["id"], "result": reply}), flush=True)
sys.stdin.read()
"""


def _run(argv: list[str]) -> tuple[str, str]:
    done = subprocess.run(
        argv, input=json.dumps(INITIALIZE) + "\n", capture_output=True, text=True, timeout=45, check=False
    )
    return done.stdout, done.stderr


def test_verbose_logs_of_an_http_upstream_keep_its_credentials_out() -> None:
    url = "http://user:hunter2pass@127.0.0.1:9/mcp?token=SECRETTOKEN123"
    out, err = _run([*PROXY, "--timeout", "5", "--upstream", url])
    assert json.loads(out.splitlines()[0])["error"]  # the unreachable server: an error, said
    for secret in ("hunter2pass", "SECRETTOKEN123"):
        assert secret not in err and secret not in out


def test_a_line_of_the_server_that_is_no_json_is_logged_without_the_secret_it_holds() -> None:
    out, err = _run([*PROXY, "--", sys.executable, "-c", LEAKY_SERVER, "--api-key=sk-SUPERSECRET123456"])
    assert json.loads(out.splitlines()[0])["result"]["serverInfo"]["name"] == "s"
    assert "unreadable message from the upstream server" in err
    assert "sk-SUPERSECRET123456" not in err
