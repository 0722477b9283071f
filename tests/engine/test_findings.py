import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.engine.findings.model import (
    MAX_SNIPPET_CHARS,
    RULE_ID_PATTERN,
    Evidence,
    Finding,
    Lane,
    Provenance,
    Severity,
    Verdict,
    weakest,
    worst,
)
from hostcompat.engine.findings.rules import RULES, RuleRegistry, finding_for, rule_info
from hostcompat.errors import InvalidInput

# --- verdicts, severities, provenance ---------------------------------------------------------------------------


def test_verdict_ranks_follow_mcpjam_works_unknown_degraded_blocked() -> None:
    ordered = sorted(Verdict, key=lambda verdict: verdict.rank)
    assert ordered == [Verdict.WORKS, Verdict.UNKNOWN, Verdict.DEGRADED, Verdict.BLOCKED]


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [
        ([], Verdict.WORKS),
        ([Verdict.WORKS, Verdict.UNKNOWN], Verdict.UNKNOWN),
        ([Verdict.UNKNOWN, Verdict.DEGRADED, Verdict.WORKS], Verdict.DEGRADED),
        (["blocked", "degraded", "unknown"], Verdict.BLOCKED),
    ],
)
def test_worst_picks_the_highest_ranked_verdict(verdicts: list[Any], expected: Verdict) -> None:
    assert worst(verdicts) is expected


def test_worst_rejects_a_string_that_is_no_verdict() -> None:
    with pytest.raises(InvalidInput) as caught:
        worst(["works", "fine"])
    assert caught.value.value == "fine"


def test_provenance_trust_orders_assumed_probe_vendor_doc_observed() -> None:
    ordered = sorted(Provenance, key=lambda provenance: provenance.trust)
    assert ordered == [Provenance.ASSUMED, Provenance.PROBE, Provenance.VENDOR_DOC, Provenance.OBSERVED]


def test_weakest_provenance_is_the_least_trusted_and_none_without_any() -> None:
    assert weakest([Provenance.OBSERVED, None, "probe", Provenance.VENDOR_DOC]) is Provenance.PROBE
    assert weakest([None, None]) is None
    assert weakest([]) is None


def test_each_severity_implies_its_own_verdict() -> None:
    assert Severity.BLOCKER.verdict is Verdict.BLOCKED
    assert Severity.DEGRADED.verdict is Verdict.DEGRADED
    assert Severity.INFO.verdict is Verdict.WORKS
    assert Severity.INFO.rank < Severity.DEGRADED.rank < Severity.BLOCKER.rank


# --- evidence and findings --------------------------------------------------------------------------------------


def test_a_long_evidence_snippet_is_cut_with_an_ellipsis() -> None:
    evidence = Evidence("widget:ui://a", snippet="x" * 1000)
    assert evidence.snippet is not None
    assert len(evidence.snippet) == MAX_SNIPPET_CHARS
    assert evidence.snippet.endswith("…")


@pytest.mark.parametrize(
    "kwargs",
    [{"source": ""}, {"source": "s", "offset": -1}, {"source": "s", "line": 0}, {"source": "s", "line": True}],
)
def test_evidence_rejects_an_empty_source_or_bad_positions(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        Evidence(**kwargs)


def test_a_finding_converts_enum_strings_and_lists() -> None:
    finding = Finding(
        rule_id="RES-MIME-001",
        lane="apps",  # type: ignore[arg-type]  # strings are accepted and converted on purpose
        severity="blocker",  # type: ignore[arg-type]  # same
        title="t",
        detail="d",
        tools=["a", "b"],  # type: ignore[arg-type]  # lists become tuples
    )
    assert finding.lane is Lane.APPS
    assert finding.severity is Severity.BLOCKER
    assert finding.tools == ("a", "b")
    assert finding.verdict is Verdict.BLOCKED


@pytest.mark.parametrize("rule_id", ["", "res-mime-001", "RES-MIME-1", "RES_MIME_001", "RES-MIME-001 "])
def test_a_finding_rejects_a_malformed_rule_id(rule_id: str) -> None:
    with pytest.raises(InvalidInput):
        Finding(rule_id=rule_id, lane=Lane.APPS, severity=Severity.INFO, title="t", detail="d")


def test_a_finding_rejects_an_unknown_lane() -> None:
    with pytest.raises(InvalidInput) as caught:
        Finding(rule_id="X-001", lane="client", severity=Severity.INFO, title="t", detail="d")  # type: ignore[arg-type]  # the bad value under test
    assert caught.value.value == "client"


def test_finding_json_leaves_unset_fields_out_and_uses_camel_case() -> None:
    finding = finding_for("RES-HASH-001", detail="d", tools=["t"], fact_source="doc", fact_date="2026-01-26")
    data = finding.to_dict()
    assert data["ruleId"] == "RES-HASH-001"
    assert data["factSource"] == "doc"
    assert "provenance" not in data
    assert "resources" not in data
    json.dumps(data)


ids = st.from_regex(RULE_ID_PATTERN, fullmatch=True)
texts = st.text(min_size=1, max_size=30)
evidence_values = st.builds(
    Evidence,
    source=texts,
    detail=st.none() | texts,
    offset=st.none() | st.integers(min_value=0),
    line=st.none() | st.integers(min_value=1),
    snippet=st.none() | st.text(max_size=300),
)
findings = st.builds(
    Finding,
    rule_id=ids,
    lane=st.sampled_from(Lane),
    severity=st.sampled_from(Severity),
    title=texts,
    detail=texts,
    remediation=st.none() | texts,
    tools=st.lists(st.text(max_size=10), max_size=3).map(tuple),
    evidence=st.lists(evidence_values, max_size=3).map(tuple),
    provenance=st.none() | st.sampled_from(Provenance),
    fact_source=st.none() | texts,
    fact_date=st.none() | texts,
    resources=st.lists(st.text(max_size=10), max_size=2).map(tuple),
)


@given(findings)
def test_a_finding_survives_json_and_back(finding: Finding) -> None:
    data = json.loads(json.dumps(finding.to_dict()))
    assert Finding.from_dict(data) == finding


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
finding_like = st.fixed_dictionaries(
    {},
    optional={
        "ruleId": ids | json_values,
        "lane": st.sampled_from(["apps", "server"]) | json_values,
        "severity": st.sampled_from(["blocker", "info"]) | json_values,
        "title": texts | json_values,
        "detail": texts | json_values,
        "tools": st.lists(st.text(max_size=5), max_size=2) | json_values,
        "evidence": st.lists(st.fixed_dictionaries({"source": texts}) | json_values, max_size=2) | json_values,
        "provenance": st.sampled_from(["probe", "vendor-doc"]) | json_values,
    },
)


@given(json_values | finding_like)
def test_parsing_any_json_as_a_finding_gives_a_finding_or_invalid_input(raw: Any) -> None:
    before = copy.deepcopy(raw)
    try:
        finding = Finding.from_dict(raw)
    except InvalidInput:
        pass
    else:
        assert Finding.from_dict(finding.to_dict()) == finding
    assert raw == before


# --- the rule registry ------------------------------------------------------------------------------------------


def test_looking_up_an_unknown_rule_id_raises_with_a_close_match() -> None:
    with pytest.raises(InvalidInput) as caught:
        rule_info("RES-MIME-01")
    assert caught.value.value == "RES-MIME-01"
    assert "RES-MIME-001" in caught.value.message


def test_looking_up_a_non_string_rule_id_raises() -> None:
    with pytest.raises(InvalidInput):
        RULES.lookup(7)  # type: ignore[arg-type]  # the bad value under test


def test_every_registered_rule_has_a_well_formed_unique_id_and_text() -> None:
    assert len(RULES) == len(set(RULES.ids()))
    for rule in RULES:
        assert RULE_ID_PATTERN.match(rule.rule_id)
        assert rule.title
        assert rule.description
        assert rule.source
        assert rule_info(rule.rule_id) is rule
        assert rule.rule_id in RULES
    assert "NOPE-001" not in RULES


def test_mcpjams_four_verdict_codes_have_stable_rule_ids() -> None:
    expected = {
        "APPS-RENDER-001": (Severity.DEGRADED, Lane.APPS),  # MCPJam: blocker (evaluate.py, difference 10)
        "APPS-RENDER-002": (Severity.DEGRADED, Lane.APPS),
        "APPS-CAP-001": (Severity.DEGRADED, Lane.APPS),
        "SERVER-PROTO-001": (Severity.INFO, Lane.SERVER),
    }
    for rule_id, (severity, lane) in expected.items():
        rule = rule_info(rule_id)
        assert (rule.severity, rule.lane) == (severity, lane)


def test_a_registry_refuses_a_repeated_or_malformed_id() -> None:
    row = ("A-001", "t", "info", "apps", "d", "s")
    with pytest.raises(InvalidInput):
        RuleRegistry([row, row])
    with pytest.raises(InvalidInput):
        RuleRegistry([("a-1", "t", "info", "apps", "d", "s")])
    with pytest.raises(InvalidInput):
        RuleRegistry([("A-001", "t", "fatal", "apps", "d", "s")])


def test_finding_for_takes_the_rules_defaults_unless_overridden() -> None:
    rule = rule_info("APPS-CAP-001")
    default = finding_for("APPS-CAP-001", detail="uses logging", tools=["t"])
    assert (default.title, default.severity, default.lane) == (rule.title, rule.severity, rule.lane)
    lowered = finding_for("APPS-CAP-001", detail="uses logging", severity=Severity.INFO, provenance=Provenance.PROBE)
    assert lowered.severity is Severity.INFO
    assert lowered.provenance is Provenance.PROBE
    with pytest.raises(InvalidInput):
        finding_for("APPS-CAP-999", detail="d")


def test_rule_json_names_every_field() -> None:
    data = rule_info("RES-MIME-003").to_dict()
    assert set(data) == {"ruleId", "title", "severity", "lane", "description", "source"}
    assert data["severity"] == "blocker"
