"""`hostcompat check --observe` and `hostcompat observe` on a snapshot file: with a browser the report cites the
runs; without one the check says so and still reports every host."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from hostcompat.cli import main
from tests.observe.support import make_snapshot, require_browser, widget_tool

PAGE = """<p>hello</p><script>
parent.postMessage({jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {appCapabilities: {}}}, "*");
window.addEventListener("message", (e) => {
  if (e.data && e.data.id === 1) {
    parent.postMessage({jsonrpc: "2.0", method: "ui/notifications/initialized"}, "*");
    parent.postMessage({jsonrpc: "2.0", id: 2, method: "ui/download-file", params: {contents: []}}, "*");
  }
});
</script>"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def snapshot_file(tmp_path: Path) -> Path:
    snapshot = make_snapshot([widget_tool("show", "ui://t/a.html")], {"ui://t/a.html": PAGE})
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snapshot.to_dict()), encoding="utf-8")
    return path


def test_without_a_browser_the_check_says_so_and_goes_on(snapshot_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOSTCOMPAT_CHROMIUM", str(snapshot_file.parent / "no-such-chromium"))
    code, out, _ = run("check", str(snapshot_file), "--observe", "--host", "claude", "--format", "json")
    assert code == 0
    server = json.loads(out)["servers"][0]
    assert any(event["code"] == "CHECK-OBSERVE-UNAVAILABLE" for event in server["events"])
    assert [host["hostId"] for host in server["hosts"]] == ["claude"]
    code, out, _ = run("observe", str(snapshot_file), "--host", "claude")
    assert code == 1 and "widgets not observed" in out


@pytest.mark.timeout(240)
def test_check_observe_cites_the_run_per_host(snapshot_file: Path) -> None:
    require_browser()
    argv = ("check", str(snapshot_file), "--host", "goose", "--host", "claude", "--format", "json")
    code, out, _ = run(*argv, "--observe", "--observe-seconds", "6", "--no-explore", "--fail-on", "never")
    assert code == 0
    hosts = {host["hostId"]: host for host in json.loads(out)["servers"][0]["hosts"]}
    for host_id in ("goose", "claude"):
        rules = [finding["ruleId"] for finding in hosts[host_id]["findings"]]
        assert "OBS-RUN-001" in rules
    goose_cap = next(
        f for f in hosts["goose"]["findings"] if f["ruleId"] == "APPS-CAP-001" and "downloadFile" in f["remediation"]
    )
    sources = [e["source"] for e in goose_cap["evidence"]]
    assert "observed:ui://t/a.html" in sources  # the scan saw no downloadFile: the run alone found it
    code, out, _ = run("observe", str(snapshot_file), "--host", "goose", "--no-explore", "--observe-seconds", "6")
    assert code == 0 and "ui/download-file" in out and "refused by the host: downloadFile" in out
