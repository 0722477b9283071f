import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.clients.detect import CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY
from hostcompat.clients.proxy.tracker import Pending, SessionTracker
from hostcompat.clients.rules import load_bundled_rules

RULES = load_bundled_rules()
CODEX_INIT = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "codex-mcp-client"}}
CLAUDE_INIT = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "claude-code"}}
CALL_RESULT = {"content": [{"type": "text", "text": "t", "annotations": {"priority": 0.3}}], "x-extra": 1}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
json_objects = st.dictionaries(
    st.sampled_from(["clientInfo", "_meta", "name", "content", "tools", "progressToken", "requestId", "x"]),
    json_values,
    max_size=5,
)
methods = st.sampled_from(["initialize", "tools/list", "tools/call", "resources/list", "prompts/get", "ping", "x/y"])


def test_initialize_params_name_the_client_and_plan_its_rules() -> None:
    tracker = SessionTracker(RULES)
    tracker.client_request(1, "initialize", CODEX_INIT)
    assert tracker.identity is not None and tracker.identity.name == "codex-mcp-client"
    assert "codex.round-annotation-priority" in tracker.profile.rule_ids


def test_the_negotiated_version_comes_from_the_initialize_result() -> None:
    tracker = SessionTracker(RULES)
    tracker.client_request(1, "initialize", CODEX_INIT)
    tracker.server_result(1, {"protocolVersion": "2025-03-26", "capabilities": {}})
    assert tracker.protocol_version == "2025-03-26"


def test_a_modern_request_names_its_client_in_meta_on_every_request() -> None:
    tracker = SessionTracker(RULES)
    meta = {CLIENT_INFO_META_KEY: {"name": "claude-code", "version": "2.0"}, PROTOCOL_VERSION_META_KEY: "2026-07-28"}
    tracker.client_request("a", "tools/list", {"_meta": meta})
    assert tracker.identity is not None and tracker.identity.name == "claude-code"
    assert tracker.protocol_version == "2026-07-28"
    meta = {CLIENT_INFO_META_KEY: {"name": "codex-mcp-client", "version": "0.150.0"}}
    tracker.client_request("b", "tools/list", {"_meta": meta})
    assert tracker.identity is not None and tracker.identity.name == "codex-mcp-client"


def test_a_malformed_client_info_means_no_identity_and_no_rewrites() -> None:
    tracker = SessionTracker(RULES)
    tracker.client_request(1, "initialize", {"clientInfo": {"name": 42}})
    assert tracker.identity is None
    tracker.client_request(2, "tools/call", {"name": "x"})
    answer = tracker.server_result(2, CALL_RESULT)
    assert answer is not None and answer.result is CALL_RESULT


def test_codex_results_are_rewritten_and_the_original_is_left_alone() -> None:
    tracker = SessionTracker(RULES)
    tracker.client_request(1, "initialize", CODEX_INIT)
    tracker.client_request(2, "tools/call", {"name": "x"})
    original = copy.deepcopy(CALL_RESULT)
    answer = tracker.server_result(2, CALL_RESULT)
    assert answer is not None
    assert answer.result["content"][0]["annotations"]["priority"] == 0
    assert answer.applied == ("codex.round-annotation-priority",)
    assert original == CALL_RESULT
    assert tracker.applied == {"codex.round-annotation-priority": 1}


def test_an_unmatched_client_gets_the_very_same_result_object() -> None:
    tracker = SessionTracker(RULES)
    tracker.client_request(1, "initialize", CLAUDE_INIT)
    tracker.client_request(2, "tools/call", {"name": "x"})
    answer = tracker.server_result(2, CALL_RESULT)
    assert answer is not None and answer.result is CALL_RESULT and answer.applied == ()


def test_a_result_for_an_id_not_in_flight_is_not_forwarded() -> None:
    tracker = SessionTracker(RULES)
    assert tracker.server_result(99, {}) is None
    assert tracker.server_error(99) is None
    tracker.client_request(1, "ping", None)
    assert tracker.server_result(1, {}) is not None
    assert tracker.server_result(1, {}) is None


def test_ids_one_and_string_one_are_different_requests() -> None:
    tracker = SessionTracker(RULES)
    tracker.client_request(1, "ping", None)
    tracker.client_request("1", "tools/list", None)
    assert tracker.pending() == {1: Pending("ping"), "1": Pending("tools/list")}
    answer = tracker.server_result("1", {"tools": []})
    assert answer is not None and answer.pending.method == "tools/list"


def test_progress_goes_with_the_request_that_asked_for_it() -> None:
    tracker = SessionTracker(RULES)
    tracker.client_request(1, "tools/call", {"name": "a", "_meta": {"progressToken": "p1"}})
    tracker.client_request(2, "tools/call", {"name": "b"})
    progress = {"progressToken": "p1", "progress": 1}
    assert tracker.related_request("notifications/progress", progress, standalone_stream=True) == 1


def test_other_server_messages_use_the_standalone_stream_or_else_the_newest_request() -> None:
    tracker = SessionTracker(RULES)
    assert tracker.related_request("sampling/createMessage", {}, standalone_stream=False) is None
    tracker.client_request(1, "tools/call", {"name": "a"})
    tracker.client_request(2, "tools/call", {"name": "b"})
    assert tracker.related_request("sampling/createMessage", {}, standalone_stream=True) is None
    assert tracker.related_request("sampling/createMessage", {}, standalone_stream=False) == 2
    assert tracker.related_request("notifications/progress", {"progressToken": "gone"}, standalone_stream=False) == 2


def test_a_cancellation_names_the_request_it_ends_and_forgets_it() -> None:
    tracker = SessionTracker(RULES)
    tracker.client_request(7, "tools/call", {"name": "a", "_meta": {"progressToken": 3}})
    assert tracker.client_notification("notifications/cancelled", {"requestId": 7, "reason": "r"}) == 7
    assert tracker.pending() == {}
    assert tracker.related_request("notifications/progress", {"progressToken": 3}, standalone_stream=True) is None
    assert tracker.client_notification("notifications/cancelled", {"requestId": 7}) is None
    assert tracker.client_notification("notifications/initialized", None) is None


def test_drain_hands_back_every_request_oldest_first_and_forgets_them() -> None:
    tracker = SessionTracker(RULES)
    for request_id, method in ((3, "tools/call"), ("b", "tools/list"), (1, "ping")):
        tracker.client_request(request_id, method, None)
    assert [request_id for request_id, _ in tracker.drain()] == [3, "b", 1]
    assert tracker.pending() == {}


def test_the_session_is_full_at_its_in_flight_limit() -> None:
    tracker = SessionTracker(RULES, max_pending=2)
    tracker.client_request(1, "ping", None)
    assert not tracker.is_full()
    tracker.client_request(2, "ping", None)
    assert tracker.is_full()


def test_a_renamed_tool_is_routed_back_to_the_server_name() -> None:
    tracker = SessionTracker(RULES)
    tracker.client_request(1, "initialize", CODEX_INIT)
    tracker.client_request(2, "tools/list", {})
    answer = tracker.server_result(2, {"tools": [{"name": "get.weather", "inputSchema": {"type": "object"}}]})
    assert answer is not None and answer.result["tools"][0]["name"] == "get_weather"
    params = {"name": "get_weather", "arguments": {"city": "Oslo"}}
    assert tracker.client_request(3, "tools/call", params) == {"name": "get.weather", "arguments": {"city": "Oslo"}}
    assert params == {"name": "get_weather", "arguments": {"city": "Oslo"}}


def test_request_params_then_record_request_does_what_client_request_does() -> None:
    whole, split = SessionTracker(RULES), SessionTracker(RULES)
    listing = {"tools": [{"name": "get.weather", "inputSchema": {"type": "object"}}]}
    for tracker in (whole, split):
        tracker.client_request(1, "initialize", CODEX_INIT)
        tracker.server_result(1, {})
        tracker.client_request(2, "tools/list", {})
        tracker.server_result(2, listing)
    params = {"name": "get_weather", "arguments": {}, "_meta": {"progressToken": "p"}}
    expected = whole.client_request(3, "tools/call", params)
    forwarded = split.request_params("tools/call", params)
    assert 3 not in split.pending()
    split.record_request(3, "tools/call", params)
    assert forwarded == expected == {"name": "get.weather", "arguments": {}, "_meta": {"progressToken": "p"}}
    assert split.pending() == whole.pending() == {3: Pending("tools/call", "p")}
    assert split.related_request("notifications/progress", {"progressToken": "p"}, standalone_stream=True) == 3


def test_a_profile_without_request_rules_hands_back_the_very_same_params() -> None:
    tracker = SessionTracker(RULES)
    tracker.client_request(1, "initialize", CODEX_INIT)
    params = {"name": "echo", "arguments": {"text": "x"}}
    assert tracker.request_params("tools/call", params) is params


@settings(max_examples=300, deadline=None)
@given(methods, json_objects, json_values, st.booleans())
def test_any_json_is_tracked_without_errors_or_mutation(
    method: str, params: dict[str, Any], result: Any, standalone: bool
) -> None:
    tracker = SessionTracker(RULES)
    tracker.client_request(0, "initialize", CODEX_INIT)
    before_params, before_result = copy.deepcopy(params), copy.deepcopy(result)
    tracker.client_request(1, method, params)
    tracker.related_request(method, params, standalone_stream=standalone)
    tracker.client_notification(method, params)
    tracker.server_result(1, result)
    tracker.server_error(params.get("requestId"))
    assert params == before_params
    assert result == before_result
