"""The MCP Apps UI capability: read, write and check `capabilities.extensions["io.modelcontextprotocol/ui"]`.

A server offers UI tools only to a peer that declares this capability. The functions work on plain dicts
and on `mcp` SDK capability models (the 2.x `extensions` field or a 1.x pydantic extra) without importing
the SDK, and never mutate what they are given.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Protocol, TypeVar, cast, overload

from hostcompat.apps.constants import (
    EXTENSION_ID,
    LEGACY_RESOURCE_MIME_TYPE,
    OPENAI_WIDGET_MIME_TYPE,
    RESOURCE_MIME_TYPE,
)
from hostcompat.errors import InvalidCapability

CapabilitySource = Literal["extensions", "experimental"]
"""Where a capability was read: the standard `extensions` map, or the non-standard `experimental` one."""

DiagnosisCode = Literal[
    "CAP-ABSENT",
    "CAP-MALFORMED",
    "CAP-EXPERIMENTAL-ONLY",
    "CAP-KEY-TYPO",
    "CAP-MISPLACED",
    "CAP-MIME-MISSING",
    "CAP-MIME-EMPTY",
    "CAP-MIME-CASE",
    "CAP-MIME-SPACES",
    "CAP-MIME-NO-PROFILE",
    "CAP-MIME-NOT-EXACT",
    "CAP-MIME-LEGACY",
    "CAP-MIME-SKYBRIDGE",
    "CAP-MIME-NOT-FOUND",
]
"""The stable codes of `CapabilityDiagnosis`."""

_EXTENSIONS: Literal["extensions"] = "extensions"
_EXPERIMENTAL: Literal["experimental"] = "experimental"
_MIME_TYPES = "mimeTypes"
_PROTOCOL_VERSION = "protocolVersion"
_MAX_MIME_TYPES = 256
_MAX_MIME_CHARS = 1024
_MAX_NESTING = 32
_MAX_KEYS_SCANNED = 64
_MAX_KEY_CHARS = 128
_TYPO_SIMILARITY = 0.9
_UI_ALIASES = frozenset({"ui", "app", "apps", "mcp-ui", "mcp-app", "mcp-apps", "mcpui"})


@dataclass(frozen=True)
class UICapability:
    """The UI extension payload: `{"mimeTypes": [...], "protocolVersion"?: ..., <future keys>}`.

    `extra` keeps keys this package does not model (the spec names `features` and `sandboxPolicies`
    as future ones), read-only. `source` says where it was read; `experimental` is non-standard.
    """

    mime_types: tuple[str, ...] = (RESOURCE_MIME_TYPE,)
    protocol_version: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)
    source: CapabilitySource = _EXTENSIONS

    def __post_init__(self) -> None:
        object.__setattr__(self, "mime_types", _check_mime_types(self.mime_types))
        if self.protocol_version is not None and not isinstance(self.protocol_version, str):
            raise InvalidCapability(f"{_PROTOCOL_VERSION} must be a string", value=self.protocol_version)
        if self.source not in (_EXTENSIONS, _EXPERIMENTAL):
            raise InvalidCapability("source must be 'extensions' or 'experimental'", value=self.source)
        object.__setattr__(self, "extra", _check_extra(self.extra))

    @property
    def non_standard(self) -> bool:
        """True when read from `experimental`, which no spec revision uses."""
        return self.source == _EXPERIMENTAL

    def supports(self, mime_type: str = RESOURCE_MIME_TYPE) -> bool:
        """Whether `mime_type` is listed, compared byte for byte."""
        return mime_type in self.mime_types

    def to_payload(self) -> dict[str, Any]:
        """The JSON payload to put under the extension id (a new dict)."""
        payload: dict[str, Any] = {_MIME_TYPES: list(self.mime_types)}
        if self.protocol_version is not None:
            payload[_PROTOCOL_VERSION] = self.protocol_version
        payload.update(_copy_json(self.extra, 0))
        return payload


@dataclass(frozen=True)
class CapabilityDiagnosis:
    """Why a peer is not UI-capable: a stable `code`, a sentence, and the value that caused it."""

    code: DiagnosisCode
    message: str
    value: Any = field(default=None, hash=False)


class _CapabilitiesModel(Protocol):
    def model_copy(self, *, update: Mapping[str, Any] | None = ..., deep: bool = ...) -> Any: ...


_ModelT = TypeVar("_ModelT", bound=_CapabilitiesModel)


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
    resolved = _resolve(caps)
    if resolved is None:
        return None
    payload = _extension_entry(resolved, _EXTENSIONS)
    if payload is not None:
        return _parse_payload(payload, _EXTENSIONS)
    if allow_experimental:
        payload = _extension_entry(resolved, _EXPERIMENTAL)
        if payload is not None:
            return _parse_payload(payload, _EXPERIMENTAL)
    return None


@overload
def set_client_capability(
    caps: Mapping[str, Any] | None,
    *,
    mime_types: Sequence[str] = ...,
    protocol_version: str | None = ...,
    extra: Mapping[str, Any] | None = ...,
) -> dict[str, Any]: ...
@overload
def set_client_capability(
    caps: _ModelT,
    *,
    mime_types: Sequence[str] = ...,
    protocol_version: str | None = ...,
    extra: Mapping[str, Any] | None = ...,
) -> _ModelT: ...
def set_client_capability(
    caps: object,
    *,
    mime_types: Sequence[str] = (RESOURCE_MIME_TYPE,),
    protocol_version: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> object:
    """A copy of client `caps` declaring the UI capability; see `set_server_capability`."""
    return _with_payload(caps, UICapability(_check_mime_types(mime_types), protocol_version, extra or {}))


@overload
def set_server_capability(
    caps: Mapping[str, Any] | None,
    *,
    mime_types: Sequence[str] = ...,
    protocol_version: str | None = ...,
    extra: Mapping[str, Any] | None = ...,
) -> dict[str, Any]: ...
@overload
def set_server_capability(
    caps: _ModelT,
    *,
    mime_types: Sequence[str] = ...,
    protocol_version: str | None = ...,
    extra: Mapping[str, Any] | None = ...,
) -> _ModelT: ...
def set_server_capability(
    caps: object,
    *,
    mime_types: Sequence[str] = (RESOURCE_MIME_TYPE,),
    protocol_version: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> object:
    """A copy of server `caps` whose `extensions[EXTENSION_ID]` is the given payload.

    The payload is replaced wholesale (old keys such as `legacy` go); other extensions are kept;
    `protocolVersion` is written only when given; `experimental` is left alone. A dict (or None) gives a
    new deep-copied dict, an SDK model a `model_copy`. Raises `InvalidCapability` for initialize params,
    a model that cannot carry `extensions` (no field and extras ignored), or a malformed `extensions`.
    """
    return _with_payload(caps, UICapability(_check_mime_types(mime_types), protocol_version, extra or {}))


def client_ui_capable(caps: object) -> bool:
    """True only if `extensions[EXTENSION_ID].mimeTypes` holds exactly `text/html;profile=mcp-app`.

    No case folding, trimming or parameter parsing, and `experimental` is never read. A payload of the
    wrong shape is simply not capable (`diagnose_ui_capability` says why); `InvalidCapability` is raised
    only when `caps` is not a capabilities object at all.
    """
    return _ui_capable(_resolve(caps))


def server_ui_capable(caps: object) -> bool:
    """The server-side twin of `client_ui_capable` (the payload sits in the same place)."""
    return _ui_capable(_resolve(caps))


def diagnose_ui_capability(caps: object) -> list[CapabilityDiagnosis]:
    """Why `caps` is not UI-capable, as near misses with stable codes; empty exactly when it is capable.

    Never raises: a value of the wrong shape becomes a `CAP-MALFORMED` diagnosis.
    """
    try:
        resolved = _resolve(caps)
    except InvalidCapability as error:
        return [_malformed(error)]
    if resolved is None:
        return [CapabilityDiagnosis("CAP-ABSENT", "no capabilities were given", None)]
    if _ui_capable(resolved):
        return []
    notes = _diagnose_slot(resolved, _EXTENSIONS)
    if not notes:
        notes = [
            *_diagnose_slot(resolved, _EXPERIMENTAL),
            *_diagnose_key_typos(resolved),
            *_diagnose_misplaced(resolved),
        ]
    return notes or [CapabilityDiagnosis("CAP-ABSENT", f"capabilities.extensions has no {EXTENSION_ID!r}", None)]


# --- reading -------------------------------------------------------------------------------------------


def _is_model(value: object) -> bool:
    return isinstance(getattr(type(value), "model_fields", None), Mapping) and callable(
        getattr(value, "model_copy", None)
    )


def _model_fields(value: object) -> Mapping[str, Any]:
    fields = getattr(type(value), "model_fields", None)
    return fields if isinstance(fields, Mapping) else {}


def _lookup(container: object, key: str) -> Any:
    """`key` of a mapping, or of an SDK model as a field or a pydantic extra; None when absent."""
    if isinstance(container, Mapping):
        return container.get(key)
    if key in _model_fields(container):
        return getattr(container, key, None)
    extra = getattr(container, "model_extra", None)
    return extra.get(key) if isinstance(extra, Mapping) else None


def _is_initialize(value: object) -> bool:
    if isinstance(value, Mapping):
        return "capabilities" in value and _PROTOCOL_VERSION in value
    fields = _model_fields(value)
    return "capabilities" in fields and "protocol_version" in fields


def _resolve(caps: object) -> object:
    """The capabilities object inside `caps` (unwrapping initialize params), or None."""
    if _is_initialize(caps):
        caps = _lookup(caps, "capabilities")
    if caps is None or isinstance(caps, Mapping) or _is_model(caps):
        return caps
    raise InvalidCapability("capabilities must be a mapping or an MCP capabilities model", value=caps)


def _extension_entry(caps: object, slot: CapabilitySource) -> Any:
    container = _lookup(caps, slot)
    if container is None:
        return None
    if not isinstance(container, Mapping):
        raise InvalidCapability(f"capabilities.{slot} must be an object", value=container)
    return container.get(EXTENSION_ID)


def _parse_payload(payload: object, source: CapabilitySource) -> UICapability:
    where = f"capabilities.{source}[{EXTENSION_ID!r}]"
    if not isinstance(payload, Mapping):
        raise InvalidCapability(f"{where} must be an object", value=payload)
    mime_types = payload.get(_MIME_TYPES)
    if mime_types is not None and not isinstance(mime_types, list | tuple):
        raise InvalidCapability(f"{where}.{_MIME_TYPES} must be a list of strings", value=mime_types)
    extra = {key: value for key, value in payload.items() if key not in (_MIME_TYPES, _PROTOCOL_VERSION)}
    return UICapability(tuple(mime_types or ()), payload.get(_PROTOCOL_VERSION), extra, source)


def _check_mime_types(mime_types: object) -> tuple[str, ...]:
    if isinstance(mime_types, str) or not isinstance(mime_types, Sequence):
        raise InvalidCapability(f"{_MIME_TYPES} must be a list of strings", value=mime_types)
    if len(mime_types) > _MAX_MIME_TYPES:
        raise InvalidCapability(f"{_MIME_TYPES} lists more than {_MAX_MIME_TYPES} entries", value=len(mime_types))
    for item in mime_types:
        if not isinstance(item, str):
            raise InvalidCapability(f"every entry of {_MIME_TYPES} must be a string", value=item)
    return tuple(mime_types)


def _check_extra(extra: object) -> Mapping[str, Any]:
    if not isinstance(extra, Mapping):
        raise InvalidCapability("extra must be a mapping", value=extra)
    for key in extra:
        if not isinstance(key, str) or key in (_MIME_TYPES, _PROTOCOL_VERSION):
            raise InvalidCapability("extra keys must be strings other than mimeTypes/protocolVersion", value=key)
    return MappingProxyType(_copy_json(extra, 0))


def _copy_json(value: Any, depth: int) -> Any:
    """A copy of nested mappings and lists (tuples become lists), refusing absurd nesting."""
    if depth > _MAX_NESTING:
        raise InvalidCapability(f"nested deeper than {_MAX_NESTING} levels", value=value)
    if isinstance(value, Mapping):
        return {key: _copy_json(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_copy_json(item, depth + 1) for item in value]
    return value


def _ui_capable(caps: object) -> bool:
    if caps is None:
        return False
    try:
        capability = get_ui_capability(caps)
    except InvalidCapability:
        return False
    return capability is not None and capability.supports(RESOURCE_MIME_TYPE)


# --- writing -------------------------------------------------------------------------------------------


def _with_payload(caps: object, capability: UICapability) -> object:
    if _is_initialize(caps):
        raise InvalidCapability("pass the `capabilities` of initialize params, not the params", value=caps)
    payload = capability.to_payload()
    if caps is None:
        return {_EXTENSIONS: {EXTENSION_ID: payload}}
    if isinstance(caps, Mapping):
        copied: dict[str, Any] = _copy_json(caps, 0)
        copied[_EXTENSIONS] = _replaced(caps.get(_EXTENSIONS), payload)
        return copied
    if not _is_model(caps):
        raise InvalidCapability("capabilities must be a mapping or an MCP capabilities model", value=caps)
    if _EXTENSIONS not in _model_fields(caps) and getattr(caps, "model_config", {}).get("extra") != "allow":
        raise InvalidCapability("this capabilities model has no `extensions` field and drops extra keys", value=caps)
    updated: dict[str, Any] = {_EXTENSIONS: _replaced(_lookup(caps, _EXTENSIONS), payload)}
    return cast(_CapabilitiesModel, caps).model_copy(update=updated, deep=True)


def _replaced(extensions: object, payload: dict[str, Any]) -> dict[str, Any]:
    if extensions is None:
        return {EXTENSION_ID: payload}
    if not isinstance(extensions, Mapping):
        raise InvalidCapability(f"capabilities.{_EXTENSIONS} must be an object", value=extensions)
    kept: dict[str, Any] = {key: _copy_json(value, 1) for key, value in extensions.items() if key != EXTENSION_ID}
    return {**kept, EXTENSION_ID: payload}


# --- diagnosing ----------------------------------------------------------------------------------------


def _malformed(error: InvalidCapability) -> CapabilityDiagnosis:
    return CapabilityDiagnosis("CAP-MALFORMED", error.message, error.value)


def _diagnose_slot(caps: object, slot: CapabilitySource) -> list[CapabilityDiagnosis]:
    try:
        payload = _extension_entry(caps, slot)
    except InvalidCapability as error:
        return [_malformed(error)]
    if payload is None:
        return []
    notes: list[CapabilityDiagnosis] = []
    if slot == _EXPERIMENTAL:
        message = "the extension is declared under capabilities.experimental, not capabilities.extensions"
        notes.append(CapabilityDiagnosis("CAP-EXPERIMENTAL-ONLY", message, EXTENSION_ID))
    try:
        capability = _parse_payload(payload, slot)
    except InvalidCapability as error:
        return [*notes, _malformed(error)]
    if capability.supports(RESOURCE_MIME_TYPE):
        return notes
    return [*notes, *_diagnose_mime_types(payload, capability)]


def _diagnose_mime_types(payload: Mapping[str, Any], capability: UICapability) -> list[CapabilityDiagnosis]:
    if payload.get(_MIME_TYPES) is None:
        return [CapabilityDiagnosis("CAP-MIME-MISSING", f"the payload has no {_MIME_TYPES} (it is required)", None)]
    if not capability.mime_types:
        return [CapabilityDiagnosis("CAP-MIME-EMPTY", f"{_MIME_TYPES} is empty", [])]
    notes = [note for mime in capability.mime_types[:_MAX_KEYS_SCANNED] for note in _diagnose_mime(mime)]
    missing = f"{_MIME_TYPES} does not list {RESOURCE_MIME_TYPE!r}"
    return notes or [CapabilityDiagnosis("CAP-MIME-NOT-FOUND", missing, list(capability.mime_types))]


def _diagnose_mime(mime: str) -> list[CapabilityDiagnosis]:
    if len(mime) > _MAX_MIME_CHARS:
        return []
    compact = "".join(mime.split())
    folded = compact.lower()
    if folded == LEGACY_RESOURCE_MIME_TYPE:
        return [CapabilityDiagnosis("CAP-MIME-LEGACY", "the obsolete early-draft MIME type", mime)]
    if folded == OPENAI_WIDGET_MIME_TYPE:
        return [CapabilityDiagnosis("CAP-MIME-SKYBRIDGE", "the OpenAI Apps SDK MIME type, not MCP Apps", mime)]
    notes: list[CapabilityDiagnosis] = []
    if folded == RESOURCE_MIME_TYPE.lower():
        if compact != mime:
            notes.append(CapabilityDiagnosis("CAP-MIME-SPACES", "the MIME type must have no whitespace", mime))
        if compact != RESOURCE_MIME_TYPE:
            notes.append(CapabilityDiagnosis("CAP-MIME-CASE", "the MIME type is compared case-sensitively", mime))
        return notes
    base, _, params = folded.partition(";")
    if base != "text/html":
        return notes
    profiles = [
        value.strip('"') for name, _, value in (p.partition("=") for p in params.split(";")) if name == "profile"
    ]
    if not profiles:
        notes.append(CapabilityDiagnosis("CAP-MIME-NO-PROFILE", "text/html without profile=mcp-app", mime))
    elif "mcp-app" in profiles:
        exact = f"only the exact string {RESOURCE_MIME_TYPE!r} counts"
        notes.append(CapabilityDiagnosis("CAP-MIME-NOT-EXACT", exact, mime))
    return notes


def _diagnose_key_typos(caps: object) -> list[CapabilityDiagnosis]:
    notes: list[CapabilityDiagnosis] = []
    for slot in (_EXTENSIONS, _EXPERIMENTAL):
        container = _lookup(caps, slot)
        if not isinstance(container, Mapping):
            continue
        for key in itertools.islice(container, _MAX_KEYS_SCANNED):
            if isinstance(key, str) and _looks_like_extension_id(key):
                message = f"capabilities.{slot} key {key!r} looks like a misspelling of {EXTENSION_ID!r}"
                notes.append(CapabilityDiagnosis("CAP-KEY-TYPO", message, key))
    return notes


def _diagnose_misplaced(caps: object) -> list[CapabilityDiagnosis]:
    if _lookup(caps, EXTENSION_ID) is None:
        return []
    message = f"{EXTENSION_ID!r} sits directly in capabilities; it belongs in capabilities.extensions"
    return [CapabilityDiagnosis("CAP-MISPLACED", message, EXTENSION_ID)]


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text)


def _looks_like_extension_id(key: str) -> bool:
    if key == EXTENSION_ID or len(key) > _MAX_KEY_CHARS:
        return False
    folded = "".join(key.split()).lower()
    if _squash(folded) == _squash(EXTENSION_ID):
        return True
    head, _, tail = folded.rpartition("/")
    if tail in _UI_ALIASES and (not head or "modelcontextprotocol" in head):
        return True
    return difflib.SequenceMatcher(None, folded, EXTENSION_ID).ratio() >= _TYPO_SIMILARITY


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
