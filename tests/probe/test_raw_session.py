"""The probe's own stdio session (`_session`, `_negotiate`) meets a server as the official client does.

Each scenario of `servers/scripted.py` (and each hostile server) is probed twice: by the probe's own session, and by
the official `mcp` client (the stored SDK validators switched off, as for another SDK version). The server must read
the same bytes from both, and both snapshots must be the same but for the times and the process id.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from hostcompat.probe import MCP_APPS, Advertise, Era, Limits, Snapshot, StdioTarget, _sdk_schemas, capture
from tests.probe._support import REPO, TIGHT, hostile

pytestmark = [pytest.mark.anyio, pytest.mark.xdist_group("timing")]

LIMITS = Limits(connect_timeout=20.0, step_timeout=5.0, total_timeout=40.0, shutdown_grace=1.0, call_timeout=1.0)


_TIME_LEFT = re.compile(r"within [0-9.]+ s")
"""A call's time limit when it is what was left of the probe's total time: it differs between any two runs."""


def comparable(snapshot: Snapshot) -> dict[str, Any]:
    """The snapshot without what differs between any two runs (times, the process id)."""
    data = json.loads(_TIME_LEFT.sub("within … s", json.dumps(snapshot.to_dict())))
    del data["capturedAt"], data["durationSeconds"]
    if data.get("process"):
        data["process"] = {key: value for key, value in data["process"].items() if key != "pid"}
    for call in data.get("calls", []):
        del call["durationSeconds"]
    return dict(data)


async def both(
    target: StdioTarget, record: Path | None, monkeypatch: pytest.MonkeyPatch, **options: Any
) -> tuple[tuple[Snapshot, list[bytes]], tuple[Snapshot, list[bytes]]]:
    """The probe's own capture and the official client's, each with the lines the server read."""
    assert _sdk_schemas.load() is not None, "the stored SDK validators do not match the installed SDK"
    runs = []
    for official in (False, True):
        if official:
            monkeypatch.setattr(_sdk_schemas, "load", lambda: None)
        snapshot = await capture(target, **options)
        lines = record.read_bytes().splitlines() if record is not None else []
        runs.append((snapshot, lines))
    monkeypatch.undo()
    return runs[0], runs[1]


def scripted(scenario: str, record: Path) -> StdioTarget:
    return StdioTarget(sys.executable, ["-m", "tests.probe.servers.scripted", scenario, str(record)], cwd=str(REPO))


CASES: list[tuple[str, Era, Advertise]] = [
    ("handshake", "auto", MCP_APPS),
    ("handshake", "auto", None),
    ("handshake", "legacy", MCP_APPS),
    ("handshake", "modern", MCP_APPS),
    ("modern", "auto", MCP_APPS),
    ("modern", "modern", None),
    ("modern", "legacy", MCP_APPS),
    ("modern-loose", "auto", MCP_APPS),
    ("unsupported", "auto", MCP_APPS),
    ("legacy-versions", "auto", MCP_APPS),
    ("bad-discover", "auto", MCP_APPS),
    ("bad-discover", "modern", MCP_APPS),
    ("bad-initialize", "auto", MCP_APPS),
    ("odd-version", "legacy", MCP_APPS),
    ("asks", "auto", MCP_APPS),
    ("asks", "modern", MCP_APPS),
    ("string-ids", "auto", MCP_APPS),
    ("slow-call", "auto", MCP_APPS),
]


@pytest.mark.parametrize(("scenario", "era", "advertise"), CASES)
async def test_a_server_reads_the_same_and_is_captured_the_same(
    scenario: str, era: Era, advertise: Advertise, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "record.jsonl"
    target = scripted(scenario, record)
    (own, own_lines), (sdk, sdk_lines) = await both(
        target, record, monkeypatch, limits=LIMITS, era=era, advertise=advertise
    )
    assert own_lines, "the server read nothing"
    assert own_lines == sdk_lines
    assert comparable(own) == comparable(sdk)


def test_the_scenarios_cover_each_way_through_the_handshake() -> None:
    assert {scenario for scenario, _era, _advertise in CASES} >= {
        "handshake",
        "modern",
        "modern-loose",
        "unsupported",
        "legacy-versions",
        "bad-discover",
        "bad-initialize",
        "odd-version",
        "asks",
        "string-ids",
        "slow-call",
    }


HOSTILE = [
    "wrong_shapes",
    "garbage_stdout",
    "invalid_utf8",
    "deep_nesting",
    "long_values",
    "many_tools",
    "big_widget",
    "endless_pages",
    "crash_mid_list",
    "exit_at_start",
    "stderr_flood",
    "leaky",
    "tool_calls",
]


@pytest.mark.parametrize("name", HOSTILE)
async def test_a_hostile_server_is_captured_the_same(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    (own, _), (sdk, _) = await both(hostile(name), None, monkeypatch, limits=TIGHT)
    assert comparable(own) == comparable(sdk)


def test_the_codes_and_keys_are_the_sdks() -> None:
    import mcp_types
    from mcp.client import session

    from hostcompat.probe import _negotiate, _rpc, _session, _wire

    for name in (
        "CONNECTION_CLOSED",
        "REQUEST_TIMEOUT",
        "UNSUPPORTED_PROTOCOL_VERSION",
        "INVALID_REQUEST",
        "METHOD_NOT_FOUND",
        "INVALID_PARAMS",
    ):
        assert getattr(_rpc, name) == getattr(mcp_types, name), name
    assert _wire.PROTOCOL_VERSION_META_KEY == mcp_types.PROTOCOL_VERSION_META_KEY
    assert _session.CLIENT_INFO_META_KEY == mcp_types.CLIENT_INFO_META_KEY
    assert _session.CLIENT_CAPABILITIES_META_KEY == mcp_types.CLIENT_CAPABILITIES_META_KEY
    assert _negotiate.DISCOVER_TIMEOUT_SECONDS == session.DISCOVER_TIMEOUT_SECONDS


@pytest.mark.parametrize(
    "params",
    [
        {"name": "t", "arguments": {"x": float("nan"), "y": float("inf"), "big": 10**30, "é": "ü\u2028\x00"}},
        {"uri": "ui://a b/é?x=1#f", "_meta": {"k": [1, 2.5, True, None, {"n": -0.0}]}},
        {"cursor": 'c"\\'},
    ],
)
def test_a_request_is_written_as_the_sdks_transport_writes_it(params: dict[str, Any]) -> None:
    from mcp_types import JSONRPCRequest

    from hostcompat.probe._sdk import SessionMessage
    from hostcompat.probe._sdk_wire import SdkStdioCodec
    from hostcompat.probe._session import RawCodec

    validators = _sdk_schemas.load()
    assert validators is not None
    message = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}
    official = SdkStdioCodec().dump(SessionMessage(JSONRPCRequest.model_validate(message)))
    assert RawCodec(validators).dump(message) == official
