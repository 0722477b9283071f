"""Hypothesis strategies for the probe's plain data: JSON values, events, captures and whole snapshots."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from hostcompat.probe import COVERAGES, DIMENSIONS, CallRecord, Limits, ProbeEvent, Snapshot, UIResourceCapture
from hostcompat.probe.calls import CALL_OUTCOMES, CALL_REASONS
from hostcompat.probe.events import SEVERITIES, STEPS

json_scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10)
)
json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
json_objects = st.dictionaries(st.text(max_size=8), json_values, max_size=5)

event_codes = st.from_regex(r"PROBE-[A-Z0-9]{1,6}(-[A-Z0-9]{1,6}){0,3}", fullmatch=True)

events = st.builds(
    ProbeEvent,
    code=event_codes,
    severity=st.sampled_from(SEVERITIES),
    step=st.sampled_from(STEPS),
    message=st.text(max_size=40),
    detail=json_objects,
)

ui_captures = st.builds(
    UIResourceCapture,
    uri=st.text(max_size=20).map(lambda tail: f"ui://{tail}"),
    contents=st.lists(json_objects, max_size=2).map(tuple),
    error=st.none() | json_objects,
    truncated=st.booleans(),
    bytes=st.none() | st.integers(min_value=0, max_value=10**12),
    referenced_by=st.lists(st.text(max_size=10), max_size=3).map(tuple),
)

call_records = st.builds(
    CallRecord,
    tool=st.text(max_size=10),
    arguments=json_objects,
    reason=st.sampled_from(CALL_REASONS),
    outcome=st.sampled_from(CALL_OUTCOMES),
    duration_seconds=st.floats(min_value=0, max_value=10**4),
    result=st.none() | json_objects,
    error=st.none() | json_objects,
    bytes=st.none() | st.integers(min_value=0, max_value=10**12),
)

limits = st.builds(
    Limits,
    connect_timeout=st.floats(min_value=0.01, max_value=5),
    step_timeout=st.floats(min_value=0.01, max_value=5),
    total_timeout=st.floats(min_value=5, max_value=1000),
    max_pages=st.integers(min_value=1, max_value=10**6),
    max_items=st.integers(min_value=1, max_value=10**9),
    call_timeout=st.floats(min_value=0.01, max_value=100),
    max_call_result_bytes=st.integers(min_value=1, max_value=10**12),
    max_auto_calls=st.integers(min_value=1, max_value=1000),
)

snapshots = st.builds(
    Snapshot,
    target=json_objects,
    captured_at=st.text(max_size=30),
    client=json_objects,
    connection=st.none() | json_objects,
    initialize=st.none() | json_objects,
    tools=st.lists(json_objects, max_size=3).map(tuple),
    resources=st.lists(json_objects, max_size=3).map(tuple),
    resource_templates=st.lists(json_objects, max_size=2).map(tuple),
    prompts=st.lists(json_objects, max_size=2).map(tuple),
    ui_resources=st.lists(ui_captures, max_size=3).map(lambda captures: {item.uri: item for item in captures}),
    limits=st.just(Limits()) | limits,
    coverage=st.fixed_dictionaries({dimension: st.sampled_from(COVERAGES) for dimension in DIMENSIONS}),
    events=st.lists(events, max_size=3).map(tuple),
    process=st.none() | json_objects,
    duration_seconds=st.floats(min_value=0, max_value=10**6),
    calls=st.lists(call_records, max_size=3).map(tuple),
    requested_protocol_version=st.none() | st.text(max_size=12),
)
