"""Parse and serialise host<->view messages: strict JSON-RPC 2.0 shape, known methods, typed params.

`parse_message` is the one entry point for untrusted input: it bounds the size before decoding, checks the
JSON-RPC envelope, the method and its kind (request or notification), then reads the params into the
method's typed model. Every failure is an `InvalidBridgeMessage` whose `rule_id` says which check failed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.apps.bridge import methods as m
from hostcompat.apps.bridge._wire import (
    DEFAULT_MAX_BYTES,
    MAX_JSON_DEPTH,
    FieldReader,
    decode_json,
    json_copy,
    type_name,
)
from hostcompat.apps.bridge.codes import (
    BRIDGE_BAD_FIELD,
    BRIDGE_BAD_ID,
    BRIDGE_NOT_JSONRPC,
    BRIDGE_UNKNOWN_METHOD,
    BRIDGE_WRONG_DIRECTION,
    BRIDGE_WRONG_KIND,
    jsonrpc_error_code,
)
from hostcompat.apps.bridge.context import HostContext
from hostcompat.apps.bridge.handshake import UiInitializeParams, UiInitializeResult
from hostcompat.apps.bridge.messages import (
    DownloadFileParams,
    EmptyParams,
    EmptyResult,
    MessageParams,
    OpenLinkParams,
    RequestDisplayModeParams,
    RequestDisplayModeResult,
    ResourceTeardownParams,
    SandboxResourceReadyParams,
    SizeChangedParams,
    ToolCancelledParams,
    ToolInputParams,
    ToolInputPartialParams,
    ToolResultParams,
    UpdateModelContextParams,
)
from hostcompat.errors import HostCompatError, InvalidBridgeMessage
from hostcompat.wire_json import WireJSON, WireObject

JSONRPC_VERSION: Final = "2.0"

RequestId = str | int
"""A JSON-RPC request id: a string or an integer (never `null`, never a fraction)."""

BridgeParams = (
    UiInitializeParams
    | EmptyParams
    | OpenLinkParams
    | MessageParams
    | UpdateModelContextParams
    | RequestDisplayModeParams
    | SizeChangedParams
    | ToolInputParams
    | ToolInputPartialParams
    | ToolResultParams
    | ToolCancelledParams
    | HostContext
    | ResourceTeardownParams
    | DownloadFileParams
    | SandboxResourceReadyParams
)
"""Every typed params model."""

BridgeResult = UiInitializeResult | RequestDisplayModeResult | EmptyResult
"""Every typed result model."""

PARAMS_MODELS: Final[Mapping[str, Callable[[object, str], BridgeParams]]] = MappingProxyType(
    {
        m.UI_INITIALIZE: UiInitializeParams.from_wire,
        m.UI_INITIALIZED: EmptyParams.from_wire,
        m.PING: EmptyParams.from_wire,
        m.UI_OPEN_LINK: OpenLinkParams.from_wire,
        m.UI_DOWNLOAD_FILE: DownloadFileParams.from_wire,
        m.UI_MESSAGE: MessageParams.from_wire,
        m.UI_UPDATE_MODEL_CONTEXT: UpdateModelContextParams.from_wire,
        m.UI_REQUEST_DISPLAY_MODE: RequestDisplayModeParams.from_wire,
        m.UI_SIZE_CHANGED: SizeChangedParams.from_wire,
        m.UI_REQUEST_TEARDOWN: EmptyParams.from_wire,
        m.UI_TOOL_INPUT: ToolInputParams.from_wire,
        m.UI_TOOL_INPUT_PARTIAL: ToolInputPartialParams.from_wire,
        m.UI_TOOL_RESULT: ToolResultParams.from_wire,
        m.UI_TOOL_CANCELLED: ToolCancelledParams.from_wire,
        m.UI_HOST_CONTEXT_CHANGED: HostContext.from_wire,
        m.UI_RESOURCE_TEARDOWN: ResourceTeardownParams.from_wire,
        m.UI_SANDBOX_PROXY_READY: EmptyParams.from_wire,
        m.UI_SANDBOX_RESOURCE_READY: SandboxResourceReadyParams.from_wire,
    }
)
"""The params reader of each method the view protocol defines; other methods keep their params as mappings."""

RESULT_MODELS: Final[Mapping[str, Callable[[object, str], BridgeResult]]] = MappingProxyType(
    {
        m.UI_INITIALIZE: UiInitializeResult.from_wire,
        m.PING: EmptyResult.from_wire,
        m.UI_OPEN_LINK: EmptyResult.from_wire,
        m.UI_DOWNLOAD_FILE: EmptyResult.from_wire,
        m.UI_MESSAGE: EmptyResult.from_wire,
        m.UI_UPDATE_MODEL_CONTEXT: EmptyResult.from_wire,
        m.UI_REQUEST_DISPLAY_MODE: RequestDisplayModeResult.from_wire,
        m.UI_RESOURCE_TEARDOWN: EmptyResult.from_wire,
    }
)
"""The result reader of each request the view protocol defines."""


@dataclass(frozen=True, slots=True)
class BridgeRequest:
    """A request: it has an `id` and expects a reply.

    `params` is the method's typed model for a method of the view protocol (always set: absent params read
    as `{}`, and are written back as `{}`); for a standard MCP method (`tools/call`, `resources/read`, …) or
    an allowed unknown one, a mapping, or `None` when the message had none.
    """

    id: RequestId
    method: str
    params: BridgeParams | WireJSON | None = None


@dataclass(frozen=True, slots=True)
class BridgeNotification:
    """A notification: no `id`, no reply. `params` as for `BridgeRequest`."""

    method: str
    params: BridgeParams | WireJSON | None = None


@dataclass(frozen=True, slots=True)
class BridgeResponse:
    """A successful reply. `result` stays a mapping: type it with `parse_result(method_of_the_request, result)`."""

    id: RequestId
    result: WireJSON


@dataclass(frozen=True, slots=True)
class BridgeError:
    """An error reply; `id` is `None` when the request's id could not be read. `data=None` means absent."""

    id: RequestId | None
    code: int
    message: str
    data: Any = None


BridgeMessage = BridgeRequest | BridgeNotification | BridgeResponse | BridgeError
"""Any message of the view protocol."""

_REQUEST_KEYS: Final = frozenset({"jsonrpc", "id", "method", "params"})
_RESPONSE_KEYS: Final = frozenset({"jsonrpc", "id", "result"})
_ERROR_KEYS: Final = frozenset({"jsonrpc", "id", "error"})


def parse_message(
    data: str | bytes | WireJSON,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    allow_unknown: bool = False,
    direction: m.Direction | None = None,
) -> BridgeMessage:
    """Parse one message of the view protocol.

    Args:
        data: JSON text, UTF-8 bytes, or an already-decoded mapping (not mutated; bounded in depth only).
        max_bytes: the largest encoded message accepted, checked before decoding.
        allow_unknown: accept methods the view protocol does not define (standard MCP methods a host may
            forward, such as `prompts/get`); their params stay mappings and their kind follows the `id`.
        direction: when given, a known method must be defined for that direction.

    Raises:
        InvalidBridgeMessage: the input is too large, not strict JSON, not JSON-RPC 2.0, has a bad id, an
            unknown method, the wrong kind for its method, the wrong direction, or params of the wrong shape
            (the message names the field). `rule_id` is one of the `BRIDGE-*` codes.
    """
    raw = decode_json(data, max_bytes=max_bytes, what="message")
    if not isinstance(raw, Mapping):
        raise InvalidBridgeMessage(
            f"a JSON-RPC message is an object, got {type_name(raw)}", value=raw, rule_id=BRIDGE_NOT_JSONRPC
        )
    if raw.get("jsonrpc") != JSONRPC_VERSION:
        raise InvalidBridgeMessage(
            f"'jsonrpc' must be {JSONRPC_VERSION!r}", value=raw.get("jsonrpc"), rule_id=BRIDGE_NOT_JSONRPC
        )
    if "method" in raw:
        return _parse_call(raw, allow_unknown=allow_unknown, direction=direction)
    if "result" in raw and "error" not in raw:
        _check_keys(raw, _RESPONSE_KEYS)
        result = json_copy(_require_object(raw, "result"), "result")
        return BridgeResponse(id=_request_id(raw), result=result)
    if "error" in raw and "result" not in raw:
        _check_keys(raw, _ERROR_KEYS)
        return _parse_error(raw)
    raise InvalidBridgeMessage(
        "a JSON-RPC message needs exactly one of 'method', 'result' or 'error'",
        value=dict(raw),
        rule_id=BRIDGE_NOT_JSONRPC,
    )


def parse_params(method: str, params: object, where: str = "params") -> BridgeParams | WireObject:
    """The params object of `method` read into its typed model, or a checked copy for a method the view
    protocol does not model.

    Raises:
        InvalidBridgeMessage: `params` is not an object, or a field is missing or of the wrong type.
    """
    reader = PARAMS_MODELS.get(method)
    if reader is not None:
        return reader(params, where)
    return dict(json_copy(_object(params, where), where))


def parse_result(method: str, result: object, where: str = "result") -> BridgeResult | WireObject:
    """A reply's result as the typed model for the request `method`, or a checked copy for other methods."""
    reader = RESULT_MODELS.get(method)
    if reader is not None:
        return reader(result, where)
    return dict(json_copy(_object(result, where), where))


def serialize(message: BridgeMessage) -> WireObject:
    """The JSON-RPC object for `message` (a fresh dict; typed params are written with `to_wire`)."""
    out: dict[str, Any] = {"jsonrpc": JSONRPC_VERSION}
    if isinstance(message, BridgeRequest):
        out["id"] = message.id
    if isinstance(message, (BridgeRequest, BridgeNotification)):
        out["method"] = message.method
        if message.params is not None:
            out["params"] = _params_wire(message.params)
    elif isinstance(message, BridgeResponse):
        out["id"] = message.id
        out["result"] = json_copy(message.result, "result")
    else:
        error: dict[str, Any] = {"code": message.code, "message": message.message}
        if message.data is not None:
            error["data"] = json_copy(message.data, "error.data")
        out["id"] = message.id
        out["error"] = error
    return out


def error_reply(error: HostCompatError, request_id: RequestId | None = None) -> BridgeError:
    """The error reply a host sends for a rejected message: the JSON-RPC code for the error's rule, its
    message, and the rule id as `data.ruleId`.
    """
    data = None if error.rule_id is None else {"ruleId": error.rule_id}
    return BridgeError(id=request_id, code=jsonrpc_error_code(error), message=error.message, data=data)


def _params_wire(params: BridgeParams | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(params, Mapping):
        return dict(json_copy(params, "params"))
    return params.to_wire()


def _parse_call(
    raw: Mapping[str, Any], *, allow_unknown: bool, direction: m.Direction | None
) -> BridgeRequest | BridgeNotification:
    _check_keys(raw, _REQUEST_KEYS)
    method = raw["method"]
    if not isinstance(method, str) or method == "":
        raise InvalidBridgeMessage(
            f"'method' must be a non-empty string, got {type_name(method)}", value=method, rule_id=BRIDGE_NOT_JSONRPC
        )
    kind = m.method_kind(method)
    if kind is None:
        if not allow_unknown:
            renamed = m.LEGACY_METHOD_RENAMES.get(method)
            hint = f" (an early-draft name: now {renamed!r})" if renamed else ""
            raise InvalidBridgeMessage(
                f"unknown bridge method {method!r}{hint}", value=method, rule_id=BRIDGE_UNKNOWN_METHOD
            )
        kind = m.MessageKind.REQUEST if "id" in raw else m.MessageKind.NOTIFICATION
    elif direction is not None and direction not in m.method_directions(method):
        raise InvalidBridgeMessage(
            f"{method!r} is not sent {direction.value}", value=method, rule_id=BRIDGE_WRONG_DIRECTION
        )
    if kind is m.MessageKind.REQUEST and "id" not in raw:
        raise InvalidBridgeMessage(
            f"{method!r} is a request: it needs an 'id'", value=method, rule_id=BRIDGE_WRONG_KIND
        )
    if kind is m.MessageKind.NOTIFICATION and "id" in raw:
        raise InvalidBridgeMessage(
            f"{method!r} is a notification: it must not have an 'id'", value=raw["id"], rule_id=BRIDGE_WRONG_KIND
        )
    params: BridgeParams | dict[str, Any] | None = None
    if "params" in raw or method in PARAMS_MODELS:
        params = parse_params(method, raw.get("params", {}))
    if kind is m.MessageKind.REQUEST:
        return BridgeRequest(id=_request_id(raw), method=method, params=params)
    return BridgeNotification(method=method, params=params)


def _parse_error(raw: Mapping[str, Any]) -> BridgeError:
    request_id = None if raw.get("id", 0) is None else _request_id(raw)
    fields = FieldReader(_require_object(raw, "error"), "error")
    code = fields.opt_json("code")
    if isinstance(code, bool) or not isinstance(code, int):
        raise InvalidBridgeMessage(
            f"error.code: expected an integer, got {type_name(code)}", value=code, rule_id=BRIDGE_NOT_JSONRPC
        )
    message = fields.text("message")
    data = fields.opt_json("data")
    unknown = fields.rest()
    if unknown:
        raise InvalidBridgeMessage(
            f"error has unknown members {sorted(unknown)}", value=unknown, rule_id=BRIDGE_NOT_JSONRPC
        )
    return BridgeError(id=request_id, code=code, message=message, data=data)


def _check_keys(raw: Mapping[str, Any], allowed: frozenset[str]) -> None:
    unknown = sorted(str(key) for key in raw if key not in allowed)
    if unknown:
        raise InvalidBridgeMessage(f"unexpected members {unknown}", value=dict(raw), rule_id=BRIDGE_NOT_JSONRPC)


def _request_id(raw: Mapping[str, Any]) -> RequestId:
    if "id" not in raw:
        raise InvalidBridgeMessage("a reply needs an 'id' member", value=dict(raw), rule_id=BRIDGE_BAD_ID)
    value = raw["id"]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InvalidBridgeMessage(
            f"'id' must be a string or an integer, got {type_name(value)}", value=value, rule_id=BRIDGE_BAD_ID
        )
    return value


def _require_object(raw: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = raw[key]
    if not isinstance(value, Mapping):
        raise InvalidBridgeMessage(
            f"{key!r} must be an object, got {type_name(value)}", value=value, rule_id=BRIDGE_NOT_JSONRPC
        )
    return value


def _object(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidBridgeMessage(
            f"{where}: expected an object, got {type_name(value)}", value=value, rule_id=BRIDGE_BAD_FIELD
        )
    return value


__all__ = [
    "BridgeError",
    "BridgeMessage",
    "BridgeNotification",
    "BridgeParams",
    "BridgeRequest",
    "BridgeResponse",
    "BridgeResult",
    "DEFAULT_MAX_BYTES",
    "JSONRPC_VERSION",
    "MAX_JSON_DEPTH",
    "PARAMS_MODELS",
    "RESULT_MODELS",
    "RequestId",
    "error_reply",
    "parse_message",
    "parse_params",
    "parse_result",
    "serialize",
]
