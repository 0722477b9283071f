"""Strict readers and writers for the JSON shapes inside `_meta.ui`, shared by the typed models.

Every reader names the wire key it checks and raises `InvalidUIMeta` carrying the offending value;
`None` always means "absent". Copies are bounded so hostile nesting fails cleanly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from hostcompat.errors import InvalidUIMeta
from hostcompat.wire_json import WireJSON, WireObject

MAX_META_DEPTH = 64
"""The deepest nesting of JSON values copied out of `_meta`."""

MAX_LIST_ITEMS = 1024
"""The longest list of strings (tools, domains, sources) accepted in `_meta.ui`."""

EMPTY_EXTRA: Mapping[str, Any] = MappingProxyType({})


_PREVIEW_CHARS = 80


def type_name(value: object) -> str:
    """The short type name used in error messages."""
    return type(value).__name__


def preview(value: object) -> str:
    """A short repr of `value` for an error message (the error carries the full value)."""
    text = repr(value)
    return text if len(text) <= _PREVIEW_CHARS else text[: _PREVIEW_CHARS - 1] + "…"


def expect_mapping(value: object, where: str) -> WireJSON:
    """`value` as a mapping with string keys, or `InvalidUIMeta` naming `where`.

    A pydantic model (the SDK's `mcp.server.apps.ResourceCsp`, FastMCP's `AppConfig`, ...) is read as its wire form
    (`model_dump(by_alias=True, exclude_none=True)`), so their objects are accepted as they are.
    """
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, Mapping):
        value = dump(by_alias=True, exclude_none=True, mode="json")
    if not isinstance(value, Mapping):
        raise InvalidUIMeta(f"{where} must be an object, got {type_name(value)}", value=value)
    for key in value:
        if not isinstance(key, str):
            raise InvalidUIMeta(f"{where} has a non-string key {preview(key)}", value=value)
    return value


def no_extra() -> WireJSON:
    """The default `extra` of every typed value: an empty read-only mapping."""
    return EMPTY_EXTRA


def set_field(obj: object, name: str, value: object) -> None:
    """Normalise a field of a frozen dataclass from its `__post_init__`."""
    object.__setattr__(obj, name, value)


def check_instance(value: object, kind: type, where: str) -> None:
    """`value` must be `None` or an instance of `kind`."""
    if value is not None and not isinstance(value, kind):
        raise InvalidUIMeta(f"{where} must be a {kind.__name__} or None, got {type_name(value)}", value=value)


def check_flag(value: object, where: str) -> None:
    """`value` must be a real `bool` (not `None`, not an int)."""
    if not isinstance(value, bool):
        raise InvalidUIMeta(f"{where} must be a boolean, got {type_name(value)}", value=value)


def as_str(value: object, where: str) -> str | None:
    """A string field: `None` stays `None`, `""` becomes `None` (unset), anything else must be a string."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidUIMeta(f"{where} must be a string, got {type_name(value)}", value=value)
    return value or None


def as_bool(value: object, where: str) -> bool | None:
    """A boolean field: `None` stays `None`, anything else must be a real `bool`."""
    if value is None:
        return None
    if not isinstance(value, bool):
        raise InvalidUIMeta(f"{where} must be a boolean, got {type_name(value)}", value=value)
    return value


def as_str_tuple(value: object, where: str) -> tuple[str, ...]:
    """A list of strings as a tuple; a string, a non-list or a non-string item is an error."""
    if not isinstance(value, (list, tuple)):
        raise InvalidUIMeta(f"{where} must be a list of strings, got {type_name(value)}", value=value)
    if len(value) > MAX_LIST_ITEMS:
        raise InvalidUIMeta(f"{where} has {len(value)} items, more than {MAX_LIST_ITEMS}", value=value)
    for item in value:
        if not isinstance(item, str):
            raise InvalidUIMeta(f"{where} must hold only strings, got {type_name(item)}", value=value)
    return tuple(value)


def as_opt_str_tuple(value: object, where: str) -> tuple[str, ...] | None:
    """Like `as_str_tuple`, but `None` (absent) stays `None` so an empty list stays distinct."""
    return None if value is None else as_str_tuple(value, where)


def copy_json(value: Any, where: str, depth: int = 0) -> Any:
    """A deep copy of a JSON-like value (mappings become dicts, lists and tuples become lists), bounded in depth."""
    if depth > MAX_META_DEPTH:
        raise InvalidUIMeta(f"{where} is nested deeper than {MAX_META_DEPTH} levels", value=value)
    if isinstance(value, Mapping):
        return {key: copy_json(item, where, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [copy_json(item, where, depth + 1) for item in value]
    return value


def unknown_keys(raw: WireJSON, known: Iterable[str], where: str) -> WireObject:
    """Deep copies of the entries of `raw` whose keys are not in `known`."""
    known_set = frozenset(known)
    return {key: copy_json(item, f"{where}.{key}") for key, item in raw.items() if key not in known_set}


def freeze_extra(extra: object, known: Iterable[str], where: str) -> WireJSON:
    """Validate and freeze an `extra` mapping: string keys, none of them a modeled key, values copied."""
    if isinstance(extra, MappingProxyType) and not extra:
        return extra
    mapping = expect_mapping(extra, where)
    clashes = sorted(set(mapping) & frozenset(known))
    if clashes:
        raise InvalidUIMeta(f"{where} repeats modeled keys {clashes}; set the typed fields instead", value=extra)
    return MappingProxyType({key: copy_json(item, f"{where}.{key}") for key, item in mapping.items()})


def put_str(out: WireObject, key: str, value: str | None) -> None:
    """Write a string field when it is set."""
    if value is not None:
        out[key] = value


def put_list(out: WireObject, key: str, value: tuple[str, ...]) -> None:
    """Write a list field when it is non-empty."""
    if value:
        out[key] = list(value)


def put_opt_list(out: WireObject, key: str, value: tuple[str, ...] | None) -> None:
    """Write a list field whenever it is not `None`, keeping an explicit empty list as `[]`."""
    if value is not None:
        out[key] = list(value)


def put_bool(out: WireObject, key: str, value: bool | None) -> None:
    """Write a boolean field whenever it is not `None`, keeping an explicit `False`."""
    if value is not None:
        out[key] = value


def with_extra(extra: WireJSON, modeled: WireObject) -> WireObject:
    """The wire object: the modeled keys, then copies of the unknown keys (the two never share a key)."""
    return {**modeled, **{key: copy_json(item, key) for key, item in extra.items()}}
