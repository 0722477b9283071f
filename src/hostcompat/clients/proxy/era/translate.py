"""Pure translations between the two protocol eras: the 2025 handshake era and the stateless 2026-07-28 era.

The functional core of the era gateway: every function takes raw JSON as a peer sent it and returns new raw JSON,
copying only what it changes, so unknown fields and `_meta` keys survive both ways. The shell (the gateway relay)
decides when to call which; nothing here does I/O.

What changed between the eras, as the gateway sees it (the 2026-07-28 changelog, and the official SDK's types):
- `initialize` is gone; `server/discover` answers with the supported versions and capabilities, and the client's
  version, info and capabilities travel in each request's `_meta` (the reserved `io.modelcontextprotocol/*` keys);
- servers no longer send requests to the client: a request that needs sampling, elicitation or roots gets an
  `input_required` result, and the client retries it with `inputResponses` and the echoed `requestState`;
- `resources/subscribe` became a long-lived `subscriptions/listen` request with a filter;
- `ping` and `logging/setLevel` are gone (the log level rides in `_meta`);
- resource-not-found is -32602 (invalid params) instead of -32002.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp_types import (
    CLIENT_CAPABILITIES_META_KEY,
    CLIENT_INFO_META_KEY,
    LOG_LEVEL_META_KEY,
    PROTOCOL_VERSION_META_KEY,
    SERVER_INFO_META_KEY,
)
from mcp_types.jsonrpc import INVALID_PARAMS
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION, MODERN_PROTOCOL_VERSIONS

from hostcompat._dataclass import dataclass
from hostcompat.clients.proxy.era.detect import Era, front_era, refuses_handshake
from hostcompat.wire_json import WireJSON, WireObject, WireValue

LEGACY_RESOURCE_NOT_FOUND = -32002
"""The resource-not-found code up to 2025-11-25 (retired, never reused, in 2026-07-28)."""

MODERN_RESOURCE_NOT_FOUND = INVALID_PARAMS
"""The resource-not-found code in 2026-07-28 (-32602, with the URI in `data`)."""

DISCOVER = "server/discover"
INITIALIZE = "initialize"
INITIALIZED = "notifications/initialized"
LISTEN = "subscriptions/listen"
ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
SUBSCRIBE = "resources/subscribe"
UNSUBSCRIBE = "resources/unsubscribe"
PING = "ping"
SET_LEVEL = "logging/setLevel"
READ_RESOURCE = "resources/read"
ENVELOPE_KEYS = (PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY)
"""The `_meta` keys of the 2026-07-28 per-request envelope."""

CACHEABLE = frozenset(
    {DISCOVER, "tools/list", "prompts/list", "resources/list", "resources/templates/list", READ_RESOURCE}
)
"""The methods whose 2026-07-28 results carry the required caching hints `ttlMs` and `cacheScope`."""


MAX_INPUT_REQUESTS = 32
"""The most input requests one `input_required` result may carry for the gateway to relay."""

UNKNOWN_SERVER: WireObject = {"name": "unknown", "version": "0"}
"""The `serverInfo` of an `initialize` answer when the modern server did not stamp its own."""


@dataclass(frozen=True)
class Envelope:
    """Who a request comes from, in the 2026-07-28 sense: the raw JSON of the client's info and capabilities."""

    protocol_version: str
    client_info: WireValue = None
    capabilities: WireValue = None
    log_level: str | None = None

    def identity(self) -> tuple[str, str]:
        """The client's name and version (empty when it gave none): one upstream session per identity."""
        info = self.client_info if isinstance(self.client_info, Mapping) else {}
        name, version = info.get("name"), info.get("version")
        return (name if isinstance(name, str) else "", version if isinstance(version, str) else "")


@dataclass(frozen=True)
class InputRequest:
    """One request a modern server embedded in an `input_required` result: its key, method and raw params."""

    key: str
    method: str
    params: WireObject


def _meta(params: WireJSON | None) -> WireJSON:
    meta = params.get("_meta") if isinstance(params, Mapping) else None
    return meta if isinstance(meta, Mapping) else {}


def modern_version(discover: WireJSON) -> str | None:
    """The newest 2026-era version a `server/discover` result offers (None: it offers none this gateway speaks)."""
    offered = discover.get("supportedVersions")
    if not isinstance(offered, list):
        return None
    known = [version for version in MODERN_PROTOCOL_VERSIONS if version in offered]
    return known[-1] if known else None


def handshake_version(requested: WireValue) -> str:
    """The version an `initialize` answer names: the client's own when it is a handshake version, else the latest."""
    return (
        requested
        if isinstance(requested, str) and requested in HANDSHAKE_PROTOCOL_VERSIONS
        else LATEST_HANDSHAKE_VERSION
    )


def initialize_result_from_discover(discover: WireJSON, requested_version: WireValue) -> WireObject:
    """The `initialize` result a legacy client gets for a modern server, from that server's `server/discover`.

    Capabilities and instructions are the server's own (raw, unknown keys kept); `serverInfo` is the one the server
    stamped in the result's `_meta`; the other discover-only fields (`supportedVersions`, caching hints,
    `resultType`) have no place in the handshake and are left out, every other field is kept.
    """
    dropped = {"supportedVersions", "resultType", "ttlMs", "cacheScope", "_meta"}
    out: WireObject = {key: value for key, value in discover.items() if key not in dropped}
    meta = dict(_meta(discover))
    info = meta.pop(SERVER_INFO_META_KEY, None)
    out["protocolVersion"] = handshake_version(requested_version)
    out["capabilities"] = discover.get("capabilities") if isinstance(discover.get("capabilities"), Mapping) else {}
    out["serverInfo"] = info if isinstance(info, Mapping) else dict(UNKNOWN_SERVER)
    if meta:
        out["_meta"] = meta
    return out


def discover_result_from_initialize(initialized: WireJSON) -> WireObject:
    """The `server/discover` result a modern client gets for a legacy server, from that server's `initialize` result.

    The server's `serverInfo` moves to the result's `_meta` (where 2026-07-28 servers stamp it); the versions offered
    are the modern ones this gateway speaks; every other field is kept.
    """
    out: WireObject = {key: value for key, value in initialized.items() if key not in {"protocolVersion", "serverInfo"}}
    meta = dict(_meta(initialized))
    info = initialized.get("serverInfo")
    if isinstance(info, Mapping):
        meta[SERVER_INFO_META_KEY] = info
    if meta:
        out["_meta"] = meta
    if not isinstance(out.get("capabilities"), Mapping):
        out["capabilities"] = {}
    out["supportedVersions"] = list(MODERN_PROTOCOL_VERSIONS)
    return dict(complete(DISCOVER, out))


def envelope_from_initialize(params: WireJSON | None, version: str) -> Envelope:
    """The envelope a legacy client's `initialize` params stand for, to stamp on each of its requests."""
    source = params if isinstance(params, Mapping) else {}
    return Envelope(version, source.get("clientInfo"), source.get("capabilities") or {})


def envelope_of(params: WireJSON | None) -> Envelope | None:
    """The 2026-07-28 envelope a request carries in its `_meta` (None when it carries no protocol version)."""
    meta = _meta(params)
    version = meta.get(PROTOCOL_VERSION_META_KEY)
    if not isinstance(version, str):
        return None
    level = meta.get(LOG_LEVEL_META_KEY)
    return Envelope(
        version,
        meta.get(CLIENT_INFO_META_KEY),
        meta.get(CLIENT_CAPABILITIES_META_KEY),
        level if isinstance(level, str) else None,
    )


def with_envelope(params: WireJSON | None, envelope: Envelope) -> WireObject:
    """`params` with the envelope in its `_meta` (a copy; the client's own `_meta` keys, a progress token, kept)."""
    out: WireObject = dict(params) if isinstance(params, Mapping) else {}
    meta = dict(_meta(params))
    meta[PROTOCOL_VERSION_META_KEY] = envelope.protocol_version
    meta[CLIENT_CAPABILITIES_META_KEY] = envelope.capabilities if isinstance(envelope.capabilities, Mapping) else {}
    if envelope.client_info is not None:
        meta[CLIENT_INFO_META_KEY] = envelope.client_info
    if envelope.log_level is not None:
        meta[LOG_LEVEL_META_KEY] = envelope.log_level
    out["_meta"] = meta
    return out


def without_envelope(params: WireJSON | None) -> WireJSON | None:
    """`params` without the envelope keys in `_meta` (the input itself when it has none; `_meta` dropped if emptied)."""
    meta = _meta(params)
    if params is None or not any(key in meta for key in ENVELOPE_KEYS):
        return params
    out = dict(params)
    rest = {key: value for key, value in meta.items() if key not in ENVELOPE_KEYS}
    if rest:
        out["_meta"] = rest
    else:
        out.pop("_meta", None)
    return out


def initialize_params(envelope: Envelope) -> WireObject:
    """The `initialize` params a legacy server gets for a modern client: its info and capabilities."""
    info = envelope.client_info if isinstance(envelope.client_info, Mapping) else {"name": "unknown", "version": "0"}
    capabilities = envelope.capabilities if isinstance(envelope.capabilities, Mapping) else {}
    return {"protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": capabilities, "clientInfo": info}


def is_input_required(result: WireJSON) -> bool:
    """Whether a result is an interim `input_required` one."""
    return result.get("resultType") == "input_required"


def input_requests(result: WireJSON) -> list[InputRequest]:
    """The embedded requests of an `input_required` result, in key order; malformed entries are left out."""
    found = result.get("inputRequests")
    if not isinstance(found, Mapping):
        return []
    out: list[InputRequest] = []
    for key, request in sorted(found.items())[:MAX_INPUT_REQUESTS]:
        method = request.get("method") if isinstance(request, Mapping) else None
        if isinstance(key, str) and isinstance(method, str):
            params = request.get("params")
            out.append(InputRequest(key, method, dict(params) if isinstance(params, Mapping) else {}))
    return out


def retry_params(params: WireJSON | None, responses: Mapping[str, WireValue], state: WireValue) -> WireObject:
    """The params of a retried request: the original ones plus `inputResponses` and the echoed `requestState`."""
    out: WireObject = dict(params) if isinstance(params, Mapping) else {}
    out.pop("inputResponses", None)
    out.pop("requestState", None)
    if responses:
        out["inputResponses"] = dict(responses)
    if isinstance(state, str):
        out["requestState"] = state
    return out


def input_required_result(requests: Mapping[str, tuple[str, WireValue]], state: str) -> WireObject:
    """An `input_required` result asking a modern client for `requests` (key -> (method, params))."""
    embedded = {key: {"method": method, "params": params} for key, (method, params) in requests.items()}
    return {"resultType": "input_required", "inputRequests": embedded, "requestState": state}


def retry_of(params: WireJSON | None) -> tuple[WireValue, WireJSON]:
    """The `requestState` and `inputResponses` a retried request carries (None and {} on a first round)."""
    source = params if isinstance(params, Mapping) else {}
    responses = source.get("inputResponses")
    return source.get("requestState"), responses if isinstance(responses, Mapping) else {}


def strip_retry(params: WireJSON | None) -> WireJSON | None:
    """`params` without the retry fields (what a legacy server must not see)."""
    if not isinstance(params, Mapping) or not ({"inputResponses", "requestState"} & params.keys()):
        return params
    return {key: value for key, value in params.items() if key not in {"inputResponses", "requestState"}}


def complete(method: str, result: WireJSON) -> WireJSON:
    """A legacy result as a 2026-07-28 one: `resultType` is required there (`complete` when absent), and so are the
    caching hints of the cacheable methods' results (absent ones become `ttlMs: 0`, `cacheScope: private`: never
    reused, never shared, which is what a legacy server's answer promised).
    """
    missing: WireObject = {} if "resultType" in result else {"resultType": "complete"}
    if method in CACHEABLE:
        if "ttlMs" not in result:
            missing["ttlMs"] = 0
        if "cacheScope" not in result:
            missing["cacheScope"] = "private"
    return {**result, **missing} if missing else result


def _error_with_code(error: WireJSON, code: int) -> WireObject:
    out = dict(error)
    out["code"] = code
    return out


def legacy_error(method: str, error: WireJSON) -> WireJSON:
    """A modern server's error as a legacy client expects it: resource-not-found on `resources/read` is -32002."""
    data = error.get("data")
    names_uri = isinstance(data, Mapping) and "uri" in data
    if method == READ_RESOURCE and error.get("code") == MODERN_RESOURCE_NOT_FOUND and names_uri:
        return _error_with_code(error, LEGACY_RESOURCE_NOT_FOUND)
    return error


def modern_error(method: str, error: WireJSON) -> WireJSON:
    """A legacy server's error as a modern client expects it: resource-not-found -32002 becomes -32602."""
    if error.get("code") == LEGACY_RESOURCE_NOT_FOUND:
        return _error_with_code(error, MODERN_RESOURCE_NOT_FOUND)
    return error


def listen_filter(capabilities: WireJSON, uris: list[str]) -> WireObject:
    """The `subscriptions/listen` filter that gives a legacy client what it got without asking: the list-changed
    notifications the server declares, and the updates of the resources it subscribed to.
    """
    out: WireObject = {}
    for kind in ("tools", "prompts", "resources"):
        declared = capabilities.get(kind)
        if isinstance(declared, Mapping) and declared.get("listChanged") is True:
            out[f"{kind}ListChanged"] = True
    if uris:
        out["resourceSubscriptions"] = list(uris)
    return out


def subscription_uris(params: WireJSON | None) -> list[str] | None:
    """The resource URIs a `subscriptions/listen` request asks updates for (None: its params are malformed)."""
    source = params.get("notifications") if isinstance(params, Mapping) else None
    if not isinstance(source, Mapping):
        return None
    uris = source.get("resourceSubscriptions", [])
    if not isinstance(uris, list) or not all(isinstance(uri, str) for uri in uris):
        return None
    return list(uris)


def acknowledged_filter(params: WireJSON | None, capabilities: WireJSON) -> WireObject:
    """What a legacy server can honour of a listen filter: the list-changed kinds it declares, and the resource
    subscriptions when it declares `resources.subscribe`.
    """
    source = params.get("notifications") if isinstance(params, Mapping) else None
    requested: Mapping[str, Any] = source if isinstance(source, Mapping) else {}
    out: WireObject = {}
    for kind in ("tools", "prompts", "resources"):
        declared = capabilities.get(kind)
        if (
            requested.get(f"{kind}ListChanged") is True
            and isinstance(declared, Mapping)
            and declared.get("listChanged")
        ):
            out[f"{kind}ListChanged"] = True
    resources = capabilities.get("resources")
    uris = subscription_uris(params) or []
    if uris and isinstance(resources, Mapping) and resources.get("subscribe") is True:
        out["resourceSubscriptions"] = uris
    return out


__all__ = [
    "ACKNOWLEDGED",
    "CACHEABLE",
    "DISCOVER",
    "ENVELOPE_KEYS",
    "Envelope",
    "Era",
    "INITIALIZE",
    "INITIALIZED",
    "InputRequest",
    "LEGACY_RESOURCE_NOT_FOUND",
    "LISTEN",
    "MAX_INPUT_REQUESTS",
    "MODERN_RESOURCE_NOT_FOUND",
    "PING",
    "READ_RESOURCE",
    "SET_LEVEL",
    "SUBSCRIBE",
    "UNKNOWN_SERVER",
    "UNSUBSCRIBE",
    "acknowledged_filter",
    "complete",
    "discover_result_from_initialize",
    "envelope_from_initialize",
    "envelope_of",
    "front_era",
    "handshake_version",
    "initialize_params",
    "initialize_result_from_discover",
    "input_required_result",
    "input_requests",
    "is_input_required",
    "legacy_error",
    "listen_filter",
    "modern_error",
    "modern_version",
    "refuses_handshake",
    "retry_of",
    "retry_params",
    "strip_retry",
    "subscription_uris",
    "with_envelope",
    "without_envelope",
]
