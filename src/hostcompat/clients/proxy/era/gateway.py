"""The era gateway: an upstream link that speaks the client's protocol era in front whatever era the server behind
speaks.

`open_era_link` wraps the proxy's upstream opener. The relay in front (`ProxySession`, with its rules, limits and
timeouts) talks to the link as to any upstream; behind it the gateway decides the two eras once, on the client's
first request, and then either passes every message through untouched (same era on both sides) or translates
(`ModernBack`: a legacy client before a 2026-07-28 server; `LegacyBack`: a modern client before a legacy server).

Detection, when an era is `auto`: a client's `initialize` says legacy, `server/discover` or a request carrying the
2026-07-28 `_meta` envelope says modern. A legacy client's `initialize` goes to the server as is: an answer means
the server speaks that era, a refusal (-32022, no such method, only modern versions supported) means it is modern.
For a modern client the gateway sends its own `server/discover` probe first: a result offering 2026-07-28 means
modern, and anything else (an error, a line that is no JSON-RPC, silence past the probe timeout, or the server
exiting, as rmcp and some Go and C# servers do) means legacy; a server that exited is started again.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from dataclasses import field

import anyio
from anyio.abc import TaskGroup, TaskStatus
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCMessage, JSONRPCRequest, JSONRPCResponse
from mcp_types.version import LATEST_MODERN_VERSION

from hostcompat._dataclass import dataclass
from hostcompat.clients.proxy.config import EraChoice, ProxyConfig
from hostcompat.clients.proxy.era.translate import (
    DISCOVER,
    INITIALIZE,
    Envelope,
    Era,
    envelope_of,
    front_era,
    modern_version,
    refuses_handshake,
    with_envelope,
)
from hostcompat.clients.proxy.failures import UpstreamEnd
from hostcompat.clients.proxy.links import UpstreamLink, UpstreamOpener
from hostcompat.clients.proxy.unreadable import UnreadableMessage

logger = logging.getLogger(__name__)

QUEUE = 64
"""Messages that may wait between the relay in front and the gateway, each way."""

MAX_EARLY = 16
"""The most messages kept from before the eras are decided (a client's notifications, a server's logs)."""

PROBE_ID = "hostcompat-era-probe"

PROBE_TIMEOUT = 10.0
"""Seconds a server may stay silent on the `server/discover` probe before it is taken for a legacy one (the
official Python SDK client waits as long before it falls back to `initialize`)."""

_OVER = (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError)


@dataclass
class Back:
    """One upstream session, held open by a task of the gateway's until `stop` is set."""

    link: UpstreamLink
    stop: anyio.Event = field(default_factory=anyio.Event)


async def hold_back(opener: UpstreamOpener, *, task_status: TaskStatus[Back]) -> None:
    """Open an upstream session and keep it open until its `stop` is set (or the task is cancelled)."""
    async with opener() as link:
        back = Back(link)
        task_status.started(back)
        await back.stop.wait()


@dataclass
class Gateway:
    """What the translating halves share: the config, the streams to and from the relay in front, the task group,
    and the upstream session in use (replaced when the server had to be started again).
    """

    config: ProxyConfig
    opener: UpstreamOpener
    back: Back
    front_in: MemoryObjectReceiveStream[SessionMessage]
    front_out: MemoryObjectSendStream[SessionMessage | Exception]
    group: TaskGroup
    early_front: list[SessionMessage] = field(default_factory=list)
    early_back: list[SessionMessage | Exception] = field(default_factory=list)
    end: UpstreamEnd | None = None

    async def to_front(self, message: JSONRPCMessage) -> None:
        """Send one message to the client (dropped once the relay in front is gone)."""
        try:
            await self.front_out.send(SessionMessage(message))
        except _OVER:
            logger.debug("the relay in front is gone; dropped a message for the client")

    async def restart(self) -> Back:
        """Start the upstream again (it exited on the probe): the new session replaces the old one."""
        self.back.stop.set()
        self.back = await self.group.start(hold_back, self.opener)
        return self.back

    async def ended(self) -> UpstreamEnd:
        """How the upstream ended (once the gateway's output to the relay has ended)."""
        return self.end if self.end is not None else await self.back.link.ended()


async def _first_request(gateway: Gateway) -> JSONRPCRequest | None:
    while True:
        try:
            item = await gateway.front_in.receive()
        except _OVER:
            return None
        if isinstance(item.message, JSONRPCRequest):
            return item.message
        if len(gateway.early_front) < MAX_EARLY:
            gateway.early_front.append(item)


async def _answer_to(gateway: Gateway, request_id: int | str, timeout: float) -> JSONRPCMessage | Exception | None:
    """The upstream's answer to `request_id` (an error item for a line that is no JSON-RPC and answers it), None when
    the upstream ended or stayed silent for `timeout`; other messages are kept for later.
    """
    with anyio.move_on_after(timeout):
        while True:
            try:
                item = await gateway.back.link.read.receive()
            except _OVER:
                return None
            if isinstance(item, Exception):
                reply = item.reply if isinstance(item, UnreadableMessage) else None
                if reply is not None and reply.id == request_id:
                    return item
            elif isinstance(item.message, (JSONRPCResponse, JSONRPCError)) and item.message.id == request_id:
                return item.message
            if len(gateway.early_back) < MAX_EARLY:
                gateway.early_back.append(item)
    return None


async def _back_era_for_legacy(gateway: Gateway, first: JSONRPCRequest) -> tuple[Era, JSONRPCMessage | None]:
    """Send the legacy client's `initialize` on; the era of the server, and the answer to relay (None: none yet)."""
    if first.method != INITIALIZE:
        return "legacy", None
    await gateway.back.link.write.send(SessionMessage(first))
    answer = await _answer_to(gateway, first.id, gateway.config.request_timeout)
    if isinstance(answer, JSONRPCError) and refuses_handshake(answer.error.model_dump(mode="json", exclude_none=True)):
        # a server may lock its connection to the era of the first request it gets (the official SDKs do): the
        # modern session starts on a fresh connection
        logger.info(
            "the server refused initialize (%s): it speaks 2026-07-28 only; starting it again", answer.error.code
        )
        gateway.early_back.clear()
        await gateway.restart()
        return "modern", None
    if isinstance(answer, Exception):  # an unreadable line that answers it: the relay in front says so at once
        gateway.early_back.insert(0, answer)
    return "legacy", answer if isinstance(answer, (JSONRPCResponse, JSONRPCError)) else None


async def _back_era_for_modern(gateway: Gateway, first: JSONRPCRequest) -> Era:
    """Probe the server with `server/discover`; restart it when the probe made it exit."""
    envelope = envelope_of(first.params) or Envelope(LATEST_MODERN_VERSION)
    probe = JSONRPCRequest(jsonrpc="2.0", id=PROBE_ID, method=DISCOVER, params=with_envelope({}, envelope))
    with suppress(*_OVER):
        await gateway.back.link.write.send(SessionMessage(probe))
    answer = await _answer_to(gateway, PROBE_ID, min(gateway.config.request_timeout, PROBE_TIMEOUT))
    if isinstance(answer, JSONRPCResponse) and modern_version(answer.result) is not None:
        return "modern"
    if answer is None:
        logger.info("the server exited or stayed silent on server/discover: starting it again, as a legacy server")
        gateway.early_back.clear()
        await gateway.restart()
    else:
        logger.info("the server does not answer server/discover: it speaks the handshake era")
    return "legacy"


async def _pass_through(gateway: Gateway, first: JSONRPCRequest | None, answered: JSONRPCMessage | None) -> None:
    """Same era on both sides: every message goes on as the peer sent it (`first`: the client's first request, when
    it is not on its way yet).
    """
    link = gateway.back.link

    async def from_client() -> None:
        for item in gateway.early_front:
            await link.write.send(item)
        if first is not None:
            await link.write.send(SessionMessage(first))
        async for item in gateway.front_in:
            await link.write.send(item)

    if answered is not None:
        await gateway.to_front(answered)
    for early in gateway.early_back:
        await gateway.front_out.send(early)
    async with anyio.create_task_group() as group:
        group.start_soon(from_client)
        while True:
            try:
                item = await link.read.receive()
            except _OVER:
                break
            await gateway.front_out.send(item)
        group.cancel_scope.cancel()


async def run_gateway(gateway: Gateway, front: Era | None, back: Era | None) -> None:
    """Decide the eras (those given as None are detected) and relay until the upstream or the client is done."""
    try:
        first = await _first_request(gateway)
        if first is None:
            return
        front = front or front_era(first.method, first.params)
        answered: JSONRPCMessage | None = None
        sent = False
        if back is None and front == "legacy":
            back, answered = await _back_era_for_legacy(gateway, first)
            sent = first.method == INITIALIZE and back == "legacy"
        elif back is None:
            back = await _back_era_for_modern(gateway, first)
        logger.info("protocol eras: client %s, server %s", front, back)
        if front == back:
            await _pass_through(gateway, None if sent else first, answered)
        elif front == "legacy":
            from hostcompat.clients.proxy.era.modern_back import ModernBack

            await ModernBack(gateway).run(first)
        else:
            from hostcompat.clients.proxy.era.legacy_back import LegacyBack

            await LegacyBack(gateway).run(first)
    finally:
        gateway.front_out.close()


@asynccontextmanager
async def open_era_link(
    config: ProxyConfig, opener: UpstreamOpener, front: Era | None = None, back: Era | None = None
) -> AsyncIterator[UpstreamLink]:
    """An upstream link that translates between the client's era and the server's (None: detected).

    The upstream is started before the link is yielded, so a server that cannot start fails here, as without the
    gateway.
    """
    to_front, front_reads = anyio.create_memory_object_stream[SessionMessage | Exception](QUEUE)
    front_writes, from_front = anyio.create_memory_object_stream[SessionMessage](QUEUE)
    async with anyio.create_task_group() as group:
        first_back = await group.start(hold_back, opener)
        gateway = Gateway(config, opener, first_back, from_front, to_front, group)
        group.start_soon(run_gateway, gateway, front, back)
        try:
            yield UpstreamLink(
                front_reads,
                front_writes,
                gateway.ended,
                stamps_protocol_version=first_back.link.stamps_protocol_version,
            )
        finally:
            group.cancel_scope.cancel()
            for stream in (front_writes, from_front, to_front, front_reads):
                stream.close()


def era_opener(
    config: ProxyConfig, opener: UpstreamOpener, front: EraChoice | None = None, back: EraChoice | None = None
) -> UpstreamOpener:
    """`opener` behind the era gateway, with the eras given (default: the config's; `auto`: detected)."""
    front = front or config.era_front
    back = back or config.era_back
    front_era: Era | None = None if front == "auto" else front
    back_era: Era | None = None if back == "auto" else back

    def open_link() -> AbstractAsyncContextManager[UpstreamLink]:
        return open_era_link(config, opener, front_era, back_era)

    return open_link


__all__ = [
    "Back",
    "era_opener",
    "Gateway",
    "MAX_EARLY",
    "PROBE_ID",
    "PROBE_TIMEOUT",
    "QUEUE",
    "hold_back",
    "open_era_link",
    "run_gateway",
]
