"""The engine's cheap finding and evidence constructors give exactly what the checked ones give, and refuse what
they refuse; the per-profile memo of host contexts is not part of a profile's value."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from hostcompat.engine.catalog.host_context import COMMON, in_context, other_contexts
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.findings.make import make_evidence, make_finding
from hostcompat.engine.findings.model import (
    MAX_SNIPPET_CHARS,
    MAX_TEXT_CHARS,
    Evidence,
    Finding,
    Lane,
    Provenance,
    Severity,
)
from hostcompat.errors import InvalidInput

EVIDENCE = (Evidence("catalog:x", detail="ui.formats.mcp-apps", snippet="supported"),)
PARTS: dict[str, Any] = {
    "rule_id": "APPS-CAP-001",
    "lane": Lane.APPS,
    "severity": Severity.DEGRADED,
    "title": "A title",
    "detail": "A detail.",
    "remediation": "A fix.",
    "tools": ("a", "b"),
    "evidence": EVIDENCE,
    "provenance": Provenance.VENDOR_DOC,
    "fact_source": "https://example.com/docs",
    "fact_date": "2025-01-01",
    "resources": (),
    "fact_since": None,
    "fact_fixed_in": "1.2.0",
}


def test_make_finding_equals_the_checked_finding_and_round_trips() -> None:
    Finding(**PARTS)  # the rule id is seen once through the checked constructor
    made = make_finding(**PARTS)
    assert made == Finding(**PARTS)
    assert hash(made) == hash(Finding(**PARTS))
    assert Finding.from_dict(made.to_dict()) == made
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.title = "changed"  # type: ignore[misc]


@pytest.mark.parametrize(
    "change",
    [
        {"title": ""},
        {"detail": "x" * (MAX_TEXT_CHARS + 1)},
        {"remediation": ""},
        {"fact_source": ""},
        {"tools": ("a", 3)},
        {"evidence": ("not evidence",)},
        {"rule_id": "not-a-rule"},
        {"severity": "nonsense"},
    ],
)
def test_make_finding_refuses_what_the_checked_finding_refuses(change: dict[str, object]) -> None:
    with pytest.raises(InvalidInput):
        make_finding(**{**PARTS, **change})


def test_make_finding_takes_what_the_checked_finding_converts() -> None:
    made = make_finding(**{**PARTS, "severity": "info", "tools": ["a"]})
    assert made.severity is Severity.INFO and made.tools == ("a",)


def test_make_evidence_equals_the_checked_evidence() -> None:
    long = "y" * (MAX_SNIPPET_CHARS + 50)
    for detail, snippet in ((None, None), ("a.b", "short"), ("a.b", long)):
        assert make_evidence("catalog:x", detail, snippet) == Evidence("catalog:x", detail=detail, snippet=snippet)
    assert len(make_evidence("s", None, long).snippet or "") == MAX_SNIPPET_CHARS
    with pytest.raises(InvalidInput):
        make_evidence("", None, None)
    with pytest.raises(InvalidInput):
        make_evidence("s", "", None)


def test_a_profile_in_a_context_is_worked_out_once_and_the_memo_is_not_its_value() -> None:
    host = load_catalog().hosts[0]
    assert in_context(host, COMMON) is in_context(host, COMMON)
    assert other_contexts(host, COMMON) is other_contexts(host, COMMON)
    fresh = dataclasses.replace(host)
    assert fresh == host and not fresh.memo and host.memo
    assert "memo" not in repr(host)
