"""Which client session speaks for a probe, opened and past its handshake: the probe's own over stdio (`_session`,
which does on the wire what the official client does and judges results with its validators, without importing
it), when the SDK's stored validators are the installed SDK's (`_sdk_schemas`); the official client otherwise, and
always for HTTP, SSE and the transport seam (`_sdk_session`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from hostcompat.probe._rpc import ProbeSession
from hostcompat.probe._sdk_schemas import SdkValidators
from hostcompat.probe._wire import Wire
from hostcompat.probe.options import Era
from hostcompat.probe.target import StdioTarget, Target


@asynccontextmanager
async def _official(
    target: Target, wire: Wire, era: Era, extensions: Mapping[str, Mapping[str, Any]], client_info: Mapping[str, str]
) -> AsyncIterator[ProbeSession]:
    from hostcompat.probe._sdk_session import SdkSession, sdk_client

    client = sdk_client(
        target,
        wire,
        era=era,
        extensions=extensions,
        client_info=client_info,
        read_timeout=None,  # the probe bounds every step itself
    )
    async with client:
        yield SdkSession(client.session)


@asynccontextmanager
async def _own(
    target: StdioTarget,
    wire: Wire,
    validators: SdkValidators,
    era: Era,
    extensions: Mapping[str, Mapping[str, Any]],
    client_info: Mapping[str, str],
) -> AsyncIterator[ProbeSession]:
    from hostcompat.probe._negotiate import enter
    from hostcompat.probe._session import RawCodec, raw_session
    from hostcompat.probe._stdio import open_stdio

    async with open_stdio(target, wire, RawCodec(validators)) as (read_stream, write_stream):
        if wire.step == "connect":
            wire.step = "initialize"
        opened = raw_session(
            read_stream, write_stream, wire, validators, client_info=client_info, extensions=dict(extensions) or None
        )
        async with opened as session:
            await enter(session, era)
            yield session


def open_session(
    target: Target,
    wire: Wire,
    *,
    era: Era,
    extensions: Mapping[str, Mapping[str, Any]],
    client_info: Mapping[str, str],
) -> AbstractAsyncContextManager[ProbeSession]:
    """The session that speaks for the probe of `target`, entered as the official client enters (its handshake
    made, in `era`), advertising `extensions` as `client_info`; on exit the transport is closed (a stdio child
    stopped).
    """
    if isinstance(target, StdioTarget):
        from hostcompat.probe._sdk_schemas import load

        validators = load()
        if validators is not None:
            return _own(target, wire, validators, era, extensions, client_info)
    return _official(target, wire, era, extensions, client_info)


__all__ = ["open_session"]
