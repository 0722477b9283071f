from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.clients.proxy.config import (
    HttpUpstream,
    ProxyConfig,
    StdioUpstream,
    build_rules,
    http_upstream,
    is_loopback,
    parse_header,
    parse_listen,
    stdio_upstream,
)
from hostcompat.errors import CatalogError, InvalidInput


def test_a_listen_address_splits_into_host_and_port() -> None:
    assert parse_listen("127.0.0.1:8000") == ("127.0.0.1", 8000)
    assert parse_listen("[::1]:0") == ("::1", 0)
    assert parse_listen("localhost:65535") == ("localhost", 65535)


@pytest.mark.parametrize("text", ["8000", ":8000", "host:", "host:65536", "host:-1", "host:eighty"])
def test_a_listen_address_without_a_usable_host_and_port_is_refused(text: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_listen(text)
    assert caught.value.value == text


def test_headers_are_name_colon_value_with_spaces_trimmed() -> None:
    assert parse_header("Authorization: Bearer abc") == ("Authorization", "Bearer abc")
    assert parse_header("X-Empty:") == ("X-Empty", "")


@pytest.mark.parametrize("text", ["no colon", ": value", "bad name: v", "X-A: one\r\ntwo"])
def test_a_malformed_header_is_refused(text: str) -> None:
    with pytest.raises(InvalidInput):
        parse_header(text)


def test_an_http_upstream_needs_an_http_url_and_distinct_headers() -> None:
    upstream = http_upstream("https://example.com/mcp", ["A: 1", "B:2"])
    assert upstream == HttpUpstream("https://example.com/mcp", {"A": "1", "B": "2"})
    with pytest.raises(InvalidInput):
        http_upstream("ftp://example.com/mcp")
    with pytest.raises(InvalidInput):
        http_upstream("http://example.com/mcp", ["A: 1", "a: 2"])


def test_secrets_in_headers_never_show_in_the_description() -> None:
    assert http_upstream("http://h/mcp", {"Authorization": "Bearer s3cret"}).describe() == "http://h/mcp"


def test_a_stdio_upstream_is_a_command_line() -> None:
    upstream = stdio_upstream(["node", "server.js", "stdio"], env={"KEY": "v"})
    assert upstream.command == "node" and upstream.args == ("server.js", "stdio")
    assert upstream.describe() == "node server.js stdio"
    assert dict(upstream.env) == {"KEY": "v"}


@pytest.mark.parametrize("argv", [[], [""], ["node", "a\x00b"], "node server.js", [1]])
def test_an_unusable_command_line_is_refused(argv: Any) -> None:
    with pytest.raises(InvalidInput):
        stdio_upstream(argv)


@pytest.mark.parametrize(
    "limits",
    [{"request_timeout": 0}, {"request_timeout": float("inf")}, {"max_message_bytes": 0}, {"max_sessions": True}],
)
def test_limits_must_be_positive(limits: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        ProxyConfig(StdioUpstream("x"), **limits)


def test_loopback_hosts_are_recognised() -> None:
    assert all(is_loopback(host) for host in ("127.0.0.1", "127.9.9.9", "::1", "localhost"))
    assert not any(is_loopback(host) for host in ("0.0.0.0", "10.0.0.1", "example.com"))


def test_a_disabled_rule_is_switched_off_and_an_unknown_id_is_an_error() -> None:
    rules = {rule.id: rule for rule in build_rules(disabled=["codex.round-annotation-priority"])}
    assert not rules["codex.round-annotation-priority"].enabled
    assert rules["codex.resource-link-to-text"].enabled
    with pytest.raises(CatalogError) as caught:
        build_rules(disabled=["no.such-rule"])
    assert "--disable" in caught.value.message


@settings(max_examples=300)
@given(st.text(max_size=40))
def test_any_text_is_a_listen_address_or_invalid_input(text: str) -> None:
    try:
        host, port = parse_listen(text)
    except InvalidInput:
        return
    assert host and 0 <= port <= 65535


@settings(max_examples=300)
@given(st.text(max_size=40))
def test_any_text_is_a_header_or_invalid_input(text: str) -> None:
    try:
        name, value = parse_header(text)
    except InvalidInput:
        return
    assert parse_header(f"{name}: {value}") == (name, value)
