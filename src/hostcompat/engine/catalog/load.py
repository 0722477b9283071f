"""The host catalog: what each MCP host supports, one sourced fact at a time, loaded and checked by hand.

`load_catalog` is the one function that reads files: the bundled `hostcompat/data/hosts.json`, and user files that
add or override hosts. Every one of them goes through the catalog's one validator,
`hostcompat.engine.catalog.validate`. No pydantic, no SDK, no jsonschema: the offline path must start fast.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from hostcompat.engine.catalog import validate as catalog_validate
from hostcompat.engine.catalog.model import (
    Catalog,
    CatalogHeader,
    Fact,
    FactValue,
    HostProfile,
    QuirkRef,
    hosts_with_alias,
)
from hostcompat.engine.catalog.schema import LEVELS, MAX_CATALOG_BYTES, MAX_HOSTS
from hostcompat.errors import CatalogError
from hostcompat.wire_json import WireValue

BUNDLED_SOURCE_NAME: Final = "hostcompat/data/hosts.json"


def parse_catalog_text(text: str, *, source_name: str) -> WireValue:
    """Parse catalog JSON text; CatalogError naming the file and line when it is not JSON, has NaN or duplicate keys."""
    return catalog_validate.parse_catalog_text(text, source_name=source_name)


def validate_catalog(data: object, *, source_name: str) -> Catalog:
    """Check a parsed catalog document (`{"catalog": {...}, "hosts": [...]}`) and build the `Catalog`."""
    return catalog_validate.validate_catalog(data, source_name=source_name)


def apply_overrides(catalog: Catalog, data: object, *, source_name: str) -> Catalog:
    """A new catalog with a user document applied: known ids merge field by field, new ids are added whole.

    A user fact replaces the bundled one entirely (value, provenance, source and date together); aliases are
    added to the host's; quirks replace those with the same id and the rest are appended. A user `catalog` header
    is checked (its schema version must match) but the result keeps the base header. `catalog` is not changed.
    """
    return catalog_validate.apply_overrides(catalog, data, source_name=source_name)


def load_catalog(
    path: str | os.PathLike[str] | None = None,
    *,
    overrides: Iterable[str | os.PathLike[str]] | str | os.PathLike[str] = (),
) -> Catalog:
    """Read the bundled catalog (or the full catalog at `path`), then apply each user file in `overrides` in order."""
    if path is None:
        catalog = _bundled_catalog()
    else:
        name = os.fspath(path)
        catalog = validate_catalog(parse_catalog_text(_read_text(path), source_name=name), source_name=name)
    if isinstance(overrides, (str, os.PathLike)):
        overrides = (overrides,)
    for user_path in overrides:
        name = os.fspath(user_path)
        catalog = apply_overrides(
            catalog, parse_catalog_text(_read_text(user_path), source_name=name), source_name=name
        )
    return catalog


def read_catalog_file(path: str | os.PathLike[str]) -> WireValue:
    """Read and parse one catalog file (bounded in size, UTF-8, strict JSON); CatalogError naming the problem."""
    return parse_catalog_text(_read_text(path), source_name=os.fspath(path))


@functools.lru_cache(maxsize=1)
def _bundled_catalog() -> Catalog:
    shipped = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "data", "hosts.json")
    try:  # the usual install; importlib.resources costs milliseconds of start-up to import
        with open(shipped, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:  # pragma: no cover - a zipped install
        from importlib import resources

        raw = resources.files("hostcompat").joinpath("data/hosts.json").read_bytes()
    text = raw.decode("utf-8")
    return validate_catalog(parse_catalog_text(text, source_name=BUNDLED_SOURCE_NAME), source_name=BUNDLED_SOURCE_NAME)


def _read_text(path: str | os.PathLike[str]) -> str:
    name = os.fspath(path)
    try:
        with Path(path).open("rb") as handle:
            raw = handle.read(MAX_CATALOG_BYTES + 1)
    except OSError as exc:
        raise CatalogError(f"{name}: cannot read the catalog file: {exc.strerror or exc}", value=name) from exc
    if len(raw) > MAX_CATALOG_BYTES:
        raise CatalogError(f"{name}: larger than {MAX_CATALOG_BYTES} bytes", value=name)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CatalogError(f"{name}: not UTF-8 text (byte {exc.start})", value=name) from exc


__all__ = [
    "BUNDLED_SOURCE_NAME",
    "LEVELS",
    "MAX_CATALOG_BYTES",
    "MAX_HOSTS",
    "Catalog",
    "CatalogHeader",
    "Fact",
    "FactValue",
    "HostProfile",
    "QuirkRef",
    "apply_overrides",
    "hosts_with_alias",
    "load_catalog",
    "parse_catalog_text",
    "read_catalog_file",
    "validate_catalog",
]
