"""The official client's handshake, made by the probe's own session (`_session`): `Client.__aenter__` for each
era, `negotiate_auto`, `ClientSession.initialize`, `send_discover` and `adopt`, step for step, with the SDK's own
validators (`_sdk_schemas`), so a server meets the same requests and gets the same verdicts as from the SDK.

`auto` sends `server/discover` at the newest modern version (once more at a version a -32022 error names), and falls
back to the `initialize` handshake on anything that is not evidence of a modern server; `legacy` makes the handshake;
`modern` adopts the newest modern version without a word on the wire (the probe then sends `server/discover` itself).
"""

from __future__ import annotations

from typing import Any, Final

from pydantic_core import ValidationError

from hostcompat.probe._rpc import UNSUPPORTED_PROTOCOL_VERSION, RpcError
from hostcompat.probe._session import CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, RawSession
from hostcompat.probe._wire import PROTOCOL_VERSION_META_KEY
from hostcompat.probe.options import Era

DISCOVER_TIMEOUT_SECONDS: Final = 10.0
"""How long the official client waits for a `server/discover` answer (then it falls back to the handshake)."""


async def enter(session: RawSession, era: Era) -> None:
    """What entering the official `Client` does in `era`."""
    if era == "legacy":
        await initialize(session)
    elif era == "auto":
        await negotiate_auto(session)
    else:
        _adopt_modern(session, session.validators.modern_versions[-1])


async def initialize(session: RawSession) -> None:
    """`ClientSession.initialize`: the handshake at the newest handshake version, then `notifications/initialized`.

    Raises:
        RpcError: the server answered with an error, or the connection closed.
        pydantic_core.ValidationError: the official client rejects the result.
        RuntimeError: the server answered with a version the official client does not speak.
    """
    handshake = session.validators.handshake_versions
    params = {
        "protocolVersion": handshake[-1],
        "capabilities": session.capabilities(),
        "clientInfo": session.client_info,
    }
    raw = await session.send_raw("initialize", session.stamp("initialize", params), cancel=False)
    session.check_result("initialize", raw)
    result = session.validators.whole("InitializeResult", raw, by_name=False)
    if result.protocol_version not in handshake:
        raise RuntimeError(f"Unsupported protocol version from the server: {result.protocol_version}")
    session.negotiated, session.modern = result.protocol_version, False
    await session.notify("notifications/initialized")


async def send_discover(session: RawSession, version: str) -> dict[str, Any]:
    """`ClientSession.send_discover`: one `server/discover` stamped with `version`; its raw result.

    Raises:
        RpcError: the server answered with an error, `REQUEST_TIMEOUT` after 10 s, or the connection closed.
    """
    meta = {
        PROTOCOL_VERSION_META_KEY: version,
        CLIENT_INFO_META_KEY: session.client_info,
        CLIENT_CAPABILITIES_META_KEY: session.capabilities(),
    }
    raw = await session.send_raw("server/discover", {"_meta": meta}, timeout=DISCOVER_TIMEOUT_SECONDS, cancel=False)
    ttl = raw.get("ttlMs")
    if isinstance(ttl, int | float) and not isinstance(ttl, bool) and ttl < 0:
        raw["ttlMs"] = 0
    return raw


def adopt_discover(session: RawSession, result: Any) -> None:
    """`ClientSession.adopt` of a validated `DiscoverResult`.

    Raises:
        RuntimeError: it names no modern version the official client speaks.
    """
    modern = session.validators.modern_versions
    mutual = [version for version in modern if version in result.supported_versions]
    if not mutual:
        raise RuntimeError(
            f"No mutually supported modern protocol version "
            f"(server: {result.supported_versions}, client: {list(modern)})"
        )
    _adopt_modern(session, mutual[-1])


def _adopt_modern(session: RawSession, version: str) -> None:
    session.negotiated, session.modern = version, True


def _supported(session: RawSession, data: Any) -> list[str] | None:
    """The `supported` versions of a -32022 error's data, or None when they cannot be read."""
    try:
        supported: list[str] = session.validators.whole("UnsupportedProtocolVersionErrorData", data).supported
    except ValidationError:
        return None
    return supported


async def negotiate_auto(session: RawSession) -> None:
    """`negotiate_auto`: `server/discover`, adopted when it is evidence of a modern server, else the handshake.

    Raises:
        RpcError: the server is modern only and shares no version with the client, or the handshake failed.
        pydantic_core.ValidationError: the official client rejects the handshake's result.
        RuntimeError: the handshake's version is not one the official client speaks.
    """
    modern, handshake = session.validators.modern_versions, session.validators.handshake_versions
    version = modern[-1]
    for attempt in range(2):
        try:
            raw = await send_discover(session, version)
        except RpcError as error:
            if error.code == UNSUPPORTED_PROTOCOL_VERSION:
                supported = _supported(session, error.data)
                mutual = [known for known in modern if known in (supported or ())]
                if mutual and attempt == 0:
                    version = mutual[-1]
                    continue
                if supported is not None and not any(known in handshake for known in supported):
                    raise
            try:
                await initialize(session)
            except RpcError as refused:
                if refused.code != UNSUPPORTED_PROTOCOL_VERSION or attempt != 0:
                    raise
                supported = _supported(session, refused.data)
                mutual = [known for known in modern if known in (supported or ())]
                if not mutual:
                    raise
                version = mutual[-1]
                continue
            return
        try:
            result = session.validators.whole("DiscoverResult", raw)
        except ValidationError:
            await initialize(session)
            return
        if not any(known in result.supported_versions for known in modern):
            await initialize(session)
            return
        adopt_discover(session, result)
        return


__all__ = ["DISCOVER_TIMEOUT_SECONDS", "adopt_discover", "enter", "initialize", "negotiate_auto", "send_discover"]
