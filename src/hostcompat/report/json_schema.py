"""The JSON Schema of the report document (draft 2020-12), built from its TypedDicts (`hostcompat.report.model`).

`src/hostcompat/data/report.schema.json` is generated from it by `scripts/gen_schemas.py`, never edited: one `$defs`
entry per TypedDict, its docstring as the description; a required key is required, a `total=False` key optional,
and a part holds only its declared keys unless `EXTRA_KEYS` says otherwise.
"""

from __future__ import annotations

import inspect
import types
from typing import Final, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

from hostcompat.report import model
from hostcompat.wire_json import WireObject

ROOT: Final = model.ReportDocument
_SCALARS: Final[dict[object, str]] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def report_schema() -> WireObject:
    """The JSON Schema of a report document."""
    defs: dict[str, WireObject] = {}
    _define(ROOT, defs)
    root = defs.pop(ROOT.__name__)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "hostcompat report document (hostcompat.report/1)",
        **root,
        "$defs": dict(sorted(defs.items())),
    }


def _define(typed_dict: type, defs: dict[str, WireObject]) -> None:
    name = typed_dict.__name__
    if name in defs:
        return
    defs[name] = {}  # reserved first: a part may (indirectly) refer to itself
    hints = get_type_hints(typed_dict)
    required: frozenset[str] = typed_dict.__required_keys__  # type: ignore[attr-defined]
    keys = [key for key in hints if key in required] + [key for key in hints if key not in required]
    properties = {key: _schema(hints[key], defs) for key in keys}
    extra = model.EXTRA_KEYS.get(name, False)
    definition: WireObject = {
        "description": " ".join(inspect.cleandoc(typed_dict.__doc__ or name).split()),
        "type": "object",
        "required": [key for key in keys if key in required],
        "properties": properties,
        "additionalProperties": False if extra is False else _schema(extra, defs),
    }
    defs[name] = definition


def _schema(hint: object, defs: dict[str, WireObject]) -> WireObject:
    if hint is object:
        return {}
    if hint is type(None):
        return {"type": "null"}
    if hint in _SCALARS:
        return {"type": _SCALARS[hint]}
    if isinstance(hint, type) and is_typeddict(hint):
        _define(hint, defs)
        return {"$ref": f"#/$defs/{hint.__name__}"}
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
    if origin is list:
        return {"type": "array", "items": _schema(args[0], defs)}
    if origin is dict:
        if args[0] is not str:
            raise TypeError(f"a JSON object's keys are strings, not {args[0]!r}")
        return {"type": "object", "additionalProperties": _schema(args[1], defs)}
    if origin in (Union, types.UnionType):
        options = [_schema(arg, defs) for arg in args]
        if all(set(option) == {"type"} for option in options):
            return {"type": [option["type"] for option in options]}
        return {"anyOf": options}
    raise TypeError(f"no JSON Schema for {hint!r}")


__all__ = ["report_schema"]
