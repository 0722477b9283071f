import importlib

import hostcompat.apps.bridge as bridge

MODULES = (
    "codes",
    "context",
    "handshake",
    "legacy",
    "legacy_mapping",
    "legacy_params",
    "messages",
    "methods",
    "negotiate",
    "parse",
)


def test_all_is_sorted_and_every_name_in_it_exists() -> None:
    assert bridge.__all__ == sorted(bridge.__all__)
    assert len(bridge.__all__) == len(set(bridge.__all__))
    for name in bridge.__all__:
        assert hasattr(bridge, name), name


def test_the_face_exports_public_names_of_the_bridge_modules_and_the_bridge_error() -> None:
    table: dict[str, tuple[str, str]] = getattr(bridge.__getattr__, "lazy_table")  # noqa: B009
    for name, (module, _) in table.items():
        if module == "hostcompat.errors":
            assert name == "InvalidBridgeMessage"
        else:
            assert name in importlib.import_module(module).__all__, name


def test_every_public_name_of_the_bridge_modules_stays_importable_from_its_module() -> None:
    for short in MODULES:
        module = importlib.import_module(f"hostcompat.apps.bridge.{short}")
        for name in module.__all__:
            assert getattr(module, name) is not None, f"{short}.{name}"


def test_the_face_keeps_the_entry_points_and_leaves_the_protocol_tables_in_their_modules() -> None:
    assert {"parse_message", "serialize", "error_reply", "negotiate_protocol_version", "to_official"} <= set(
        bridge.__all__
    )
    assert not {"UI_OPEN_LINK", "METHODS", "BRIDGE_BAD_FIELD", "PARSE_ERROR", "LEGACY_OPEN_LINK"} & set(bridge.__all__)
