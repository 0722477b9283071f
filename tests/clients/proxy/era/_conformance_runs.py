"""Runs of the MCP conformance suite (`@modelcontextprotocol/conformance`, on Node 22) directly and through the era
gateway, in both directions, each reduced to scenario -> check id -> status.

The pinned suite (0.1.16) speaks the handshake era only (2025-06-18 and 2025-11-25; it has no 2026-07-28
scenario), both as a client (its server scenarios) and as a server (its client scenarios). So:

- legacy client -> gateway -> modern server: the server scenarios against `hostcompat proxy --listen` in front of
  the fixture server in 2026-07-28-only mode (eras detected, as by default);
- modern client -> gateway -> legacy server: the client scenarios, the suite serving the handshake era, with the
  SDK's 2026-07-28 client reaching it through `hostcompat proxy --era-front modern --upstream URL`; and the server
  scenarios through two gateways, the first making the suite's requests 2026-07-28 ones, the second (the one under
  test) translating them back for the fixture server in handshake-only mode;
- directly: the same scenarios against the fixture server serving both eras, and with the SDK's handshake-era
  client.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from tests.clients.proxy._interop import conformance_cli, free_port

HERE = Path(__file__).resolve().parent
FIXTURE = [sys.executable, str(HERE / "conformance_server.py")]
CLIENT = [sys.executable, str(HERE / "conformance_client.py")]
PROXY = [sys.executable, "-m", "hostcompat.cli.proxy"]
CLIENT_SCENARIOS = ("initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry")
"""The suite's client scenarios but its OAuth ones (`auth/*`): those test a client's authorization flow, which
neither the SDK client as driven here nor the proxy's upstream (static `--header`s) performs."""

Run = dict[str, dict[str, str]]
"""Scenario -> check id -> status (SUCCESS, FAILURE, WARNING, INFO...); a client that exited with an error adds the
check `client-exit` with FAILURE."""

_FOLDER = re.compile(r"^(?:server-)?(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$")
_CLIENT_EXIT = re.compile(r"Client exited with code (-?\d+)")


def _wait_for_port(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode} before listening")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on {port} within 60 s")


@contextmanager
def serving(command: Sequence[str], port: int, log: Path) -> Iterator[str]:
    """`command` (which listens on `port`) running while inside; yields its MCP URL."""
    with log.open("wb") as errors:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=errors, stderr=errors)
        try:
            _wait_for_port(port, process, command[-1])
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _read(results: Path) -> Run:
    out: Run = {}
    for checks in sorted(results.glob("*/checks.json")):
        match = _FOLDER.match(checks.parent.name)
        if match is None:
            raise RuntimeError(f"unexpected result folder {checks.parent.name}")
        found = json.loads(checks.read_text(encoding="utf-8"))
        out[match["scenario"]] = {check["id"]: check["status"] for check in found}
    return out


def server_scenarios(url: str, results: Path, *only: str) -> Run:
    """The suite's server scenarios (all, or `only` one) against `url`."""
    scenario = ["--scenario", only[0]] if only else []
    command = [*conformance_cli(), "server", "--url", url, *scenario, "-o", str(results)]
    subprocess.run(command, capture_output=True, check=False, timeout=600)
    return _read(results)


def retried(direct: Run, url: str, results: Path) -> Run:
    """`direct` with each failed scenario run once more against `url`, keeping the second run: the direct runs are
    the reference the gateway is held to, not the subject, and on a loaded machine one of the suite's timed scenarios
    (tools-call-sampling, once in CI) can fail with no proxy in the path.
    """
    out = dict(direct)
    for scenario, failed in verdicts(direct).items():
        if failed:
            out.update(server_scenarios(url, results / scenario, scenario))
    return out


def client_scenarios(client: Sequence[str], results: Path) -> Run:
    """The suite's client scenarios, each serving the handshake era to `client` (a command taking the URL last)."""
    out: Run = {}
    for scenario in CLIENT_SCENARIOS:
        folder = results / scenario
        command = [*conformance_cli(), "client", "--command", " ".join(client), "--scenario", scenario]
        done = subprocess.run([*command, "-o", str(folder)], capture_output=True, text=True, check=False, timeout=120)
        run = _read(folder)
        checks = run.get(scenario, {})
        exited = _CLIENT_EXIT.search(done.stdout + done.stderr)
        if exited is not None and int(exited[1]) != 0:
            checks["client-exit"] = "FAILURE"
        out[scenario] = checks
    return out


def all_runs(work: Path) -> dict[str, dict[str, Run]]:
    """Every run the baseline records: `server` and `client` scenarios, each `direct` and through the gateway."""
    logs = work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    server: dict[str, Run] = {}
    port = free_port()
    with serving([*FIXTURE, "--http", str(port)], port, logs / "direct.log") as url:
        server["direct"] = retried(server_scenarios(url, work / "server-direct"), url, work / "server-direct-again")
    port = free_port()
    with serving([*FIXTURE, "--era", "modern", "--http", str(port)], port, logs / "modern-only.log") as url:
        server["modern-only-server-directly"] = server_scenarios(url, work / "server-refused", "server-initialize")
    port = free_port()
    front = [*PROXY, "--listen", f"127.0.0.1:{port}", "--"]
    with serving([*front, *FIXTURE, "--era", "modern"], port, logs / "legacy-to-modern.log") as url:
        server["legacy-client-to-modern-server"] = server_scenarios(url, work / "server-legacy-to-modern")
    port = free_port()
    make_modern = [*PROXY, "--listen", f"127.0.0.1:{port}", "--era-back", "modern", "--"]
    under_test = [*PROXY, "--era-front", "modern", "--"]
    with serving([*make_modern, *under_test, *FIXTURE, "--era", "legacy"], port, logs / "modern-to-legacy.log") as url:
        server["modern-client-to-legacy-server"] = server_scenarios(url, work / "server-modern-to-legacy")
    client = {
        "direct": client_scenarios([*CLIENT, "--direct"], work / "client-direct"),
        "modern-client-to-legacy-server": client_scenarios([*CLIENT, "--via-gateway"], work / "client-via-gateway"),
    }
    return {"server": server, "client": client}


def verdicts(run: Run) -> dict[str, list[str]]:
    """Scenario -> the ids of its failed checks (empty: the scenario passed)."""
    return {
        scenario: sorted(i for i, status in checks.items() if status == "FAILURE") for scenario, checks in run.items()
    }


def successes(run: Run) -> set[tuple[str, str]]:
    """(scenario, check id) of every check that succeeded."""
    return {
        (scenario, check) for scenario, checks in run.items() for check, status in checks.items() if status == "SUCCESS"
    }


def write_baseline(path: Path, work: Path) -> None:
    """Measure every run and write the baseline file."""
    runs = all_runs(work)
    baseline = {
        "description": (
            "What @modelcontextprotocol/conformance finds directly and through hostcompat's era gateway, in both "
            "directions: per run, scenario -> the ids of its failed checks (empty: passed). Written by "
            "`python -m tests.clients.proxy.era._conformance_runs`; see that module for what each run is."
        ),
        "suite": "@modelcontextprotocol/conformance@0.1.16",
        "fixture": "tests/clients/proxy/era/conformance_server.py (the suite's everything-server on the Python SDK)",
        "runs": {side: {name: verdicts(run) for name, run in by.items()} for side, by in runs.items()},
    }
    path.write_text(json.dumps(baseline, indent=2, sort_keys=True) + "\n", encoding="utf-8")


BASELINE = HERE / "conformance-era-baseline.json"

if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        write_baseline(BASELINE, Path(folder))
    print(f"wrote {BASELINE}")
