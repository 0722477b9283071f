"""Every report document the test run builds is validated against `report.schema.json` (the installed file).

`install` wraps `hostcompat.report.document.report_document`, the one builder of a document, for the whole run
(`tests/conftest.py` calls it before any test module is imported, so every import of the builder gets the wrapper);
what does not match its schema is kept, and the autouse fixture in `tests/conftest.py` fails the test that built it.
A saved report read back (`read_report`) is not built, so the fuzzed reports of the reader tests are not validated.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from importlib import resources
from typing import TYPE_CHECKING, Any

import hostcompat.report.document as document_module
from hostcompat.wire_json import WireJSON

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

    from hostcompat.report import ReportDocument, ServerEntry

_ORIGINAL = document_module.report_document
_problems: list[str] = []


def report_schema() -> Any:
    """The report document's JSON Schema, as the package ships it."""
    text = resources.files("hostcompat").joinpath("data/report.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@functools.cache
def validator() -> Validator:
    import jsonschema

    return jsonschema.Draft202012Validator(report_schema())


def problems_of(document: Any) -> list[str]:
    """Where `document` does not match the schema (one line each), none when it does."""
    return [f"{error.json_path}: {error.message[:300]}" for error in validator().iter_errors(document)]


def _checked_report_document(servers: Iterable[ServerEntry | WireJSON]) -> ReportDocument:
    document = _ORIGINAL(servers)
    _problems.extend(problems_of(document))
    return document


def install() -> None:
    """Validate every document `report_document` builds from now on."""
    document_module.report_document = _checked_report_document


def uninstall() -> None:
    """Build documents without validating them again."""
    document_module.report_document = _ORIGINAL


def take_problems() -> list[str]:
    """The problems found since the last call."""
    found = list(_problems)
    _problems.clear()
    return found
