import copy
import json
from typing import Any

import pytest

from hostcompat.apps.bridge import codes
from hostcompat.apps.bridge import legacy as lg
from hostcompat.apps.bridge import legacy_params as lp
from hostcompat.apps.constants import LEGACY_ENVELOPE_VERSION
from hostcompat.errors import InvalidBridgeMessage
from tests.apps.bridge.examples import LEGACY_EXAMPLES, LEGACY_URI

A2 = LEGACY_EXAMPLES["mcpui:tools-call"]
A3 = LEGACY_EXAMPLES["mcpui:host-ready"]
A4 = LEGACY_EXAMPLES["mcpui:tool-result"]


def with_params(method: str, **changes: Any) -> dict[str, Any]:
    envelope = copy.deepcopy(LEGACY_EXAMPLES[method])
    for key, value in changes.items():
        if value is None:
            envelope["params"].pop(key, None)
        else:
            envelope["params"][key] = value
    return envelope


def rule_of(data: Any) -> str | None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        lg.parse_legacy_envelope(data)
    return caught.value.rule_id


# A1


def test_the_envelope_version_and_the_nine_methods_are_viants() -> None:
    assert LEGACY_ENVELOPE_VERSION == "1.0.0"
    assert lg.LEGACY_METHODS == (
        "mcpui:tools-call",
        "mcpui:message",
        "mcpui:open-link",
        "mcpui:host-ready",
        "mcpui:tool-input",
        "mcpui:tool-input-partial",
        "mcpui:tool-result",
        "mcpui:teardown",
        "mcpui:size-changed",
    )
    assert set(lg.LEGACY_PARAMS_MODELS) == set(lg.LEGACY_METHODS)


# A2-A4 (case 32)


def test_a2_tools_call_round_trips_with_the_exact_json_keys() -> None:
    envelope = lg.parse_legacy_envelope(json.dumps(A2))
    assert envelope.params == lp.LegacyToolsCall(
        window_id="w1", resource_uri="ui://agently.wk_ab/view/order", name="ui/window:get", arguments={"windowId": "w1"}
    )
    assert json.dumps(envelope.to_wire()) == json.dumps(A2)


def test_a3_host_ready_round_trips_with_the_exact_json_keys() -> None:
    envelope = lg.parse_legacy_envelope(json.dumps(A3))
    assert envelope.params == lp.LegacyHostReady(
        window_id="w1", resource_uri=LEGACY_URI, protocol_version="1.0.0", allowed_tools=("message:add",)
    )
    assert json.dumps(envelope.to_wire()) == json.dumps(A3)


def test_a4_tool_result_round_trips_with_the_meta_key() -> None:
    envelope = lg.parse_legacy_envelope(json.dumps(A4))
    assert isinstance(envelope.params, lp.LegacyToolResult)
    assert envelope.params.meta == {"source": "test"}
    assert envelope.params.structured_content == {"ok": True}
    wire = envelope.to_wire()
    assert "_meta" in wire["params"]
    assert json.dumps(wire) == json.dumps(A4)


@pytest.mark.parametrize("method", lg.LEGACY_METHODS)
def test_every_legacy_method_parses_and_serialises_back_exactly(method: str) -> None:
    envelope = lg.parse_legacy_envelope(LEGACY_EXAMPLES[method])
    assert envelope.method == method
    assert envelope.version == LEGACY_ENVELOPE_VERSION
    assert envelope.to_wire() == LEGACY_EXAMPLES[method]


def test_tool_input_and_tool_input_partial_share_one_params_model() -> None:
    full = lg.parse_legacy_envelope(LEGACY_EXAMPLES["mcpui:tool-input"])
    partial = lg.parse_legacy_envelope(LEGACY_EXAMPLES["mcpui:tool-input-partial"])
    assert full.params == partial.params
    assert full.method != partial.method


def test_protocol_version_is_always_written_even_when_it_was_absent() -> None:
    envelope = lg.parse_legacy_envelope(with_params("mcpui:tool-input", protocolVersion=None))
    assert isinstance(envelope.params, lp.LegacyToolInput)
    assert envelope.params.protocol_version == ""
    assert envelope.to_wire()["params"]["protocolVersion"] == ""


def test_a_null_metadata_reads_as_absent_and_is_not_written() -> None:
    envelope = lg.parse_legacy_envelope(with_params("mcpui:message", metadata=None))
    wire = copy.deepcopy(LEGACY_EXAMPLES["mcpui:message"])
    wire["params"]["metadata"] = None
    assert lg.parse_legacy_envelope(wire) == envelope
    assert "metadata" not in envelope.to_wire()["params"]


def test_unknown_keys_are_kept_at_both_levels() -> None:
    wire = with_params("mcpui:open-link", target="_blank")
    wire["trace"] = "t1"
    envelope = lg.parse_legacy_envelope(wire)
    assert envelope.extra == {"trace": "t1"}
    assert envelope.params.extra == {"target": "_blank"}
    assert envelope.to_wire() == wire


def test_parsing_does_not_mutate_the_input() -> None:
    wire = copy.deepcopy(A4)
    envelope = lg.parse_legacy_envelope(wire)
    assert wire == A4
    envelope.to_wire()["params"]["structuredContent"]["ok"] = False
    assert envelope.to_wire() == A4


def test_an_unknown_legacy_method_is_rejected() -> None:
    wire = {**A2, "method": "mcpui:resize"}
    assert rule_of(wire) == codes.BRIDGE_LEGACY_METHOD
    assert rule_of({**A2, "method": "ui/open-link"}) == codes.BRIDGE_LEGACY_METHOD
    assert rule_of({**A2, "method": 3}) == codes.BRIDGE_LEGACY_METHOD


@pytest.mark.parametrize("version", ["1.0.1", "2.0.0", "", 1, None])
def test_a_version_other_than_1_0_0_is_rejected(version: Any) -> None:
    assert rule_of({**A2, "version": version}) == codes.BRIDGE_LEGACY_VERSION


@pytest.mark.parametrize(
    "wire",
    [[A2], "mcpui:tools-call", {"method": A2["method"], "params": A2["params"]}, {**A2, "params": ["w1"]}],
    ids=["array", "string", "no-version", "params-not-object"],
)
def test_something_that_is_not_an_envelope_is_rejected(wire: Any) -> None:
    data = json.dumps(wire)
    assert rule_of(data) == codes.BRIDGE_NOT_ENVELOPE


@pytest.mark.parametrize(
    ("method", "field"),
    [
        ("mcpui:tools-call", "windowId"),
        ("mcpui:tools-call", "resourceUri"),
        ("mcpui:tools-call", "name"),
        ("mcpui:tool-input", "toolName"),
        ("mcpui:tool-input-partial", "toolName"),
        ("mcpui:tool-result", "toolName"),
        ("mcpui:open-link", "url"),
        ("mcpui:host-ready", "windowId"),
        ("mcpui:size-changed", "resourceUri"),
    ],
)
@pytest.mark.parametrize("value", ["", None], ids=["empty", "missing"])
def test_a_required_identity_field_must_be_present_and_non_empty(method: str, field: str, value: Any) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        lg.parse_legacy_envelope(with_params(method, **{field: value}))
    assert caught.value.rule_id == codes.BRIDGE_BAD_FIELD
    assert caught.value.message.startswith(f"params.{field}:")


@pytest.mark.parametrize(
    "uri", ["http://x/demo/y", "UI://x", "ui://", "ui://host/has space", "ui://u@h/x", "ui://host/%zz"]
)
def test_a_resource_uri_that_fails_the_generic_ui_rule_is_rejected(uri: str) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        lg.parse_legacy_envelope(with_params("mcpui:message", resourceUri=uri))
    assert caught.value.rule_id == codes.BRIDGE_LEGACY_URI
    assert caught.value.value == uri


def test_a_resource_uri_outside_the_scoped_naming_is_still_accepted() -> None:
    envelope = lg.parse_legacy_envelope(with_params("mcpui:message", resourceUri="ui://weather-dashboard"))
    assert envelope.params.resource_uri == "ui://weather-dashboard"


@pytest.mark.parametrize(
    ("method", "field", "value"),
    [
        ("mcpui:tools-call", "arguments", ["w1"]),
        ("mcpui:message", "content", 7),
        ("mcpui:host-ready", "allowedTools", "message:add"),
        ("mcpui:host-ready", "protocolVersion", 1),
        ("mcpui:tool-input", "toolInput", "orderId=7"),
        ("mcpui:tool-result", "structuredContent", [True]),
        ("mcpui:tool-result", "_meta", "test"),
        ("mcpui:teardown", "reason", False),
        ("mcpui:size-changed", "width", 640.5),
        ("mcpui:size-changed", "height", -1),
        ("mcpui:size-changed", "height", "480"),
        ("mcpui:tools-call", "windowId", 1),
    ],
)
def test_a_field_of_the_wrong_type_is_rejected_naming_it(method: str, field: str, value: Any) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        lg.parse_legacy_envelope(with_params(method, **{field: value}))
    assert caught.value.rule_id == codes.BRIDGE_BAD_FIELD
    assert caught.value.message.startswith(f"params.{field}")


def test_tool_result_content_may_be_any_json_value() -> None:
    for content in ("plain text", {"k": 1}, 3, [1, "a"]):
        envelope = lg.parse_legacy_envelope(with_params("mcpui:tool-result", content=content))
        assert isinstance(envelope.params, lp.LegacyToolResult)
        assert envelope.params.content == content


def test_an_oversized_envelope_is_rejected_before_decoding() -> None:
    text = json.dumps(A2)
    assert lg.parse_legacy_envelope(text, max_bytes=len(text)).method == "mcpui:tools-call"
    with pytest.raises(InvalidBridgeMessage) as caught:
        lg.parse_legacy_envelope(text, max_bytes=len(text) - 1)
    assert caught.value.rule_id == codes.BRIDGE_TOO_LARGE


def test_legacy_envelopes_are_told_apart_from_json_rpc() -> None:
    assert lg.is_legacy_envelope(A2)
    assert not lg.is_legacy_envelope({**A2, "jsonrpc": "2.0"})
    assert not lg.is_legacy_envelope({"jsonrpc": "2.0", "method": "ui/initialize", "id": 1})
    assert not lg.is_legacy_envelope({"method": 3})
    assert not lg.is_legacy_envelope(json.dumps(A2))
