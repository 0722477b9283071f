"""Property tests: any JSON in gives a catalog or a CatalogError, never another exception; valid hosts round-trip."""

import contextlib
import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.catalog.load import Catalog, apply_overrides, parse_catalog_text, validate_catalog
from hostcompat.engine.catalog.schema import FACT_FIELDS, KINDS, PROVENANCES, SCHEMA_VERSION
from hostcompat.errors import CatalogError
from tests.engine.catalog_documents import fact, minimal_document

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=25,
)
FACT_PATHS = sorted(FACT_FIELDS)
KEYS = st.sampled_from(["value", "provenance", "source", "date", "note", "extra"])


def _valid_value(path: str) -> st.SearchStrategy[Any]:
    spec = FACT_FIELDS[path]
    simple: dict[str, st.SearchStrategy[Any]] = {
        "level": st.sampled_from(spec.choices),
        "text": st.text(min_size=1, max_size=20).filter(str.strip),
        "integer": st.integers(min_value=1, max_value=10**9),
        "boolean": st.booleans(),
        "charset": st.sampled_from(["[A-Za-z0-9_]", "[a-z-]"]),
        "name-format": st.sampled_from(["{tool}", "mcp__{server}__{tool}"]),
        "versions": st.lists(st.sampled_from(["2025-03-26", "2025-06-18", "2025-11-25"]), unique=True),
        "text-list": st.lists(st.text(min_size=1, max_size=10).filter(str.strip), unique=True, max_size=3),
    }
    if spec.kind in simple:
        return simple[spec.kind]
    return st.lists(st.sampled_from(spec.choices), unique=True)


@st.composite
def _valid_hosts(draw: st.DrawFn) -> dict[str, Any]:
    host: dict[str, Any] = {"id": "gen", "displayName": "Generated", "kind": draw(st.sampled_from(KINDS))}
    for path in draw(st.lists(st.sampled_from(FACT_PATHS), unique=True, max_size=8)):
        *groups, leaf = path.split(".")
        node = host
        for group in groups:
            node = node.setdefault(group, {})
        date = draw(st.sampled_from(["2026", "2026-02", "2026-02-28"]))
        node[leaf] = {
            "value": draw(_valid_value(path)),
            "provenance": draw(st.sampled_from(PROVENANCES)),
            "source": "s",
            "date": date,
        }
        if FACT_FIELDS[path].note_required:
            node[leaf]["note"] = "only when …"
    return host


@given(JSON)
def test_arbitrary_json_gives_a_catalog_or_a_catalog_error_and_is_not_mutated(data: object) -> None:
    before = copy.deepcopy(data)
    try:
        result = validate_catalog(data, source_name="fuzz.json")
    except CatalogError:
        pass
    else:
        assert isinstance(result, Catalog)
    assert data == before


@given(st.text(max_size=200))
def test_arbitrary_text_parses_to_a_value_or_a_catalog_error(text: str) -> None:
    try:
        parse_catalog_text(text, source_name="fuzz.json")
    except CatalogError as exc:
        assert exc.message.startswith("fuzz.json: ")


@given(st.sampled_from(FACT_PATHS), KEYS, JSON)
def test_a_valid_document_with_one_fact_field_replaced_by_anything_never_raises_another_error(
    path: str, key: str, junk: object
) -> None:
    document = minimal_document()
    *groups, leaf = path.split(".")
    node = document["hosts"][1]
    for group in groups:
        node = node.setdefault(group, {})
    node[leaf] = {**fact("supported"), key: junk}
    try:
        validate_catalog(document, source_name="fuzz.json")
    except CatalogError as exc:
        assert "fuzz.json: " in exc.message


HOST_KEYS = st.sampled_from(["displayName", "kind", "aliases", "description", "vendor", "ui", "server", "quirks", "x"])
KNOWN_HOST_OVERRIDES = st.one_of(
    st.builds(lambda key, value: {"hosts": [{"id": "alpha", key: value}]}, HOST_KEYS, JSON),
    st.builds(
        lambda path, value: {"hosts": [{"id": "alpha", **_nested(path, value)}]}, st.sampled_from(FACT_PATHS), JSON
    ),
)


def _nested(path: str, value: object) -> dict[str, Any]:
    *groups, leaf = path.split(".")
    node: dict[str, Any] = {leaf: value}
    for group in reversed(groups):
        node = {group: node}
    return node


@settings(deadline=None)
@given(st.one_of(JSON, st.builds(lambda hosts: {"hosts": hosts}, st.lists(JSON, max_size=3)), KNOWN_HOST_OVERRIDES))
def test_an_arbitrary_override_gives_a_catalog_or_a_catalog_error_and_leaves_the_base_alone(override: object) -> None:
    base = validate_catalog(minimal_document(), source_name="base.json")
    before = base.to_dict()
    with contextlib.suppress(CatalogError):
        apply_overrides(base, override, source_name="user.json")
    assert base.to_dict() == before


@given(_valid_hosts())
def test_a_valid_host_round_trips_through_to_dict_and_validate(host: dict[str, Any]) -> None:
    document = {"catalog": {"schemaVersion": SCHEMA_VERSION, "date": "2026-12-02"}, "hosts": [host]}
    catalog = validate_catalog(document, source_name="gen.json")
    again = validate_catalog(json.loads(json.dumps(catalog.to_dict())), source_name="gen.json")
    assert again == catalog
    assert again.to_dict() == catalog.to_dict()
