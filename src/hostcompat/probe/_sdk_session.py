"""The probe's session through the official `mcp` client: HTTP and SSE targets, the transport seam, `open_client`,
and any stdio target when the stored SDK schemas do not match the installed SDK (see `_sdk_schemas`).

`sdk_client` builds the `Client` the probe drives (its transport teed to the `Wire`); `SdkSession` adapts its
`ClientSession` to `ProbeSession`: requests are the SDK's typed requests, sent with `send_request` (so the SDK
validates every result as its client does), and its `MCPError` becomes `RpcError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any

import mcp_types as types
from mcp_types.version import LATEST_MODERN_VERSION, MODERN_PROTOCOL_VERSIONS
from pydantic import RootModel

from hostcompat.probe._rpc import RpcError
from hostcompat.probe._sdk import Client, ClientSession, MCPError, advertise
from hostcompat.probe._sdk_wire import SdkStdioCodec, tee
from hostcompat.probe._wire import Wire
from hostcompat.probe.options import Era
from hostcompat.probe.target import HttpTarget, SseTarget, StdioTarget, Target


class _AnyResult(RootModel[dict[str, Any]]):
    """Accepts any result object: the probe reads the raw result from the tee, not from the SDK's model."""


def _typed(method: str, params: dict[str, Any] | None) -> Any:
    """The SDK's typed request for one of the probe's requests."""
    given = params or {}
    if method == "resources/read":
        return types.ReadResourceRequest(params=types.ReadResourceRequestParams(uri=given["uri"]))
    if method == "tools/call":
        arguments = dict(given["arguments"])
        return types.CallToolRequest(params=types.CallToolRequestParams(name=given["name"], arguments=arguments))
    paged = None if params is None else types.PaginatedRequestParams(cursor=given["cursor"])
    listings: dict[str, Any] = {
        "tools/list": types.ListToolsRequest,
        "resources/list": types.ListResourcesRequest,
        "resources/templates/list": types.ListResourceTemplatesRequest,
        "prompts/list": types.ListPromptsRequest,
    }
    return listings[method](params=paged)


class SdkSession:
    """`ProbeSession` over the official `ClientSession`."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session

    @property
    def protocol_version(self) -> str | None:
        """The negotiated protocol version."""
        version: str | None = self.session.protocol_version
        return version

    @property
    def modern_versions(self) -> tuple[str, ...]:
        """The SDK's modern protocol versions."""
        return tuple(MODERN_PROTOCOL_VERSIONS)

    async def request(self, method: str, params: dict[str, Any] | None = None) -> None:
        """Send one of the probe's requests as the SDK's typed request (see `ProbeSession.request`)."""
        try:
            await self.session.send_request(_typed(method, params), _AnyResult)
        except MCPError as error:
            raise RpcError(error.code, error.error.message, error.error.data) from error

    async def discover(self, version: str) -> dict[str, Any]:
        """`ClientSession.send_discover` (see `ProbeSession.discover`)."""
        try:
            raw: dict[str, Any] = await self.session.send_discover(version)
        except MCPError as error:
            raise RpcError(error.code, error.error.message, error.error.data) from error
        return raw

    def adopt_discover(self, raw: dict[str, Any]) -> None:
        """`ClientSession.adopt` of the validated result (see `ProbeSession.adopt_discover`)."""
        self.session.adopt(types.DiscoverResult.model_validate(raw))


def check_extensions(extensions: Mapping[str, Mapping[str, Any]]) -> None:
    """Check extension identifiers as the SDK does (`ValueError`, `TypeError` for a bad one)."""
    for identifier, settings in extensions.items():
        advertise(identifier, dict(settings))


def _transport(target: Target, wire: Wire) -> AbstractAsyncContextManager[Any]:
    if isinstance(target, StdioTarget):
        from hostcompat.probe._stdio import open_stdio

        return open_stdio(target, wire, SdkStdioCodec())
    if isinstance(target, HttpTarget | SseTarget):  # the HTTP client (`httpx2`) is imported for these targets only
        from hostcompat.probe._http import open_sse, open_streamable_http

        return open_streamable_http(target, wire) if isinstance(target, HttpTarget) else open_sse(target, wire)
    return target.open()


def sdk_client(
    target: Target,
    wire: Wire,
    *,
    era: Era,
    extensions: Mapping[str, Mapping[str, Any]],
    client_info: Mapping[str, str],
    read_timeout: float | None,
) -> Client:
    """The official client the probe drives for `target`, its transport teed to `wire` (not yet entered)."""
    return Client(
        tee(_transport(target, wire), wire),
        mode=LATEST_MODERN_VERSION if era == "modern" else era,
        extensions=[advertise(identifier, dict(settings)) for identifier, settings in extensions.items()],
        client_info=types.Implementation(name=client_info["name"], version=client_info["version"]),
        cache=None,
        read_timeout_seconds=read_timeout,
    )


__all__ = ["SdkSession", "check_extensions", "sdk_client"]
