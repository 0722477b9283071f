import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.clients.detect import (
    CLIENT_CAPABILITIES_META_KEY,
    CLIENT_INFO_META_KEY,
    MAX_NAME_LENGTH,
    PROTOCOL_VERSION_META_KEY,
    ClientIdentity,
    detect_client,
    parse_client_spec,
)
from hostcompat.errors import HostCompatError, InvalidInput

CODEX_INITIALIZE: dict[str, Any] = {
    "protocolVersion": "2025-06-18",
    "capabilities": {"elicitation": {}},
    "clientInfo": {"name": "codex-mcp-client", "version": "0.148.0-alpha.9", "title": "Codex"},
}


def test_initialize_params_give_name_version_capabilities_and_protocol() -> None:
    identity = detect_client(CODEX_INITIALIZE)
    assert identity == ClientIdentity(
        name="codex-mcp-client",
        version="0.148.0-alpha.9",
        capabilities={"elicitation": {}},
        source="initialize",
        protocol_version="2025-06-18",
    )


def test_modern_era_request_params_carry_the_client_in_meta() -> None:
    params = {
        "name": "search",
        "arguments": {},
        "_meta": {
            CLIENT_INFO_META_KEY: {"name": "claude-code", "version": "2.1.220"},
            CLIENT_CAPABILITIES_META_KEY: {"roots": {}},
            PROTOCOL_VERSION_META_KEY: "2026-07-28",
        },
    }
    identity = detect_client(params)
    assert identity is not None
    assert (identity.name, identity.version, identity.source) == ("claude-code", "2.1.220", "meta")
    assert identity.capabilities == {"roots": {}}
    assert identity.protocol_version == "2026-07-28"


def test_the_meta_mapping_itself_is_accepted() -> None:
    identity = detect_client({CLIENT_INFO_META_KEY: {"name": "Zed", "version": "0.190.0"}})
    assert identity is not None
    assert (identity.name, identity.source) == ("Zed", "meta")


def test_a_tool_call_named_like_a_client_is_not_mistaken_for_client_info_when_meta_has_it() -> None:
    params = {"name": "do_thing", "_meta": {CLIENT_INFO_META_KEY: {"name": "goose", "version": "1.0.35"}}}
    identity = detect_client(params)
    assert identity is not None
    assert identity.name == "goose"


def test_a_bare_client_info_mapping_is_accepted() -> None:
    identity = detect_client({"name": "cursor-vscode", "version": "1.6.14"})
    assert identity == ClientIdentity(name="cursor-vscode", version="1.6.14", source="client-info")


def test_a_message_without_client_info_gives_none() -> None:
    assert detect_client({"protocolVersion": "2025-06-18", "capabilities": {}}) is None
    assert detect_client({"_meta": {"progressToken": 1}}) is None


def test_the_mcp_remote_suffix_is_split_off_into_via() -> None:
    identity = detect_client({"clientInfo": {"name": "claude-ai (via mcp-remote 0.1.29)", "version": "0.1.0"}})
    assert identity is not None
    assert identity.name == "claude-ai"
    assert identity.via == "mcp-remote 0.1.29"


def test_a_missing_version_is_empty_not_an_error() -> None:
    identity = detect_client({"clientInfo": {"name": "mcp"}})
    assert identity is not None
    assert identity.version == ""


def test_the_identity_does_not_alias_the_callers_capabilities() -> None:
    params = copy.deepcopy(CODEX_INITIALIZE)
    identity = detect_client(params)
    params["capabilities"]["sampling"] = {}
    assert identity is not None
    assert "sampling" not in identity.capabilities


def test_detection_never_mutates_its_input() -> None:
    params = copy.deepcopy(CODEX_INITIALIZE)
    detect_client(params)
    assert params == CODEX_INITIALIZE


@pytest.mark.parametrize(
    "message",
    [
        {"clientInfo": "codex"},
        {"clientInfo": {"name": 7, "version": "1"}},
        {"clientInfo": {"name": "codex", "version": 1}},
        {"clientInfo": {"name": "codex"}, "capabilities": []},
        {"clientInfo": {"name": "x" * (MAX_NAME_LENGTH + 1)}},
        {"clientInfo": {"name": "codex"}, "protocolVersion": 20250618},
    ],
)
def test_client_info_of_the_wrong_shape_raises_invalid_input_with_the_value(message: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput) as caught:
        detect_client(message)
    assert caught.value.value is not None


def test_a_non_mapping_message_raises_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        detect_client(["codex"])  # type: ignore[arg-type]  # deliberately the wrong type


def test_a_client_spec_splits_at_the_last_at_sign() -> None:
    assert parse_client_spec("codex-mcp-client@0.148.0") == ClientIdentity(
        name="codex-mcp-client", version="0.148.0", source="spec"
    )
    scoped = parse_client_spec("@librechat/api-client@0.7.9")
    assert (scoped.name, scoped.version) == ("@librechat/api-client", "0.7.9")
    unversioned = parse_client_spec("@n8n/n8n-nodes-langchain.mcpClientTool")
    assert (unversioned.name, unversioned.version) == ("@n8n/n8n-nodes-langchain.mcpClientTool", "")


def test_a_client_spec_renders_back_as_name_at_version() -> None:
    assert str(parse_client_spec("Zed@0.190.0")) == "Zed@0.190.0"
    assert str(parse_client_spec("Zed")) == "Zed"


@pytest.mark.parametrize("spec", ["", "   ", "  @2"])
def test_a_client_spec_without_a_name_raises_invalid_input(spec: str) -> None:
    with pytest.raises(InvalidInput):
        parse_client_spec(spec)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20,
)
message_keys = st.sampled_from(["clientInfo", "capabilities", "protocolVersion", "_meta", "name", "version"])


@given(st.dictionaries(message_keys | st.text(max_size=8), json_values, max_size=6))
def test_any_json_object_gives_an_identity_none_or_a_hostcompat_error_and_is_not_mutated(
    message: dict[str, Any],
) -> None:
    before = copy.deepcopy(message)
    try:
        identity = detect_client(message)
    except HostCompatError:
        identity = None
    assert identity is None or isinstance(identity.name, str)
    assert message == before
