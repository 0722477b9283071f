"""Helpers for the loopback tests: read results exactly as they came over the wire."""

from collections.abc import Mapping
from typing import Any, Protocol

import mcp_types as types
from pydantic import RootModel


class RawResult(RootModel[dict[str, Any]]):
    """A result kept as the wire dict (no client-side model coercion: an integer priority stays an int)."""


class HasSession(Protocol):
    """Any client exposing the SDK's `ClientSession` (the `mcp` and the FastMCP `Client` both do)."""

    @property
    def session(self) -> Any: ...


async def raw(client: HasSession, request: Any) -> dict[str, Any]:
    """Send `request` and return the result exactly as it came over the wire."""
    result: RawResult = await client.session.send_request(request, RawResult)
    return result.root


def call(name: str, arguments: dict[str, Any] | None = None) -> types.CallToolRequest:
    """A tools/call request."""
    return types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=arguments or {}))


def priorities(result: Mapping[str, Any]) -> list[Any]:
    """Every `annotations.priority` in a result, in document order."""
    found: list[Any] = []

    def walk(node: Any) -> None:
        if isinstance(node, Mapping):
            annotations = node.get("annotations")
            if isinstance(annotations, Mapping) and "priority" in annotations:
                found.append(annotations["priority"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(result)
    return found
