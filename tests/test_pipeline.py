"""`hostcompat.pipeline`: from a snapshot to one server's part of the report (offline, pure), stage by stage."""

import copy
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import pytest

from hostcompat.cli._targets import DEMO_COMMAND
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.pipeline import (
    CheckSettings,
    WidgetAnalysis,
    WidgetBudget,
    bound_values,
    check_snapshot,
    connection_facts,
    derive,
    hygiene,
    judge,
    report_entry,
    scan_widgets,
)
from hostcompat.probe import PROBE_HANDSHAKE_VERSION, Era, capture
from hostcompat.probe.snapshot import Snapshot
from hostcompat.probe.target import StdioTarget


@pytest.fixture(scope="module")
def board() -> dict[str, Any]:
    async def run() -> Snapshot:
        return await capture(StdioTarget(DEMO_COMMAND[0], DEMO_COMMAND[1:]))

    snapshot: Snapshot = anyio.run(run)
    return snapshot.to_dict()


def snap(data: dict[str, Any]) -> Snapshot:
    return Snapshot.from_dict(json.loads(json.dumps(data)))


def analyse_widgets(snapshot: Snapshot) -> WidgetAnalysis:
    return scan_widgets(derive(bound_values(snapshot)), WidgetBudget()).widgets


def test_the_board_widget_needs_server_tools_and_open_links_for_every_tool_naming_it(board: dict[str, Any]) -> None:
    analysis = analyse_widgets(snap(board))
    assert analysis.usage is not None and analysis.notes == ()
    assert set(analysis.usage.needs) == {"serverTools", "openLinks"}
    assert set(analysis.usage.tools_for("serverTools")) == {"show_board", "refresh_board", "board_summary"}


def test_a_widget_the_probe_could_not_read_makes_usage_unknown(board: dict[str, Any]) -> None:
    broken = copy.deepcopy(board)
    for widget in broken["uiResources"].values():
        widget["contents"] = []
        widget["error"] = {"message": "boom"}
    analysis = analyse_widgets(snap(broken))
    assert analysis.usage is None
    assert analysis.notes and "boom" in analysis.notes[0]["message"]
    entry = check_snapshot(snap(broken), load_catalog(), host_ids=["claude"])
    assert entry["hosts"][0]["verdict"] == "unknown"


@pytest.mark.parametrize(
    ("era", "version", "passed_on"),
    [
        ("modern", "2026-07-28", None),  # the probe asked for it and the server agreed: says nothing
        ("handshake", "2025-11-25", None),  # ditto in the handshake era
        ("handshake", "2024-11-05", "2024-11-05"),  # the server could not speak newer: worth comparing
    ],
)
def test_only_a_version_the_server_chose_is_passed_to_the_engine(
    board: dict[str, Any], era: str, version: str, passed_on: str | None
) -> None:
    data = copy.deepcopy(board)
    data["connection"] = {**data["connection"], "era": era, "protocolVersion": version}
    data["requestedProtocolVersion"] = "2026-07-28" if era == "modern" else PROBE_HANDSHAKE_VERSION
    assert connection_facts(snap(data)).protocol_version == passed_on


def test_a_server_info_a_hostile_server_sent_never_breaks_the_check(board: dict[str, Any]) -> None:
    data = copy.deepcopy(board)
    data["initialize"]["serverInfo"] = {"name": "", "version": "x" * 5000}
    facts = connection_facts(snap(data))
    assert facts.server_name is None and facts.server_version is None
    assert check_snapshot(snap(data), load_catalog())["hosts"]


def test_the_entry_is_plain_json(board: dict[str, Any], tmp_path: Path) -> None:
    entry = check_snapshot(snap(board), load_catalog(), target={"display": "board"})
    (tmp_path / "entry.json").write_text(json.dumps(entry), "utf-8")
    assert entry["target"]["display"] == "board"
    assert entry["summary"]["works"] >= 1


BOARD_V1 = Path(__file__).parent / "probe" / "fixtures" / "board-snapshot-v1.json"


def with_calls(*calls: dict[str, Any]) -> Snapshot:
    data = json.loads(BOARD_V1.read_text("utf-8"))
    data["schemaVersion"] = "hostcompat.snapshot/2"
    data["calls"] = [{"arguments": {}, "reason": "auto", **call} for call in calls]
    return snap(data)


def content_findings(entry: Mapping[str, Any]) -> dict[str, list[str]]:
    found = [f for f in entry["hygiene"] if f["ruleId"].startswith("TOOL-CONTENT-")]
    return {f["ruleId"]: f["tools"] for f in found}


def test_captured_results_reach_the_text_fallback_check_and_the_result_checks() -> None:
    text = {"content": [{"type": "text", "text": "3 tasks"}]}
    image = {"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]}
    snapshot = with_calls(
        {"tool": "show_board", "outcome": "ok", "result": {"content": []}},
        {"tool": "refresh_board", "outcome": "ok", "result": text},
        {"tool": "board_summary", "outcome": "timeout", "error": {"probe": "PROBE-TIMEOUT-TOOLS-CALL"}},
        {"tool": "count_tasks", "outcome": "ok", "result": image},
    )
    entry = check_snapshot(snapshot, load_catalog())
    assert content_findings(entry) == {"TOOL-CONTENT-001": ["show_board"], "TOOL-CONTENT-002": ["board_summary"]}
    evidence = {e["source"] for host in entry["hosts"] for f in host["findings"] for e in f["evidence"]}
    assert "call:count_tasks" in evidence  # the image result is evidence for the hosts that mishandle images


def test_without_captured_results_every_ui_tool_is_unchecked_and_says_why() -> None:
    (never,) = [f for f in check_snapshot(with_calls(), load_catalog())["hygiene"] if f["ruleId"] == "TOOL-CONTENT-002"]
    assert "no tool results were captured" in never["detail"]
    failed = with_calls(
        {"tool": "show_board", "outcome": "error", "error": {"code": -32603, "message": "x"}},
        {
            "tool": "refresh_board",
            "outcome": "tool-error",
            "result": {"content": [{"type": "text", "text": "down"}], "isError": True},
        },
    )
    (unusable,) = [f for f in check_snapshot(failed, load_catalog())["hygiene"] if f["ruleId"] == "TOOL-CONTENT-002"]
    assert "no usable result was captured" in unusable["detail"]
    assert unusable["tools"] == ["show_board", "refresh_board", "board_summary"]  # an error result shows no fallback


def test_an_error_result_is_evidence_for_the_hosts_that_mishandle_structured_content_on_errors() -> None:
    error = {"content": [{"type": "text", "text": "no"}], "structuredContent": {"error": "no"}, "isError": True}
    entry = check_snapshot(
        with_calls({"tool": "count_tasks", "outcome": "tool-error", "result": error}), load_catalog()
    )
    fired = [
        f
        for host in entry["hosts"]
        for f in host["findings"]
        if any(e["source"] == "call:count_tasks" for e in f["evidence"])
    ]
    assert fired and any("isError" in f["detail"] for f in fired)


@pytest.mark.parametrize(("era", "asked"), [("legacy", PROBE_HANDSHAKE_VERSION), ("modern", "2026-07-28")])
def test_a_live_probe_of_the_example_records_the_version_it_asked_for(era: Era, asked: str) -> None:
    async def run() -> Snapshot:
        return await capture(StdioTarget(DEMO_COMMAND[0], DEMO_COMMAND[1:]), era=era)

    snapshot = anyio.run(run)
    assert snapshot.requested_protocol_version == asked
    assert snapshot.protocol_version == asked  # the example speaks what it is asked for
    assert snap(snapshot.to_dict()).requested_protocol_version == asked


def test_an_old_snapshot_without_the_asked_version_checks_identically(board: dict[str, Any]) -> None:
    for version in (PROBE_HANDSHAKE_VERSION, "2024-11-05"):
        recorded = copy.deepcopy(board)
        recorded["connection"] = {**recorded["connection"], "era": "handshake", "protocolVersion": version}
        recorded["requestedProtocolVersion"] = PROBE_HANDSHAKE_VERSION
        old = copy.deepcopy(recorded)
        del old["requestedProtocolVersion"]
        assert snap(old).requested_protocol_version is None
        catalog = load_catalog()
        assert check_snapshot(snap(old), catalog) == check_snapshot(snap(recorded), catalog)
    old_file = json.loads(BOARD_V1.read_text("utf-8"))
    assert "requestedProtocolVersion" not in old_file
    with_field = {**old_file, "requestedProtocolVersion": PROBE_HANDSHAKE_VERSION}
    assert check_snapshot(snap(old_file), load_catalog()) == check_snapshot(snap(with_field), load_catalog())


def test_the_version_the_snapshot_says_was_asked_for_is_the_one_compared(board: dict[str, Any]) -> None:
    data = copy.deepcopy(board)
    data["connection"] = {**data["connection"], "era": "handshake", "protocolVersion": "2025-06-18"}
    data["requestedProtocolVersion"] = "2025-06-18"  # a probe that asked for it: the server merely agreed
    assert connection_facts(snap(data)).protocol_version is None
    del data["requestedProtocolVersion"]  # an old snapshot: its probe asked for PROBE_HANDSHAKE_VERSION
    assert connection_facts(snap(data)).protocol_version == "2025-06-18"


def test_the_stages_in_a_row_are_the_check(board: dict[str, Any]) -> None:
    snapshot, catalog = snap(board), load_catalog()
    settings = CheckSettings(catalog=catalog, host_ids=("claude", "vscode"), as_of="2026-12-01")
    checked = hygiene(judge(scan_widgets(derive(bound_values(snapshot)), settings.widget_budget), settings))
    assert checked.judged.evaluation.requirements.widget_usage is checked.judged.scanned.widgets.usage
    entry = report_entry(checked, target={**snapshot.target, "display": "board"})
    assert entry == check_snapshot(
        snapshot, catalog, host_ids=["claude", "vscode"], as_of="2026-12-01", target={"display": "board"}
    )


def test_the_requirements_are_derived_once(board: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The tools are read once: the verdicts and the hygiene check share that reading (the digest)."""
    import hostcompat.engine.hygiene.check
    import hostcompat.engine.server.digest
    import hostcompat.engine.verdicts.evaluate
    import hostcompat.pipeline

    derived = []
    real = hostcompat.pipeline.read_server_tools  # type: ignore[attr-defined]

    def counted(*args: Any, **kwargs: Any) -> Any:
        derived.append(args)
        return real(*args, **kwargs)

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("read again")

    monkeypatch.setattr(hostcompat.pipeline, "read_server_tools", counted)
    monkeypatch.setattr(hostcompat.engine.verdicts.evaluate, "digest_server", never)
    monkeypatch.setattr(hostcompat.engine.server.digest, "read_server_tools", never)
    monkeypatch.setattr(hostcompat.engine.hygiene.check, "read_tool_list", never)
    entry = check_snapshot(snap(board), load_catalog())
    requirements = entry["requirements"]
    assert requirements is not None
    assert len(derived) == 1 and entry["hosts"] and set(requirements["widgetUsage"]) >= {"serverTools"}


@pytest.mark.parametrize("connected", [False, True], ids=["never-connected", "tools-list-failed"])
def test_a_server_with_no_tool_list_is_unknown_for_that_not_for_a_truncated_one(
    board: dict[str, Any], connected: bool
) -> None:
    never = copy.deepcopy(board)
    never.update(tools=[], resources=[], resourceTemplates=[], prompts=[], uiResources={}, calls=[])
    never["coverage"] = dict.fromkeys(never["coverage"], "not-attempted")
    if connected:  # initialize went through, then tools/list failed
        never["coverage"]["tools"] = "failed"
    else:
        never["initialize"] = None
    entry: Any = check_snapshot(snap(never), load_catalog(), host_ids=["claude", "claude-code"])  # wire JSON
    for host in entry["hosts"]:
        assert host["verdict"] == "unknown"
        reasons = [reason for lane in host["lanes"].values() for reason in lane.get("unknown", [])]
        assert "widget usage (tools metadata not loaded)" in reasons
        assert not any("truncated" in reason or "only the tools seen" in reason for reason in reasons), reasons
    server_lanes = [host["lanes"]["server"].get("unknown", []) for host in entry["hosts"]]
    assert any(any(reason.startswith("no tool list:") for reason in lane) for lane in server_lanes), server_lanes
