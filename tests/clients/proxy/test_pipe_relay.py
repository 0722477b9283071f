"""The pipe relay (stdio client, stdio server) run in this process over real pipes, against the fake server."""

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import pytest

from hostcompat.clients.proxy.config import ProxyConfig, stdio_upstream
from hostcompat.clients.proxy.failures import (
    CONNECTION_CLOSED,
    INVALID_REQUEST,
    PARSE_ERROR,
    PROXY_OVERLOADED,
    REQUEST_TIMEOUT,
)
from hostcompat.clients.proxy.lines import LineBuffer
from hostcompat.clients.proxy.pipe.pipes import is_pipe
from hostcompat.clients.proxy.pipe.relay import PipeProxy
from hostcompat.clients.proxy.session.front_stdio import open_stdio_front
from hostcompat.errors import InvalidInput
from tests.clients.proxy._support import CODEX, NOBODY, RawPeer, initialize_params, proxy_config
from tests.clients.proxy.fake_server import TOOLS

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(60)]

ECHO_LINES = """
import json, sys
for line in sys.stdin.buffer:
    message = json.loads(line)
    if "id" in message and "method" in message:
        text = line.rstrip(b"\\n").decode()
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": {"content": [{"type": "text", "text": text}]}}
        sys.stdout.write(json.dumps(reply) + "\\n")
        sys.stdout.flush()
"""


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


@dataclass
class Piped:
    """A pipe relay with a raw client on the other ends of its pipes."""

    peer: RawPeer
    proxy: PipeProxy
    ends: list[Any]


@asynccontextmanager
async def piped(config: ProxyConfig) -> AsyncIterator[Piped]:
    proxy_in, client_out = os.pipe()
    client_in, proxy_out = os.pipe()
    proxy = PipeProxy(config, stdin=proxy_in, stdout=proxy_out)
    ends: list[Any] = []

    async def run() -> None:
        ends.append(await proxy.run())

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(run)
            async with open_stdio_front(config.max_message_bytes, stdin=client_in, stdout=client_out) as front:
                yield Piped(RawPeer(front.read, front.write), proxy, ends)
            group.cancel_scope.cancel()
    finally:
        for fd in (proxy_in, client_out, client_in, proxy_out):
            os.close(fd)


class RawClient:
    """A client that writes and reads raw lines of bytes on the relay's pipes."""

    def __init__(self, write_fd: int, read_fd: int) -> None:
        self.write_fd, self.read_fd = write_fd, read_fd
        self._lines = LineBuffer(1 << 20)
        self._ready: list[bytes] = []

    def send(self, line: bytes) -> None:
        os.write(self.write_fd, line + b"\n")

    def end_input(self) -> None:
        """Close the relay's stdin, as a client that is done sending does."""
        os.close(self.write_fd)
        self.write_fd = -1

    async def line(self) -> bytes:
        while not self._ready:
            await anyio.wait_readable(self.read_fd)
            self._ready += [part for part in self._lines.feed(os.read(self.read_fd, 65536)) if isinstance(part, bytes)]
        return self._ready.pop(0)


@asynccontextmanager
async def raw(config: ProxyConfig) -> AsyncIterator[tuple[RawClient, list[Any]]]:
    proxy_in, client_out = os.pipe()
    client_in, proxy_out = os.pipe()
    ends: list[Any] = []

    async def run() -> None:
        ends.append(await PipeProxy(config, stdin=proxy_in, stdout=proxy_out).run())

    client = RawClient(client_out, client_in)
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(run)
            yield client, ends
            group.cancel_scope.cancel()
    finally:
        for fd in (proxy_in, client.write_fd, client_in, proxy_out):
            if fd >= 0:
                os.close(fd)


def priorities(response: dict[str, Any]) -> list[Any]:
    return [block["annotations"]["priority"] for block in response["result"]["content"]]


async def test_an_unpatched_result_reaches_the_client_as_the_very_bytes_the_server_wrote() -> None:
    async with raw(proxy_config()) as (client, _):
        client.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode())
        line = await client.line()
    assert line == json.dumps({"jsonrpc": "2.0", "id": 1, "result": TOOLS}).encode()


async def test_an_unpatched_request_reaches_the_server_as_the_very_bytes_the_client_wrote() -> None:
    sent = b'{ "x-top": [1.0, 1e2],"jsonrpc" :"2.0", "id":"k\\u00e9", "method":"tools/call", "params":{"name":"e"}}'
    async with raw(proxy_config(stdio_upstream([sys.executable, "-c", ECHO_LINES]))) as (client, _):
        client.send(sent)
        reply = json.loads(await client.line())
    assert reply["result"]["content"][0]["text"].encode() == sent


async def test_a_message_written_in_pieces_reaches_the_server_as_the_very_bytes_the_client_wrote() -> None:
    sent = b'{"jsonrpc":"2.0","id":"split","method":"tools/call","params":{"name":"e","x-pad":"' + b"y" * 3000 + b'"}}'
    async with raw(proxy_config(stdio_upstream([sys.executable, "-c", ECHO_LINES]))) as (client, _):
        for start in range(0, len(sent), 700):
            os.write(client.write_fd, sent[start : start + 700])
        client.send(b"")
        reply = json.loads(await client.line())
    assert reply["id"] == "split"
    assert reply["result"]["content"][0]["text"].encode() == sent


async def test_the_end_of_an_oversized_line_arriving_on_its_own_is_skipped_not_relayed() -> None:
    async with raw(proxy_config(max_message_bytes=1000)) as (client, _):
        os.write(client.write_fd, b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"x" * 2000)
        client.send(b'"}}')  # alone, this tail would read as a line of its own
        client.send(b'{"jsonrpc":"2.0","id":2,"method":"ping"}')
        replies = [json.loads(await client.line()) for _ in range(2)]
    assert [(reply["id"], reply.get("error", {}).get("code")) for reply in replies] == [(None, PARSE_ERROR), (2, None)]


async def test_codex_gets_integer_priorities_and_renamed_tools_are_called_by_their_real_name() -> None:
    async with piped(proxy_config()) as run:
        await run.peer.initialize(CODEX)
        listing = await run.peer.call("tools/list")
        called = await run.peer.call("tools/call", call("get_weather", city="Paris"))
        echoed = await run.peer.call("tools/call", call("echo", text="a"))
    assert [tool["name"] for tool in listing["result"]["tools"]] == ["echo", "get_weather"]
    assert called["result"]["content"][0]["text"] == "get.weather: Paris"
    assert priorities(echoed) == [1]
    assert run.proxy.tracker.applied["codex.round-annotation-priority"] == 2


ANNOTATED_REPLIES = """
import json, sys
for line in sys.stdin.buffer:
    message = json.loads(line)
    if "id" in message and "method" in message:
        key = message.get("params", {}).get("arguments", {}).get("key", "plain")
        block = '{"type":"text","text":"t","annotations":{"%s":0.7}}' % key
        reply = '{"jsonrpc":"2.0","id":%s,"result":{"content":[%s]}}' % (json.dumps(message["id"]), block)
        sys.stdout.write(reply + "\\n")
        sys.stdout.flush()
"""


@pytest.mark.parametrize(
    ("key", "rounded"),
    [("plain", False), ("priority", True), ("\\u0070riority", True), ("prior\\u0069ty", True)],
)
async def test_codex_results_are_rewritten_when_a_rule_could_change_them_and_relayed_as_sent_otherwise(
    key: str, rounded: bool
) -> None:
    """A result holding none of the words its rules act on skips the rewrite; an escape that could spell one
    does not, so a priority written as `\\u0070riority` is rounded all the same."""
    upstream = stdio_upstream([sys.executable, "-c", ANNOTATED_REPLIES])
    async with raw(proxy_config(upstream)) as (client, _):
        client.send(
            json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": initialize_params(CODEX)}).encode()
        )
        await client.line()
        client.send(
            json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call("t", key=key)}).encode()
        )
        line = await client.line()
    annotations = json.loads(line)["result"]["content"][0]["annotations"]
    if rounded:
        assert annotations == {"priority": 1}
    else:
        assert (
            line
            == b'{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"t","annotations":{"plain":0.7}}]}}'
        )


async def test_a_client_no_rule_names_gets_results_untouched() -> None:
    async with piped(proxy_config()) as run:
        init = await run.peer.initialize(NOBODY)
        called = await run.peer.call("tools/call", call("echo", text="hi"))
    assert init["result"]["x-unknown-init-field"] == "kept"
    assert called["result"]["x-unknown-call-field"] == "kept"
    assert priorities(called) == [0.5]
    assert run.proxy.tracker.applied == {}


async def test_an_upstream_crash_answers_every_pending_request_with_the_exit_code_and_stderr() -> None:
    async with piped(proxy_config()) as run:
        await run.peer.initialize(NOBODY)
        hanging = await run.peer.request("tools/call", call("hang"))
        crash = await run.peer.call("tools/call", call("crash", code=3))
        other = await run.peer.response(hanging)
        with anyio.fail_after(10):
            while not run.ends:
                await anyio.sleep(0.01)
    for response in (crash, other):
        assert response["error"]["code"] == CONNECTION_CLOSED
        assert "exited with code 3" in response["error"]["message"]
        assert "the disk is on fire" in response["error"]["message"]
    assert run.ends[0] is not None and run.ends[0].exit_code == 3


async def test_a_request_left_unanswered_times_out_and_is_cancelled_upstream() -> None:
    async with piped(proxy_config(request_timeout=0.5)) as run:
        await run.peer.initialize(NOBODY)
        timed_out = await run.peer.call("tools/call", call("hang"), request_id="slow-1")
        seen = await run.peer.call("tools/call", call("cancelled"))
    assert timed_out["error"]["code"] == REQUEST_TIMEOUT
    assert "did not answer tools/call within 0.5 s" in timed_out["error"]["message"]
    assert [entry["requestId"] for entry in json.loads(seen["result"]["content"][0]["text"])] == ["slow-1"]


async def test_progress_keeps_a_slow_request_alive_and_a_late_answer_is_dropped() -> None:
    async with piped(proxy_config(request_timeout=0.6)) as run:
        await run.peer.initialize(NOBODY)
        params = {**call("progress", steps=3, interval=0.3), "_meta": {"progressToken": "tok"}}
        done = await run.peer.call("tools/call", params)
        late = await run.peer.call("tools/call", call("progress", steps=2, interval=0.5), request_id=41)
        await run.peer.call("ping")
    assert done["result"]["content"][0]["text"] == "done"
    assert [note["params"]["progress"] for note in run.peer.notifications("notifications/progress")][:3] == [1, 2, 3]
    assert late["error"]["code"] == REQUEST_TIMEOUT
    assert [message for message in run.peer.received if message.get("id") == 41] == [late]


async def test_a_client_cancellation_goes_upstream_unchanged_and_no_answer_follows() -> None:
    async with piped(proxy_config()) as run:
        await run.peer.initialize(NOBODY)
        hanging = await run.peer.request("tools/call", call("hang"))
        cancel = {"requestId": hanging, "reason": "stop", "_meta": {"x.v/k": 1}}
        await run.peer.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})
        seen = await run.peer.call("tools/call", call("cancelled"))
    assert json.loads(seen["result"]["content"][0]["text"]) == [cancel]
    assert not [message for message in run.peer.received if message.get("id") == hanging]
    assert run.proxy.tracker.pending() == {}


async def test_server_requests_and_notifications_pass_through_both_ways() -> None:
    async with piped(proxy_config()) as run:
        await run.peer.initialize(NOBODY)
        sampled = await run.peer.call("tools/call", call("sample"))
        await run.peer.call("tools/call", call("notify"))
    assert json.loads(sampled["result"]["content"][0]["text"])["model"] == "test-model"
    assert run.peer.notifications("notifications/tools/list_changed") == [
        {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    ]


async def test_an_oversized_upstream_message_ends_the_session_with_an_error_naming_the_limit() -> None:
    async with piped(proxy_config(max_message_bytes=65_536)) as run:
        await run.peer.initialize(NOBODY)
        response = await run.peer.call("tools/call", call("big", bytes=200_000))
    assert response["error"]["code"] == CONNECTION_CLOSED
    assert "over 65536 bytes" in response["error"]["message"]


async def test_a_line_from_upstream_that_is_not_json_rpc_is_skipped() -> None:
    async with piped(proxy_config()) as run:
        await run.peer.initialize(NOBODY)
        response = await run.peer.call("tools/call", call("garbage"))
    assert response["result"]["content"][0]["text"] == "after garbage"


async def test_unreadable_and_oversized_client_lines_get_parse_errors_and_the_session_goes_on() -> None:
    async with raw(proxy_config(max_message_bytes=1000)) as (client, _):
        client.send(b"this is not json")
        client.send(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"x" * 2000 + b'"}}')
        client.send(b'{"jsonrpc":"2.0","id":2,"method":"ping"}')
        replies = [json.loads(await client.line()) for _ in range(3)]
    assert [(reply["id"], reply.get("error", {}).get("code")) for reply in replies] == [
        (None, PARSE_ERROR),
        (None, PARSE_ERROR),
        (2, None),
    ]
    assert "over 1000 bytes" in replies[1]["error"]["message"]


async def test_each_request_of_a_batch_gets_an_error_with_its_id_and_the_session_goes_on() -> None:
    async with raw(proxy_config()) as (client, _):
        client.send(
            b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},'
            b'{"jsonrpc":"2.0","id":"b","method":"tools/list"}]'
        )
        client.send(b'{"jsonrpc":"2.0","id":2,"method":"ping"}')
        replies = [json.loads(await client.line()) for _ in range(3)]
    assert [(reply["id"], reply.get("error", {}).get("code")) for reply in replies] == [
        (1, INVALID_REQUEST),
        ("b", INVALID_REQUEST),
        (2, None),
    ]
    assert "batch" in replies[0]["error"]["message"]


async def test_a_client_that_sends_garbage_and_never_reads_is_no_longer_read() -> None:
    """Each unreadable line costs the proxy an error of some 90 bytes to the client: a client that does not read
    its answers must stop being read, or the proxy's backlog grows without end.
    """
    async with raw(proxy_config()) as (client, _):
        os.set_blocking(client.write_fd, False)
        chunk, taken, idle = b"x\n" * 32_768, 0, 0.0
        while taken < 4 << 20 and idle < 1.0:  # up to 4 MB offered; a second without progress ends it
            try:
                taken += os.write(client.write_fd, chunk)
                idle = 0.0
            except BlockingIOError:  # noqa: PERF203 - the point: the proxy stopped reading
                await anyio.sleep(0.02)
                idle += 0.02
    assert taken < 1 << 20, f"the proxy read {taken} bytes from a client that reads nothing"


async def test_a_malformed_request_whose_id_can_be_read_is_answered_with_that_id() -> None:
    async with raw(proxy_config()) as (client, _):
        client.send(b'{"jsonrpc":"2.0","id":8,"method":"tools/list","params":[1]}')
        client.send(b'{"jsonrpc":"2.0","id":"k","method":7}')
        client.send(b'{"jsonrpc":"2.0","id":9,"method":"ping"}')
        replies = [json.loads(await client.line()) for _ in range(3)]
    assert [(reply["id"], reply.get("error", {}).get("code")) for reply in replies] == [
        (8, INVALID_REQUEST),
        ("k", INVALID_REQUEST),
        (9, None),
    ]
    assert "params is not an object" in replies[0]["error"]["message"]


async def test_requests_over_the_in_flight_limit_are_refused_at_once() -> None:
    async with piped(proxy_config(max_pending=2)) as run:
        await run.peer.initialize(NOBODY)
        await run.peer.request("tools/call", call("hang"))
        await run.peer.request("tools/call", call("hang"))
        refused = await run.peer.call("tools/call", call("echo", text="x"))
    assert refused["error"]["code"] == PROXY_OVERLOADED


async def test_a_client_that_stops_sending_still_gets_the_answers_in_flight_and_the_relay_ends() -> None:
    async with raw(proxy_config()) as (client, ends):
        client.send(
            json.dumps(
                {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize_params(NOBODY)}
            ).encode()
        )
        await client.line()
        client.send(
            json.dumps(
                {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call("progress", steps=2, interval=0.1)}
            ).encode()
        )
        client.end_input()
        lines = [json.loads(await client.line()) for _ in range(3)]
        with anyio.fail_after(10):
            while not ends:
                await anyio.sleep(0.01)
    assert lines[-1]["result"]["content"][0]["text"] == "done"
    assert ends == [None]


async def test_a_server_that_cannot_start_answers_the_first_request_with_an_error_naming_the_command() -> None:
    upstream = stdio_upstream(["/nonexistent/hostcompat-no-such-server", "--flag"])
    async with raw(proxy_config(upstream)) as (client, ends):
        client.send(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}')
        reply = json.loads(await client.line())
        with anyio.fail_after(10):
            while not ends:
                await anyio.sleep(0.01)
    assert reply["id"] == 1 and reply["error"]["code"] == CONNECTION_CLOSED
    assert "/nonexistent/hostcompat-no-such-server --flag" in reply["error"]["message"]
    assert "could not be run" in reply["error"]["message"]


def test_the_pipe_relay_needs_a_command_and_knows_a_pipe(tmp_path: Any) -> None:
    from hostcompat.clients.proxy.config import http_upstream

    with pytest.raises(InvalidInput):
        PipeProxy(ProxyConfig(http_upstream("http://127.0.0.1:9/mcp")))
    reading, writing = os.pipe()
    regular = os.open(tmp_path / "f", os.O_CREAT | os.O_RDWR)
    try:
        assert is_pipe(reading) and is_pipe(writing) and not is_pipe(regular)
    finally:
        for fd in (reading, writing, regular):
            os.close(fd)
