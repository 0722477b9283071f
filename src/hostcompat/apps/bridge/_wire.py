"""Strict JSON decoding and field readers shared by the bridge's typed messages.

Every failure is an `InvalidBridgeMessage` that names the field (`params.appInfo.name`) and carries the
offending value. Values are copied on the way in and on the way out, so a typed message never shares a
mutable object with its caller.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any, Final, NoReturn, Protocol, TypeVar

from hostcompat.apps.bridge.codes import BRIDGE_BAD_FIELD, BRIDGE_NOT_JSON, BRIDGE_TOO_LARGE
from hostcompat.errors import InvalidBridgeMessage

DEFAULT_MAX_BYTES: Final = 4 * 1024 * 1024
"""The default limit on an encoded message: 4 MiB of UTF-8."""

MAX_JSON_DEPTH: Final = 64
"""The deepest nesting of arrays and objects accepted anywhere in a message."""

_T = TypeVar("_T")

_JSON_TYPE_NAMES: Final = {
    type(None): "null",
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
}


def type_name(value: object) -> str:
    """The JSON name of `value`'s type (`object`, `array`, …), or its Python type name."""
    return _JSON_TYPE_NAMES.get(type(value), type(value).__name__)


def decode_json(data: object, *, max_bytes: int, what: str) -> object:
    """Decode `data` (str, bytes or an already-decoded mapping) as strict JSON.

    Text and bytes are size-checked before decoding; bytes must be UTF-8. `NaN`, `Infinity` and duplicate
    object keys are rejected. A mapping is returned as given: it is already decoded, and the readers copy
    and depth-check whatever they keep.
    """
    if isinstance(data, Mapping):
        return data
    if isinstance(data, (bytes, bytearray)):
        _check_size(len(data), max_bytes, what)
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            problem = f"{what}: not UTF-8 ({exc.reason})"
            raise InvalidBridgeMessage(problem, value=data, rule_id=BRIDGE_NOT_JSON) from exc
    elif isinstance(data, str):
        # A string over the limit in characters is over it in bytes too; only shorter ones are encoded.
        _check_size(len(data), max_bytes, what)
        _check_size(len(data.encode("utf-8", "surrogatepass")), max_bytes, what)
        text = data
    else:
        raise InvalidBridgeMessage(
            f"{what}: expected JSON text, bytes or a mapping, got {type_name(data)}",
            value=data,
            rule_id=BRIDGE_NOT_JSON,
        )
    try:
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except InvalidBridgeMessage:
        raise
    except (ValueError, RecursionError) as exc:
        raise InvalidBridgeMessage(f"{what}: not valid JSON ({exc})", value=data, rule_id=BRIDGE_NOT_JSON) from exc


def _check_size(size: int, max_bytes: int, what: str) -> None:
    if size > max_bytes:
        raise InvalidBridgeMessage(
            f"{what}: {size} bytes is over the {max_bytes}-byte limit", value=size, rule_id=BRIDGE_TOO_LARGE
        )


def _reject_constant(name: str) -> NoReturn:
    raise InvalidBridgeMessage(f"{name} is not a JSON value", value=name, rule_id=BRIDGE_NOT_JSON)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise InvalidBridgeMessage(f"duplicate object key {key!r}", value=key, rule_id=BRIDGE_NOT_JSON)
        result[key] = value
    return result


def json_copy(value: object, where: str, depth: int = 0) -> Any:
    """A deep copy of a JSON value (mappings become dicts, lists and tuples lists), checked on the way.

    Rejects non-string keys, non-JSON values (sets, bytes, objects), non-finite numbers and nesting deeper
    than `MAX_JSON_DEPTH`; errors name `where`, the field the value sits in.
    """
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidBridgeMessage(f"{where}: {value} is not a JSON number", value=value, rule_id=BRIDGE_NOT_JSON)
        return value
    if depth >= MAX_JSON_DEPTH:
        raise InvalidBridgeMessage(
            f"{where}: nested deeper than {MAX_JSON_DEPTH} levels", value=value, rule_id=BRIDGE_NOT_JSON
        )
    if isinstance(value, Mapping):
        copied: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidBridgeMessage(f"{where}: non-string key {key!r}", value=value, rule_id=BRIDGE_NOT_JSON)
            copied[key] = json_copy(item, where, depth + 1)
        return copied
    if isinstance(value, (list, tuple)):
        return [json_copy(item, where, depth + 1) for item in value]
    raise InvalidBridgeMessage(f"{where}: {type_name(value)} is not a JSON value", value=value, rule_id=BRIDGE_NOT_JSON)


def bad_field(where: str, problem: str, value: object, rule_id: str = BRIDGE_BAD_FIELD) -> InvalidBridgeMessage:
    """The error for a field that is missing, of the wrong type, or empty."""
    return InvalidBridgeMessage(f"{where}: {problem}", value=value, rule_id=rule_id)


def expect_object(value: object, where: str) -> Mapping[str, Any]:
    """`value` as a mapping with string keys, or `BRIDGE-BAD-FIELD` naming `where`."""
    if not isinstance(value, Mapping):
        raise bad_field(where, f"expected an object, got {type_name(value)}", value)
    for key in value:
        if not isinstance(key, str):
            raise bad_field(where, f"non-string key {key!r}", value)
    return value


class _Absent:
    """The marker for a key the object does not have."""


_ABSENT: Final = _Absent()


class FieldReader:
    """Reads the fields of one wire object, naming each in its errors; `rest()` returns the fields not read.

    An absent key reads as `None`; a present key must have the right type (`null` is not a string).
    """

    def __init__(self, data: object, where: str) -> None:
        self._data = expect_object(data, where)
        self._where = where
        self._read: set[str] = set()

    def _at(self, key: str) -> str:
        return f"{self._where}.{key}"

    def _get(self, key: str) -> object:
        self._read.add(key)
        return self._data.get(key, _ABSENT)

    def _required(self, key: str) -> object:
        value = self._get(key)
        if value is _ABSENT:
            raise bad_field(self._at(key), "missing", dict(self._data))
        return value

    def has(self, key: str) -> bool:
        """True when the object has `key`."""
        return key in self._data

    def text(self, key: str, *, non_empty: bool = False) -> str:
        """A required string field (`non_empty` also rejects `""`)."""
        value = self._text(key, self._required(key))
        if non_empty and value == "":
            raise bad_field(self._at(key), "must not be empty", value)
        return value

    def opt_text(self, key: str) -> str | None:
        """An optional string field."""
        value = self._get(key)
        return None if value is _ABSENT else self._text(key, value)

    def _text(self, key: str, value: object) -> str:
        if not isinstance(value, str):
            raise bad_field(self._at(key), f"expected a string, got {type_name(value)}", value)
        return value

    def opt_bool(self, key: str) -> bool | None:
        """An optional boolean field."""
        value = self._get(key)
        if value is _ABSENT:
            return None
        if not isinstance(value, bool):
            raise bad_field(self._at(key), f"expected a boolean, got {type_name(value)}", value)
        return value

    def opt_size(self, key: str, *, integer: bool = False) -> float | None:
        """An optional finite number >= 0 (an int stays an int); `integer` also rejects non-integers."""
        value = self._get(key)
        if value is _ABSENT:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            if value < 0:
                raise bad_field(self._at(key), "must be >= 0", value)
            return value
        if integer or not isinstance(value, float):
            expected = "an integer" if integer else "a number"
            raise bad_field(self._at(key), f"expected {expected}, got {type_name(value)}", value)
        if not math.isfinite(value) or value < 0:
            raise bad_field(self._at(key), "must be a finite number >= 0", value)
        return value

    def opt_object(self, key: str) -> dict[str, Any] | None:
        """An optional object field, copied."""
        value = self._get(key)
        return None if value is _ABSENT else self._object(key, value)

    def _object(self, key: str, value: object) -> dict[str, Any]:
        where = self._at(key)
        return dict(json_copy(expect_object(value, where), where))

    def opt_text_list(self, key: str) -> tuple[str, ...] | None:
        """An optional array of strings; `[]` stays distinct from absent."""
        value = self._get(key)
        if value is _ABSENT:
            return None
        if not isinstance(value, (list, tuple)):
            raise bad_field(self._at(key), f"expected an array of strings, got {type_name(value)}", value)
        for index, item in enumerate(value):
            if not isinstance(item, str):
                raise bad_field(f"{self._at(key)}[{index}]", f"expected a string, got {type_name(item)}", item)
        return tuple(value)

    def object_list(self, key: str, *, single_ok: bool = False) -> tuple[dict[str, Any], ...]:
        """A required array of objects, each copied; with `single_ok` one bare object reads as a list of one."""
        return self._object_list(key, self._required(key), single_ok=single_ok)

    def opt_object_list(self, key: str) -> tuple[dict[str, Any], ...] | None:
        """An optional array of objects, each copied."""
        value = self._get(key)
        return None if value is _ABSENT else self._object_list(key, value, single_ok=False)

    def _object_list(self, key: str, value: object, *, single_ok: bool) -> tuple[dict[str, Any], ...]:
        where = self._at(key)
        if single_ok and isinstance(value, Mapping):
            value = [value]
        if not isinstance(value, (list, tuple)):
            raise bad_field(where, f"expected an array of objects, got {type_name(value)}", value)
        items = [expect_object(item, f"{where}[{index}]") for index, item in enumerate(value)]
        return tuple(dict(json_copy(item, f"{where}[{index}]")) for index, item in enumerate(items))

    def opt_json(self, key: str) -> Any:
        """Any JSON value, copied; `None` when absent (use `has` to tell absent from `null`)."""
        value = self._get(key)
        return None if value is _ABSENT else json_copy(value, self._at(key))

    def child(self, key: str, parse: Callable[[object, str], _T]) -> _T:
        """A required nested object, read by `parse(value, where)`."""
        return parse(self._required(key), self._at(key))

    def opt_child(self, key: str, parse: Callable[[object, str], _T]) -> _T | None:
        """An optional nested object, read by `parse(value, where)`."""
        value = self._get(key)
        return None if value is _ABSENT else parse(value, self._at(key))

    def rest(self) -> dict[str, Any]:
        """Copies of the fields not read: the unknown keys an open object keeps."""
        return {key: json_copy(value, self._at(key)) for key, value in self._data.items() if key not in self._read}


def wire_object(modeled: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """The wire object: copies of the unknown keys, then the modeled fields that are set (they win a clash)."""
    out: dict[str, Any] = {key: json_copy(value, key) for key, value in extra.items()}
    out.update((key, value) for key, value in modeled.items() if value is not None)
    return out


def text_list(values: tuple[str, ...] | None) -> list[str] | None:
    """A tuple of strings as a JSON array, `None` kept."""
    return None if values is None else list(values)


def object_list(values: tuple[Mapping[str, Any], ...] | None) -> list[Any] | None:
    """A tuple of objects as a JSON array of copies, `None` kept."""
    return None if values is None else [json_copy(value, "item") for value in values]


class WireModel(Protocol):
    """A typed message part that writes itself as a JSON object."""

    def to_wire(self) -> dict[str, Any]:
        """The JSON object."""
        ...


def model_wire(model: WireModel | None) -> dict[str, Any] | None:
    """`model.to_wire()`, `None` kept."""
    return None if model is None else model.to_wire()


def no_extra() -> Mapping[str, Any]:
    """The default `extra` of a model: no unknown keys."""
    return {}


def copied(value: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A copy of an optional object."""
    return None if value is None else dict(json_copy(value, "object"))


__all__ = [
    "DEFAULT_MAX_BYTES",
    "FieldReader",
    "MAX_JSON_DEPTH",
    "WireModel",
    "bad_field",
    "copied",
    "decode_json",
    "json_copy",
    "model_wire",
    "no_extra",
    "object_list",
    "text_list",
    "type_name",
]
