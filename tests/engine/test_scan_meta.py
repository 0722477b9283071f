import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.scan.meta import scan_widget_meta
from hostcompat.errors import HostCompatError, InvalidUIMeta


def test_frame_domains_and_permissions_become_meta_needs() -> None:
    meta = {"ui": {"csp": {"frameDomains": ["https://player.test"]}, "permissions": {"camera": {}, "microphone": {}}}}
    scan = scan_widget_meta(meta)
    assert scan.needs_used() == ("sandboxPermissions", "cspFrameDomains")
    assert scan.permission_names == ("camera", "microphone")
    assert scan.frame_domains == ("https://player.test",)
    assert {f.kind for f in scan.findings} == {"meta"}


def test_connect_and_resource_domains_are_read_from_both_dialects() -> None:
    meta = {
        "ui": {"csp": {"connectDomains": ["https://api.test"], "resourceDomains": ["https://cdn.test"]}},
        "openai/widgetCSP": {"connect_domains": ["https://api2.test"], "resource_domains": [], "frame_domains": []},
    }
    scan = scan_widget_meta(meta)
    assert scan.connect_domains == ("https://api.test", "https://api2.test")
    assert scan.resource_domains == ("https://cdn.test",)
    assert scan.needs_used() == ("cspResourceDomains", "cspConnectDomains")


def test_empty_lists_declare_nothing() -> None:
    scan = scan_widget_meta({"ui": {"csp": {"frameDomains": []}, "permissions": {}}})
    assert scan.needs_used() == ()
    assert scan.problems == ()


def test_none_declares_nothing() -> None:
    assert scan_widget_meta(None).needs_used() == ()


def test_wrong_shapes_are_reported_problems_not_errors() -> None:
    scan = scan_widget_meta({"ui": {"csp": {"frameDomains": "https://x.test"}, "permissions": ["camera"]}})
    assert {p.code for p in scan.problems} == {"meta_invalid"}
    assert scan.needs_used() == ("sandboxPermissions",)
    assert scan.permission_names == ("camera",)


def test_a_meta_that_is_not_a_mapping_is_invalid_ui_meta() -> None:
    with pytest.raises(InvalidUIMeta) as caught:
        scan_widget_meta(["ui"])  # type: ignore[arg-type]  # deliberately wrong type
    assert caught.value.value == ["ui"]


def test_scanning_meta_does_not_mutate_it() -> None:
    meta = {"ui": {"csp": {"connectDomains": ["https://a.test"]}, "permissions": {"camera": {}}}}
    snapshot = repr(meta)
    scan_widget_meta(meta)
    assert repr(meta) == snapshot


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=12),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(
                    ["ui", "csp", "permissions", "frameDomains", "connectDomains", "openai/widgetCSP", "x"]
                ),
                inner,
                max_size=4,
            )
        ),
        max_leaves=25,
    )
)
def test_arbitrary_json_meta_gives_a_scan_or_a_hostcompat_error(meta: object) -> None:
    try:
        scan = scan_widget_meta(meta)  # type: ignore[arg-type]  # arbitrary JSON on purpose
    except HostCompatError:
        return
    assert all(isinstance(d, str) for d in scan.connect_domains + scan.frame_domains + scan.resource_domains)
    assert scan.to_dict()["needs_used"] == list(scan.needs_used())
