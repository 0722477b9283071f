import pytest

from hostcompat.apps.bridge import codes
from hostcompat.apps.bridge import methods as m
from hostcompat.apps.bridge.handshake import AppCapabilities, HostCapabilities
from hostcompat.apps.bridge.methods import Direction, MessageKind, Since
from hostcompat.errors import InvalidBridgeMessage

V2H, H2V = Direction.VIEW_TO_HOST, Direction.HOST_TO_VIEW
REQ, NOTE = MessageKind.REQUEST, MessageKind.NOTIFICATION
STABLE, DRAFT = Since.STABLE, Since.DRAFT

# The protocol table of the spec digest, one row per method and direction:
# (method, direction, kind, since, host capability, app capability).
SPEC_TABLE = {
    ("ui/initialize", V2H, REQ, STABLE, None, None),
    ("ui/notifications/initialized", V2H, NOTE, STABLE, None, None),
    ("ping", V2H, REQ, STABLE, None, None),
    ("ping", H2V, REQ, STABLE, None, None),
    ("tools/call", V2H, REQ, STABLE, "serverTools", None),
    ("tools/list", V2H, REQ, DRAFT, "serverTools", None),
    ("notifications/tools/list_changed", H2V, NOTE, DRAFT, "serverTools.listChanged", None),
    ("notifications/tools/list_changed", V2H, NOTE, DRAFT, None, "tools.listChanged"),
    ("resources/read", V2H, REQ, STABLE, "serverResources", None),
    ("resources/list", V2H, REQ, DRAFT, "serverResources", None),
    ("resources/templates/list", V2H, REQ, DRAFT, "serverResources", None),
    ("notifications/message", V2H, NOTE, STABLE, "logging", None),
    ("sampling/createMessage", V2H, REQ, DRAFT, "sampling", None),
    ("ui/open-link", V2H, REQ, STABLE, "openLinks", None),
    ("ui/download-file", V2H, REQ, DRAFT, "downloadFile", None),
    ("ui/message", V2H, REQ, STABLE, "message", None),
    ("ui/update-model-context", V2H, REQ, STABLE, "updateModelContext", None),
    ("ui/request-display-mode", V2H, REQ, STABLE, None, None),
    ("ui/notifications/size-changed", V2H, NOTE, STABLE, None, None),
    ("ui/notifications/request-teardown", V2H, NOTE, DRAFT, None, None),
    ("ui/notifications/tool-input", H2V, NOTE, STABLE, None, None),
    ("ui/notifications/tool-input-partial", H2V, NOTE, STABLE, None, None),
    ("ui/notifications/tool-result", H2V, NOTE, STABLE, None, None),
    ("ui/notifications/tool-cancelled", H2V, NOTE, STABLE, None, None),
    ("ui/notifications/host-context-changed", H2V, NOTE, STABLE, None, None),
    ("ui/resource-teardown", H2V, REQ, STABLE, None, None),
    ("tools/call", H2V, REQ, DRAFT, None, "tools"),
    ("tools/list", H2V, REQ, DRAFT, None, "tools"),
    ("ui/notifications/sandbox-proxy-ready", Direction.PROXY_TO_HOST, NOTE, STABLE, None, None),
    ("ui/notifications/sandbox-resource-ready", Direction.HOST_TO_PROXY, NOTE, STABLE, None, None),
}


def test_the_method_table_is_the_spec_table_row_for_row() -> None:
    rows = {
        (spec.name, spec.direction, spec.kind, spec.since, spec.host_capability, spec.app_capability)
        for spec in m.METHODS
    }
    assert rows == SPEC_TABLE
    assert len(m.METHODS) == len(SPEC_TABLE)


def test_the_method_name_constants_are_the_wire_names() -> None:
    assert m.UI_INITIALIZE == "ui/initialize"
    assert m.UI_INITIALIZED == "ui/notifications/initialized"
    assert m.UI_OPEN_LINK == "ui/open-link"
    assert m.UI_DOWNLOAD_FILE == "ui/download-file"
    assert m.UI_MESSAGE == "ui/message"
    assert m.UI_UPDATE_MODEL_CONTEXT == "ui/update-model-context"
    assert m.UI_REQUEST_DISPLAY_MODE == "ui/request-display-mode"
    assert m.UI_SIZE_CHANGED == "ui/notifications/size-changed"
    assert m.UI_REQUEST_TEARDOWN == "ui/notifications/request-teardown"
    assert m.UI_TOOL_INPUT == "ui/notifications/tool-input"
    assert m.UI_TOOL_INPUT_PARTIAL == "ui/notifications/tool-input-partial"
    assert m.UI_TOOL_RESULT == "ui/notifications/tool-result"
    assert m.UI_TOOL_CANCELLED == "ui/notifications/tool-cancelled"
    assert m.UI_HOST_CONTEXT_CHANGED == "ui/notifications/host-context-changed"
    assert m.UI_RESOURCE_TEARDOWN == "ui/resource-teardown"
    assert m.UI_SANDBOX_PROXY_READY == "ui/notifications/sandbox-proxy-ready"
    assert m.UI_SANDBOX_RESOURCE_READY == "ui/notifications/sandbox-resource-ready"


def test_each_method_name_has_one_kind_in_every_direction() -> None:
    for name in m.KNOWN_METHODS:
        assert len({spec.kind for spec in m.METHODS if spec.name == name}) == 1
        assert m.method_kind(name) is next(spec.kind for spec in m.METHODS if spec.name == name)


def test_no_method_appears_twice_in_the_same_direction() -> None:
    pairs = [(spec.name, spec.direction) for spec in m.METHODS]
    assert len(pairs) == len(set(pairs))


def test_every_host_capability_the_table_names_is_a_key_of_the_host_capabilities_model() -> None:
    for spec in m.METHODS:
        if spec.host_capability is None:
            continue
        top, _, sub = spec.host_capability.partition(".")
        payload = {top: {sub: True} if sub else {}}
        capabilities = HostCapabilities.from_wire(payload)
        assert capabilities.extra == {}, spec.host_capability
        assert capabilities.declares(spec.host_capability)
        assert not HostCapabilities().declares(spec.host_capability)


def test_every_app_capability_the_table_names_is_a_key_of_the_app_capabilities_model() -> None:
    for spec in m.METHODS:
        if spec.app_capability is None:
            continue
        top, _, sub = spec.app_capability.partition(".")
        capabilities = AppCapabilities.from_wire({top: {sub: True} if sub else {}})
        assert capabilities.extra == {}
        assert capabilities.declares(spec.app_capability)


def test_method_spec_finds_the_row_for_a_name_and_direction() -> None:
    spec = m.method_spec(m.TOOLS_CALL, H2V)
    assert spec.app_capability == "tools"
    assert spec.since is DRAFT
    assert m.method_spec(m.TOOLS_CALL, V2H).host_capability == "serverTools"


def test_method_spec_raises_for_an_unknown_name_or_direction() -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        m.method_spec(m.UI_TOOL_INPUT, V2H)
    assert caught.value.rule_id == codes.BRIDGE_UNKNOWN_METHOD
    with pytest.raises(InvalidBridgeMessage) as renamed:
        m.method_spec("ui/size-change", V2H)
    assert m.UI_SIZE_CHANGED in renamed.value.message


def test_unknown_names_have_no_kind_and_no_direction() -> None:
    assert m.method_kind("prompts/get") is None
    assert m.method_directions("prompts/get") == ()
    assert not m.is_known_method("prompts/get")
    assert m.is_known_method(m.TOOLS_CALL)
    assert m.method_directions(m.PING) == (V2H, H2V)


def test_early_draft_names_map_to_known_stable_names_and_are_not_themselves_known() -> None:
    assert m.LEGACY_METHOD_RENAMES == {
        "ui/tool-cancelled": "ui/notifications/tool-cancelled",
        "ui/size-change": "ui/notifications/size-changed",
        "ui/host-context-change": "ui/notifications/host-context-changed",
        "ui/notifications/sandbox-ready": "ui/notifications/sandbox-proxy-ready",
    }
    for old, new in m.LEGACY_METHOD_RENAMES.items():
        assert not m.is_known_method(old)
        assert m.is_known_method(new)
        assert m.current_method_name(old) == new
    assert m.current_method_name(m.UI_MESSAGE) == m.UI_MESSAGE


def test_the_sandbox_methods_are_the_only_ones_under_the_sandbox_prefix() -> None:
    sandbox = {spec.name for spec in m.METHODS if spec.name.startswith(m.SANDBOX_NOTIFICATION_PREFIX)}
    assert sandbox == {m.UI_SANDBOX_PROXY_READY, m.UI_SANDBOX_RESOURCE_READY}
    assert all(
        spec.direction in (Direction.PROXY_TO_HOST, Direction.HOST_TO_PROXY)
        for spec in m.METHODS
        if spec.name in sandbox
    )
