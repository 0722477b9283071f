import copy
import json
import re
import string
import subprocess
import sys
from typing import Any, NoReturn

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hostcompat.clients import rewrite as rewrite_module
from hostcompat.clients.detect import ClientIdentity, parse_client_spec
from hostcompat.clients.rewrite import (
    EMPTY_SESSION,
    SessionProfile,
    SessionState,
    infer_method,
    may_rewrite_result,
    plan_rewrites,
    resolve_tool_name,
    rewrite_request,
    rewrite_result,
)
from hostcompat.clients.rewrites.operations import OPERATIONS, ResultOperation, normalize_params
from hostcompat.clients.rules import load_bundled_rules, merge_rules, parse_rule_document

BUNDLED = load_bundled_rules()
CODEX = parse_client_spec("codex-mcp-client@0.148.0-alpha.9")
CURSOR = parse_client_spec("cursor-vscode@1.6.14")
EVERY_RULE = SessionProfile(ClientIdentity(name="everyone"), BUNDLED)
METHODS = [
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
]


def test_no_identity_plans_no_rules() -> None:
    assert plan_rewrites(None, BUNDLED).rules == ()


def test_an_unknown_client_plans_no_rules() -> None:
    assert plan_rewrites(parse_client_spec("some-new-client@9.9.9"), BUNDLED).rules == ()


def test_codex_plans_its_rules_in_file_order() -> None:
    planned = plan_rewrites(CODEX, BUNDLED).rule_ids
    assert planned == tuple(rule.id for rule in BUNDLED if rule.id.startswith("codex."))
    assert "codex.round-annotation-priority" in planned


def test_a_switched_off_rule_is_not_planned() -> None:
    overlay = parse_rule_document({"format": 1, "disabled": ["codex.round-annotation-priority"]}, origin="user.json")
    planned = plan_rewrites(CODEX, merge_rules(BUNDLED, overlay)).rule_ids
    assert "codex.round-annotation-priority" not in planned
    assert "codex.resource-link-to-text" in planned


def test_an_empty_profile_returns_the_result_and_the_state_themselves() -> None:
    result = {"content": [{"type": "text", "text": "x", "annotations": {"priority": 0.5}}]}
    state = SessionState({"a_b": "a.b"})
    rewritten = rewrite_result("tools/call", result, SessionProfile(None), state)
    assert rewritten.result is result
    assert rewritten.state is state
    assert rewritten.applied == ()


@pytest.mark.parametrize("result", [None, [], "text", 3, {"unexpected": True}])
def test_results_of_unexpected_shapes_pass_through_every_rule(result: Any) -> None:
    for method in METHODS:
        assert rewrite_result(method, result, EVERY_RULE).result is result


def test_an_unknown_method_is_never_rewritten() -> None:
    result = {"content": [{"type": "text", "text": "x", "annotations": {"priority": 0.5}}]}
    assert rewrite_result("sampling/createMessage", result, EVERY_RULE).result is result


def test_a_trigger_that_does_not_fire_leaves_the_result_alone() -> None:
    claude = plan_rewrites(parse_client_spec("claude-code@2.1.121"), BUNDLED)
    text_only = {"content": [{"type": "text", "text": "{}"}], "structuredContent": {}}
    assert rewrite_result("tools/call", text_only, claude).result is text_only


def test_several_rules_apply_in_order_and_report_themselves() -> None:
    profile = plan_rewrites(CODEX, BUNDLED)
    result = {
        "content": [
            {"type": "text", "text": "x", "annotations": {"priority": 0.5}},
            {"type": "resource_link", "uri": "file:///r", "name": "r", "annotations": {"priority": 0.9}},
        ]
    }
    rewritten = rewrite_result("tools/call", result, profile)
    assert rewritten.applied == ("codex.round-annotation-priority", "codex.resource-link-to-text")
    assert rewritten.result["content"][1] == {
        "type": "text",
        "text": "[Resource link] r: file:///r",
        "annotations": {"priority": 1},
    }


def test_renamed_tools_are_remembered_and_calls_to_the_new_name_reach_the_real_tool() -> None:
    profile = plan_rewrites(CURSOR, BUNDLED)
    listing = {"tools": [{"name": "meta.index", "inputSchema": {"type": "object"}}]}
    listed = rewrite_result("tools/list", listing, profile)
    assert listed.result["tools"][0]["name"] == "meta_index"
    assert listed.applied == ("cursor.sanitize-tool-names",)
    assert resolve_tool_name(listed.state, "meta_index") == "meta.index"
    assert resolve_tool_name(listed.state, "other") == "other"
    assert EMPTY_SESSION.tool_names == {}

    call = {"name": "meta_index", "arguments": {"q": 1}}
    routed = rewrite_request("tools/call", call, profile, listed.state)
    assert routed.params == {"name": "meta.index", "arguments": {"q": 1}}
    assert routed.params["arguments"] is call["arguments"]
    assert call["name"] == "meta_index"


def test_listing_the_same_tools_again_keeps_the_same_state_object() -> None:
    profile = plan_rewrites(CURSOR, BUNDLED)
    listing = {"tools": [{"name": "a.b", "inputSchema": {}}, {"name": "c-d", "inputSchema": {}}]}
    first = rewrite_result("tools/list", listing, profile)
    again = rewrite_result("tools/list", copy.deepcopy(listing), profile, first.state)
    assert again.state is first.state
    assert again.result == first.result


def test_a_real_tool_that_takes_an_exposed_name_replaces_the_stale_mapping() -> None:
    profile = plan_rewrites(CURSOR, BUNDLED)
    first = rewrite_result("tools/list", {"tools": [{"name": "a.b"}]}, profile)
    assert resolve_tool_name(first.state, "a_b") == "a.b"
    second = rewrite_result("tools/list", {"tools": [{"name": "a_b"}]}, profile, first.state)
    assert resolve_tool_name(second.state, "a_b") == "a_b"


def test_pages_accumulate_in_the_session_state() -> None:
    profile = plan_rewrites(CURSOR, BUNDLED)
    page_one = rewrite_result("tools/list", {"tools": [{"name": "a.one"}], "nextCursor": "2"}, profile)
    page_two = rewrite_result("tools/list", {"tools": [{"name": "b.two"}]}, profile, page_one.state)
    assert dict(page_two.state.tool_names) == {"a_one": "a.one", "b_two": "b.two"}


def test_the_session_remembers_a_bounded_number_of_renames(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rewrite_module, "MAX_REMEMBERED_RENAMES", 3)
    profile = plan_rewrites(CURSOR, BUNDLED)
    listing = {"tools": [{"name": f"tool.{index}"} for index in range(5)]}
    state = rewrite_result("tools/list", listing, profile).state
    assert list(state.tool_names) == ["tool_2", "tool_3", "tool_4"]


def test_request_rules_strip_arguments_and_leave_clean_requests_alone() -> None:
    n8n = plan_rewrites(parse_client_spec("@n8n/n8n-nodes-langchain.mcpClientTool@1"), BUNDLED)
    clean = {"name": "search", "arguments": {"q": "x"}}
    assert rewrite_request("tools/call", clean, n8n).params is clean
    assert rewrite_request("tools/list", {"cursor": "x"}, n8n).applied == ()
    assert rewrite_request("tools/call", ["not", "params"], n8n).params == ["not", "params"]


def test_requests_from_clients_without_rules_are_routed_but_not_otherwise_changed() -> None:
    params = {"name": "a_b", "arguments": {"toolCallId": "x"}}
    routed = rewrite_request("tools/call", params, SessionProfile(None), SessionState({"a_b": "a.b"}))
    assert routed.params == {"name": "a.b", "arguments": {"toolCallId": "x"}}
    assert routed.applied == ()


@pytest.mark.parametrize(
    ("result", "method"),
    [
        ({"tools": []}, "tools/list"),
        ({"content": []}, "tools/call"),
        ({"structuredContent": {}}, "tools/call"),
        ({"resources": []}, "resources/list"),
        ({"resourceTemplates": []}, "resources/templates/list"),
        ({"contents": []}, "resources/read"),
        ({"prompts": []}, "prompts/list"),
        ({"messages": []}, "prompts/get"),
        ({"other": 1}, None),
        ([], None),
    ],
)
def test_the_method_of_a_bare_result_is_inferred_from_its_keys(result: Any, method: str | None) -> None:
    assert infer_method(result) == method


json_leaves = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
json_values = st.recursive(
    json_leaves,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=30,
)
schemas = st.recursive(
    st.fixed_dictionaries({}, optional={"type": st.sampled_from(["string", "object", ["string", "null"]])}),
    lambda children: st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["object", "string"]),
            "properties": st.dictionaries(st.sampled_from(["a", "b", "$ref", "$schema"]), children, max_size=3),
            "items": children,
            "anyOf": st.lists(children, max_size=3),
            "$ref": st.sampled_from(["#", "#/$defs/A", "#/properties/a", "#/nope", "https://x"]),
            "$defs": st.dictionaries(st.sampled_from(["A", "B"]), children, max_size=2),
            "$schema": st.just("https://json-schema.org/draft/2020-12/schema"),
            "enum": st.lists(json_leaves, max_size=3),
        },
    ),
    max_leaves=12,
)
blocks = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "image", "audio", "resource", "resource_link", "odd"])},
    optional={
        "annotations": st.fixed_dictionaries({}, optional={"priority": json_leaves, "audience": json_values}),
        "resource": st.fixed_dictionaries({}, optional={"annotations": json_values, "uri": json_leaves}),
        "uri": json_leaves,
        "name": json_leaves,
        "title": json_leaves,
        "mimeType": json_leaves,
    },
)
tools = st.fixed_dictionaries(
    {"name": st.one_of(st.text(max_size=80), json_leaves)},
    optional={"inputSchema": schemas, "outputSchema": schemas, "annotations": json_values},
)
results = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "tools": st.lists(tools, max_size=6),
            "content": st.lists(st.one_of(blocks, json_values), max_size=5),
            "structuredContent": json_values,
            "resources": st.lists(st.fixed_dictionaries({}, optional={"annotations": json_values}), max_size=3),
            "messages": st.lists(st.fixed_dictionaries({}, optional={"content": st.one_of(blocks, json_values)})),
            "nextCursor": json_leaves,
        },
    ),
)
states = st.dictionaries(st.text(max_size=20), st.text(max_size=20), max_size=4).map(SessionState)


@settings(max_examples=300)
@given(st.sampled_from(METHODS), results, states)
def test_any_json_result_gives_a_result_without_error_or_mutation(
    method: str, result: Any, state: SessionState
) -> None:
    before = json.dumps(result)
    rewritten = rewrite_result(method, result, EVERY_RULE, state)
    assert json.dumps(result) == before
    if not rewritten.applied:
        assert rewritten.result is result
    assert set(rewritten.applied) <= {rule.id for rule in BUNDLED}


# One client per bundled rule family, each inside its rules' version ranges.
NAMED_CLIENTS = [
    "codex-mcp-client@0.148.0",
    "cursor-vscode@1.6.14",
    "claude-code@2.1.0",
    "claude-ai@1.0",
    "goose@1.0.0",
    "windsurf-client@1.6.0",
    "Visual Studio Code@1.101.0",
    "JetBrains-IU-copilot-intellij@1.11.2",
    "Zed@0.190.0",
    "github-copilot-developer@0.0.423",
    "gemini-cli-mcp-client@0.15.1",
    "@librechat/api-client@0.7.8",
    "@n8n/n8n-nodes-langchain.mcpClientTool@1",
    "claude-ai@0.1.0",
    "goose@1.19.0",
    "Visual Studio Code@1.116.0",
]
PROFILES = [plan_rewrites(parse_client_spec(spec), BUNDLED) for spec in NAMED_CLIENTS]


def test_the_named_clients_between_them_plan_every_bundled_rule() -> None:
    planned = {rule_id for profile in PROFILES for rule_id in profile.rule_ids}
    assert planned == {rule.id for rule in BUNDLED}


@given(st.sampled_from(PROFILES), st.sampled_from(METHODS), results)
def test_rewriting_a_rewritten_result_changes_nothing_for_any_client(
    profile: SessionProfile, method: str, result: Any
) -> None:
    first = rewrite_result(method, result, profile)
    second = rewrite_result(method, first.result, profile)
    assert second.applied == ()
    assert second.result is first.result


# Results in plain ASCII words (no escapes), with or without the words the rules act on, and the (client, method)
# pairs whose rules all name their words: where a relay may skip the rewrite.
_WORDS = st.text(alphabet=string.ascii_letters + " _-", max_size=8)
_ANNOTATIONS = st.fixed_dictionaries({"priority": st.floats(0, 1) | st.integers(-1, 2)})
_WORDED_BLOCKS = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "image", "resource", "resource_link"])},
    optional={"annotations": _ANNOTATIONS, "text": _WORDS, "uri": _WORDS},
)
worded_results = st.one_of(
    st.fixed_dictionaries(
        {"content": st.lists(_WORDED_BLOCKS, min_size=1, max_size=3)},
        optional={"structuredContent": st.dictionaries(_WORDS, _WORDS, max_size=2)},
    ),
    st.fixed_dictionaries({"messages": st.lists(st.fixed_dictionaries({"content": _WORDED_BLOCKS}), max_size=2)}),
    st.fixed_dictionaries({"resources": st.lists(st.fixed_dictionaries({"annotations": _ANNOTATIONS}), max_size=2)}),
)
SKIPPABLE = [
    (profile, method)
    for profile in [EVERY_RULE, *PROFILES]
    for method in METHODS
    if not may_rewrite_result(method, b"{}", profile) and any(method in rule.methods for rule in profile.rules)
]


@settings(max_examples=300)
@given(st.sampled_from(SKIPPABLE), st.one_of(worded_results, results), states, st.booleans())
def test_a_result_whose_text_no_rule_could_change_is_left_alone_by_the_rewrite_too(
    pair: tuple[SessionProfile, str], result: Any, state: SessionState, ascii_only: bool
) -> None:
    profile, method = pair
    text = json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}, ensure_ascii=ascii_only).encode("utf-8", "replace")
    if not may_rewrite_result(method, text, profile):
        rewritten = rewrite_result(method, result, profile, state)
        assert rewritten.result is result and rewritten.state is state and rewritten.applied == ()


WORDED_OPERATIONS = [
    (operation, method)
    for operation in OPERATIONS.values()
    if isinstance(operation, ResultOperation) and operation.needles is not None
    for method in sorted(operation.methods)
]


def _no_problem(name: str, problem: str, value: Any) -> NoReturn:
    raise AssertionError(f"{name}: {problem}")


@settings(max_examples=300)
@given(st.sampled_from(WORDED_OPERATIONS), st.one_of(worded_results, results), st.booleans())
def test_an_operation_that_changes_a_result_finds_one_of_its_words_in_its_text(
    pair: tuple[ResultOperation, str], result: Any, ascii_only: bool
) -> None:
    operation, method = pair
    assume(isinstance(result, dict))  # rewrite_result hands the patches objects only
    text = json.dumps(result, ensure_ascii=ascii_only).encode("utf-8", "replace")
    if operation.patch(method, result, normalize_params(operation.params, {}, _no_problem)) is not result:
        assert b"\\u" in text or any(needle.encode() in text for needle in operation.needles or ())


CODEX_PROFILE = plan_rewrites(CODEX, BUNDLED)


@pytest.mark.parametrize(
    ("method", "text", "may"),
    [
        ("tools/call", b'{"content":[{"type":"text","text":"Echo: hi"}]}', False),
        ("tools/call", b'{"content":[{"type":"text","text":"t","annotations":{"priority":0.7}}]}', True),
        ("tools/call", b'{"content":[{"type":"text","text":"t","annotations":{"\\u0070riority":0.7}}]}', True),
        ("tools/call", b'{"content":[{"type":"resource_link","uri":"file:///a"}]}', True),
        ("prompts/list", b'{"prompts":[{"name":"priority"}]}', False),  # no codex rule acts on prompts/list
        ("tools/list", b'{"tools":[]}', True),  # renames and schema rules name no words: never skipped
    ],
)
def test_a_rewrite_is_skipped_only_when_no_word_a_rule_needs_is_in_the_text(
    method: str, text: bytes, may: bool
) -> None:
    assert may_rewrite_result(method, text, CODEX_PROFILE) is may
    assert not may_rewrite_result(method, text, plan_rewrites(None, BUNDLED))


def test_the_words_operations_need_are_plain_ascii_words() -> None:
    needles = [
        needle
        for operation in OPERATIONS.values()
        if isinstance(operation, ResultOperation)
        for needle in operation.needles or ()
    ]
    assert needles and all(re.fullmatch(r"[A-Za-z0-9_]+", needle) for needle in needles)


@given(st.one_of(json_values, st.fixed_dictionaries({"name": json_leaves, "arguments": json_values})), states)
def test_any_json_request_gives_params_without_error_or_mutation(params: Any, state: SessionState) -> None:
    before = json.dumps(params)
    routed = rewrite_request("tools/call", params, EVERY_RULE, state)
    assert json.dumps(params) == before
    name = params.get("name") if isinstance(params, dict) else None
    if not routed.applied and not (isinstance(name, str) and name in state.tool_names):
        assert routed.params is params


def test_the_client_core_imports_neither_the_sdk_nor_pydantic() -> None:
    code = (
        "import sys\n"
        "import hostcompat.clients.detect, hostcompat.clients.rules, hostcompat.clients.rewrite\n"
        "import hostcompat.clients.versions\n"
        "hostcompat.clients.rules.load_bundled_rules()\n"
        "print(sorted(m for m in ('mcp', 'mcp_types', 'pydantic') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
