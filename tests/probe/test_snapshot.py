"""The snapshot file: round trips, a clear error for anything that is not a snapshot of this version."""

from __future__ import annotations

import contextlib
import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostcompat.errors import HostCompatError, InvalidInput
from hostcompat.probe import (
    DIMENSIONS,
    SCHEMA_VERSION,
    CallRecord,
    Limits,
    ProbeEvent,
    Snapshot,
    UIResourceCapture,
    read_snapshot,
    snapshot_from_json,
    snapshot_to_json,
    write_snapshot,
)
from hostcompat.probe.snapshot import coverage_of
from tests.probe.strategies import json_objects, json_values, snapshots

STAMP = "io.modelcontextprotocol/serverInfo"
V1_SNAPSHOT = Path(__file__).parent / "fixtures" / "board-snapshot-v1.json"
"""A snapshot of the example board written by hostcompat before tool calls (format version 1)."""


def sample(**changes: Any) -> Snapshot:
    fields: dict[str, Any] = {
        "target": {"kind": "stdio", "command": "python", "args": [], "env": {}, "cwd": None},
        "captured_at": "2026-12-02T10:00:00+00:00",
        "client": {"clientInfo": {"name": "hostcompat-probe", "version": "0"}, "extensions": {}, "era": "auto"},
        "connection": {"protocolVersion": "2025-11-25", "era": "handshake", "method": "initialize"},
        "initialize": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "demo", "version": "1"},
            "instructions": "Be nice.",
        },
        "tools": ({"name": "show", "_meta": {"ui": {"resourceUri": "ui://demo/a.html"}}, "x-extra": 1},),
        "resources": ({"uri": "ui://demo/a.html", "name": "a", "_meta": {"ui": {"prefersBorder": True}}},),
        "resource_templates": (),
        "prompts": (),
        "ui_resources": {
            "ui://demo/a.html": UIResourceCapture(
                "ui://demo/a.html", ({"uri": "ui://demo/a.html", "text": "<p>hi</p>"},), None, False, 9, ("tool:show",)
            )
        },
        "limits": Limits(),
        "coverage": coverage_of(tools="complete", resources="complete", uiResources="complete"),
        "events": (ProbeEvent("PROBE-GARBAGE-OUTPUT", "warning", "probe", "2 lines", {"lines": 2}),),
        "process": {"pid": 42, "exitCode": 0},
        "duration_seconds": 1.5,
    }
    fields.update(changes)
    return Snapshot(**fields)


def test_a_snapshot_survives_the_dict_and_file_round_trips(tmp_path: Path) -> None:
    snapshot = sample()
    assert Snapshot.from_dict(snapshot.to_dict()) == snapshot
    path = write_snapshot(snapshot, tmp_path / "snap.json")
    assert read_snapshot(path) == snapshot
    assert [entry.name for entry in tmp_path.iterdir()] == ["snap.json"]  # no temporary file left behind


def test_calls_are_kept_with_their_raw_results_and_read_per_tool(tmp_path: Path) -> None:
    records = (
        CallRecord("show", {}, "auto", "ok", 0.2, result={"content": [], "x-vendor": {"kept": 1}}, bytes=40),
        CallRecord("slow", {}, "auto", "timeout", 5.0, error={"probe": "PROBE-TIMEOUT-TOOLS-CALL", "message": "late"}),
    )
    snapshot = sample(calls=records)
    assert read_snapshot(write_snapshot(snapshot, tmp_path / "calls.json")) == snapshot
    assert snapshot.to_dict()["calls"][0]["result"]["x-vendor"] == {"kept": 1}
    assert snapshot.call_results == {"show": {"content": [], "x-vendor": {"kept": 1}}}
    assert snapshot.call_outcomes == {"show": "ok", "slow": "timeout"}


def test_a_version_1_file_reads_as_a_snapshot_without_calls() -> None:
    data = json.loads(V1_SNAPSHOT.read_text("utf-8"))
    assert data["schemaVersion"] == "hostcompat.snapshot/1" and "calls" not in data
    snapshot = read_snapshot(V1_SNAPSHOT)
    assert snapshot.calls == () and snapshot.call_outcomes == {}
    assert [tool["name"] for tool in snapshot.tools] == ["show_board", "refresh_board", "board_summary", "count_tasks"]
    assert snapshot.limits.call_timeout == Limits().call_timeout  # limits it did not know take the defaults
    assert snapshot.to_dict()["schemaVersion"] == SCHEMA_VERSION  # written back, it is a version-2 file
    data["calls"] = [{"tool": "x", "reason": "auto", "outcome": "ok"}]
    assert Snapshot.from_dict(data).calls == ()  # a version-1 file has no calls, whatever it holds


def test_a_lone_surrogate_read_back_from_json_is_written_as_its_escape(tmp_path: Path) -> None:
    snapshot = sample(tools=({"name": "odd\ud800name"},))
    assert read_snapshot(write_snapshot(snapshot, tmp_path / "odd.json")) == snapshot


def test_the_file_says_its_version_and_what_is_unknown() -> None:
    data = json.loads(snapshot_to_json(sample()))
    assert data["schemaVersion"] == SCHEMA_VERSION == "hostcompat.snapshot/2"
    assert data["truncated"] == {
        "tools": False,
        "resources": False,
        "resourceTemplates": True,
        "prompts": True,
        "uiResources": False,
    }
    assert data["tools"][0]["x-extra"] == 1


def test_reading_helpers_work_for_both_eras() -> None:
    handshake = sample()
    assert handshake.server_info == {"name": "demo", "version": "1"}
    assert handshake.capabilities == {"tools": {}}
    assert handshake.instructions == "Be nice."
    assert handshake.protocol_version == "2025-11-25"
    modern = sample(
        connection={"protocolVersion": "2026-07-28", "era": "modern", "method": "server/discover"},
        initialize={"supportedVersions": ["2026-07-28"], "capabilities": {}, "_meta": {STAMP: {"name": "m"}}},
    )
    assert modern.server_info == {"name": "m"}
    assert modern.instructions is None
    broken = sample(initialize={"capabilities": [], "serverInfo": "nope"}, connection=None)
    assert broken.capabilities == {} and broken.server_info is None and broken.protocol_version is None


def test_lookups_find_events_listings_and_unknown_dimensions() -> None:
    snapshot = sample()
    assert snapshot.events_with("PROBE-GARBAGE-OUTPUT") == snapshot.events
    assert snapshot.events_with("PROBE-NOTHING") == ()
    assert snapshot.resource_listing("ui://demo/a.html") == snapshot.resources[0]
    assert snapshot.resource_listing("ui://demo/b.html") is None
    assert [dimension for dimension in DIMENSIONS if snapshot.is_unknown(dimension)] == ["resourceTemplates", "prompts"]


@pytest.mark.parametrize(
    "text",
    [
        b"",
        b"not json",
        b"\xff\xfe\x00",
        b"[]",
        b'{"schemaVersion": "hostcompat.snapshot/2"}',
        b'{"schemaVersion": "hostcompat.snapshot/1"}',
        b"[" * 100_000,
    ],
)
def test_anything_but_a_snapshot_of_this_version_is_invalid_input(text: bytes) -> None:
    with pytest.raises(InvalidInput):
        snapshot_from_json(text)


def test_a_missing_or_oversized_file_is_invalid_input(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="cannot read"):
        read_snapshot(tmp_path / "absent.json")
    path = write_snapshot(sample(), tmp_path / "big.json")
    with pytest.raises(InvalidInput, match="larger than"):
        read_snapshot(path, max_bytes=10)


def test_coverage_must_name_every_dimension_with_a_known_state() -> None:
    with pytest.raises(InvalidInput):
        sample(coverage={"tools": "complete"})
    with pytest.raises(InvalidInput):
        sample(coverage={**coverage_of(), "widgets": "complete"})
    with pytest.raises(InvalidInput):
        sample(coverage={**coverage_of(), "tools": "done"})
    with pytest.raises(InvalidInput):
        coverage_of(widgets="complete")


def test_reading_a_snapshot_never_imports_the_sdk(tmp_path: Path) -> None:
    path = write_snapshot(sample(), tmp_path / "snap.json")
    script = (
        "import sys\n"
        "from hostcompat.probe import read_snapshot\n"
        f"snapshot = read_snapshot({str(path)!r})\n"
        "assert snapshot.tools[0]['name'] == 'show'\n"
        "print(sorted(name for name in sys.modules if name == 'mcp' or name.startswith(('mcp.', 'mcp_types'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


@given(snapshots)
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
def test_any_snapshot_round_trips_through_json(snapshot: Snapshot) -> None:
    assert snapshot_from_json(snapshot_to_json(snapshot)) == snapshot
    assert Snapshot.from_dict(snapshot.to_dict()) == snapshot


@given(json_values)
def test_arbitrary_json_is_a_snapshot_or_invalid_input(data: Any) -> None:
    before = copy.deepcopy(data)
    try:
        result = Snapshot.from_dict(data)
    except HostCompatError as error:
        assert isinstance(error, InvalidInput)
    else:
        assert isinstance(result, Snapshot)
    assert data == before


@given(st.sampled_from(sorted(sample().to_dict())), json_values)
def test_a_snapshot_with_any_one_field_replaced_reads_or_fails_cleanly(key: str, value: Any) -> None:
    data = sample().to_dict()
    data[key] = value
    before = copy.deepcopy(data)
    with contextlib.suppress(InvalidInput):
        Snapshot.from_dict(data)
    assert data == before


@given(json_objects)
def test_a_ui_capture_reads_from_any_object_or_fails_cleanly(data: dict[str, Any]) -> None:
    try:
        capture = UIResourceCapture.from_dict("ui://x/y", data)
    except InvalidInput:
        return
    assert UIResourceCapture.from_dict("ui://x/y", capture.to_dict()) == capture


def test_the_requested_protocol_version_is_optional_and_round_trips(tmp_path: Path) -> None:
    asked = sample(requested_protocol_version="2025-11-25")
    assert asked.to_dict()["requestedProtocolVersion"] == "2025-11-25"
    assert read_snapshot(write_snapshot(asked, tmp_path / "asked.json")) == asked
    data = sample().to_dict()
    del data["requestedProtocolVersion"]  # as a file written before the probe recorded it
    assert Snapshot.from_dict(data).requested_protocol_version is None
    assert read_snapshot(V1_SNAPSHOT).requested_protocol_version is None
    data["requestedProtocolVersion"] = 2025
    with pytest.raises(InvalidInput, match="requestedProtocolVersion"):
        Snapshot.from_dict(data)
