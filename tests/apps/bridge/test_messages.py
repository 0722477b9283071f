from typing import Any

import pytest

from hostcompat.apps.bridge import codes
from hostcompat.apps.bridge.messages import (
    DOWNLOAD_ITEM_TYPES,
    DownloadFileParams,
    EmptyParams,
    EmptyResult,
    MessageParams,
    OpenLinkParams,
    RequestDisplayModeParams,
    RequestDisplayModeResult,
    ResourceTeardownParams,
    SandboxResourceReadyParams,
    SizeChangedParams,
    ToolCancelledParams,
    ToolInputParams,
    ToolInputPartialParams,
    ToolResultParams,
    UpdateModelContextParams,
)
from hostcompat.errors import InvalidBridgeMessage

TEXT = {"type": "text", "text": "hello"}


@pytest.mark.parametrize(
    ("model", "value", "wire"),
    [
        (EmptyParams, EmptyParams(), {}),
        (EmptyParams, EmptyParams(extra={"_meta": {"a": 1}}), {"_meta": {"a": 1}}),
        (EmptyResult, EmptyResult(is_error=False), {"isError": False}),
        (OpenLinkParams, OpenLinkParams(url="https://example.com"), {"url": "https://example.com"}),
        (MessageParams, MessageParams(content=(TEXT,)), {"role": "user", "content": [TEXT]}),
        (UpdateModelContextParams, UpdateModelContextParams(), {}),
        (
            UpdateModelContextParams,
            UpdateModelContextParams(content=(TEXT,), structured_content={"k": [1]}),
            {"content": [TEXT], "structuredContent": {"k": [1]}},
        ),
        (RequestDisplayModeParams, RequestDisplayModeParams(mode="pip"), {"mode": "pip"}),
        (RequestDisplayModeResult, RequestDisplayModeResult(mode="inline"), {"mode": "inline"}),
        (SizeChangedParams, SizeChangedParams(height=0), {"height": 0}),
        (ToolInputParams, ToolInputParams(arguments={}), {"arguments": {}}),
        (ToolInputPartialParams, ToolInputPartialParams(), {}),
        (
            ToolResultParams,
            ToolResultParams(content=(TEXT,), structured_content={"n": 1}, is_error=True, meta={"m": 2}),
            {"content": [TEXT], "structuredContent": {"n": 1}, "isError": True, "_meta": {"m": 2}},
        ),
        (ToolCancelledParams, ToolCancelledParams(reason=""), {"reason": ""}),
        (ResourceTeardownParams, ResourceTeardownParams(), {}),
        (
            DownloadFileParams,
            DownloadFileParams(contents=({"type": "resource_link", "uri": "https://x", "name": "x"},)),
            {"contents": [{"type": "resource_link", "uri": "https://x", "name": "x"}]},
        ),
        (
            SandboxResourceReadyParams,
            SandboxResourceReadyParams(html="<p>hi</p>", sandbox=""),
            {"html": "<p>hi</p>", "sandbox": ""},
        ),
    ],
    ids=lambda value: type(value).__name__ if not isinstance(value, dict) else None,
)
def test_each_model_writes_its_wire_object_and_reads_it_back(model: Any, value: Any, wire: dict[str, Any]) -> None:
    assert value.to_wire() == wire
    assert model.from_wire(wire) == value


def test_a_message_must_come_from_the_user() -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        MessageParams.from_wire({"role": "assistant", "content": [TEXT]})
    assert caught.value.rule_id == codes.BRIDGE_BAD_FIELD
    assert caught.value.value == "assistant"


def test_a_message_may_carry_the_stable_single_block_form() -> None:
    assert MessageParams.from_wire({"role": "user", "content": TEXT}) == MessageParams(content=(TEXT,))


def test_a_message_without_a_role_is_rejected() -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        MessageParams.from_wire({"content": [TEXT]})
    assert caught.value.message.startswith("params.role:")


@pytest.mark.parametrize("item_type", DOWNLOAD_ITEM_TYPES)
def test_a_download_accepts_embedded_resources_and_resource_links(item_type: str) -> None:
    params = DownloadFileParams.from_wire({"contents": [{"type": item_type}]})
    assert params.contents == ({"type": item_type},)


@pytest.mark.parametrize("item_type", ["text", "image", "Resource"])
def test_a_download_rejects_other_content_types(item_type: str) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        DownloadFileParams.from_wire({"contents": [{"type": item_type}]})
    assert caught.value.message.startswith("params.contents[0].type:")


def test_a_tool_result_needs_its_content_list() -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        ToolResultParams.from_wire({"structuredContent": {"ok": True}})
    assert caught.value.message.startswith("params.content:")


@pytest.mark.parametrize("size", [float("inf"), float("nan"), -0.5, -1])
def test_a_size_must_be_a_finite_non_negative_number(size: float) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        SizeChangedParams.from_wire({"width": size})
    assert caught.value.message.startswith("params.width:")


def test_a_huge_integer_size_is_kept_exactly() -> None:
    huge = 10**400
    assert SizeChangedParams.from_wire({"width": huge}).width == huge


def test_a_modeled_key_wins_over_the_same_key_in_extra() -> None:
    assert OpenLinkParams(url="https://a", extra={"url": "https://b", "k": 1}).to_wire() == {
        "url": "https://a",
        "k": 1,
    }


def test_a_model_does_not_share_its_objects_with_the_wire_it_was_read_from() -> None:
    wire: dict[str, Any] = {"content": [{"type": "text", "text": "x"}], "structuredContent": {"n": [1]}}
    params = ToolResultParams.from_wire(wire)
    wire["structuredContent"]["n"].append(2)
    wire["content"][0]["text"] = "changed"
    assert params.to_wire() == {"content": [{"type": "text", "text": "x"}], "structuredContent": {"n": [1]}}
