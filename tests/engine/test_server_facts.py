import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.engine.server.facts import GUARDED_CALLS_KEY, WidgetUsage
from hostcompat.errors import InvalidInput


def test_guarded_calls_are_read_from_and_written_to_their_own_key() -> None:
    raw = {"downloadFile": ["a", "b"], GUARDED_CALLS_KEY: {"downloadFile": ["b"]}}
    usage = WidgetUsage.from_dict(raw)
    assert usage.tools_for("downloadFile") == ("a", "b")
    assert usage.guarded_tools_for("downloadFile") == ("b",)
    assert usage.guarded_tools_for("message") == ()
    assert GUARDED_CALLS_KEY not in usage.needs
    assert usage.to_dict() == raw


def test_mcpjams_shape_without_guards_is_unchanged() -> None:
    raw = {"message": ["a"]}
    assert WidgetUsage.from_dict(raw).to_dict() == raw


@pytest.mark.parametrize(
    "guarded", [{"downloadFile": ["zz"]}, {"message": ["a"]}, ["a"], {"downloadFile": "a"}, {"bad key!": []}]
)
def test_guarded_tools_must_be_users_of_that_need(guarded: Any) -> None:
    with pytest.raises(InvalidInput):
        WidgetUsage.from_dict({"downloadFile": ["a"], GUARDED_CALLS_KEY: guarded})


def test_a_need_is_guarded_for_a_tool_only_when_every_use_is() -> None:
    usage = WidgetUsage.from_tool_uses(
        [("a", "downloadFile", True), ("a", "downloadFile", False), ("b", "downloadFile", True), ("a", "message", True)]
    )
    assert usage.tools_for("downloadFile") == ("a", "b")
    assert dict(usage.guarded) == {"downloadFile": ("b",), "message": ("a",)}
    assert usage.sandbox_permission_names is None


def test_permissions_are_collected_per_name_with_their_tools() -> None:
    usage = WidgetUsage.from_tool_uses([], sandbox_permissions={"a": ["camera"], "b": ["camera", "microphone"]})
    assert usage.sandbox_permission_names == ("camera", "microphone")
    assert dict(usage.sandbox_permission_tools) == {"camera": ("a", "b"), "microphone": ("b",)}


@pytest.mark.parametrize(
    ("uses", "permissions"),
    [
        ([("a", "message")], None),
        ([("a", "message", "yes")], None),
        ([(1, "message", True)], None),
        ([("a", ["message"], True)], None),
        ([], {"a": "camera"}),
        ([], {"a": [3]}),
        ([], ["a"]),
    ],
)
def test_malformed_uses_are_invalid_input(uses: Any, permissions: Any) -> None:
    with pytest.raises(InvalidInput):
        WidgetUsage.from_tool_uses(uses, sandbox_permissions=permissions)


@given(
    st.lists(st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(["message", "logging"]), st.booleans()), max_size=8)
)
def test_a_usage_built_from_uses_survives_json_and_back(uses: list[tuple[str, str, bool]]) -> None:
    usage = WidgetUsage.from_tool_uses(uses)
    assert WidgetUsage.from_dict(json.loads(json.dumps(usage.to_dict()))) == usage
    for need, tools in usage.guarded.items():
        assert set(tools) <= set(usage.tools_for(need))
