"""Strict readers for the plain JSON data of snapshot files and events; each names what it checks.

Every reader raises `InvalidInput` carrying the offending value. Copies are depth-bounded so hostile nesting fails
cleanly instead of exhausting the stack.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeVar

from hostcompat.errors import InvalidInput

MAX_JSON_DEPTH: Final = 256
"""The deepest nesting copied out of a snapshot (tool schemas are rarely deeper than 30)."""

_T = TypeVar("_T", bound=str)


def _type_name(value: object) -> str:
    return type(value).__name__


def expect_object(value: object, what: str) -> Mapping[str, Any]:
    """`value` as a mapping with string keys."""
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{what} must be an object, got {_type_name(value)}", value=value)
    for key in value:
        if not isinstance(key, str):
            raise InvalidInput(f"{what} has a non-string key {key!r}", value=value)
    return value


def expect_list(value: object, what: str) -> Sequence[Any]:
    """`value` as a list (or tuple), never a string."""
    if not isinstance(value, list | tuple):
        raise InvalidInput(f"{what} must be a list, got {_type_name(value)}", value=value)
    return value


def expect_str(value: object, what: str) -> str:
    """`value` as a string."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, got {_type_name(value)}", value=value)
    return value


def expect_optional_str(value: object, what: str) -> str | None:
    """`value` as a string, or `None`."""
    return None if value is None else expect_str(value, what)


def expect_bool(value: object, what: str) -> bool:
    """`value` as a real boolean (not an int)."""
    if not isinstance(value, bool):
        raise InvalidInput(f"{what} must be a boolean, got {_type_name(value)}", value=value)
    return value


def expect_int(value: object, what: str, *, minimum: int = 0) -> int:
    """`value` as an int (not a bool) no smaller than `minimum`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} must be an integer, got {_type_name(value)}", value=value)
    if value < minimum:
        raise InvalidInput(f"{what} must be at least {minimum}, got {value}", value=value)
    return value


def expect_optional_int(value: object, what: str) -> int | None:
    """`value` as a non-negative int, or `None`."""
    return None if value is None else expect_int(value, what)


def expect_number(value: object, what: str, *, positive: bool = True) -> float:
    """`value` as a finite number (int or float, not a bool), strictly positive unless told otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{what} must be a number, got {_type_name(value)}", value=value)
    try:
        number = float(value)
    except OverflowError:  # an integer past any float: no finite number of seconds
        number = math.inf
    if not math.isfinite(number) or (positive and number <= 0) or number < 0:
        raise InvalidInput(f"{what} must be a finite {'positive' if positive else 'non-negative'} number", value=value)
    return number


def expect_choice(value: object, choices: tuple[_T, ...], what: str) -> _T:
    """`value` as one of `choices` (a tuple of string literals)."""
    for choice in choices:
        if value == choice:
            return choice
    raise InvalidInput(f"{what} must be one of {list(choices)}, got {value!r}", value=value)


def copy_json(value: object, what: str, depth: int = 0) -> Any:
    """A deep copy of a JSON value (dict with string keys, list, str, finite number, bool, None).

    Tuples become lists and mappings become dicts.

    Raises:
        InvalidInput: a non-JSON value, a non-string key, a non-finite float, or nesting deeper than `MAX_JSON_DEPTH`.
    """
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInput(f"{what} holds a non-finite number", value=value)
        return value
    if depth >= MAX_JSON_DEPTH:
        raise InvalidInput(f"{what} is nested deeper than {MAX_JSON_DEPTH} levels", value=value)
    if isinstance(value, Mapping):
        copied: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidInput(f"{what} has a non-string key {key!r}", value=value)
            copied[key] = copy_json(item, what, depth + 1)
        return copied
    if isinstance(value, list | tuple):
        return [copy_json(item, what, depth + 1) for item in value]
    raise InvalidInput(f"{what} holds a {_type_name(value)}, which is not JSON", value=value)


def check_json(value: object, what: str) -> Any:
    """`value` itself, once checked to be a JSON value as `copy_json` would copy it (nothing is copied).

    For a tree nobody else holds (one just parsed from a file), this is `copy_json` without a second tree in memory.

    Raises:
        InvalidInput: as `copy_json`.
    """
    if not isinstance(value, Mapping | list | tuple):
        return copy_json(value, what)
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth >= MAX_JSON_DEPTH:
            raise InvalidInput(f"{what} is nested deeper than {MAX_JSON_DEPTH} levels", value=item)
        if isinstance(item, Mapping):
            for key in item:
                if type(key) is not str and not isinstance(key, str):
                    raise InvalidInput(f"{what} has a non-string key {key!r}", value=item)
            children = item.values()
        else:
            children = item
        for child in children:
            kind = type(child)
            if kind is str or kind is int or kind is bool or child is None:
                continue
            if kind is dict or kind is list or isinstance(child, Mapping | list | tuple):
                stack.append((child, depth + 1))
            else:
                copy_json(child, what)  # a float (finite?), a str or int subclass, or not JSON at all
    return value


def copy_object(value: object, what: str) -> dict[str, Any]:
    """A deep copy of a JSON object (see `copy_json`); anything but an object is an error."""
    copied: dict[str, Any] = copy_json(expect_object(value, what), what)
    return copied


__all__ = [
    "MAX_JSON_DEPTH",
    "check_json",
    "copy_json",
    "copy_object",
    "expect_bool",
    "expect_choice",
    "expect_int",
    "expect_list",
    "expect_number",
    "expect_object",
    "expect_optional_int",
    "expect_optional_str",
    "expect_str",
]
