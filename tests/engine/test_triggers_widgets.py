"""The triggers about widget tools: their captured results and the bridge methods their widgets send."""

from typing import Any

from hostcompat.engine.server.facts import WidgetUsage
from hostcompat.engine.server.surface import describe_server_surface
from hostcompat.engine.verdicts.triggers import TriggerState, evaluate_trigger

TYPED = {"name": "board", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}
PLAIN = {"name": "plain", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}


def _result(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "structuredContent": {"cards": [1, 2]}}


def test_a_widget_result_whose_text_does_not_carry_its_structured_content_fires() -> None:
    surface = describe_server_surface([TYPED, PLAIN], call_results={"board": _result("2 cards"), "plain": _result("x")})
    outcome = evaluate_trigger("widget-result-structured-not-in-text", surface, None, frozenset({"board"}))
    assert outcome.fired == ("board",)  # "plain" has no widget: never counted
    assert outcome.evidence[0].detail == "no text block of content carries structuredContent"


def test_a_widget_result_that_mirrors_its_structured_content_as_json_text_does_not_fire() -> None:
    surface = describe_server_surface([TYPED], call_results={"board": _result('{"cards": [1, 2]}')})
    outcome = evaluate_trigger("widget-result-structured-not-in-text", surface, None, frozenset({"board"}))
    assert outcome.state is TriggerState.ABSENT


def test_a_typed_widget_tool_that_was_not_called_is_undecided() -> None:
    surface = describe_server_surface([TYPED, PLAIN])
    outcome = evaluate_trigger("widget-result-structured-not-in-text", surface, None, frozenset({"board"}))
    assert outcome.state is TriggerState.UNDECIDED and outcome.undecided == ("board",)


def test_a_widget_that_sends_update_model_context_fires_and_one_that_does_not_stays_quiet() -> None:
    surface = describe_server_surface([TYPED])
    sending = WidgetUsage(needs={"updateModelContext": ("board",), "openLinks": ("board",)})
    assert evaluate_trigger("widget-update-model-context", surface, sending).fired == ("board",)
    quiet = WidgetUsage(needs={"openLinks": ("board",)})
    assert evaluate_trigger("widget-update-model-context", surface, quiet).state is TriggerState.ABSENT


def test_a_widget_that_sends_ui_message_fires_and_one_that_does_not_stays_quiet() -> None:
    surface = describe_server_surface([TYPED])
    sending = WidgetUsage(needs={"message": ("board",)})
    assert evaluate_trigger("widget-message", surface, sending).fired == ("board",)
    quiet = WidgetUsage(needs={"openLinks": ("board",)})
    assert evaluate_trigger("widget-message", surface, quiet).state is TriggerState.ABSENT


def test_structured_content_with_no_text_degrades_claude_and_a_json_text_does_not() -> None:
    from hostcompat.engine.catalog.load import load_catalog
    from hostcompat.engine.findings.model import Verdict
    from hostcompat.engine.verdicts.evaluate import evaluate_all_hosts

    bare = {"board": {"content": [], "structuredContent": {"cards": [1, 2]}}}
    verdicts = dict(evaluate_all_hosts([TYPED], load_catalog(), call_results=bare).verdicts)
    assert verdicts["claude"] is Verdict.DEGRADED
    mirrored = {"board": _result('{"cards": [1, 2]}')}
    assert dict(evaluate_all_hosts([TYPED], load_catalog(), call_results=mirrored).verdicts)["claude"] is Verdict.WORKS
