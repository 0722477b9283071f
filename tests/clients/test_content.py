import copy
import math
from typing import Any

import pytest

from hostcompat.apps.constants import RESOURCE_MIME_TYPE
from hostcompat.clients.rewrites.content import (
    PRIORITY_THRESHOLD,
    content_types,
    drop_structured_content,
    resource_link_text,
    resource_link_to_text,
    round_annotation_priority,
    spec_legal_priority,
    strip_call_arguments,
)

NO_PARAMS: dict[str, Any] = {}


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (0.5, 1),
        (0.6, 1),
        (0.49, 0),
        (0.0, 0),
        (1.0, 1),
        (0.999, 1),
        (1e-9, 0),
        (1.7, 1),
        (-0.3, 0),
        (5, 1),
        (-2, 0),
        (math.inf, 1),
        (-math.inf, 0),
        (math.nan, 0),
    ],
)
def test_a_numeric_priority_becomes_the_nearest_spec_legal_integer(given: float, expected: int) -> None:
    rounded = spec_legal_priority(given)
    assert rounded == expected
    assert type(rounded) is int


def test_ties_round_up_at_the_documented_threshold() -> None:
    assert PRIORITY_THRESHOLD == 0.5
    assert spec_legal_priority(PRIORITY_THRESHOLD) == 1
    assert spec_legal_priority(math.nextafter(PRIORITY_THRESHOLD, 0.0)) == 0


@pytest.mark.parametrize("value", [0, 1, True, False, "0.5", None, [0.5], {"p": 0.5}])
def test_legal_integers_and_non_numbers_come_back_as_the_same_object(value: object) -> None:
    assert spec_legal_priority(value) is value


def test_priority_rounding_touches_only_content_and_embedded_resource_annotations() -> None:
    result: dict[str, Any] = {
        "content": [
            {"type": "text", "text": "a", "annotations": {"audience": ["user"], "priority": 0.5}},
            {"type": "text", "text": "b", "annotations": {"priority": 1}},
            {
                "type": "resource",
                "resource": {"uri": "file:///r", "text": "t", "annotations": {"priority": 0.3}},
                "annotations": {"priority": 0.8},
            },
            {"type": "resource_link", "uri": "file:///l", "name": "l", "annotations": {"priority": 0.25}},
        ],
        "structuredContent": {"annotations": {"priority": 0.5}},
        "_meta": {"annotations": {"priority": 0.5}},
    }
    before = copy.deepcopy(result)
    out = round_annotation_priority("tools/call", result, NO_PARAMS)
    assert result == before
    assert [block["annotations"]["priority"] for block in out["content"]] == [1, 1, 1, 0]
    assert out["content"][0]["annotations"]["audience"] == ["user"]
    assert out["content"][2]["resource"]["annotations"]["priority"] == 0
    assert out["content"][1] is result["content"][1]
    assert out["structuredContent"] is result["structuredContent"]
    assert out["_meta"] is result["_meta"]


def test_priority_rounding_covers_resources_templates_and_prompt_messages() -> None:
    resources = {"resources": [{"uri": "file:///a", "name": "a", "annotations": {"priority": 0.7}}]}
    templates = {"resourceTemplates": [{"uriTemplate": "file:///{x}", "name": "t", "annotations": {"priority": 0.1}}]}
    prompt = {
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "hi", "annotations": {"priority": 0.5}}},
            {"role": "assistant", "content": [{"type": "text", "text": "yo", "annotations": {"priority": 0.2}}]},
        ]
    }
    assert round_annotation_priority("resources/list", resources, NO_PARAMS)["resources"][0]["annotations"] == {
        "priority": 1
    }
    rounded_templates = round_annotation_priority("resources/templates/list", templates, NO_PARAMS)
    assert rounded_templates["resourceTemplates"][0]["annotations"] == {"priority": 0}
    messages = round_annotation_priority("prompts/get", prompt, NO_PARAMS)["messages"]
    assert messages[0]["content"]["annotations"]["priority"] == 1
    assert messages[1]["content"][0]["annotations"]["priority"] == 0


def test_priority_rounding_leaves_tool_lists_alone() -> None:
    tools = {"tools": [{"name": "t", "annotations": {"readOnlyHint": True, "priority": 0.5}, "inputSchema": {}}]}
    assert round_annotation_priority("tools/list", tools, NO_PARAMS) is tools


@pytest.mark.parametrize(
    "result",
    [
        {"content": "not a list"},
        {"content": [None, 3, "x", {"type": "text", "annotations": "none"}]},
        {"content": [{"type": "resource", "resource": "nope"}]},
        {"messages": [{"content": None}]},
        {},
    ],
)
def test_priority_rounding_passes_odd_shapes_through_untouched(result: dict[str, Any]) -> None:
    assert round_annotation_priority("tools/call", result, NO_PARAMS) is result
    assert round_annotation_priority("prompts/get", result, NO_PARAMS) is result


@pytest.mark.parametrize(
    ("block", "text"),
    [
        (
            {"type": "resource_link", "uri": "ui://app/main.html", "name": "main", "mimeType": RESOURCE_MIME_TYPE},
            f"[Resource link] main: ui://app/main.html ({RESOURCE_MIME_TYPE})",
        ),
        (
            {"type": "resource_link", "uri": "file:///x", "name": "x", "title": "The X"},
            "[Resource link] The X: file:///x",
        ),
        ({"type": "resource_link", "uri": "file:///x", "name": "file:///x"}, "[Resource link] file:///x"),
        ({"type": "resource_link", "uri": "file:///x"}, "[Resource link] file:///x"),
        ({"type": "resource_link", "uri": 7, "name": ""}, "[Resource link]"),
    ],
)
def test_a_resource_link_is_described_by_title_or_name_uri_and_mime_type(block: dict[str, Any], text: str) -> None:
    assert resource_link_text(block) == text


def test_resource_links_become_text_blocks_keeping_annotations_and_meta() -> None:
    link = {
        "type": "resource_link",
        "uri": "file:///report.pdf",
        "name": "report",
        "annotations": {"priority": 1},
        "_meta": {"x.vendor/keep": True},
    }
    other = {"type": "text", "text": "see the report"}
    result: dict[str, Any] = {"content": [other, link], "isError": False}
    out = resource_link_to_text("tools/call", result, NO_PARAMS)
    assert out["content"][0] is other
    assert out["content"][1] == {
        "type": "text",
        "text": "[Resource link] report: file:///report.pdf",
        "annotations": {"priority": 1},
        "_meta": {"x.vendor/keep": True},
    }
    assert out["isError"] is False
    assert result["content"][1] is link


def test_structured_content_is_dropped_only_from_tool_results() -> None:
    result = {"content": [], "structuredContent": {"a": 1}}
    assert drop_structured_content("tools/call", result, NO_PARAMS) == {"content": []}
    assert drop_structured_content("prompts/get", result, NO_PARAMS) is result
    plain: dict[str, Any] = {"content": []}
    assert drop_structured_content("tools/call", plain, NO_PARAMS) is plain


def test_content_types_are_collected_from_tool_results_and_prompt_messages() -> None:
    assert content_types("tools/call", {"content": [{"type": "image"}, {"type": "text"}, {"no": "type"}]}) == {
        "image",
        "text",
    }
    prompt = {"messages": [{"content": {"type": "audio"}}, {"content": [{"type": "resource_link"}]}]}
    assert content_types("prompts/get", prompt) == {"audio", "resource_link"}
    assert content_types("tools/list", {"content": [{"type": "image"}]}) == frozenset()


def test_named_arguments_are_stripped_from_a_tool_call_and_nothing_else() -> None:
    params = {"name": "search", "arguments": {"query": "x", "toolCallId": "call_0BCIShth4lxZuYr4coSp4E5E"}}
    before = copy.deepcopy(params)
    out = strip_call_arguments("tools/call", params, {"names": ("toolCallId",)})
    assert out == {"name": "search", "arguments": {"query": "x"}}
    assert params == before
    clean = {"name": "search", "arguments": {"query": "x"}}
    assert strip_call_arguments("tools/call", clean, {"names": ("toolCallId",)}) is clean
    assert strip_call_arguments("tools/call", {"name": "s"}, {"names": ("toolCallId",)}) == {"name": "s"}
