"""`hostcompat.redaction`: secrets found by their place in a command line, URL or header, and known secret values
removed from any text or JSON."""

from __future__ import annotations

import base64
import json
import string
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.redaction import (
    MIN_SECRET_CHARS,
    REDACTED,
    Redactor,
    args_secrets,
    environment_secrets,
    is_secret_name,
    redact_args,
    redact_description,
    redact_url,
    strip_url_credentials,
    url_credentials_note,
    url_has_credentials,
    url_secrets,
)

R = REDACTED


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # mcp-remote's pattern: the header is the next argument
        (
            ["mcp-remote", "https://h/sse", "--header", "Authorization: Bearer X1"],
            ["mcp-remote", "https://h/sse", "--header", f"Authorization: {R}"],
        ),
        (["-H", "Authorization: Bearer X1", "--verbose"], ["-H", f"Authorization: {R}", "--verbose"]),
        (["--header", "Authorization:Bearer X1"], ["--header", f"Authorization:{R}"]),
        (["--header", "X-Api-Key: X1"], ["--header", f"X-Api-Key: {R}"]),
        (["-HAuthorization: Bearer X1"], [f"-HAuthorization: {R}"]),
        # one item: the value is hidden, and the next, unrelated argument is not
        (["--header=Authorization: Bearer X1", "--port", "8080"], [f"--header=Authorization: {R}", "--port", "8080"]),
        # URLs with credentials in any argument
        (["postgresql://user:PASS1@db:5432/app"], [f"postgresql://{R}@db:5432/app"]),
        (["--db", "https://u:p4ss@h/x"], ["--db", f"https://{R}@h/x"]),
        (["DATABASE_URL=postgres://app:PASS1@h/db"], [f"DATABASE_URL=postgres://{R}@h/db"]),
        (["--url=https://h/mcp?token=X1&page=2"], [f"--url=https://h/mcp?token={R}&page=2"]),
        (
            ["https://h/x?api_key=X1&apikey=X2&key=X3&secret=X4&password=X5"],
            [f"https://h/x?api_key={R}&apikey={R}&key={R}&secret={R}&password={R}"],
        ),
        (["https://s.blob/c?sv=2024&sig=X1&se=2030"], [f"https://s.blob/c?sv=2024&sig={R}&se=2030"]),
        (
            ["https://b.s3/o?X-Amz-Signature=X1&X-Amz-Date=20300101"],
            [f"https://b.s3/o?X-Amz-Signature={R}&X-Amz-Date=20300101"],
        ),
        (["https://h/cb#access_token=X1&token_type=bearer"], [f"https://h/cb#access_token={R}&token_type=bearer"]),
        (["https://h/x?auth=X1"], [f"https://h/x?auth={R}"]),
        # secret-named flags, with the value next or after =
        (["--bearer", "X1", "--pat", "X2", "--token", "X3"], ["--bearer", R, "--pat", R, "--token", R]),
        (["--api-key", "X1", "--api-key=X2", "--apiKey", "X3"], ["--api-key", R, f"--api-key={R}", "--apiKey", R]),
        (
            ["--password", "X1", "--secret", "X2", "--client-secret", "X3"],
            ["--password", R, "--secret", R, "--client-secret", R],
        ),
        (["--access-token=X1", "--auth", "X2", "-token", "X3"], [f"--access-token={R}", "--auth", R, "-token", R]),
        (
            ["API_KEY=X1", "--env=GITHUB_TOKEN=X2", "-e", "DB_PASSWORD=X3"],
            [f"API_KEY={R}", f"--env=GITHUB_TOKEN={R}", "-e", f"DB_PASSWORD={R}"],
        ),
    ],
)
def test_secrets_in_arguments_are_redacted_and_the_rest_is_kept(args: list[str], expected: list[str]) -> None:
    assert redact_args(args) == expected


def test_the_values_redacted_are_the_secrets_a_redactor_learns() -> None:
    args = ["--header", "Authorization: Bearer tok-123456", "--api-key=key-123456", "postgres://u:pw-123456@h/db"]
    basic = base64.b64encode(b"u:pw-123456").decode()  # the Authorization: Basic an HTTP client sends for it
    assert args_secrets(args) == ["Bearer tok-123456", "tok-123456", "key-123456", "pw-123456", "pw-123456", basic]
    assert url_secrets("https://u:p%40ss-word@h/x?token=a%2Bb-123456") == [
        "p%40ss-word",
        "p@ss-word",
        base64.b64encode(b"u:p@ss-word").decode(),
        "a%2Bb-123456",
        "a+b-123456",
    ]


def test_a_token_given_as_a_url_user_is_a_secret_and_a_user_name_is_not() -> None:
    token = "ghp_TOKENUSER789abc"
    assert url_secrets(f"https://{token}@github.com/o/r.git") == [
        token,
        token,
        base64.b64encode(b"%s:" % token.encode()).decode(),
    ]
    assert redact_url(f"https://{token}@github.com/o/r.git") == f"https://{R}@github.com/o/r.git"
    for user in ("postgres", "x-access-token", "git", "admin"):  # names: the word must not vanish from reports
        assert url_secrets(f"postgresql://{user}@db:5432/app") == []
        assert redact_url(f"postgresql://{user}@db:5432/app") == f"postgresql://{R}@db:5432/app"


def test_json_and_settings_arguments_keep_their_secrets_out() -> None:
    config = '{"githubPersonalAccessToken": "SECRET123JSON", "port": 3000, "nested": {"apiKey": "K\\"EY-9876"}}'
    redacted = redact_args(["--config", config, "Server=db;User Id=sa;Password=Pa55word-77;"])
    assert json.loads(redacted[1]) == {"githubPersonalAccessToken": R, "port": 3000, "nested": {"apiKey": R}}
    assert redacted[2] == f"Server=db;User Id=sa;Password={R};"
    assert args_secrets(["--config", config, "Server=db;Password=Pa55word-77"]) == [
        "SECRET123JSON",
        'K"EY-9876',
        "Pa55word-77",
    ]
    assert redact_args(["--config", '{"a": [1, 2]}', '{"deep": ' + "[" * 5000 + "]" * 5000 + "}"]) == [
        "--config",
        '{"a": [1, 2]}',
        '{"deep": ' + "[" * 5000 + "]" * 5000 + "}",
    ]


@pytest.mark.parametrize(
    "args",
    [
        ["node", "server.js", "--port", "3000", "--verbose"],
        ["--no-auth", "--port", "1"],  # a switch: the next flag is not its value
        ["--auth", "--port", "1"],
        ["--max-tokens", "100", "--tokens", "5", "--tokenizer", "gpt2"],
        ["--token-file", "/run/token", "--key-file", "k.pem", "--auth-type", "oauth", "--session-id", "abc"],
        ["--keyboard", "us", "--author", "ada", "--password-stdin", "registry"],
        ["http://127.0.0.1:3001/mcp?page=2&sort=name", "https://h/a#section-2"],
        ["mailto:ada@example.com", "user@host", "a=b", "--mode=fast"],
    ],
)
def test_arguments_without_secrets_are_kept_as_given(args: list[str]) -> None:
    assert redact_args(args) == args
    assert args_secrets(args) == []


def test_redaction_is_idempotent_so_a_redacted_snapshot_can_be_redacted_again() -> None:
    args = ["--api-key", "k", "-H", "Authorization: Bearer t", "https://u:p@h/x?token=t#sig=s", "--pat=p"]
    once = redact_args(args)
    assert redact_args(once) == once


@given(st.lists(st.text(alphabet=string.printable, max_size=30), max_size=8))
def test_any_arguments_redact_to_as_many_arguments_and_again_to_the_same(args: list[str]) -> None:
    once = redact_args(args)
    assert len(once) == len(args)
    assert redact_args(once) == once


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("OPENAI_API_KEY", True),
        ("GITHUB_PERSONAL_ACCESS_TOKEN", True),
        ("clientSecret", True),
        ("X-Amz-Credential", True),
        ("db_password", True),
        ("PGPASSWORD", True),
        ("NODE_ENV", False),
        ("PORT", False),
        ("token_type", False),
        ("DATABASE_URL", False),
        ("no-auth", False),
    ],
)
def test_secret_names(name: str, secret: bool) -> None:
    assert is_secret_name(name) is secret


def test_a_url_keeps_everything_but_its_credentials() -> None:
    assert redact_url("http://127.0.0.1:3001/mcp?page=2") == "http://127.0.0.1:3001/mcp?page=2"
    assert redact_url("https://ghp_abc@github.com/o/r.git") == f"https://{R}@github.com/o/r.git"
    assert (
        redact_url("see https://u:p@h/x and https://h/y?token=t.") == f"see https://{R}@h/x and https://h/y?token={R}."
    )
    assert strip_url_credentials("https://u:p@h/mcp?x=1") == "https://h/mcp?x=1"
    assert url_has_credentials("https://u:p@h/mcp") and not url_has_credentials("https://h/mcp?a=b@c")


def test_an_explicit_authorization_header_wins_over_url_credentials_and_the_note_says_so() -> None:
    note = url_credentials_note("https://u:p@h/mcp", {"authorization": "Bearer t"})
    assert note is not None and "Authorization header is sent" in note
    assert url_credentials_note("https://u:p@h/mcp", {"X-Other": "1"}) is None
    assert url_credentials_note("https://h/mcp", {"Authorization": "Bearer t"}) is None


def test_a_redactor_removes_known_values_anywhere_and_ignores_short_ones() -> None:
    redactor = Redactor.of(["sk-live-123456", "1", "true", "abcde"], ["Bearer tok-999999", "tok-999999"])
    assert redactor.values == ("Bearer tok-999999", "sk-live-123456", "tok-999999")
    assert all(len(value) >= MIN_SECRET_CHARS for value in redactor.values)
    text = "using sk-live-123456, auth Bearer tok-999999; retry 1 true abcde"
    assert redactor.text(text) == f"using {R}, auth {R}; retry 1 true abcde"
    assert redactor.text("GET https://u:pw@h/x?sig=zz") == f"GET https://{R}@h/x?sig={R}"
    assert redactor.known("GET https://u:pw@h/x?sig=zz") == "GET https://u:pw@h/x?sig=zz"  # data as sent: values only


def test_a_text_cut_in_the_middle_of_a_secret_loses_that_part_too() -> None:
    redactor = Redactor.of(["sk-live-1234567890"])
    assert redactor.tail("1234567890 then the end") == f"{R} then the end"
    assert redactor.tail("890 then the end") == "890 then the end"  # shorter than MIN_SECRET_CHARS: kept
    assert redactor.tail("ordinary output") == "ordinary output"
    assert redactor.head("the key is sk-live-12") == f"the key is {R}"
    assert redactor.head("the key is sk-l") == "the key is sk-l"


def test_json_is_redacted_copy_on_write_at_any_depth() -> None:
    redactor = Redactor.of(["sk-live-123456"])
    clean: dict[str, Any] = {"a": [1, {"b": "c"}], "d": (2, "e")}
    assert redactor.json(clean) is clean
    deep: Any = "sk-live-123456"
    for _ in range(5000):  # deeper than the interpreter's recursion limit
        deep = [deep]
    out = redactor.json({"x": deep, "sk-live-123456": True})
    assert out[R] is True
    inner = out["x"]
    for _ in range(5000):
        inner = inner[0]
    assert inner == R
    tupled = redactor.json({"t": (1, "key sk-live-123456")})
    assert tupled == {"t": (1, f"key {R}")}


def test_a_described_target_is_redacted_again_by_its_structure() -> None:
    old = {"kind": "stdio", "command": "node", "args": ["--pat", "ghp_x"], "env": {"A": "b"}, "url": "https://u:p@h"}
    assert redact_description(old) == {
        "kind": "stdio",
        "command": "node",
        "args": ["--pat", R],
        "env": {"A": R},
        "url": f"https://{R}@h",
    }


def test_only_secret_named_variables_of_an_environment_are_secrets() -> None:
    environ = {"HOME": "/home/ada", "PWD": "/srv/app", "AWS_SECRET_ACCESS_KEY": "aws-123456"}
    assert environment_secrets(environ) == ["aws-123456"]
