"""Duck-typed, copy-on-write access to the `_meta` of a tool, resource or content item.

A holder is a plain mapping or a pydantic model whose `_meta` field is aliased `_meta` (as in the SDK's types).
The SDK is never imported here: models are recognised by their `model_fields` and `model_copy`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Protocol, TypeAlias, TypeVar

from hostcompat.apps.meta.codec import copy_json, expect_mapping, type_name
from hostcompat.errors import InvalidUIMeta
from hostcompat.wire_json import WireJSON, WireObject

META_KEY: Final = "_meta"
"""The wire key of the metadata object on tools, resources, contents and content blocks."""

_ModelT = TypeVar("_ModelT", bound="SupportsModelCopy")


class SupportsModelCopy(Protocol):
    """A pydantic-style model: `model_copy(update=...)` returns a changed shallow copy."""

    def model_copy(self: _ModelT, *, update: WireJSON | None = None, deep: bool = False) -> _ModelT:
        """A copy of the model with the fields in `update` replaced."""
        ...  # pragma: no cover - protocol


MetaHolder: TypeAlias = WireJSON | SupportsModelCopy
"""A tool, resource listing entry, resource contents item or content block: a mapping or a pydantic model."""


def _model_fields(holder: object) -> Mapping[str, Any] | None:
    fields = getattr(type(holder), "model_fields", None)
    if isinstance(fields, Mapping) and callable(getattr(holder, "model_copy", None)):
        return fields
    return None


def _not_a_holder(holder: object, what: str) -> InvalidUIMeta:
    return InvalidUIMeta(f"{what} must be a mapping or a pydantic model, got {type_name(holder)}", value=holder)


def _meta_field(holder: object, fields: Mapping[str, Any], what: str) -> str:
    for name, info in fields.items():
        if name == META_KEY or getattr(info, "alias", None) == META_KEY:
            return name
    raise InvalidUIMeta(f"{what} model {type_name(holder)} has no field aliased {META_KEY!r}", value=holder)


def _as_plain(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return dump(by_alias=True, exclude_none=True) if callable(dump) else value


def read_meta(holder: object, what: str) -> WireJSON | None:
    """The holder's `_meta` mapping, or `None` when it is absent or null."""
    if isinstance(holder, Mapping):
        raw = _as_plain(holder.get(META_KEY))
    else:
        fields = _model_fields(holder)
        if fields is None:
            raise _not_a_holder(holder, what)
        raw = _as_plain(getattr(holder, _meta_field(holder, fields, what)))
    if raw is None:
        return None
    return expect_mapping(raw, f"{what} {META_KEY}")


def copied_meta(holder: object, what: str) -> WireObject:
    """A deep, independent copy of the holder's `_meta` (`{}` when absent), safe to change."""
    meta = read_meta(holder, what)
    return {} if meta is None else dict(copy_json(meta, META_KEY))


def replace_meta(holder: Any, meta: WireObject | None, what: str) -> Any:
    """A new holder of the same kind with `_meta` replaced (`None` removes it); the input is not changed.

    Mappings come back as plain dicts (a shallow copy with the new `_meta`); models through `model_copy`.
    """
    if isinstance(holder, Mapping):
        copy = dict(holder)
        if meta is None:
            copy.pop(META_KEY, None)
        else:
            copy[META_KEY] = meta
        return copy
    fields = _model_fields(holder)
    if fields is None:
        raise _not_a_holder(holder, what)
    return holder.model_copy(update={_meta_field(holder, fields, what): meta})


def read_child(holder: object, key: str, what: str) -> Any:
    """The holder's `key` entry (mapping) or attribute (model), `None` when absent."""
    if isinstance(holder, Mapping):
        return holder.get(key)
    if _model_fields(holder) is None:
        raise _not_a_holder(holder, what)
    return getattr(holder, key, None)


def replace_child(holder: Any, key: str, value: Any, what: str) -> Any:
    """A new holder of the same kind with `key` set to `value`; the input is not changed."""
    if isinstance(holder, Mapping):
        return {**holder, key: value}
    if _model_fields(holder) is None:
        raise _not_a_holder(holder, what)
    return holder.model_copy(update={key: value})


__all__ = [
    "META_KEY",
    "MetaHolder",
    "SupportsModelCopy",
    "copied_meta",
    "read_child",
    "read_meta",
    "replace_child",
    "replace_meta",
]
