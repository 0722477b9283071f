"""Fuzz targets, one per file reader: snapshot, host config, catalog, rules and report (issue 12).

The contract of every reader: for any bytes in the file it returns a value or raises a `HostCompatError`, never
another exception, and its memory stays bounded (a traced peak far below what a blow-up would take). Inputs are
drawn three ways: arbitrary bytes and text, real documents with one part replaced by arbitrary JSON (so the fuzzing
reaches the checks behind the parser), and hostile shapes (deep nesting, huge numbers, long strings, NaN). What a
reader accepts goes on through the rest of the pipeline: a snapshot is checked and its report rendered in every
format. Each target runs a bounded number of examples, a few seconds, in the normal test run.
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostcompat.clients.rules import load_rule_file
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.errors import HostCompatError
from hostcompat.pipeline import WidgetBudget, check_snapshot
from hostcompat.probe.host_configs import read_host_config
from hostcompat.probe.snapshot import Snapshot, read_snapshot, snapshot_to_json
from hostcompat.report import REPORT_FORMATS, read_report, render_report, report_document
from tests.probe import strategies

DATA = Path(__file__).resolve().parents[1] / "src" / "hostcompat" / "data"
MEMORY_BOUND = 64 * 1024 * 1024
"""No input here is over a few hundred kilobytes: a reader that traces more than this has blown up."""

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=_HEALTH)
"""A target that only reads: a few seconds."""
FUZZ_DEEP = settings(max_examples=20, deadline=None, suppress_health_check=_HEALTH)
"""A target that also checks and renders what it read: a few seconds too."""

json_text = strategies.json_values.map(json.dumps)
hostile_text = st.one_of(
    st.integers(min_value=1, max_value=20_000).map(lambda depth: "[" * depth + "]" * depth),
    st.integers(min_value=1, max_value=20_000).map(lambda depth: '{"a":' * depth + "1" + "}" * depth),
    st.sampled_from(["NaN", "[Infinity]", '{"a": -Infinity}', "1e999999", "-1e999999", "[1e400]", "9" * 5000]),
    st.sampled_from(["", " ", "\ufeff", "{", '{"a": 1}}', "\x00" * 100, '"\\ud800"', '{"a": "\\u0000"}']),
    st.text(max_size=300),
)
raw_bytes = st.binary(max_size=400)


@contextmanager
def bounded_memory() -> Iterator[None]:
    """The block may not trace more than `MEMORY_BOUND` bytes at its peak."""
    tracemalloc.start()
    try:
        yield
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_BOUND, f"traced peak {peak} bytes"


def outcome(read: Callable[[], Any]) -> Any:
    """What `read` returns, or None when it raised a HostCompatError; any other exception fails the test."""
    with bounded_memory():
        try:
            return read()
        except HostCompatError:
            return None


def replaced(base: Any, data: st.DataObject) -> Any:
    """`base` (a JSON value) with one part, chosen by `data`, replaced by arbitrary JSON."""
    if isinstance(base, dict) and base and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(base)))
        return {**base, key: replaced(base[key], data)}
    if isinstance(base, list) and base and data.draw(st.booleans()):
        index = data.draw(st.integers(min_value=0, max_value=len(base) - 1))
        return [*base[:index], replaced(base[index], data), *base[index + 1 :]]
    return data.draw(strategies.json_values | st.text(min_size=2000, max_size=6000) | st.just(None))


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
    return path


def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


# --- snapshot ------------------------------------------------------------------------------------------------------

BOARD_TOOL = {
    "name": "show_board",
    "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
    "_meta": {"ui": {"resourceUri": "ui://board/app.html"}},
}
BOARD_WIDGET = {
    "uri": "ui://board/app.html",
    "mimeType": "text/html;profile=mcp-app",
    "text": "<!DOCTYPE html><html><body><script>app.callServerTool({name: 'x'})</script></body></html>",
}


def base_snapshot() -> dict[str, Any]:
    dimensions = ("tools", "resources", "resourceTemplates", "prompts", "uiResources")
    return {
        "schemaVersion": "hostcompat.snapshot/1",
        "capturedAt": "2026-01-01T00:00:00Z",
        "target": {"kind": "stdio", "command": "server"},
        "client": {},
        "connection": {"era": "handshake", "protocolVersion": "2025-11-25"},
        "initialize": {"serverInfo": {"name": "board", "version": "1"}, "capabilities": {"tools": {}}},
        "limits": {},
        "coverage": dict.fromkeys(dimensions, "complete"),
        "events": [],
        "tools": [BOARD_TOOL],
        "resources": [{"uri": BOARD_WIDGET["uri"], "name": "board", "mimeType": BOARD_WIDGET["mimeType"]}],
        "uiResources": {BOARD_WIDGET["uri"]: {"contents": [BOARD_WIDGET], "referencedBy": ["tool:show_board"]}},
    }


def check_all_the_way(snapshot: Snapshot) -> None:
    """A snapshot that reads is checked, and its report renders in every format."""
    with bounded_memory():
        budget = WidgetBudget(seconds=5)
        entry = check_snapshot(snapshot, load_catalog(), host_ids=["claude", "cursor"], widget_budget=budget)
        document = report_document([entry])
        for fmt in REPORT_FORMATS:
            assert render_report(document, fmt)
    assert not [event for event in entry["events"] if event["code"] == "CHECK-FAILED"], entry["events"]


@FUZZ
@given(content=st.one_of(raw_bytes, json_text, hostile_text))
def test_snapshot_reader_on_anything(tmp_path_factory: pytest.TempPathFactory, content: str | bytes) -> None:
    path = write(files(tmp_path_factory), "snapshot.json", content)
    snapshot = outcome(lambda: read_snapshot(path))
    assert snapshot is None or isinstance(snapshot, Snapshot)


@FUZZ_DEEP
@given(data=st.data())
def test_snapshot_reader_on_a_snapshot_with_a_part_replaced(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    path = write(files(tmp_path_factory), "snapshot.json", json.dumps(replaced(base_snapshot(), data)))
    snapshot = outcome(lambda: read_snapshot(path))
    if snapshot is not None:
        check_all_the_way(snapshot)


@FUZZ_DEEP
@given(snapshot=strategies.snapshots)
def test_every_snapshot_the_probe_can_write_is_read_back_and_checked(
    tmp_path_factory: pytest.TempPathFactory, snapshot: Snapshot
) -> None:
    path = write(files(tmp_path_factory), "snapshot.json", snapshot_to_json(snapshot))
    again = outcome(lambda: read_snapshot(path))
    assert again == snapshot
    check_all_the_way(again)


# --- host config ---------------------------------------------------------------------------------------------------

CONFIG_NAMES = ("claude_desktop_config.json", ".vscode/mcp.json", "settings.json", "config.toml")
BASE_CONFIG = {
    "mcpServers": {
        "board": {"command": "python", "args": ["-m", "board"], "env": {"TOKEN": "${env:HOME}"}},
        "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}},
    }
}
toml_text = st.one_of(
    st.text(max_size=300),
    st.integers(min_value=1, max_value=5000).map(lambda depth: "a = " + "[" * depth + "]" * depth),
    st.integers(min_value=1, max_value=5000).map(lambda depth: "a = " + "{b = " * depth + "1" + "}" * depth),
    st.just('[mcp_servers.x]\ncommand = "node"\nargs = ["a", 1]\n'),
)


@FUZZ
@given(name=st.sampled_from(CONFIG_NAMES), content=st.one_of(raw_bytes, json_text, hostile_text, toml_text))
def test_config_reader_on_anything(tmp_path_factory: pytest.TempPathFactory, name: str, content: str | bytes) -> None:
    path = write(files(tmp_path_factory), name, content)
    servers = outcome(lambda: read_host_config(path, environ={"HOME": "/home/x"}))
    assert servers is None or isinstance(servers, list)


@FUZZ
@given(name=st.sampled_from(CONFIG_NAMES[:3]), data=st.data())
def test_config_reader_on_a_config_with_a_part_replaced(
    tmp_path_factory: pytest.TempPathFactory, name: str, data: st.DataObject
) -> None:
    path = write(files(tmp_path_factory), name, json.dumps(replaced(BASE_CONFIG, data)))
    servers = outcome(lambda: read_host_config(path, environ={}))
    assert servers is None or isinstance(servers, list)


# --- catalog -------------------------------------------------------------------------------------------------------


def bundled(name: str) -> Any:
    return json.loads((DATA / name).read_text("utf-8"))


CATALOG = bundled("hosts.json")
USER_CATALOG = {"catalog": CATALOG["catalog"], "hosts": CATALOG["hosts"][:2]}


@FUZZ
@given(content=st.one_of(raw_bytes, json_text, hostile_text))
def test_catalog_reader_on_anything(tmp_path_factory: pytest.TempPathFactory, content: str | bytes) -> None:
    path = write(files(tmp_path_factory), "hosts.json", content)
    assert outcome(lambda: load_catalog(overrides=[path])) is None or True
    assert outcome(lambda: load_catalog(path)) is None or True


@FUZZ
@given(data=st.data())
def test_catalog_reader_on_a_catalog_with_a_part_replaced(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    path = write(files(tmp_path_factory), "hosts.json", json.dumps(replaced(USER_CATALOG, data)))
    catalog = outcome(lambda: load_catalog(overrides=[path]))
    if catalog is not None:
        assert catalog.hosts


# --- rules ---------------------------------------------------------------------------------------------------------

RULES = bundled("client-rules.json")


@FUZZ
@given(content=st.one_of(raw_bytes, json_text, hostile_text))
def test_rule_reader_on_anything(tmp_path_factory: pytest.TempPathFactory, content: str | bytes) -> None:
    path = write(files(tmp_path_factory), "rules.json", content)
    outcome(lambda: load_rule_file(path))


@FUZZ
@given(data=st.data())
def test_rule_reader_on_rules_with_a_part_replaced(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    path = write(files(tmp_path_factory), "rules.json", json.dumps(replaced(RULES, data)))
    outcome(lambda: load_rule_file(path))


# --- report --------------------------------------------------------------------------------------------------------


def base_report() -> Any:
    snapshot = Snapshot.from_dict(base_snapshot())
    return json.loads(
        render_report(report_document([check_snapshot(snapshot, load_catalog(), host_ids=["claude"])]), "json")
    )


REPORT = base_report()


def render_all(document: Any) -> None:
    with bounded_memory():
        for fmt in REPORT_FORMATS:
            assert isinstance(render_report(document, fmt), str)


@FUZZ
@given(content=st.one_of(raw_bytes, json_text, hostile_text))
def test_report_reader_on_anything(tmp_path_factory: pytest.TempPathFactory, content: str | bytes) -> None:
    path = write(files(tmp_path_factory), "report.json", content)
    document = outcome(lambda: read_report(path))
    if document is not None:
        render_all(document)


@FUZZ_DEEP
@given(data=st.data())
def test_report_reader_on_a_report_with_a_part_replaced(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    path = write(files(tmp_path_factory), "report.json", json.dumps(replaced(REPORT, data)))
    document = outcome(lambda: read_report(path))
    if document is not None:
        render_all(document)
