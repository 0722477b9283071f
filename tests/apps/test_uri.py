import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.apps.constants import MAX_UI_URI_BYTES
from hostcompat.apps.uri import (
    SCOPED_KINDS,
    UIURI,
    is_valid_ui_uri,
    validate_scoped_ui_uri,
    validate_ui_uri,
)
from hostcompat.errors import InvalidInput, InvalidUIURI

GENERIC_ACCEPTED = [
    "ui://weather-dashboard",
    "ui://weather-server/dashboard-template",
    "ui://server/templates/chart.html?theme=dark#v2",
    "ui://x/unknown/y",
    "ui://counter.demo/counter.html",
]

SCOPED_R1 = "ui://agently.wk_ab12cd34ef56ab78/demo/show_widget"

# Unicode White_Space, which Go's unicode.IsSpace also follows.
WHITE_SPACE = [
    *"\t\n\x0b\x0c\r ",
    "\x85",
    "\xa0",
    "\u1680",
    *(chr(code) for code in range(0x2000, 0x200B)),
    "\u2028",
    "\u2029",
    "\u202f",
    "\u205f",
    "\u3000",
]


@pytest.mark.parametrize("raw", GENERIC_ACCEPTED)
def test_generic_rule_accepts_the_spec_examples_and_keeps_raw_unchanged(raw: str) -> None:
    parsed = validate_ui_uri(raw)
    assert parsed.raw == raw
    assert raw.startswith("ui://" + parsed.server_scope)


def test_server_scope_is_the_host_before_any_path_query_or_fragment() -> None:
    assert validate_ui_uri("ui://server/templates/chart.html?theme=dark#v2").server_scope == "server"
    assert validate_ui_uri("ui://weather-dashboard?x=1").server_scope == "weather-dashboard"
    assert validate_ui_uri("ui://weather-dashboard#frag").server_scope == "weather-dashboard"


def test_server_scope_keeps_the_port_as_go_does() -> None:
    assert validate_ui_uri("ui://host:8080/x").server_scope == "host:8080"


def test_generic_rule_fills_kind_and_id_only_when_the_scoped_rules_pass() -> None:
    scoped = validate_ui_uri(SCOPED_R1)
    assert (scoped.kind, scoped.resource_id) == ("demo", "show_widget")
    unscoped = validate_ui_uri("ui://x/unknown/y")
    assert (unscoped.kind, unscoped.resource_id) == (None, None)
    with_query = validate_ui_uri("ui://x/demo/y?q=1")
    assert (with_query.kind, with_query.resource_id) == (None, None)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "empty"),
        ("ui://", "empty host"),
        ("http://x/demo/y", "scheme"),
        ("UI://x", "scheme"),
        ("ui:/x", "scheme"),
        ("ui://user:password@host", "userinfo"),
        ("ui://u@h", "userinfo"),
        ("ui://@h", "userinfo"),
        ("ui://host/\npath", "whitespace or control"),
        ("ui://host/%zz", "percent-escape"),
        ("ui://host/has space", "whitespace or control"),
        ("ui://h/\u00a0", "whitespace or control"),
        ("ui:///path", "empty host"),
        ("ui://:80/x", "empty host"),
        ("ui://h:http/x", "port"),
        ("ui://h:80:90/x", "port"),
        ("ui://h/x%2", "percent-escape"),
        ("ui://h/x%", "percent-escape"),
        ("ui://h/x#%g0", "percent-escape.*fragment"),
        ("ui://h/x?q=%zz", "percent-escape.*query"),
        ("ui://h%zz/x", "percent-escape.*host"),
        ("ui://h%41/x", "escape '%41' in host encodes an ASCII byte"),
        ("ui://a|b/x", "forbidden character '\\|' in host"),
        ("ui://a]b/x", "forbidden character '\\]' in host"),
        ("ui://a\\b/x", "forbidden character"),
        ("ui://[::1/x", "closing"),
        ("ui://[not-an-ip]/x", "not an IPv6 address"),
        ("ui://[::1]x/x", "port"),
        ("ui://[::1]:8a/x", "port"),
        ("ui://[fe80::1%25]/x", "empty IPv6 zone"),
        ("ui://h/\x00", "whitespace or control"),
        ("ui://h/\x7f", "whitespace or control"),
        ("ui://h/\x9f", "whitespace or control"),
    ],
)
def test_generic_rule_rejects_each_bad_shape_with_its_own_message(raw: str, message: str) -> None:
    with pytest.raises(InvalidUIURI, match=message) as caught:
        validate_ui_uri(raw)
    assert caught.value.value == raw


@pytest.mark.parametrize("char", WHITE_SPACE)
def test_every_unicode_white_space_character_is_rejected_like_go_is_space(char: str) -> None:
    with pytest.raises(InvalidUIURI, match="whitespace or control"):
        validate_ui_uri(f"ui://host/a{char}b")


def test_a_lone_surrogate_is_rejected_as_not_utf8() -> None:
    with pytest.raises(InvalidUIURI, match="UTF-8"):
        validate_ui_uri("ui://host/\ud800")


def test_a_non_string_is_rejected_as_invalid_input_not_type_error() -> None:
    for value in (None, 42, b"ui://x", ["ui://x"]):
        with pytest.raises(InvalidUIURI, match="must be a string") as caught:
            validate_ui_uri(value)
        assert isinstance(caught.value, InvalidInput)
        assert caught.value.value is value


def test_exactly_the_byte_limit_is_accepted_and_one_more_byte_is_oversized() -> None:
    prefix = "ui://h/"
    at_limit = prefix + "a" * (MAX_UI_URI_BYTES - len(prefix))
    assert validate_ui_uri(at_limit).raw == at_limit
    with pytest.raises(InvalidUIURI, match="oversized"):
        validate_ui_uri(at_limit + "a")


def test_the_byte_limit_counts_utf8_bytes_not_characters() -> None:
    prefix = "ui://h/"
    room = MAX_UI_URI_BYTES - len(prefix)
    two_byte = "é" * (room // 2)
    assert len((prefix + two_byte).encode()) <= MAX_UI_URI_BYTES
    validate_ui_uri(prefix + two_byte)
    too_many = "é" * (room // 2 + 1)
    assert len(prefix + too_many) <= MAX_UI_URI_BYTES
    with pytest.raises(InvalidUIURI, match="oversized"):
        validate_ui_uri(prefix + too_many)


def test_a_huge_string_is_rejected_as_oversized() -> None:
    with pytest.raises(InvalidUIURI, match="oversized"):
        validate_ui_uri("ui://h/" + "a" * 10_000_000)


@pytest.mark.parametrize(
    "raw",
    [
        "ui://h:/x",
        "ui://h:8080",
        "ui://[::1]/x",
        "ui://[::1]:9000/x",
        "ui://[fe80::1%25en0]/x",
        "ui://h%C3%A9/x",
        "ui://h%25/x",
        "ui://h/a%20b",
        "ui://h/caf\u00e9",
        "ui://h\u00e9/x",
        "ui://sub-delims!$&'()*+,;=/x",
        "ui://h/a@b",
        "ui://h?x/y",
        "ui://h#f?q",
        "ui://h/x?",
    ],
)
def test_generic_rule_accepts_what_go_url_parse_accepts(raw: str) -> None:
    assert validate_ui_uri(raw).raw == raw


def test_a_query_may_hold_a_slash_and_a_fragment_may_hold_a_question_mark() -> None:
    assert validate_ui_uri("ui://h?x/y").server_scope == "h"
    assert validate_ui_uri("ui://h#f?q").server_scope == "h"


def test_scoped_rule_parses_r1() -> None:
    parsed = validate_scoped_ui_uri(SCOPED_R1)
    assert parsed == UIURI(
        raw=SCOPED_R1,
        server_scope="agently.wk_ab12cd34ef56ab78",
        kind="demo",
        resource_id="show_widget",
    )


@pytest.mark.parametrize("kind", SCOPED_KINDS)
def test_scoped_rule_accepts_every_known_kind(kind: str) -> None:
    assert validate_scoped_ui_uri(f"ui://scope/{kind}/id").kind == kind


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "empty"),
        ("http://x/demo/y", "scheme"),
        ("ui://x/demo/y?q", "query or fragment"),
        ("ui://x/demo/y#f", "query or fragment"),
        ("ui://x/demo", "scoped shape.*2 part"),
        ("ui://x/demo/y/z", "scoped shape.*4 part"),
        ("ui:///demo/y", "needs a scope"),
        ("ui://x/demo/", "needs an id"),
        ("ui://x/unknown/y", "kind 'unknown'"),
        ("ui://x/Demo/y", "kind 'Demo'"),
    ],
)
def test_scoped_rule_rejects_each_bad_shape_with_its_own_message(raw: str, message: str) -> None:
    with pytest.raises(InvalidUIURI, match=message):
        validate_scoped_ui_uri(raw)


def test_scoped_checks_run_in_the_reference_order() -> None:
    # A query is reported before the part count, and an empty scope before an unknown kind.
    with pytest.raises(InvalidUIURI, match="query or fragment"):
        validate_scoped_ui_uri("ui://x/a/b/c?q")
    with pytest.raises(InvalidUIURI, match="needs a scope"):
        validate_scoped_ui_uri("ui:///unknown/y")
    with pytest.raises(InvalidUIURI, match="needs an id"):
        validate_scoped_ui_uri("ui://x/unknown/")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("ui://u@x/demo/y", "userinfo"),
        ("ui://x/demo/a%zz", "percent-escape"),
        ("ui://x/demo/a b", "whitespace"),
        ("ui://x:port/demo/y", "port"),
    ],
)
def test_scoped_rule_also_enforces_the_generic_rules(raw: str, message: str) -> None:
    with pytest.raises(InvalidUIURI, match=message):
        validate_scoped_ui_uri(raw)


def test_scoped_rule_rejects_non_strings_and_oversized_input_before_splitting() -> None:
    with pytest.raises(InvalidUIURI, match="must be a string"):
        validate_scoped_ui_uri(None)
    with pytest.raises(InvalidUIURI, match="oversized"):
        validate_scoped_ui_uri("ui://x/demo/" + "y" * 10_000)


def test_is_valid_ui_uri_answers_without_raising() -> None:
    assert is_valid_ui_uri("ui://weather-dashboard")
    assert not is_valid_ui_uri("ui://")
    assert not is_valid_ui_uri(3)


def test_a_parsed_uri_is_immutable() -> None:
    parsed = validate_ui_uri("ui://x/demo/y")
    with pytest.raises(AttributeError):
        parsed.raw = "ui://other"  # type: ignore[misc]  # assigning to a frozen field is the point of the test


@given(st.text(max_size=300))
def test_arbitrary_text_gives_a_uri_or_invalid_ui_uri_only(raw: str) -> None:
    try:
        parsed = validate_ui_uri(raw)
    except InvalidUIURI as error:
        assert error.value == raw
    else:
        assert parsed.raw == raw


@given(st.text(max_size=300))
def test_arbitrary_text_after_the_prefix_gives_a_uri_or_invalid_ui_uri_only(tail: str) -> None:
    raw = "ui://" + tail
    for validate in (validate_ui_uri, validate_scoped_ui_uri):
        try:
            parsed = validate(raw)
        except InvalidUIURI:
            continue
        assert parsed.raw == raw


_HOST_CHARS = st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789-._~")
_PATH_CHARS = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789-._~!$&'()*+,;=:@/")


@given(
    host=st.text(_HOST_CHARS, min_size=1, max_size=40),
    port=st.none() | st.integers(min_value=0, max_value=65535),
    path=st.text(_PATH_CHARS, max_size=60),
    query=st.none() | st.text(_PATH_CHARS, max_size=20),
    fragment=st.none() | st.text(_PATH_CHARS, max_size=20),
)
def test_a_well_formed_uri_validates_and_round_trips_raw_unchanged(
    host: str, port: int | None, path: str, query: str | None, fragment: str | None
) -> None:
    authority = host if port is None else f"{host}:{port}"
    raw = f"ui://{authority}/{path}"
    if query is not None:
        raw += "?" + query
    if fragment is not None:
        raw += "#" + fragment
    parsed = validate_ui_uri(raw)
    assert parsed.raw == raw
    assert parsed.server_scope == authority
    assert validate_ui_uri(parsed.raw) == parsed


@given(
    scope=st.text(_HOST_CHARS, min_size=1, max_size=30),
    kind=st.sampled_from(SCOPED_KINDS),
    resource_id=st.text(st.sampled_from("abcxyz0189_-."), min_size=1, max_size=30),
)
def test_a_well_formed_scoped_uri_parses_into_its_three_parts(scope: str, kind: str, resource_id: str) -> None:
    raw = f"ui://{scope}/{kind}/{resource_id}"
    parsed = validate_scoped_ui_uri(raw)
    assert (parsed.server_scope, parsed.kind, parsed.resource_id) == (scope, kind, resource_id)
    assert validate_ui_uri(raw) == parsed
