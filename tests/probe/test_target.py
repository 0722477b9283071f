"""Targets: parsing command-line style input, checking fields, and redacting secrets for the snapshot."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.errors import InvalidInput
from hostcompat.probe import HttpTarget, SseTarget, StdioTarget, TransportTarget, describe_target, parse_target
from hostcompat.probe.target import REDACTED, parse_env_assignment, parse_header, redact_args, redact_url


def test_a_command_line_is_a_stdio_target_split_like_a_shell() -> None:
    target = parse_target("node 'my server.js' --stdio", env=["API_KEY=abc"], cwd="/srv")
    assert target == StdioTarget("node", ("my server.js", "--stdio"), {"API_KEY": "abc"}, "/srv")


def test_an_argv_list_is_taken_as_is() -> None:
    assert parse_target(["python", "-m", "server"]) == StdioTarget("python", ["-m", "server"])


def test_urls_are_streamable_http_unless_they_end_in_sse() -> None:
    http = parse_target("https://example.com/mcp", headers=["Authorization: Bearer t0ken"])
    assert http == HttpTarget("https://example.com/mcp", {"Authorization": "Bearer t0ken"})
    assert isinstance(parse_target("http://127.0.0.1:3001/sse"), SseTarget)
    assert isinstance(parse_target("http://127.0.0.1:3001/sse", transport="http"), HttpTarget)
    assert isinstance(parse_target("http://127.0.0.1:3001/events", transport="sse"), SseTarget)


@pytest.mark.parametrize(
    ("spec", "options"),
    [
        ("", {}),
        ("   ", {}),
        ("node 'unclosed", {}),
        ([], {}),
        ("http://x/mcp", {"transport": "stdio"}),
        ("node server.js", {"transport": "http"}),
        ("node server.js", {"headers": ["Authorization: x"]}),
        ("http://x/mcp", {"env": ["A=1"]}),
        ("http://x/mcp", {"cwd": "/tmp"}),
        ("http://x/mcp", {"headers": ["no colon"]}),
        ("http://x/mcp", {"headers": "Authorization: x"}),
        ("node", {"env": ["=value"]}),
        ("node", {"transport": "websocket"}),
        ("ftp://x/mcp", {"transport": "http"}),
    ],
)
def test_unusable_input_is_invalid_input(spec: Any, options: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        parse_target(spec, **options)


@pytest.mark.parametrize(
    "build",
    [
        lambda: StdioTarget(""),
        lambda: StdioTarget("node", "server.js"),
        lambda: StdioTarget("node", ["a\x00b"]),
        lambda: StdioTarget("node", env={"A=B": "1"}),
        lambda: StdioTarget("node", env={"A": 1}),  # type: ignore[dict-item]  # the point of the test
        lambda: HttpTarget("localhost:3000/mcp"),
        lambda: HttpTarget("http://x/mcp", {"Bad Header": "1"}),
        lambda: HttpTarget("http://x/mcp", {"X": "a\r\nInjected: 1"}),
        lambda: SseTarget("http:// spaced/sse"),
        lambda: TransportTarget("not callable"),  # type: ignore[arg-type]  # the point of the test
    ],
)
def test_targets_check_their_fields(build: Any) -> None:
    with pytest.raises(InvalidInput):
        build()


def test_a_path_cwd_is_accepted() -> None:
    assert StdioTarget("node", cwd=Path("/srv")).cwd == "/srv"  # type: ignore[arg-type]  # PathLike is accepted


def test_helpers_parse_headers_and_assignments() -> None:
    assert parse_header("Authorization:  Bearer a:b ") == ("Authorization", "Bearer a:b")
    assert parse_env_assignment("TOKEN=a=b") == ("TOKEN", "a=b")


def test_secrets_are_redacted_in_the_description() -> None:
    args = ["server.js", "--api-key", "k1", "--token=t1", "DB_PASSWORD=p1", "https://u:pw@h/x?sig=s1&page=2"]
    stdio = StdioTarget("node", [*args, "--port", "3"], {"OPENAI_API_KEY": "sk-1", "PATH": "/bin"})
    described = describe_target(stdio)
    assert described["args"] == [
        "server.js",
        "--api-key",
        REDACTED,
        f"--token={REDACTED}",
        f"DB_PASSWORD={REDACTED}",
        "https://<redacted>@h/x?sig=<redacted>&page=2",
        "--port",
        "3",
    ]
    assert described["env"] == {"OPENAI_API_KEY": REDACTED, "PATH": REDACTED}
    http = describe_target(HttpTarget("https://h/mcp?access_token=abc", {"Authorization": "Bearer abc"}))
    assert http["url"] == "https://h/mcp?access_token=<redacted>"
    assert http["headers"] == {"Authorization": REDACTED}
    assert "abc" not in str(http) and "sk-1" not in str(described) and "pw" not in str(described)


def test_plain_urls_and_args_pass_through_unchanged() -> None:
    assert redact_url("http://127.0.0.1:3001/mcp?page=2") == "http://127.0.0.1:3001/mcp?page=2"
    assert redact_args(["-m", "server", "--port", "80"]) == ["-m", "server", "--port", "80"]


@given(st.text(max_size=60), st.sampled_from(["auto", "stdio", "http", "sse"]))
def test_any_text_is_a_target_or_invalid_input(spec: str, transport: Any) -> None:
    try:
        target = parse_target(spec, transport=transport)
    except InvalidInput:
        return
    assert isinstance(target, StdioTarget | HttpTarget | SseTarget)
    described = describe_target(target)
    assert described["kind"] in ("stdio", "http", "sse")


@given(st.lists(st.text(max_size=20), max_size=6))
def test_any_argv_is_a_target_or_invalid_input(argv: list[str]) -> None:
    before = list(argv)
    with contextlib.suppress(InvalidInput):
        parse_target(argv)
    assert argv == before


@given(st.text(max_size=40))
def test_any_header_line_parses_or_is_invalid_input(line: str) -> None:
    try:
        name, value = parse_header(line)
    except InvalidInput:
        return
    assert HttpTarget("http://x/mcp", {name: value}).headers == {name: value} or "\n" in value or "\r" in value
