"""The MCP Apps UI capability: read, write and check `capabilities.extensions["io.modelcontextprotocol/ui"]`.

A server offers UI tools only to a peer that declares this capability. The functions work on plain dicts
and on `mcp` SDK capability models (the 2.x `extensions` field or a 1.x pydantic extra) without importing
the SDK, and never mutate what they are given. The payload model and reading live in `_capability_model`,
the near-miss diagnosis in `capability_diagnosis`; both are re-exported here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar, cast, overload

from hostcompat.apps.capabilities.diagnosis import CapabilityDiagnosis as CapabilityDiagnosis
from hostcompat.apps.capabilities.diagnosis import DiagnosisCode as DiagnosisCode
from hostcompat.apps.capabilities.diagnosis import diagnose_ui_capability as diagnose_ui_capability
from hostcompat.apps.capabilities.model import (
    EXTENSIONS,
    check_mime_types,
    copy_json,
    is_initialize,
    is_model,
    lookup,
    model_fields,
    resolve,
    ui_capable,
)
from hostcompat.apps.capabilities.model import CapabilitySource as CapabilitySource
from hostcompat.apps.capabilities.model import UICapability as UICapability
from hostcompat.apps.capabilities.model import get_ui_capability as get_ui_capability
from hostcompat.apps.constants import EXTENSION_ID, RESOURCE_MIME_TYPE
from hostcompat.errors import InvalidCapability
from hostcompat.wire_json import WireJSON, WireObject


class _CapabilitiesModel(Protocol):
    def model_copy(self, *, update: Mapping[str, Any] | None = ..., deep: bool = ...) -> Any: ...


_ModelT = TypeVar("_ModelT", bound=_CapabilitiesModel)


@overload
def set_client_capability(
    caps: WireJSON | None,
    *,
    mime_types: Sequence[str] = ...,
    protocol_version: str | None = ...,
    extra: WireJSON | None = ...,
) -> WireObject: ...
@overload
def set_client_capability(
    caps: _ModelT,
    *,
    mime_types: Sequence[str] = ...,
    protocol_version: str | None = ...,
    extra: WireJSON | None = ...,
) -> _ModelT: ...
def set_client_capability(
    caps: object,
    *,
    mime_types: Sequence[str] = (RESOURCE_MIME_TYPE,),
    protocol_version: str | None = None,
    extra: WireJSON | None = None,
) -> object:
    """A copy of client `caps` declaring the UI capability; see `set_server_capability`."""
    return _with_payload(caps, UICapability(check_mime_types(mime_types), protocol_version, extra or {}))


@overload
def set_server_capability(
    caps: WireJSON | None,
    *,
    mime_types: Sequence[str] = ...,
    protocol_version: str | None = ...,
    extra: WireJSON | None = ...,
) -> WireObject: ...
@overload
def set_server_capability(
    caps: _ModelT,
    *,
    mime_types: Sequence[str] = ...,
    protocol_version: str | None = ...,
    extra: WireJSON | None = ...,
) -> _ModelT: ...
def set_server_capability(
    caps: object,
    *,
    mime_types: Sequence[str] = (RESOURCE_MIME_TYPE,),
    protocol_version: str | None = None,
    extra: WireJSON | None = None,
) -> object:
    """A copy of server `caps` whose `extensions[EXTENSION_ID]` is the given payload.

    The payload is replaced wholesale (old keys such as `legacy` go); other extensions are kept;
    `protocolVersion` is written only when given; `experimental` is left alone. A dict (or None) gives a
    new deep-copied dict, an SDK model a `model_copy`. Raises `InvalidCapability` for initialize params,
    a model that cannot carry `extensions` (no field and extras ignored), or a malformed `extensions`.
    """
    return _with_payload(caps, UICapability(check_mime_types(mime_types), protocol_version, extra or {}))


def client_ui_capable(caps: object) -> bool:
    """True only if `extensions[EXTENSION_ID].mimeTypes` holds exactly `text/html;profile=mcp-app`.

    No case folding, trimming or parameter parsing, and `experimental` is never read. A payload of the
    wrong shape is simply not capable (`diagnose_ui_capability` says why); `InvalidCapability` is raised
    only when `caps` is not a capabilities object at all.
    """
    return ui_capable(resolve(caps))


def server_ui_capable(caps: object) -> bool:
    """The server-side twin of `client_ui_capable` (the payload sits in the same place)."""
    return ui_capable(resolve(caps))


# --- writing -------------------------------------------------------------------------------------------


def _with_payload(caps: object, capability: UICapability) -> object:
    if is_initialize(caps):
        raise InvalidCapability("pass the `capabilities` of initialize params, not the params", value=caps)
    payload = capability.to_payload()
    if caps is None:
        return {EXTENSIONS: {EXTENSION_ID: payload}}
    if isinstance(caps, Mapping):
        copied: dict[str, Any] = copy_json(caps, 0)
        copied[EXTENSIONS] = _replaced(caps.get(EXTENSIONS), payload)
        return copied
    if not is_model(caps):
        raise InvalidCapability("capabilities must be a mapping or an MCP capabilities model", value=caps)
    if EXTENSIONS not in model_fields(caps) and getattr(caps, "model_config", {}).get("extra") != "allow":
        raise InvalidCapability("this capabilities model has no `extensions` field and drops extra keys", value=caps)
    updated: dict[str, Any] = {EXTENSIONS: _replaced(lookup(caps, EXTENSIONS), payload)}
    return cast(_CapabilitiesModel, caps).model_copy(update=updated, deep=True)


def _replaced(extensions: object, payload: dict[str, Any]) -> dict[str, Any]:
    if extensions is None:
        return {EXTENSION_ID: payload}
    if not isinstance(extensions, Mapping):
        raise InvalidCapability(f"capabilities.{EXTENSIONS} must be an object", value=extensions)
    kept: dict[str, Any] = {key: copy_json(value, 1) for key, value in extensions.items() if key != EXTENSION_ID}
    return {**kept, EXTENSION_ID: payload}


__all__ = [
    "CapabilityDiagnosis",
    "CapabilitySource",
    "DiagnosisCode",
    "UICapability",
    "client_ui_capable",
    "diagnose_ui_capability",
    "get_ui_capability",
    "server_ui_capable",
    "set_client_capability",
    "set_server_capability",
]
