"""The UI capability payload (`UICapability`) and how it is read from capabilities dicts and SDK models.

Shared by `capabilities` (the public face, which also writes) and `capability_diagnosis`, so neither imports
the other. Pure: the SDK is never imported (models are recognised by `model_fields`), inputs are never mutated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from hostcompat._dataclass import dataclass
from hostcompat.apps.constants import EXTENSION_ID, RESOURCE_MIME_TYPE
from hostcompat.errors import InvalidCapability
from hostcompat.wire_json import WireJSON, WireObject

if TYPE_CHECKING:
    from pydantic.fields import FieldInfo

CapabilitySource = Literal["extensions", "experimental"]
"""Where a capability was read: the standard `extensions` map, or the non-standard `experimental` one."""

EXTENSIONS: Literal["extensions"] = "extensions"
"""The standard capabilities slot that holds the UI extension."""
EXPERIMENTAL: Literal["experimental"] = "experimental"
"""The non-standard capabilities slot some peers use instead."""
MIME_TYPES = "mimeTypes"
"""The payload key listing the UI MIME types a peer renders."""
PROTOCOL_VERSION = "protocolVersion"
"""The optional payload key (and initialize params key) naming a protocol version."""
_MAX_MIME_TYPES = 256
_MAX_NESTING = 32


@dataclass(frozen=True)
class UICapability:
    """The UI extension payload: `{"mimeTypes": [...], "protocolVersion"?: ..., <future keys>}`.

    `extra` keeps keys this package does not model (the spec names `features` and `sandboxPolicies`
    as future ones), read-only. `source` says where it was read; `experimental` is non-standard.
    """

    mime_types: tuple[str, ...] = (RESOURCE_MIME_TYPE,)
    protocol_version: str | None = None
    extra: WireJSON = field(default_factory=dict, hash=False)
    source: CapabilitySource = EXTENSIONS

    def __post_init__(self) -> None:
        object.__setattr__(self, "mime_types", check_mime_types(self.mime_types))
        if self.protocol_version is not None and not isinstance(self.protocol_version, str):
            raise InvalidCapability(f"{PROTOCOL_VERSION} must be a string", value=self.protocol_version)
        if self.source not in (EXTENSIONS, EXPERIMENTAL):
            raise InvalidCapability("source must be 'extensions' or 'experimental'", value=self.source)
        object.__setattr__(self, "extra", _check_extra(self.extra))

    @property
    def non_standard(self) -> bool:
        """True when read from `experimental`, which no spec revision uses."""
        return self.source == EXPERIMENTAL

    def supports(self, mime_type: str = RESOURCE_MIME_TYPE) -> bool:
        """Whether `mime_type` is listed, compared byte for byte."""
        return mime_type in self.mime_types

    def to_payload(self) -> WireObject:
        """The JSON payload to put under the extension id (a new dict)."""
        payload: dict[str, Any] = {MIME_TYPES: list(self.mime_types)}
        if self.protocol_version is not None:
            payload[PROTOCOL_VERSION] = self.protocol_version
        payload.update(copy_json(self.extra, 0))
        return payload


def get_ui_capability(caps: object, *, allow_experimental: bool = False) -> UICapability | None:
    """The UI capability declared in `caps`, or None when there is none.

    `caps` is a capabilities dict, an SDK `ClientCapabilities`/`ServerCapabilities` model, None, or
    initialize params/result (anything holding both `protocolVersion` and `capabilities`), whose
    `capabilities` are read. `experimental[EXTENSION_ID]` is read only with `allow_experimental`, and only
    when `extensions` has no entry; the result is then marked `non_standard`. JSON null reads as absent.

    Raises `InvalidCapability` for a present value of the wrong shape: `extensions` or the payload not an
    object, `mimeTypes` not a list or with a non-string item (viant drops those; we refuse, so nothing is
    lost silently), `protocolVersion` not a string, more than 256 MIME types.
    """
    resolved = resolve(caps)
    if resolved is None:
        return None
    payload = extension_entry(resolved, EXTENSIONS)
    if payload is not None:
        return parse_payload(payload, EXTENSIONS)
    if allow_experimental:
        payload = extension_entry(resolved, EXPERIMENTAL)
        if payload is not None:
            return parse_payload(payload, EXPERIMENTAL)
    return None


def is_model(value: object) -> bool:
    """Whether `value` looks like a pydantic model (`model_fields` on its class and a `model_copy`)."""
    return isinstance(getattr(type(value), "model_fields", None), Mapping) and callable(
        getattr(value, "model_copy", None)
    )


def model_fields(value: object) -> Mapping[str, FieldInfo]:
    """The declared fields of a model's class; empty for anything else."""
    fields = getattr(type(value), "model_fields", None)
    return fields if isinstance(fields, Mapping) else {}


def lookup(container: object, key: str) -> Any:
    """`key` of a mapping, or of an SDK model as a field or a pydantic extra; None when absent."""
    if isinstance(container, Mapping):
        return container.get(key)
    if key in model_fields(container):
        return getattr(container, key, None)
    extra = getattr(container, "model_extra", None)
    return extra.get(key) if isinstance(extra, Mapping) else None


def is_initialize(value: object) -> bool:
    """Whether `value` is initialize params or result (it holds `capabilities` and a protocol version)."""
    if isinstance(value, Mapping):
        return "capabilities" in value and PROTOCOL_VERSION in value
    fields = model_fields(value)
    return "capabilities" in fields and "protocol_version" in fields


def resolve(caps: object) -> object:
    """The capabilities object inside `caps` (unwrapping initialize params), or None."""
    if is_initialize(caps):
        caps = lookup(caps, "capabilities")
    if caps is None or isinstance(caps, Mapping) or is_model(caps):
        return caps
    raise InvalidCapability("capabilities must be a mapping or an MCP capabilities model", value=caps)


def extension_entry(caps: object, slot: CapabilitySource) -> Any:
    """The raw value under `capabilities.<slot>[EXTENSION_ID]`, or None; the slot itself must be an object."""
    container = lookup(caps, slot)
    if container is None:
        return None
    if not isinstance(container, Mapping):
        raise InvalidCapability(f"capabilities.{slot} must be an object", value=container)
    return container.get(EXTENSION_ID)


def parse_payload(payload: object, source: CapabilitySource) -> UICapability:
    """The `UICapability` of a raw extension payload read from `source`, checked."""
    where = f"capabilities.{source}[{EXTENSION_ID!r}]"
    if not isinstance(payload, Mapping):
        raise InvalidCapability(f"{where} must be an object", value=payload)
    mime_types = payload.get(MIME_TYPES)
    if mime_types is not None and not isinstance(mime_types, list | tuple):
        raise InvalidCapability(f"{where}.{MIME_TYPES} must be a list of strings", value=mime_types)
    extra = {key: value for key, value in payload.items() if key not in (MIME_TYPES, PROTOCOL_VERSION)}
    return UICapability(tuple(mime_types or ()), payload.get(PROTOCOL_VERSION), extra, source)


def check_mime_types(mime_types: object) -> tuple[str, ...]:
    """`mime_types` as a tuple, refusing a non-sequence (or a bare string), a non-string or too many entries."""
    if isinstance(mime_types, str) or not isinstance(mime_types, Sequence):
        raise InvalidCapability(f"{MIME_TYPES} must be a list of strings", value=mime_types)
    if len(mime_types) > _MAX_MIME_TYPES:
        raise InvalidCapability(f"{MIME_TYPES} lists more than {_MAX_MIME_TYPES} entries", value=len(mime_types))
    for item in mime_types:
        if not isinstance(item, str):
            raise InvalidCapability(f"every entry of {MIME_TYPES} must be a string", value=item)
    return tuple(mime_types)


def _check_extra(extra: object) -> Mapping[str, Any]:
    if not isinstance(extra, Mapping):
        raise InvalidCapability("extra must be a mapping", value=extra)
    for key in extra:
        if not isinstance(key, str) or key in (MIME_TYPES, PROTOCOL_VERSION):
            raise InvalidCapability("extra keys must be strings other than mimeTypes/protocolVersion", value=key)
    return MappingProxyType(copy_json(extra, 0))


def copy_json(value: Any, depth: int) -> Any:
    """A copy of nested mappings and lists (tuples become lists), refusing absurd nesting."""
    if depth > _MAX_NESTING:
        raise InvalidCapability(f"nested deeper than {_MAX_NESTING} levels", value=value)
    if isinstance(value, Mapping):
        return {key: copy_json(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [copy_json(item, depth + 1) for item in value]
    return value


def ui_capable(caps: object) -> bool:
    """Whether resolved `caps` lists exactly the MCP App MIME type under `extensions`; False when malformed."""
    if caps is None:
        return False
    try:
        capability = get_ui_capability(caps)
    except InvalidCapability:
        return False
    return capability is not None and capability.supports(RESOURCE_MIME_TYPE)


__all__ = [
    "CapabilitySource",
    "EXPERIMENTAL",
    "EXTENSIONS",
    "MIME_TYPES",
    "PROTOCOL_VERSION",
    "UICapability",
    "check_mime_types",
    "copy_json",
    "extension_entry",
    "get_ui_capability",
    "is_initialize",
    "is_model",
    "lookup",
    "model_fields",
    "parse_payload",
    "resolve",
    "ui_capable",
]
