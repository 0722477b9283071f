"""Secrets never reach a snapshot: the target's arguments and URL, and known secret values wherever a server echoes
them (stderr, error messages, listings). Real server processes, real sockets."""

from __future__ import annotations

import sys

import pytest

from hostcompat.probe import HttpTarget, Snapshot, StdioTarget, capture, snapshot_to_json
from hostcompat.probe.events import ERROR_RESPONSE, SERVER_EXITED, URL_CREDENTIALS_IGNORED
from hostcompat.redaction import MIN_SECRET_CHARS, REDACTED
from tests.probe._support import REPO, TIGHT, free_port, running
from tests.probe.test_http import BOARD_TOOLS, TOKEN, board

pytestmark = pytest.mark.anyio

SERVICE_TOKEN = "svc-7f3a9c2e41b8d6055e"
API_KEY = "key-0a1b2c3d4e5f6a7b8c"
BEARER = "bearer-93e1c4f7a2"
PASSWORD = "pw-5d8e2f1a9b"
QUERY_TOKEN = "qt-6c2a7e9d1f"
SECRETS = (SERVICE_TOKEN, API_KEY, BEARER, PASSWORD, QUERY_TOKEN)


def leaky(mode: str) -> StdioTarget:
    """The leaky server, given its secrets as real servers are: flags, a header, a URL, and the environment."""
    args = [
        "-m",
        "tests.probe.servers.leaky",
        mode,
        "--api-key",
        API_KEY,
        "--header=Authorization: Bearer " + BEARER,
        "--verbose",
        f"postgresql://app:{PASSWORD}@db:5432/app",
        f"--url=https://h/mcp?token={QUERY_TOKEN}&page=2",
    ]
    return StdioTarget(sys.executable, args, {"SERVICE_TOKEN": SERVICE_TOKEN}, cwd=str(REPO))


def assert_no_secret(snapshot: Snapshot) -> str:
    text = snapshot_to_json(snapshot)
    for secret in SECRETS:
        assert secret not in text
    return text


async def test_the_target_keeps_its_plain_arguments_and_loses_every_secret() -> None:
    snapshot = await capture(leaky("crash"), limits=TIGHT)
    assert_no_secret(snapshot)
    assert snapshot.target["args"][3:] == [
        "--api-key",
        REDACTED,
        f"--header=Authorization: {REDACTED}",
        "--verbose",  # the argument after a one-item header is not hidden
        f"postgresql://{REDACTED}@db:5432/app",
        f"--url=https://h/mcp?token={REDACTED}&page=2",
    ]
    assert snapshot.target["env"] == {"SERVICE_TOKEN": REDACTED}


async def test_a_secret_the_server_echoes_on_stderr_is_redacted_in_the_tail_and_the_exit_event() -> None:
    snapshot = await capture(leaky("crash"), limits=TIGHT)
    assert_no_secret(snapshot)
    assert snapshot.process is not None
    tail = snapshot.process["stderrTail"]
    assert f"SERVICE_TOKEN is {REDACTED}" in tail
    assert f"--api-key {REDACTED}" in tail and "--verbose" in tail
    assert f"refused token={REDACTED}" in tail
    (exited,) = snapshot.events_with(SERVER_EXITED)
    assert f"refused token={REDACTED}" in exited.message
    assert REDACTED in exited.detail["stderrTail"]


async def test_a_secret_in_an_error_message_from_the_server_is_redacted() -> None:
    snapshot = await capture(leaky("error"), limits=TIGHT)
    assert_no_secret(snapshot)
    (refused,) = snapshot.events_with(ERROR_RESPONSE)
    assert f"refused key {REDACTED} (token {REDACTED})" in refused.message


async def test_a_secret_in_a_listing_is_redacted_and_the_rest_kept_as_sent() -> None:
    snapshot = await capture(leaky("listing"), limits=TIGHT)
    assert_no_secret(snapshot)
    (tool,) = snapshot.tools
    assert tool["description"] == f"Looks things up with token {REDACTED}."
    assert tool["inputSchema"] == {"type": "object"}


async def test_a_stderr_tail_cut_in_the_middle_of_a_secret_keeps_no_part_of_it() -> None:
    snapshot = await capture(leaky("flood"), limits=TIGHT)
    text = assert_no_secret(snapshot)
    assert snapshot.process is not None and snapshot.process["stderrTail"].startswith(REDACTED + "yyy")
    second_half = SERVICE_TOKEN[len(SERVICE_TOKEN) // 2 :]
    assert len(second_half) >= MIN_SECRET_CHARS and second_half not in text


async def test_url_credentials_and_an_authorization_header_send_the_header_and_say_so() -> None:
    """An HTTP client turns `user:pw@` into Basic credentials that replace an explicit `Authorization` header: the
    bearer-protected server refused the probe. The header is what is sent; an event says the URL's were not."""
    port = free_port()
    with running(board("streamable-http", port, TOKEN), port):
        url = f"http://app:{PASSWORD}@127.0.0.1:{port}/mcp?token={QUERY_TOKEN}"
        snapshot = await capture(HttpTarget(url, {"Authorization": f"Bearer {TOKEN}"}), limits=TIGHT)
    assert [tool["name"] for tool in snapshot.tools] == BOARD_TOOLS
    (note,) = snapshot.events_with(URL_CREDENTIALS_IGNORED)
    assert note.severity == "warning" and "the Authorization header is sent" in note.message
    text = assert_no_secret(snapshot)
    assert TOKEN not in text
    assert snapshot.target["url"] == f"http://{REDACTED}@127.0.0.1:{port}/mcp?token={REDACTED}"


async def test_url_credentials_alone_are_sent_as_they_are() -> None:
    port = free_port()
    with running(board("streamable-http", port), port):
        snapshot = await capture(HttpTarget(f"http://app:{PASSWORD}@127.0.0.1:{port}/mcp"), limits=TIGHT)
    assert [tool["name"] for tool in snapshot.tools] == BOARD_TOOLS
    assert not snapshot.events_with(URL_CREDENTIALS_IGNORED)
    assert_no_secret(snapshot)
