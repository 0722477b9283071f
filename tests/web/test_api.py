"""The HTTP API of `hostcompat serve`, over plain HTTP: guards, token, limits, errors, and a check end to end."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from hostcompat.web import MAX_SCAN_BYTES
from tests.web.support import Served


def test_hosts_lists_the_catalog(served: Served) -> None:
    status, body = served.request("GET", "/api/hosts")
    assert status == 200
    assert len(body["hosts"]) > 10
    assert {"id", "displayName", "kind"} <= set(body["hosts"][0])


def test_openapi_describes_every_route(served: Served) -> None:
    status, body = served.request("GET", "/api/openapi.json")
    assert status == 200 and body["openapi"] == "3.1.0"
    assert {"/api/hosts", "/api/check", "/api/scan", "/api/reports/{id}", "/api/reports/{id}/events"} <= set(
        body["paths"]
    )


def test_a_foreign_host_is_refused(served: Served) -> None:
    for host in ("evil.example", f"evil.example:{served.port}", "127.0.0.1:1"):
        status, body = served.request("GET", "/api/hosts", headers={"Host": host})
        assert status == 403, host
        assert body["error"]["code"] == "forbidden-origin"


def test_a_foreign_origin_is_refused_before_any_work(served: Served, board_snapshot: dict[str, Any]) -> None:
    for origin in ("http://evil.example", f"http://localhost:{served.port}", "null"):
        status, body = served.post_json("/api/check", {"snapshot": board_snapshot}, {"Origin": origin})
        assert status == 403, origin
        assert "Origin" in body["error"]["message"]
    status, _ = served.request("GET", "/api/hosts", headers={"Origin": served.base})
    assert status == 200
    status, _ = served.request("GET", "/api/hosts", headers={"Host": f"localhost:{served.port}"})
    assert status == 200


def test_a_command_without_the_token_is_refused_and_starts_nothing(served: Served, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    command = [sys.executable, "-c", f"open({str(marker)!r}, 'w').close()"]
    for headers in ({}, {"X-Hostcompat-Token": "wrong"}):
        status, body = served.post_json("/api/check", {"command": command}, headers)
        assert status == 403
        assert body["error"]["code"] == "token-required"
        status, body = served.post_json("/api/check", {"url": "http://127.0.0.1:9/mcp"}, headers)
        assert status == 403
    assert not marker.exists()


def test_a_failing_probe_reports_its_error(served: Served) -> None:
    command = [sys.executable, "-c", "import sys; sys.exit(3)"]
    run = served.check({"command": command}, {"X-Hostcompat-Token": served.token})
    assert run["status"] == "failed"
    assert run["error"]
    assert run["report"]["servers"][0]["error"]


def test_bad_requests_name_the_problem(served: Served) -> None:
    status, body = served.request("POST", "/api/check", b"{not json", {"Content-Type": "application/json"})
    assert status == 400 and body["error"]["code"] == "bad-json"
    status, body = served.post_json("/api/check", {"url": "x", "command": "y"})
    assert status == 400 and "exactly one" in body["error"]["message"]
    status, body = served.post_json("/api/check", {"snapshot": {"nope": 1}})
    assert status == 400 and body["error"]["message"]
    status, body = served.post_json("/api/check", {"snapshot": {}, "extra": 1})
    assert status == 400 and "extra" in body["error"]["message"]
    status, body = served.request("GET", "/api/reports/nope")
    assert status == 404 and body["error"]["code"] == "no-such-report"
    status, body = served.request("GET", "/api/nothing")
    assert status == 404
    status, body = served.request("DELETE", "/api/hosts")
    assert status == 405


def test_bodies_over_the_limit_get_413(served: Served) -> None:
    status, body = served.request("POST", "/api/scan", b"x" * (MAX_SCAN_BYTES + 1), {"Content-Type": "text/html"})
    assert status == 413 and body["error"]["code"] == "too-large"


def test_scan_returns_the_widget_needs(served: Served) -> None:
    html = b"<script>window.openai.callTool('x', {});</script>"
    status, body = served.request("POST", "/api/scan", html, {"Content-Type": "text/html"})
    assert status == 200
    assert body["code_analysed"] is True
    assert body["needs_used"]


def test_a_snapshot_upload_needs_no_token_and_gives_the_report(served: Served, board_snapshot: dict[str, Any]) -> None:
    run = served.check({"snapshot": board_snapshot})
    assert run["status"] == "done", run.get("error")
    report = run["report"]
    assert report["schema"] == "hostcompat.report/1"
    assert len(report["servers"][0]["hosts"]) > 10
    status, events = served.request("GET", f"/api/reports/{run['id']}/events")
    assert status == 200
    assert "event: done" in events


def test_reports_are_kept_lru(board_snapshot: dict[str, Any]) -> None:
    from tests.web.support import serving

    with serving(max_reports=2) as s:
        ids = [s.check({"snapshot": board_snapshot})["id"] for _ in range(3)]
        assert s.request("GET", f"/api/reports/{ids[0]}")[0] == 404
        assert s.request("GET", f"/api/reports/{ids[2]}")[0] == 200


def test_a_check_judges_each_host_again_with_the_client_rules_in_front(served: Served) -> None:
    from tests.web.examples import proxied_snapshot

    run = served.check({"snapshot": proxied_snapshot(), "hosts": ["codex", "claude"]})
    hosts = {host["hostId"]: host for host in run["report"]["servers"][0]["hosts"]}
    assert hosts["codex"]["verdict"] in ("degraded", "blocked")
    assert hosts["codex"]["withProxy"]["verdict"] == "works"
    assert hosts["codex"]["withProxy"]["fixed"]
    assert "withProxy" not in hosts["claude"]


def test_progress_and_report_never_show_the_secrets_of_a_typed_target(served: Served) -> None:
    token = {"X-Hostcompat-Token": served.token}
    url = "http://user:PASSWORD-1@127.0.0.1:9/mcp?api_key=KEY-2"
    command = [sys.executable, "-c", "import sys; sys.exit(3)", "--token=TOKEN-3", "--api-key", "KEY-4"]
    for value in ({"url": url}, {"command": command}):
        run = served.check(value, token)
        status, events = served.request("GET", f"/api/reports/{run['id']}/events")
        assert status == 200 and "probing " in events
        shown = json.dumps(run) + events
        for secret in ("PASSWORD-1", "KEY-2", "TOKEN-3", "KEY-4"):
            assert secret not in shown


def test_a_lone_surrogate_in_the_data_is_escaped_not_a_server_error(
    served: Served, board_snapshot: dict[str, Any]
) -> None:
    snapshot = json.loads(json.dumps(board_snapshot))
    snapshot["initialize"]["serverInfo"] = {"name": "board\ud800", "version": "1"}
    run = served.check({"snapshot": snapshot})  # GET of the report: 200, its JSON readable
    assert run["report"]["servers"][0]["server"]["name"] == "board\ud800"
    status, body = served.request(
        "POST", "/api/check", b'{"snapshot": {}, "x\\ud800": 1}', {"Content-Type": "application/json"}
    )
    assert status == 400 and "x\ud800" in body["error"]["message"]
