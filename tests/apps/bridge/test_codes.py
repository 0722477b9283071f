import pytest

from hostcompat.apps.bridge import codes
from hostcompat.errors import HostCompatError, InvalidBridgeMessage, InvalidUIURI


@pytest.mark.parametrize(
    ("rule_id", "code"),
    [
        (codes.BRIDGE_TOO_LARGE, -32700),
        (codes.BRIDGE_NOT_JSON, -32700),
        (codes.BRIDGE_NOT_JSONRPC, -32600),
        (codes.BRIDGE_BAD_ID, -32600),
        (codes.BRIDGE_WRONG_KIND, -32600),
        (codes.BRIDGE_WRONG_DIRECTION, -32600),
        (codes.BRIDGE_UNKNOWN_METHOD, -32601),
        (codes.BRIDGE_BAD_FIELD, -32602),
        (codes.BRIDGE_TOOL_NOT_FOR_APP, -32000),
        (codes.BRIDGE_TOOL_OTHER_CONNECTION, -32000),
    ],
)
def test_each_rule_is_answered_with_its_json_rpc_error_code(rule_id: str, code: int) -> None:
    assert codes.jsonrpc_error_code(InvalidBridgeMessage("x", rule_id=rule_id)) == code


def test_an_error_without_a_bridge_rule_is_an_invalid_request() -> None:
    assert codes.jsonrpc_error_code(HostCompatError("x")) == codes.INVALID_REQUEST
    assert codes.jsonrpc_error_code(InvalidUIURI("x", rule_id="URI-1")) == codes.INVALID_REQUEST


def test_every_rule_id_is_distinct_and_prefixed() -> None:
    rule_ids = [getattr(codes, name) for name in codes.__all__ if name.startswith("BRIDGE_")]
    assert len(rule_ids) == len(set(rule_ids))
    assert all(rule_id.startswith("BRIDGE-") for rule_id in rule_ids)
