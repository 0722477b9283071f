"""Field checks of a data file's JSON objects, each raising `CatalogError` that names where and what is wrong.

Shared by the host catalog's validator and the validators built on it; the value checks themselves (dates, texts,
fact values) are the vocabulary's, in `catalog.schema`.
"""

from __future__ import annotations

from collections.abc import Iterable

from hostcompat.engine.catalog.schema import MAX_LONG_TEXT, check_date, check_text, fail, show_value, type_name
from hostcompat.errors import InvalidCatalogValue
from hostcompat.wire_json import WireJSON


def require_object(value: object, where: str) -> WireJSON:
    """`value` as a JSON object, or a CatalogError saying what it is instead."""
    if not isinstance(value, dict):
        fail(f"{where} must be an object, not {type_name(value)}", value)
    return value


def reject_unknown_keys(raw: WireJSON, allowed: Iterable[str], where: str) -> None:
    """A CatalogError for the first key of `raw` not in `allowed`, suggesting the closest allowed key."""
    allowed = tuple(allowed)
    for key in raw:
        if key not in allowed:
            import difflib  # only for the error message

            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"expected one of: {', '.join(allowed)}"
            fail(f"{where}: unknown key {show_value(key)}; {hint}", key)


def require_text(raw: WireJSON, key: str, where: str, *, limit: int = MAX_LONG_TEXT) -> str:
    """`raw[key]` as non-empty text of at most `limit` characters."""
    if key not in raw:
        fail(f"{where}: missing {key!r}", dict(raw))
    try:
        check_text(raw[key], limit=limit)
    except InvalidCatalogValue as exc:
        fail(f"{where}: {key} {exc.message}", raw[key])
    return str(raw[key])


def optional_text(raw: WireJSON, key: str, where: str) -> str | None:
    """`raw[key]` as text when present, else None."""
    return require_text(raw, key, where) if key in raw else None


def require_date(raw: WireJSON, key: str, where: str, *, full: bool = False) -> str:
    """`raw[key]` as an ISO date (see `check_date`)."""
    if key not in raw:
        fail(f"{where}: missing {key!r}", dict(raw))
    try:
        check_date(raw[key], full=full)
    except InvalidCatalogValue as exc:
        fail(f"{where}: {key} {show_value(raw[key])} {exc.message}", raw[key])
    return str(raw[key])


def require_choice(raw: WireJSON, key: str, choices: tuple[str, ...], where: str) -> str:
    """`raw[key]` as one of `choices`."""
    if key not in raw:
        fail(f"{where}: missing {key!r}", dict(raw))
    if raw[key] not in choices:
        fail(f"{where}: {key} {show_value(raw[key])} is not one of {', '.join(choices)}", raw[key])
    return str(raw[key])


__all__ = [
    "optional_text",
    "reject_unknown_keys",
    "require_choice",
    "require_date",
    "require_object",
    "require_text",
]
