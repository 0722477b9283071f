from typing import Any

import pytest

from hostcompat.apps.bridge import codes
from hostcompat.apps.bridge.context import HostContext, merge_host_context
from hostcompat.errors import InvalidBridgeMessage
from tests.apps.bridge.examples import HOST_CONTEXT


def test_every_host_context_field_is_read_and_written_back_exactly() -> None:
    context = HostContext.from_wire(HOST_CONTEXT)
    assert context.theme == "dark"
    assert context.display_mode == "inline"
    assert context.available_display_modes == ("inline", "fullscreen", "pip")
    assert context.container_dimensions == {"width": 720, "maxHeight": 600}
    assert context.time_zone == "Europe/Paris"
    assert context.platform == "desktop"
    assert context.extra == {}
    assert context.to_wire() == HOST_CONTEXT


def test_unknown_host_context_keys_are_kept() -> None:
    wire = {"theme": "light", "futureHint": {"compact": True}, "x-vendor": 3}
    context = HostContext.from_wire(wire)
    assert context.extra == {"futureHint": {"compact": True}, "x-vendor": 3}
    assert context.to_wire() == wire


def test_a_theme_or_mode_the_spec_does_not_list_still_reads() -> None:
    context = HostContext.from_wire({"theme": "high-contrast", "displayMode": "sidebar", "platform": "tv"})
    assert (context.theme, context.display_mode, context.platform) == ("high-contrast", "sidebar", "tv")


@pytest.mark.parametrize(
    ("wire", "field"),
    [
        ({"theme": True}, "hostContext.theme"),
        ({"toolInfo": "get_weather"}, "hostContext.toolInfo"),
        ({"styles": []}, "hostContext.styles"),
        ({"availableDisplayModes": "inline"}, "hostContext.availableDisplayModes"),
        ({"locale": 33}, "hostContext.locale"),
        ({"safeAreaInsets": 0}, "hostContext.safeAreaInsets"),
    ],
)
def test_a_host_context_field_of_the_wrong_type_is_rejected_naming_it(wire: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidBridgeMessage) as caught:
        HostContext.from_wire(wire)
    assert caught.value.rule_id == codes.BRIDGE_BAD_FIELD
    assert caught.value.message.startswith(f"{field}:")


def test_a_context_change_replaces_the_keys_it_sets_and_keeps_the_rest() -> None:
    current = HostContext.from_wire(HOST_CONTEXT)
    change = HostContext.from_wire({"theme": "light", "containerDimensions": {"maxHeight": 900}, "newKey": 1})
    merged = merge_host_context(current, change)
    assert merged.theme == "light"
    assert merged.container_dimensions == {"maxHeight": 900}
    assert merged.locale == current.locale
    assert merged.tool_info == current.tool_info
    assert merged.extra == {"newKey": 1}
    assert current == HostContext.from_wire(HOST_CONTEXT)


def test_an_empty_context_change_changes_nothing() -> None:
    current = HostContext.from_wire(HOST_CONTEXT)
    assert merge_host_context(current, HostContext()) == current
