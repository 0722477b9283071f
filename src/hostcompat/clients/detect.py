"""Who is on the other end: a client identity from `initialize` params or a request's `_meta`.

Handshake-era clients (protocol <= 2025-11-25) say who they are once, in `initialize`; in the
2026-07-28 era every request carries the client info in `_meta`. Both end up as one `ClientIdentity`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any, Literal

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireJSON

CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo"
"""The request `_meta` key holding the client's `Implementation` (2026-07-28 era)."""

CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities"
"""The request `_meta` key holding the client's capabilities (2026-07-28 era)."""

PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion"
"""The request `_meta` key holding the protocol version (2026-07-28 era)."""

MAX_NAME_LENGTH = 256
"""The longest client name accepted."""

MAX_CLIENT_VERSION_LENGTH = 128
"""The longest client version string accepted."""

IdentitySource = Literal["initialize", "meta", "client-info", "spec"]

# mcp-remote appends " (via mcp-remote <version>)" to the real client's name.
_VIA_SUFFIX = regex(r"^(?P<name>.*?)\s*\(via (?P<via>[^()]{1,80})\)$")
_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class ClientIdentity:
    """A client as it introduced itself: name, version, capabilities, and where that came from.

    `name` has a bridge suffix such as `(via mcp-remote 0.1.29)` removed; the bridge is kept in `via`.
    `capabilities` is a read-only shallow copy. An identity is never "unknown": clients no rule
    names simply match no rule.
    """

    name: str
    version: str = ""
    capabilities: WireJSON = field(default_factory=lambda: _EMPTY, hash=False)
    source: IdentitySource = "client-info"
    protocol_version: str | None = None
    via: str | None = None

    def __str__(self) -> str:
        return f"{self.name}@{self.version}" if self.version else self.name


def _string(value: object, what: str, limit: int, *, required: bool) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string", value=value)
    if len(value) > limit:
        raise InvalidInput(f"{what} is over {limit} characters", value=value)
    return value


def _capabilities(value: object) -> Mapping[str, Any]:
    if value is None:
        return _EMPTY
    if not isinstance(value, Mapping):
        raise InvalidInput("client capabilities must be an object", value=value)
    return MappingProxyType(dict(value))


def _identity(
    client_info: object, capabilities: object, protocol_version: object, source: IdentitySource
) -> ClientIdentity:
    if not isinstance(client_info, Mapping):
        raise InvalidInput("clientInfo must be an object", value=client_info)
    raw_name = _string(client_info.get("name"), "clientInfo.name", MAX_NAME_LENGTH, required=True) or ""
    version = _string(client_info.get("version"), "clientInfo.version", MAX_CLIENT_VERSION_LENGTH, required=False)
    protocol = _string(protocol_version, "protocolVersion", MAX_CLIENT_VERSION_LENGTH, required=False)
    name, via = raw_name.strip(), None
    match = _VIA_SUFFIX.match(name)
    if match is not None and match.group("name"):
        name, via = match.group("name"), match.group("via").strip()
    return ClientIdentity(
        name=name,
        version=(version or "").strip(),
        capabilities=_capabilities(capabilities),
        source=source,
        protocol_version=protocol,
        via=via,
    )


def _from_meta(meta: Mapping[str, Any]) -> ClientIdentity | None:
    if meta.get(CLIENT_INFO_META_KEY) is None:
        return None
    return _identity(
        meta[CLIENT_INFO_META_KEY],
        meta.get(CLIENT_CAPABILITIES_META_KEY),
        meta.get(PROTOCOL_VERSION_META_KEY),
        "meta",
    )


def detect_client(message: WireJSON) -> ClientIdentity | None:
    """The client identity carried by `message`, or None when it carries none.

    `message` may be any of:

    - `initialize` params: `{"protocolVersion", "capabilities", "clientInfo": {"name", "version"}}`;
    - a 2026-07-28 request's params, whose `_meta` holds `io.modelcontextprotocol/clientInfo`
      (and optionally `.../clientCapabilities` and `.../protocolVersion`);
    - that `_meta` mapping itself;
    - a bare `clientInfo` mapping `{"name", "version"}`.

    Raises:
        InvalidInput: the client info is present but of the wrong shape (name not a string,
            capabilities not an object, over-long strings).
    """
    if not isinstance(message, Mapping):
        raise InvalidInput("expected initialize params, request params or a clientInfo object", value=message)
    if message.get("clientInfo") is not None:
        return _identity(
            message["clientInfo"], message.get("capabilities"), message.get("protocolVersion"), "initialize"
        )
    meta = message.get("_meta")
    if isinstance(meta, Mapping):
        found = _from_meta(meta)
        if found is not None:
            return found
    found = _from_meta(message)
    if found is not None:
        return found
    if "name" in message:
        return _identity(message, None, None, "client-info")
    return None


def parse_client_spec(spec: str) -> ClientIdentity:
    """A client identity from `name@version` (as typed on a command line), e.g. `codex-mcp-client@0.148.0`.

    The version is optional; names that start with `@` (`@librechat/api-client@1.0`) split at the last `@`.

    Raises:
        InvalidInput: not a string, an empty name, or over-long parts.
    """
    if not isinstance(spec, str):
        raise InvalidInput("a client spec must be a string like name@version", value=spec)
    at = spec.rfind("@")
    name, version = (spec[:at], spec[at + 1 :]) if at > 0 else (spec, "")
    if not name.strip():
        raise InvalidInput("a client spec needs a name before '@'", value=spec)
    return _identity({"name": name, "version": version}, None, None, "spec")


__all__ = [
    "CLIENT_CAPABILITIES_META_KEY",
    "CLIENT_INFO_META_KEY",
    "ClientIdentity",
    "IdentitySource",
    "MAX_CLIENT_VERSION_LENGTH",
    "MAX_NAME_LENGTH",
    "PROTOCOL_VERSION_META_KEY",
    "detect_client",
    "parse_client_spec",
]
