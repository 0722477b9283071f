"""The pure era translations: each keeps what it does not change, and each is checked against the SDK's own types."""

from __future__ import annotations

from typing import Any

from mcp_types import (
    CLIENT_CAPABILITIES_META_KEY,
    CLIENT_INFO_META_KEY,
    PROTOCOL_VERSION_META_KEY,
    SERVER_INFO_META_KEY,
    DiscoverResult,
    InitializeResult,
    InputRequiredResult,
    ListToolsResult,
)

from hostcompat.clients.proxy.era.translate import (
    Envelope,
    acknowledged_filter,
    complete,
    discover_result_from_initialize,
    envelope_from_initialize,
    envelope_of,
    front_era,
    initialize_result_from_discover,
    input_requests,
    input_required_result,
    legacy_error,
    listen_filter,
    modern_error,
    modern_version,
    refuses_handshake,
    retry_params,
    with_envelope,
    without_envelope,
)

DISCOVERED = {
    "supportedVersions": ["2026-07-28"],
    "capabilities": {"tools": {"listChanged": True}, "resources": {"subscribe": True}, "x-vendor": {"a": 1}},
    "instructions": "be nice",
    "resultType": "complete",
    "ttlMs": 0,
    "cacheScope": "private",
    "extra": "kept",
    "_meta": {SERVER_INFO_META_KEY: {"name": "srv", "version": "2"}, "other": 1},
}


def test_the_first_request_tells_the_client_era() -> None:
    assert front_era("initialize", {"protocolVersion": "2025-11-25"}) == "legacy"
    assert front_era("server/discover", None) == "modern"
    assert front_era("tools/list", {"_meta": {PROTOCOL_VERSION_META_KEY: "2026-07-28"}}) == "modern"
    assert front_era("tools/list", {"_meta": {"progressToken": 1}}) == "legacy"


def test_a_handshake_refusal_is_told_from_an_ordinary_error() -> None:
    assert refuses_handshake({"code": -32022, "message": "x"})
    assert refuses_handshake({"code": -32601, "message": "no initialize"})
    assert refuses_handshake({"code": -32600, "message": "x", "data": {"supported": ["2026-07-28"]}})
    assert not refuses_handshake({"code": -32600, "message": "x", "data": {"supported": ["2025-06-18"]}})
    assert not refuses_handshake({"code": -32603, "message": "boom"})


def test_initialize_is_answered_from_discover_with_every_other_field_kept() -> None:
    result = initialize_result_from_discover(DISCOVERED, "2025-06-18")
    typed = InitializeResult.model_validate(result)
    assert typed.protocol_version == "2025-06-18"
    assert typed.server_info.name == "srv"
    assert result["capabilities"]["x-vendor"] == {"a": 1}
    assert result["extra"] == "kept" and result["_meta"] == {"other": 1}
    assert not {"supportedVersions", "resultType", "ttlMs", "cacheScope"} & result.keys()
    assert initialize_result_from_discover(DISCOVERED, "1999-01-01")["protocolVersion"] == "2025-11-25"
    assert initialize_result_from_discover({"capabilities": {}}, None)["serverInfo"]["name"] == "unknown"


def test_discover_is_answered_from_initialize() -> None:
    initialized = {
        "protocolVersion": "2025-11-25",
        "capabilities": {"prompts": {}, "x-vendor": True},
        "serverInfo": {"name": "legacy", "version": "1"},
        "instructions": "hi",
    }
    result = discover_result_from_initialize(initialized)
    typed = DiscoverResult.model_validate(result)
    assert typed.supported_versions == ["2026-07-28"]
    assert result["_meta"][SERVER_INFO_META_KEY] == {"name": "legacy", "version": "1"}
    assert result["capabilities"]["x-vendor"] is True and result["instructions"] == "hi"
    assert result["resultType"] == "complete" and result["ttlMs"] == 0
    assert "serverInfo" not in result and "protocolVersion" not in result


def test_the_envelope_goes_on_and_comes_off_keeping_the_clients_own_meta() -> None:
    envelope = envelope_from_initialize(
        {"clientInfo": {"name": "codex-mcp-client", "version": "0.9"}, "capabilities": {"sampling": {}}}, "2026-07-28"
    )
    params = {"name": "echo", "_meta": {"progressToken": 7}}
    stamped = with_envelope(params, envelope)
    assert params == {"name": "echo", "_meta": {"progressToken": 7}}  # the input is not touched
    meta = stamped["_meta"]
    assert meta[PROTOCOL_VERSION_META_KEY] == "2026-07-28"
    assert meta[CLIENT_INFO_META_KEY]["name"] == "codex-mcp-client"
    assert meta[CLIENT_CAPABILITIES_META_KEY] == {"sampling": {}}
    assert meta["progressToken"] == 7
    read = envelope_of(stamped)
    assert read is not None and read.identity() == ("codex-mcp-client", "0.9")
    assert without_envelope(stamped) == params
    assert without_envelope(params) is params
    assert without_envelope(with_envelope({}, Envelope("2026-07-28"))) == {}


def test_input_required_round_trip() -> None:
    result: dict[str, Any] = {
        "resultType": "input_required",
        "inputRequests": {
            "b": {
                "method": "elicitation/create",
                "params": {"mode": "form", "message": "name?", "requestedSchema": {"type": "object", "properties": {}}},
            },
            "a": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}},
            "bad": "no method",
        },
        "requestState": "s1",
    }
    InputRequiredResult.model_validate(
        result | {"inputRequests": {k: v for k, v in result["inputRequests"].items() if k != "bad"}}
    )
    asked = input_requests(result)
    assert [(r.key, r.method) for r in asked] == [("a", "sampling/createMessage"), ("b", "elicitation/create")]
    retried = retry_params({"name": "t", "requestState": "old"}, {"a": {"x": 1}}, "s1")
    assert retried == {"name": "t", "inputResponses": {"a": {"x": 1}}, "requestState": "s1"}
    built = input_required_result({"q1": ("sampling/createMessage", {"maxTokens": 1, "messages": []})}, "tok")
    typed = InputRequiredResult.model_validate(built)
    assert typed.request_state == "tok" and typed.input_requests is not None


def test_results_get_what_the_modern_wire_requires() -> None:
    legacy = {"tools": [{"name": "t", "inputSchema": {"type": "object"}}], "x": 1}
    modern = complete("tools/list", legacy)
    ListToolsResult.model_validate(modern)
    assert modern["x"] == 1 and "resultType" not in legacy
    assert complete("tools/call", {"content": [], "resultType": "complete"}) == {
        "content": [],
        "resultType": "complete",
    }


def test_resource_not_found_codes_are_mapped_both_ways() -> None:
    modern = {"code": -32602, "message": "Unknown resource", "data": {"uri": "test://x"}}
    assert legacy_error("resources/read", modern)["code"] == -32002
    assert legacy_error("tools/call", modern) is modern
    assert legacy_error("resources/read", {"code": -32602, "message": "bad params"})["code"] == -32602
    assert modern_error("resources/read", {"code": -32002, "message": "not found"})["code"] == -32602
    assert modern_error("tools/call", {"code": -32603, "message": "x"})["code"] == -32603


def test_subscriptions_map_onto_listen_filters() -> None:
    capabilities = {
        "tools": {"listChanged": True},
        "prompts": {},
        "resources": {"subscribe": True, "listChanged": True},
    }
    assert listen_filter(capabilities, []) == {"toolsListChanged": True, "resourcesListChanged": True}
    assert listen_filter({}, ["a://1"]) == {"resourceSubscriptions": ["a://1"]}
    asked = {
        "notifications": {"toolsListChanged": True, "promptsListChanged": True, "resourceSubscriptions": ["a://1"]}
    }
    assert acknowledged_filter(asked, capabilities) == {"toolsListChanged": True, "resourceSubscriptions": ["a://1"]}
    assert acknowledged_filter(asked, {}) == {}


def test_modern_version_picks_what_the_gateway_speaks() -> None:
    assert modern_version(DISCOVERED) == "2026-07-28"
    assert modern_version({"supportedVersions": ["2099-01-01"]}) is None
    assert modern_version({}) is None


def test_the_sdk_free_detection_uses_the_sdks_own_values() -> None:
    from mcp_types.jsonrpc import METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    from hostcompat.clients.proxy.era import detect

    assert detect.PROTOCOL_VERSION_META_KEY == PROTOCOL_VERSION_META_KEY
    assert detect.MODERN_VERSIONS == MODERN_PROTOCOL_VERSIONS
    assert (detect.UNSUPPORTED_PROTOCOL_VERSION, detect.METHOD_NOT_FOUND) == (
        UNSUPPORTED_PROTOCOL_VERSION,
        METHOD_NOT_FOUND,
    )


def test_the_opening_line_tells_the_client_era() -> None:
    from hostcompat.clients.proxy.era.detect import sniff_front

    modern = b'{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}\n'
    assert sniff_front(b"\n" + modern) == "modern"
    assert sniff_front(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n') == "legacy"
    assert sniff_front(b"not json\n") == "legacy"
    assert sniff_front(b"[" * 100_000 + b"\n") == "legacy"
    assert sniff_front(b"") == "legacy"
