"""Conditional host facts: the catalog lint, each trigger fired and not fired, host versions and the age of sources."""

from typing import Any

import pytest

from hostcompat.engine.catalog.load import load_catalog, validate_catalog
from hostcompat.engine.catalog.schema import TRIGGERS
from hostcompat.engine.findings.model import Severity, Verdict
from hostcompat.engine.server.surface import describe_server_surface
from hostcompat.engine.verdicts.conditions import compare_versions, months_between
from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts
from hostcompat.engine.verdicts.triggers import EVALUATED_TRIGGERS, TriggerState, evaluate_trigger, text_in_structured
from hostcompat.errors import CatalogError, InvalidInput

CATALOG = load_catalog()


def _tool(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object"}, **extra}


TYPED = _tool("typed", outputSchema={"type": "object", "required": ["n"], "properties": {"n": {"type": "number"}}})


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


# ---- the catalog lint ------------------------------------------------------------------------------------------


def test_every_trigger_the_schema_names_is_evaluated() -> None:
    assert set(TRIGGERS) == EVALUATED_TRIGGERS


def test_every_partial_fact_has_a_trigger_or_is_info_only() -> None:
    loose = [
        f"{host.id}: {path}"
        for host in CATALOG.hosts
        for path, fact in host.facts.items()
        if fact.value == "partial" and fact.trigger is None and not fact.info_only
    ]
    assert loose == []


def test_every_quirk_has_a_trigger_covers_a_fact_of_its_host_or_is_info_only() -> None:
    loose = []
    for host in CATALOG.hosts:
        for quirk in host.quirks:
            marks = [quirk.trigger is not None, quirk.covers is not None, quirk.info_only]
            if marks.count(True) != 1 or (quirk.covers is not None and quirk.covers not in host.facts):
                loose.append(f"{host.id}: {quirk.id}")
    assert loose == []


def test_a_user_catalog_with_an_unknown_trigger_or_a_bad_version_is_refused_with_the_field() -> None:
    base = {"value": "partial", "provenance": "observed", "source": "x", "date": "2026-01"}
    for extra, words in (
        ({"trigger": "result-structured-replace-content"}, "did you mean result-structured-replaces-content"),
        ({"fixedIn": "not a version!"}, "fixedIn"),
        ({"trigger": "result-content-image", "infoOnly": True}, "cannot also be infoOnly"),
    ):
        document = {
            "catalog": {"schemaVersion": 1, "date": "2026-01-01"},
            "hosts": [
                {"id": "h", "displayName": "H", "kind": "chat", "server": {"features": {"images": {**base, **extra}}}}
            ],
        }
        with pytest.raises(CatalogError, match=words):
            validate_catalog(document, source_name="user.json")


# ---- each trigger fires on data that has it, and not on data that does not -----------------------------------

CASES: list[tuple[str, list[dict[str, Any]], dict[str, Any], dict[str, Any]]] = [
    (
        "result-structured-replaces-content",
        [TYPED],
        {"typed": {"content": [_text("3 items were found")], "structuredContent": {"n": 3}}},
        {"typed": {"content": [_text('{\n  "n": 3\n}')], "structuredContent": {"n": 3}}},
    ),
    (
        "result-structured-replaces-text",
        [TYPED],
        {"typed": {"content": [_text("3 items were found")], "structuredContent": {"n": 3}}},
        {"typed": {"content": [_text('{"n": 3}'), {"type": "image"}], "structuredContent": {"n": 3}}},
    ),
    (
        "result-missing-structured",
        [TYPED],
        {"typed": {"content": [_text("3")]}},
        {"typed": {"content": [_text("3")], "structuredContent": {"n": 3}}},
    ),
    (
        "result-structured-on-error",
        [TYPED],
        {"typed": {"content": [_text("no")], "structuredContent": {"n": 0}, "isError": True}},
        {"typed": {"content": [_text("no")], "isError": True}},
    ),
    (
        "result-image-with-structured",
        [TYPED],
        {"typed": {"content": [{"type": "image", "data": "", "mimeType": "image/png"}], "structuredContent": {}}},
        {"typed": {"content": [{"type": "image", "data": "", "mimeType": "image/png"}]}},
    ),
    (
        "result-annotation-priority-non-integer",
        [_tool("t")],
        {"t": {"content": [{**_text("x"), "annotations": {"priority": 0.5}}]}},
        {"t": {"content": [{**_text("x"), "annotations": {"priority": 1.0}}]}},
    ),
    (
        "result-nonspec-content-type",
        [_tool("t")],
        {"t": {"content": [{"type": "json", "json": {}}]}},
        {"t": {"content": [_text("x"), {"type": "resource_link", "uri": "file:///a", "name": "a"}]}},
    ),
    ("result-content-image", [_tool("t")], {"t": {"content": [{"type": "image"}]}}, {"t": {"content": [_text("x")]}}),
    ("result-content-audio", [_tool("t")], {"t": {"content": [{"type": "audio"}]}}, {"t": {"content": [_text("x")]}}),
    (
        "result-content-resource",
        [_tool("t")],
        {"t": {"content": [{"type": "resource", "resource": {"uri": "a", "text": "b"}}]}},
        {"t": {"content": [_text("x")]}},
    ),
    (
        "result-structured-without-text",
        [TYPED],
        {"typed": {"content": [_text("  ")], "structuredContent": {"n": 3}}},
        {"typed": {"content": [_text("3 items")], "structuredContent": {"n": 3}}},
    ),
    (
        "result-content-resource-link",
        [_tool("t")],
        {"t": {"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]}},
        {"t": {"content": [_text("x")]}},
    ),
]


@pytest.mark.parametrize(("trigger", "tools", "firing", "quiet"), CASES, ids=[case[0] for case in CASES])
def test_a_result_trigger_fires_on_data_that_has_it_and_not_on_data_that_does_not(
    trigger: str, tools: list[dict[str, Any]], firing: dict[str, Any], quiet: dict[str, Any]
) -> None:
    fired = evaluate_trigger(trigger, describe_server_surface(tools, call_results=firing))
    assert fired.state is TriggerState.FIRED
    assert fired.evidence and fired.evidence[0].source.startswith("call:")
    assert evaluate_trigger(trigger, describe_server_surface(tools, call_results=quiet)).state is TriggerState.ABSENT


def test_the_schema_triggers_fire_on_the_schemas_the_server_declares() -> None:
    closed = _tool("c", inputSchema={"type": "object", "additionalProperties": False})
    assert evaluate_trigger("input-schema-closed", describe_server_surface([closed])).fired == ("c",)
    assert evaluate_trigger("input-schema-closed", describe_server_surface([_tool("o")])).state is TriggerState.ABSENT
    assert evaluate_trigger("tool-output-schema", describe_server_surface([TYPED])).fired == ("typed",)
    assert evaluate_trigger("tool-output-schema", describe_server_surface([_tool("o")])).state is TriggerState.ABSENT


def test_a_structured_trigger_is_undecided_for_a_typed_tool_that_was_not_called() -> None:
    outcome = evaluate_trigger("result-structured-replaces-content", describe_server_surface([TYPED]))
    assert (outcome.state, outcome.undecided) == (TriggerState.UNDECIDED, ("typed",))


@pytest.mark.parametrize(
    ("text", "structured", "carried"),
    [
        ('{"a": 1}', {"a": 1}, True),
        ("[1, 2]", {"result": [1, 2]}, True),  # FastMCP wraps a non-object return in {"result": ...}
        ("file body\nline 2", {"content": "file body\nline 2"}, True),  # server-filesystem's read_text_file
        ("", {"a": 1}, True),
        ("a summary", {"a": 1}, False),
        ('{"a": 2}', {"a": 1}, False),
        ("nul", {"a": None}, False),
    ],
)
def test_text_in_structured(text: str, structured: object, carried: bool) -> None:
    assert text_in_structured(text, structured) is carried


# ---- the bundled facts on real shapes of results ----------------------------------------------------------------


def _verdicts(tools: list[dict[str, Any]], results: dict[str, Any] | None, **kw: Any) -> dict[str, Verdict]:
    return dict(evaluate_all_hosts(tools, CATALOG, call_results=results, **kw).verdicts)


def test_a_typed_tool_that_returns_its_data_in_both_forms_works_on_every_host_the_sdk_style_hit() -> None:
    results = {"typed": {"content": [_text('{"n": 3}')], "structuredContent": {"n": 3}}}
    verdicts = _verdicts([TYPED], results)
    assert [host for host, verdict in verdicts.items() if verdict is not Verdict.WORKS] == []
    # not called: every structured-content fact is information only, never degraded
    uncalled = _verdicts([TYPED], None)
    assert [host for host, verdict in uncalled.items() if verdict in (Verdict.DEGRADED, Verdict.BLOCKED)] == []


def test_a_summary_text_beside_structured_content_degrades_the_hosts_that_show_only_structured() -> None:
    results = {"typed": {"content": [_text("Three items")], "structuredContent": {"n": 3}}}
    degraded = {h for h, v in _verdicts([TYPED], results).items() if v is Verdict.DEGRADED}
    assert {"claude-code", "codex"} <= degraded
    assert "claude" not in degraded
    # Copilot CLI passes both forms on since 1.0.56: only a version before the fix is degraded
    assert "copilot-cli" not in degraded
    older = _verdicts([TYPED], results, host_ids="copilot-cli", host_versions={"copilot-cli": "1.0.55"})
    assert older == {"copilot-cli": Verdict.DEGRADED}


def test_a_non_integer_priority_fires_the_codex_quirk() -> None:
    results = {"t": {"content": [{**_text("x"), "annotations": {"priority": 0.5}}]}}
    report = evaluate_all_hosts([_tool("t")], CATALOG, call_results=results, host_ids="codex").reports[0]
    (finding,) = [f for f in report.findings if f.rule_id == "SERVER-QUIRK-001"]
    assert finding.severity is Severity.DEGRADED
    assert "codex.round-annotation-priority" in (finding.remediation or "")
    assert finding.evidence[0].detail == "content[].annotations.priority = 0.5"
    other = evaluate_all_hosts([_tool("t")], CATALOG, call_results=results, host_ids="claude").reports[0]
    assert "SERVER-QUIRK-001" not in other.rule_ids


# ---- host versions and the age of sources -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right", "order"),
    [
        ("2.0.21", "2.0.3", 1),
        ("1.0.35", "1.0.36", -1),
        ("0.150.0-alpha.8", "0.150.0", -1),
        ("1.2", "1.2.0", -1),
        ("26.803.61601", "26.803.61601", 0),
    ],
)
def test_compare_versions(left: str, right: str, order: int) -> None:
    assert compare_versions(left, right) == order
    assert compare_versions(right, left) == -order


def test_a_fact_fixed_in_a_later_version_is_info_unless_an_older_version_is_pinned() -> None:
    results = {"t": {"content": [{"type": "resource", "resource": {"uri": "a", "text": "b"}}]}}
    current = evaluate_all_hosts([_tool("t")], CATALOG, call_results=results, host_ids="5ire").reports[0]
    (finding,) = [f for f in current.findings if f.rule_id == "SERVER-QUIRK-001"]
    assert finding.severity is Severity.INFO
    assert "before 0.14.0" in finding.detail
    old = evaluate_all_hosts(
        [_tool("t")], CATALOG, call_results=results, host_ids="5ire", host_versions={"5ire": "0.13.2"}
    ).reports[0]
    assert [f.severity for f in old.findings if f.rule_id == "SERVER-QUIRK-001"] == [Severity.DEGRADED]
    fixed = evaluate_all_hosts(
        [_tool("t")], CATALOG, call_results=results, host_ids="5ire", host_versions={"5ire": "0.14.0"}
    ).reports[0]
    assert "SERVER-QUIRK-001" not in fixed.rule_ids


def test_a_fact_that_holds_since_a_version_does_not_bite_an_older_pinned_version() -> None:
    results = {"typed": {"content": [_text("Three items")], "structuredContent": {"n": 3}}}
    older = evaluate_all_hosts(
        [TYPED], CATALOG, call_results=results, host_ids="claude-code", host_versions={"claude-code": "2.0.20"}
    ).reports[0]
    assert "SERVER-OUTPUT-002" not in older.rule_ids
    newer = evaluate_all_hosts(
        [TYPED], CATALOG, call_results=results, host_ids="claude-code", host_versions={"claude-code": "2.1.0"}
    ).reports[0]
    assert newer.verdict is Verdict.DEGRADED


def test_a_pinned_version_must_name_an_evaluated_host_and_look_like_a_version() -> None:
    with pytest.raises(InvalidInput, match="must look like"):
        evaluate_all_hosts([TYPED], CATALOG, host_versions={"codex": "latest please"})
    with pytest.raises(CatalogError):
        evaluate_all_hosts([TYPED], CATALOG, host_versions={"no-such-host": "1.0"})


def test_an_old_source_says_its_age() -> None:
    results = {"t": {"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]}}
    report = evaluate_all_hosts([_tool("t")], CATALOG, call_results=results, host_ids="codex", as_of="2026-12-03")
    (finding,) = [f for f in report.reports[0].findings if f.rule_id == "SERVER-CONTENT-001"]
    assert finding.severity is Severity.DEGRADED
    assert "nothing says it was fixed" not in finding.detail  # dated 2026-08-28: three months
    aged = evaluate_all_hosts([_tool("t")], CATALOG, call_results=results, host_ids="codex", as_of="2027-12-03")
    (finding,) = [f for f in aged.reports[0].findings if f.rule_id == "SERVER-CONTENT-001"]
    assert "16 months before this check" in finding.detail


def test_months_between() -> None:
    assert months_between("2025-06", "2026-12-03") == 18
    assert months_between("2025", "2026-01") == 1
    assert months_between("bad", "2026-01") is None
