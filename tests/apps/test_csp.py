from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.apps.csp import (
    DEFAULT_CSP,
    MAX_CSP_SOURCE_CHARS,
    build_allow_attribute,
    build_csp,
    csp_source_is_valid,
)
from hostcompat.apps.meta.access import ResourceCSP, ResourcePermissions
from hostcompat.errors import InvalidUIMeta

BUILT_DIRECTIVES = (
    "default-src",
    "script-src",
    "style-src",
    "connect-src",
    "img-src",
    "font-src",
    "media-src",
    "frame-src",
    "object-src",
    "base-uri",
)

INJECTIONS = [
    "'unsafe-eval'",
    "'self'",
    "'none'",
    "*",
    "https://*",
    "https://a.x; script-src *",
    "https://a.x;",
    "https://a.x 'unsafe-eval'",
    "https://a.x,https://b.x",
    '"https://a.x"',
    "'https://a.x'",
    "https://a.x\n",
    "https://a.x\t",
    " https://a.x",
    "https://a.x/path",
    "https://a.x/",
    "https://a.x?q",
    "https://user@a.x",
    "https://[::1]",
    "https://a.*.x",
    "https://*.*.x",
    "https://a.x:port",
    "https://a..x",
    "https://a.x.",
    "https://",
    "cdn.example.com",
    "data:",
    "javascript:alert(1)",
    "//a.x",
    "1http://a.x",
    "https://caf\u00e9.x",
    "",
]


def directives(policy: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for directive in policy.split("; "):
        name, *values = directive.split(" ")
        assert name not in parsed
        parsed[name] = values
    return parsed


def test_no_csp_gives_the_restrictive_default_of_the_spec() -> None:
    assert build_csp(None) == DEFAULT_CSP
    default = directives(DEFAULT_CSP)
    assert default == {
        "default-src": ["'none'"],
        "script-src": ["'self'", "'unsafe-inline'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "media-src": ["'self'", "data:"],
        "connect-src": ["'none'"],
        "object-src": ["'none'"],
    }


def test_case_26_built_form_contains_the_expected_directives() -> None:
    policy = build_csp({"connectDomains": ["https://api.x"], "resourceDomains": ["https://cdn.x"]})
    for expected in (
        "script-src 'self' 'unsafe-inline' https://cdn.x",
        "connect-src 'self' https://api.x",
        "frame-src 'none'",
        "object-src 'none'",
        "base-uri 'self'",
    ):
        assert expected in policy.split("; ")


def test_built_form_follows_the_spec_example_directive_by_directive() -> None:
    policy = build_csp(
        {
            "connectDomains": ["https://api.x", "wss://live.x"],
            "resourceDomains": ["https://cdn.x", "https://*.img.x"],
            "frameDomains": ["https://embed.x"],
            "baseUriDomains": ["https://base.x"],
        }
    )
    resource = ["https://cdn.x", "https://*.img.x"]
    assert tuple(directives(policy)) == BUILT_DIRECTIVES
    assert directives(policy) == {
        "default-src": ["'none'"],
        "script-src": ["'self'", "'unsafe-inline'", *resource],
        "style-src": ["'self'", "'unsafe-inline'", *resource],
        "connect-src": ["'self'", "https://api.x", "wss://live.x"],
        "img-src": ["'self'", "data:", *resource],
        "font-src": ["'self'", *resource],
        "media-src": ["'self'", "data:", *resource],
        "frame-src": ["https://embed.x"],
        "object-src": ["'none'"],
        "base-uri": ["https://base.x"],
    }


def test_an_empty_csp_object_gives_the_built_form_with_no_external_origins() -> None:
    policy = directives(build_csp({}))
    assert tuple(policy) == BUILT_DIRECTIVES
    assert policy["connect-src"] == ["'self'"]
    assert policy["frame-src"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]


def test_wasm_unsafe_eval_is_added_to_script_src_only() -> None:
    without = directives(build_csp({"wasmUnsafeEval": False}))
    with_wasm = directives(build_csp({"wasmUnsafeEval": True, "resourceDomains": ["https://cdn.x"]}))
    assert "'wasm-unsafe-eval'" not in without["script-src"]
    assert with_wasm["script-src"] == ["'self'", "'unsafe-inline'", "'wasm-unsafe-eval'", "https://cdn.x"]
    others = [values for name, values in with_wasm.items() if name != "script-src"]
    assert all("'wasm-unsafe-eval'" not in values for values in others)


def test_a_resource_csp_object_builds_the_same_policy_as_its_wire_form() -> None:
    wire: dict[str, Any] = {
        "connectDomains": ["https://api.x"],
        "resourceDomains": ["https://cdn.x"],
        "frameDomains": ["https://f.x"],
        "baseUriDomains": ["https://b.x"],
        "wasmUnsafeEval": True,
    }
    assert build_csp(ResourceCSP.from_wire(wire)) == build_csp(wire)
    typed = ResourceCSP(connect_domains=("https://api.x",), wasm_unsafe_eval=True)
    assert build_csp(typed) == build_csp({"connectDomains": ["https://api.x"], "wasmUnsafeEval": True})


def test_repeated_origins_are_written_once_in_first_seen_order() -> None:
    policy = directives(build_csp({"connectDomains": ["https://b.x", "https://a.x", "https://b.x"]}))
    assert policy["connect-src"] == ["'self'", "https://b.x", "https://a.x"]


def test_unknown_csp_keys_are_ignored() -> None:
    assert build_csp({"futureDomains": ["not even checked"]}) == build_csp({})


def test_the_input_mapping_is_not_mutated() -> None:
    wire = {"connectDomains": ["https://a.x", "https://a.x"], "resourceDomains": ["https://cdn.x"]}
    before = {key: list(value) for key, value in wire.items()}
    build_csp(wire)
    assert wire == before


@pytest.mark.parametrize("origin", INJECTIONS)
@pytest.mark.parametrize("key", ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"])
def test_an_origin_that_is_not_a_plain_csp_source_is_rejected(key: str, origin: str) -> None:
    with pytest.raises(InvalidUIMeta, match=key) as caught:
        build_csp({key: ["https://fine.x", origin]})
    assert caught.value.value == origin


def test_a_legacy_csp_string_is_rejected_rather_than_passed_through() -> None:
    legacy = "default-src 'none'; script-src 'nonce-{{nonce}}'"
    with pytest.raises(InvalidUIMeta, match="legacy") as caught:
        build_csp(legacy)  # type: ignore[arg-type]  # the wrong type is the input under test
    assert caught.value.value == legacy


@pytest.mark.parametrize(
    "bad",
    [
        ["https://a.x"],
        42,
        {"connectDomains": "https://a.x"},
        {"connectDomains": [1]},
        {"wasmUnsafeEval": "yes"},
    ],
)
def test_a_csp_of_the_wrong_shape_raises_invalid_ui_meta(bad: Any) -> None:
    with pytest.raises(InvalidUIMeta):
        build_csp(bad)


@pytest.mark.parametrize(
    "origin",
    [
        "https://cdn.x",
        "https://*.example.com",
        "http://localhost:3000",
        "wss://live.example.com:*",
        "https://127.0.0.1:8443",
        "HTTPS://CDN.EXAMPLE.COM",
        "https://xn--caf-dma.example",
        "chrome-extension://abc",
    ],
)
def test_plain_origins_are_valid_csp_sources(origin: str) -> None:
    assert csp_source_is_valid(origin)


@pytest.mark.parametrize("origin", [*INJECTIONS, None, 3, b"https://a.x", ["https://a.x"]])
def test_keywords_injections_and_non_strings_are_not_valid_csp_sources(origin: object) -> None:
    assert not csp_source_is_valid(origin)


def test_an_overlong_origin_is_not_a_valid_csp_source() -> None:
    head = "https://"
    assert csp_source_is_valid(head + "a" * (MAX_CSP_SOURCE_CHARS - len(head)))
    assert not csp_source_is_valid(head + "a" * (MAX_CSP_SOURCE_CHARS - len(head) + 1))


def test_case_27_allow_attribute_lists_requested_features_in_order() -> None:
    assert build_allow_attribute({"microphone": {}, "clipboardWrite": {}}) == "microphone; clipboard-write"
    assert build_allow_attribute(None) == ""
    assert build_allow_attribute({}) == ""
    everything: dict[str, Any] = {"clipboardWrite": {}, "geolocation": {}, "microphone": {}, "camera": {}}
    assert build_allow_attribute(everything) == "camera; microphone; geolocation; clipboard-write"


def test_allow_attribute_accepts_resource_permissions() -> None:
    typed = ResourcePermissions(camera=True, clipboard_write=True)
    assert build_allow_attribute(typed) == "camera; clipboard-write"
    assert build_allow_attribute(typed) == build_allow_attribute(typed.to_wire())


def test_allow_attribute_ignores_unknown_features() -> None:
    assert build_allow_attribute({"camera": {}, "usb": {}}) == "camera"


@pytest.mark.parametrize("bad", [{"camera": True}, {"camera": "yes"}, ["camera"], "camera", 1])
def test_allow_attribute_rejects_a_permissions_value_of_the_wrong_shape(bad: Any) -> None:
    with pytest.raises(InvalidUIMeta):
        build_allow_attribute(bad)


_ORIGINS = st.builds(
    lambda scheme, wildcard, labels, port: (
        f"{scheme}://{'*.' if wildcard else ''}{'.'.join(labels)}{'' if port is None else f':{port}'}"
    ),
    st.sampled_from(["https", "http", "wss", "ws"]),
    st.booleans(),
    st.lists(st.from_regex(r"[a-z0-9][a-z0-9-]{0,10}", fullmatch=True), min_size=1, max_size=4),
    st.none() | st.integers(min_value=1, max_value=65535),
)


@given(st.lists(_ORIGINS, max_size=5), st.lists(_ORIGINS, max_size=5), st.lists(_ORIGINS, max_size=5))
def test_well_formed_origins_always_build_and_each_appears_as_its_own_token(
    connect: list[str], resource: list[str], frame: list[str]
) -> None:
    policy = directives(build_csp({"connectDomains": connect, "resourceDomains": resource, "frameDomains": frame}))
    assert tuple(policy) == BUILT_DIRECTIVES
    assert set(connect) <= set(policy["connect-src"])
    assert set(resource) <= set(policy["script-src"]) & set(policy["img-src"])
    assert set(frame) <= set(policy["frame-src"])


_KEYS = st.sampled_from(["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"])
_DOMAINS = st.lists(st.one_of(_ORIGINS, st.text(max_size=40)), max_size=6)


@given(st.dictionaries(_KEYS, _DOMAINS))
def test_input_can_never_add_or_split_a_directive(csp: dict[str, list[str]]) -> None:
    try:
        policy = build_csp(csp)
    except InvalidUIMeta:
        return
    assert tuple(directives(policy)) == BUILT_DIRECTIVES
    for values in directives(policy).values():
        for value in values:
            assert value
            assert not any(char in value for char in ';,"') and not any(char.isspace() for char in value)


@given(st.one_of(st.text(max_size=80), st.binary(max_size=20), st.none(), st.integers()))
def test_csp_source_check_never_raises_and_a_valid_source_is_one_clean_token(origin: object) -> None:
    if csp_source_is_valid(origin):
        assert isinstance(origin, str)
        assert not any(char in origin for char in ";,'\"") and not any(char.isspace() for char in origin)
